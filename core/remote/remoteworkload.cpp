#include "core/remote/remoteworkload.h"

#include "core/ops/operationservice.h"
#include "core/ops/workloadoperations.h"
#include "core/remote/agentclient.h"
#include "core/util/atomicfile.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace dmtune {

using namespace Qt::StringLiterals;

RemoteWorkload::RemoteWorkload(AgentClient *client, OperationService *planner, QObject *parent)
    : WorkloadRuns(planner, parent)
    , m_client(client)
{
    connect(m_client, &AgentClient::message, this, &RemoteWorkload::onMessage);
    connect(m_client, &AgentClient::ready, this, &RemoteWorkload::onReady);
    connect(m_client, &AgentClient::disconnected, this, [this](const QString &problem) {
        m_jobsRequest = 0;
        if (!m_running)
            return;
        m_requestId = 0;
        if (m_job.isEmpty()) // it had not become a job there: nothing runs
            return fail(QStringLiteral("the connection was lost before the workload started (%1)").arg(problem));
        Q_EMIT event(QJsonObject { { "event"_L1, u"detached"_s },
            { "message"_L1,
                QStringLiteral("connection lost (%1): job %2 goes on there and is fetched on reconnect")
                    .arg(problem, m_job) } });
    });
}

RemoteWorkload::~RemoteWorkload() = default;

Result<QJsonObject> RemoteWorkload::startRequest(const FioJob &job, const QString &device, const WorkloadExtras &extras)
{
    Q_UNUSED(extras) // start()'s: the recording is fetched here, the far side decides on its latency histograms
    m_jobFileContent.reset();
    if (!job.isCustom())
        return workloadRequest(job, device);
    const auto content = readJobFileContent(job.jobFile);
    if (!content)
        return Result<QJsonObject>::failure(content.errorMessage());
    m_jobFileContent = content.value();
    return workloadRequestWithContent(job, device, *m_jobFileContent);
}

QString RemoteWorkload::cannotRun(const QString &recordPath, bool replace, const QString &whenRecordingExists) const
{
    if (m_running)
        return QStringLiteral("a workload is already running");
    if (!m_client->isReady())
        return QStringLiteral("not connected to %1").arg(m_client->address().display());
    if (!recordPath.isEmpty() && !replace && QFileInfo::exists(recordPath))
        return QStringLiteral("%1 exists: %2").arg(recordPath, whenRecordingExists);
    return {};
}

void RemoteWorkload::begin(const QString &jobId, const QString &recordPath, bool replace)
{
    m_recordPath = recordPath;
    m_replaceRecording = replace;
    m_job = jobId;
    m_pending.clear();
    m_summaryText.clear();
    m_result.reset();
    m_lastProgress = 0;
    m_startedSeen = false;
    m_running = true;
}

bool RemoteWorkload::start(
    const OperationPlan &plan, const OperationAnswers &answers, const WorkloadExtras &extras, QString *error)
{
    *error
        = cannotRun(extras.recordPath, extras.replaceRecording, QStringLiteral("choose a new file for the recording"));
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
    const QJsonObject job = plan.request.value("job"_L1).toObject();
    // An agent that took the content plans its copy's path; an older one ignores the field and plans no file.
    if (m_jobFileContent && !job.contains("job_file"_L1)) {
        *error = QStringLiteral("the agent on %1 does not take job files (an older dmtune there): update it there")
                     .arg(m_client->address().display());
        return false;
    }
    QJsonObject request { { "detach"_L1, true }, { "plan"_L1, planToJson(plan) },
        { "answers"_L1, answersToJson(answers) } };
    if (m_jobFileContent) {
        request.insert("job_file"_L1,
            QJsonObject { { "job_file_data"_L1, QString::fromLatin1(m_jobFileContent->toBase64()) },
                { "job_file_name"_L1, QFileInfo(job.value("job_file"_L1).toString()).fileName() } });
    }
    if (!extras.recordPath.isEmpty())
        request.insert("record"_L1, extras.recordPath);
    begin(QString(), extras.recordPath, extras.replaceRecording);
    m_requestId = m_client->request(QStringLiteral("start"), request);
    return true;
}

bool RemoteWorkload::attach(const QString &jobId, const QString &recordPath, QString *error)
{
    *error = cannotRun(recordPath, false, QStringLiteral("the recording is not written over it"));
    if (!error->isEmpty())
        return false;
    begin(jobId, recordPath, false);
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

void RemoteWorkload::output(const QString &line)
{
    Q_EMIT event(QJsonObject { { "event"_L1, u"output"_s }, { "line"_L1, line } });
}

void RemoteWorkload::takeProgress(double t, const QJsonArray &rates, const QJsonValue &devices)
{
    if (t <= m_lastProgress)
        return; // replayed after a re-attach
    m_lastProgress = t;
    QJsonObject progress { { "event"_L1, u"progress"_s }, { "t"_L1, t }, { "rates"_L1, rates } };
    if (!devices.isUndefined())
        progress.insert("devices"_L1, devices);
    Q_EMIT event(progress);
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
            // `run --json`'s: one job's rates with the devices' iostat, as an operation's progress event.
            const QJsonObject p = object.value("progress"_L1).toObject();
            takeProgress(p.value("t"_L1).toDouble(), QJsonArray { p }, p.value("devices"_L1));
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
    const QString name = line.value("event"_L1).toString();
    if (name == QLatin1String("progress")) {
        takeProgress(line.value("t"_L1).toDouble(), line.value("rates"_L1).toArray(), line.value("devices"_L1));
    } else if (name == QLatin1String("started")) {
        if (!std::exchange(m_startedSeen, true)) // a re-attach replays it
            Q_EMIT event(line);
    } else if (name == QLatin1String("output") || name == QLatin1String("note")
        || name == QLatin1String("recording-failed")) {
        Q_EMIT event(line);
    }
}

void RemoteWorkload::fail(const QString &error)
{
    m_running = false;
    m_requestId = 0;
    OperationResult result;
    result.kind = QString::fromLatin1(WorkloadStartKind);
    result.error = error;
    Q_EMIT finished(result);
    listJobs();
}

void RemoteWorkload::finish(const QJsonObject &exit)
{
    takeOutput(QStringLiteral("\n"));
    m_running = false;
    m_requestId = 0;
    const int status = exit.value("status"_L1).toInt(-1);
    QString recorded;
    QString notWritten;
    for (const QJsonValue &v : exit.value("files"_L1).toArray()) {
        const QJsonObject file = v.toObject();
        if (m_recordPath.isEmpty() || !file.contains("data"_L1))
            continue;
        // Only where this side asked for it, as a new file unless the user said to replace it, never through a link.
        const QByteArray data = QByteArray::fromBase64(file.value("data"_L1).toString().toLatin1());
        const Status written = writeFileAtomically(
            m_recordPath, data, m_replaceRecording ? ExistingFile::Replace : ExistingFile::Refuse);
        if (!written)
            notWritten = written.errorMessage();
        else
            recorded = m_recordPath;
    }
    // Forgotten there once its files are here; a recording not written stays there, offered again.
    if (!m_job.isEmpty() && notWritten.isEmpty())
        m_client->request(QStringLiteral("forget"), { { "job"_L1, m_job } });
    if (!notWritten.isEmpty())
        output(QStringLiteral("the recording could not be written here (it stays on the host, offered again): %1")
                   .arg(notWritten));
    OperationResult result;
    if (m_result) { // an operation job's result: the summary as `run --json` prints it
        result = *m_result;
        for (const char *extra : { "window_from", "window_to", "latency_histograms" })
            result.details.remove(QLatin1String(extra));
    } else { // a `run` job's summary
        result.kind = QString::fromLatin1(WorkloadStartKind);
        result.details = QJsonDocument::fromJson(m_summaryText.trimmed().toUtf8()).object();
        result.ok = status == 0;
        if (!result.ok)
            result.error = QStringLiteral("fio ended with status %1 (see the log)").arg(status);
    }
    // The recording as it is here, not the far side's file.
    result.details.remove("recording"_L1);
    if (!recorded.isEmpty())
        result.details.insert("recording"_L1, recorded);
    Q_EMIT finished(result);
    listJobs(); // the next of an earlier window's jobs, if any
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
        Q_EMIT event(QJsonObject { { "event"_L1, u"job"_s }, { "job"_L1, m_job }, { "attached"_L1, attaching } });
    } else if (type == QLatin1String("output")) {
        const QString data = message.value("data"_L1).toString();
        if (message.value("stream"_L1).toString() == QLatin1String("err")) {
            for (const QString &line : data.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
                output(line);
        } else {
            takeOutput(data);
        }
    } else if (type == QLatin1String("exit")) {
        finish(message);
    } else if (type == QLatin1String("error")) {
        fail(message.value("error"_L1).toString());
    }
}

} // namespace dmtune
