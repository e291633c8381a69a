#include "remote/remoteworkload.h"

#include "ops/workloadoperations.h"
#include "remote/agentclient.h"
#include "util/atomicfile.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace dmtune {

using namespace Qt::StringLiterals;

QStringList remoteRunArguments(const FioJob &job, const QString &device, bool destroyDataConfirmed)
{
    QStringList args { QStringLiteral("run") };
    if (job.isCustom()) {
        args << QStringLiteral("--job") << job.jobFile;
    } else {
        args << job.id << QStringLiteral("--rw") << job.rw << QStringLiteral("--bs") << job.bs
             << QStringLiteral("--iodepth") << QString::number(job.iodepth) << QStringLiteral("--numjobs")
             << QString::number(job.numjobs) << QStringLiteral("--runtime") << QString::number(job.runtimeSeconds)
             << QStringLiteral("--ioengine") << job.ioengine
             << (job.batching ? QStringLiteral("--batching") : QStringLiteral("--no-batching"));
    }
    args << QStringLiteral("--device") << device << QStringLiteral("--json");
    if (destroyDataConfirmed)
        args << QStringLiteral("--destroy-data-on") << device;
    return args;
}

FioRates fioRatesFromJson(const QJsonObject &o)
{
    FioRates r;
    r.groupId = o.value("group"_L1).toInt();
    r.name = o.value("name"_L1).toString();
    r.seconds = o.value("seconds"_L1).toDouble();
    r.readIops = o.value("read_iops"_L1).toDouble();
    r.writeIops = o.value("write_iops"_L1).toDouble();
    r.trimIops = o.value("trim_iops"_L1).toDouble();
    r.readBytesPerSecond = o.value("read_bytes_per_second"_L1).toDouble();
    r.writeBytesPerSecond = o.value("write_bytes_per_second"_L1).toDouble();
    r.trimBytesPerSecond = o.value("trim_bytes_per_second"_L1).toDouble();
    r.clat.p50Ns = o.value("clat_p50_us"_L1).toDouble() * 1000;
    r.clat.p90Ns = o.value("clat_p90_us"_L1).toDouble() * 1000;
    r.clat.p99Ns = o.value("clat_p99_us"_L1).toDouble() * 1000;
    return r;
}

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
    m_lastProgress = 0;
    m_running = true;
}

bool RemoteWorkload::start(const QStringList &runArguments, const QString &recordPath, QString *error,
    const std::optional<QByteArray> &jobFileContent)
{
    *error = cannotRun(recordPath, QStringLiteral("choose a new file for the recording"));
    if (!error->isEmpty())
        return false;
    QStringList argv = runArguments;
    QJsonArray files;
    if (const qsizetype job = argv.indexOf(QStringLiteral("--job")); job >= 0 && job + 1 < argv.size()) {
        QByteArray content;
        if (jobFileContent) {
            content = *jobFileContent;
        } else {
            const auto read = readJobFileContent(argv.at(job + 1));
            if (!read) {
                *error = read.errorMessage();
                return false;
            }
            content = read.value();
        }
        files.append(QJsonObject { { "index"_L1, int(job + 1) }, { "path"_L1, argv.at(job + 1) },
            { "output"_L1, false }, { "data"_L1, QString::fromLatin1(content.toBase64()) } });
    }
    if (!recordPath.isEmpty()) {
        argv << QStringLiteral("--record") << QFileInfo(recordPath).fileName();
        files.append(
            QJsonObject { { "index"_L1, int(argv.size() - 1) }, { "path"_L1, argv.last() }, { "output"_L1, true } });
    }
    begin(QString(), recordPath);
    m_requestId = m_client->request(
        QStringLiteral("cli"), { { "argv"_L1, QJsonArray::fromStringList(argv) }, { "files"_L1, files } });
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
        if (line.startsWith(QLatin1String("{\"progress\""))) {
            const QJsonObject p = QJsonDocument::fromJson(line.toUtf8()).object().value("progress"_L1).toObject();
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
    const QJsonObject summary = QJsonDocument::fromJson(m_summaryText.trimmed().toUtf8()).object();
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
