#include "remote/remoteworkload.h"

#include "ops/workloadoperations.h"
#include "remote/agentclient.h"
#include "util/atomicfile.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace dmtune {

using namespace Qt::StringLiterals;

RemoteWorkload::RemoteWorkload(AgentClient *client, QObject *parent)
    : QObject(parent)
    , m_client(client)
{
    connect(m_client, &AgentClient::message, this, &RemoteWorkload::onMessage);
    connect(m_client, &AgentClient::ready, this, &RemoteWorkload::onReady);
    connect(m_client, &AgentClient::disconnected, this, [this](const QString &problem) {
        m_jobsRequest = 0;
        if (!m_running)
            return;
        m_requestId = 0;
        if (m_job.isEmpty()) { // it had not become a job there: nothing runs
            m_running = false;
            Q_EMIT failed(QStringLiteral("the connection was lost before the workload started (%1)").arg(problem));
            return;
        }
        Q_EMIT detached(QStringLiteral("connection lost (%1): job %2 goes on there and is fetched on reconnect")
                            .arg(problem, m_job));
    });
}

RemoteWorkload::~RemoteWorkload() = default;

QString RemoteWorkload::cannotRun(const QString &recordPath, const QString &whenRecordingExists) const
{
    if (m_running)
        return QStringLiteral("a workload is already running");
    if (!m_client->isReady())
        return QStringLiteral("not connected to %1").arg(m_client->address().display());
    if (!recordPath.isEmpty() && QFileInfo::exists(recordPath))
        return QStringLiteral("%1 exists: %2").arg(recordPath, whenRecordingExists);
    return {};
}

void RemoteWorkload::begin(const QString &jobId, const QString &recordPath)
{
    m_recordPath = recordPath;
    m_job = jobId;
    m_pending.clear();
    m_summaryText.clear();
    m_result.reset();
    m_lastProgress = 0;
    m_running = true;
}

bool RemoteWorkload::startOperation(const OperationPlan &plan, const OperationAnswers &answers,
    const QString &recordPath, QString *error, const std::optional<QByteArray> &jobFileContent)
{
    *error = cannotRun(recordPath, QStringLiteral("choose a new file for the recording"));
    if (!error->isEmpty())
        return false;
    // 1.2 runs an operation as a job; an older agent would run it in its own process, gone with the connection.
    const QStringList protocol = m_client->agentHello().value("protocol"_L1).toString().split(QLatin1Char('.'));
    if (protocol.value(0).toInt() == 1 && protocol.value(1).toInt() < 2) {
        *error
            = QStringLiteral("the agent on %1 speaks protocol %2: update dmtune there to run workloads from a window")
                  .arg(m_client->address().display(), protocol.join(QLatin1Char('.')));
        return false;
    }
    QJsonObject request { { "detach"_L1, true }, { "plan"_L1, planToJson(plan) },
        { "answers"_L1, answersToJson(answers) } };
    if (jobFileContent) {
        const QJsonObject job = plan.request.value("job"_L1).toObject();
        request.insert("job_file"_L1,
            QJsonObject { { "job_file_data"_L1, QString::fromLatin1(jobFileContent->toBase64()) },
                { "job_file_name"_L1, QFileInfo(job.value("job_file"_L1).toString()).fileName() } });
    }
    if (!recordPath.isEmpty())
        request.insert("record"_L1, recordPath);
    begin(QString(), recordPath);
    m_requestId = m_client->request(QStringLiteral("start"), request);
    return true;
}

bool RemoteWorkload::attach(const QString &jobId, const QString &recordPath, QString *error)
{
    *error = cannotRun(recordPath, QStringLiteral("the recording is not written over it"));
    if (!error->isEmpty())
        return false;
    begin(jobId, recordPath);
    m_requestId = m_client->request(QStringLiteral("attach"), { { "job"_L1, m_job } });
    return true;
}

void RemoteWorkload::listJobs()
{
    if (m_client->isReady() && !m_jobsRequest)
        m_jobsRequest = m_client->request(QStringLiteral("jobs"));
}

void RemoteWorkload::stop()
{
    if (m_running && !m_job.isEmpty() && m_client->isReady())
        m_client->request(QStringLiteral("signal"), { { "job"_L1, m_job }, { "signal"_L1, QStringLiteral("INT") } });
}

void RemoteWorkload::onReady()
{
    if (!m_running)
        return listJobs(); // what an earlier window left running or unfetched there
    if (m_job.isEmpty() || m_requestId)
        return;
    // Attached again: the job's output from the start (progress already seen is skipped), then its result.
    m_pending.clear();
    m_summaryText.clear();
    m_requestId = m_client->request(QStringLiteral("attach"), { { "job"_L1, m_job } });
}

void RemoteWorkload::takeOutput(const QString &text)
{
    m_pending += text;
    qsizetype newline = 0;
    while ((newline = m_pending.indexOf(QLatin1Char('\n'))) >= 0) {
        const QString line = m_pending.left(newline);
        m_pending.remove(0, newline + 1);
        // One JSON object per line: an operation job's event or result (keys in any order), or a `run --json`
        // progress object; anything else is the summary's indented JSON, a line at a time.
        const QJsonObject object = line.startsWith(QLatin1Char('{')) && line.endsWith(QLatin1Char('}'))
            ? QJsonDocument::fromJson(line.toUtf8()).object()
            : QJsonObject();
        if (object.contains("event"_L1) || object.contains("result"_L1)) {
            takeOperationLine(object);
        } else if (object.contains("progress"_L1)) {
            const QJsonObject p = object.value("progress"_L1).toObject();
            const double t = p.value("t"_L1).toDouble();
            if (t <= m_lastProgress)
                continue; // replayed after a re-attach
            m_lastProgress = t;
            Q_EMIT progress(t, fioRatesFromJson(p), p);
        } else {
            m_summaryText += line + QLatin1Char('\n');
        }
    }
}

void RemoteWorkload::takeOperationLine(const QJsonObject &line)
{
    if (line.contains("result"_L1)) {
        const auto result = resultFromJson(line.value("result"_L1).toObject());
        if (result)
            m_result = result.value();
        return;
    }
    const QString event = line.value("event"_L1).toString();
    if (event == QLatin1String("progress")) {
        const double t = line.value("t"_L1).toDouble();
        if (t <= m_lastProgress)
            return; // replayed after a re-attach
        m_lastProgress = t;
        for (const QJsonValue &rates : line.value("rates"_L1).toArray()) {
            // As a `run --json` progress object: the rates with "t" and the devices' iostat.
            QJsonObject p = rates.toObject();
            p.insert("t"_L1, t);
            if (line.contains("devices"_L1))
                p.insert("devices"_L1, line.value("devices"_L1));
            Q_EMIT progress(t, fioRatesFromJson(p), p);
        }
    } else if (event == QLatin1String("output")) {
        Q_EMIT outputLine(line.value("line"_L1).toString());
    } else if (event == QLatin1String("note")) {
        Q_EMIT outputLine(line.value("text"_L1).toString());
    } else if (event == QLatin1String("recording-failed")) {
        Q_EMIT outputLine(QStringLiteral("recording stopped: %1").arg(line.value("message"_L1).toString()));
    }
}

void RemoteWorkload::finish(const QJsonObject &exit)
{
    takeOutput(QStringLiteral("\n"));
    m_running = false;
    m_requestId = 0;
    const int status = exit.value("status"_L1).toInt(-1);
    QString recorded;
    QString problem;
    for (const QJsonValue &v : exit.value("files"_L1).toArray()) {
        const QJsonObject file = v.toObject();
        if (m_recordPath.isEmpty() || !file.contains("data"_L1))
            continue;
        // Only where this side asked for it, as a new file (start() refused an existing one; one that appeared
        // since is refused too), never through a link.
        const QByteArray data = QByteArray::fromBase64(file.value("data"_L1).toString().toLatin1());
        if (const Status written = writeFileAtomically(m_recordPath, data, ExistingFile::Refuse); !written)
            problem = QStringLiteral("the recording could not be written: %1").arg(written.errorMessage);
        else
            recorded = m_recordPath;
    }
    // Forgotten there once its files are here; a recording not written stays there, offered again.
    if (!m_job.isEmpty() && problem.isEmpty())
        m_client->request(QStringLiteral("forget"), { { "job"_L1, m_job } });
    QJsonObject summary = QJsonDocument::fromJson(m_summaryText.trimmed().toUtf8()).object();
    if (m_result) { // an operation job: its result is the summary, as `run --json` prints it
        summary = m_result->details;
        for (const char *extra : { "window_from", "window_to", "latency_histograms" })
            summary.remove(QLatin1String(extra));
        if (!m_result->ok)
            problem = m_result->error;
    }
    if (!problem.isEmpty())
        Q_EMIT failed(problem);
    Q_EMIT finished(status, summary, recorded);
}

void RemoteWorkload::onMessage(const QJsonObject &message)
{
    if (m_jobsRequest && message.value("id"_L1).toInteger() == m_jobsRequest) {
        m_jobsRequest = 0;
        const Result<QList<AgentJob>> jobs = parseAgentJobs(message);
        if (jobs)
            Q_EMIT jobsListed(jobs.value());
        else
            Q_EMIT jobsListFailed(jobs.errorMessage());
        return;
    }
    if (!m_requestId || message.value("id"_L1).toInteger() != m_requestId)
        return;
    const QString type = message.value("type"_L1).toString();
    if (type == QLatin1String("job")) {
        const bool attaching = !m_job.isEmpty(); // attach(), or again after a lost connection
        m_job = message.value("job"_L1).toString();
        if (attaching)
            Q_EMIT attached(m_job);
        else
            Q_EMIT started(m_job);
    } else if (type == QLatin1String("output")) {
        const QString data = message.value("data"_L1).toString();
        if (message.value("stream"_L1).toString() == QLatin1String("err")) {
            for (const QString &line : data.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
                Q_EMIT outputLine(line);
        } else {
            takeOutput(data);
        }
    } else if (type == QLatin1String("exit")) {
        finish(message);
    } else if (type == QLatin1String("error")) {
        m_running = false;
        m_requestId = 0;
        Q_EMIT failed(message.value("error"_L1).toString());
    }
}

} // namespace dmtune
