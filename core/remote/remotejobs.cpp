#include "core/remote/remotejobs.h"

#include "core/workloads/fiojob.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSettings>
#include <QTimeZone>

#include <algorithm>

namespace dmtune {

using namespace Qt::StringLiterals;

namespace {

const auto settingsKey = QStringLiteral("remote/guiJobs");

// {"HOST": {"JOB": {"record": ..., "title": ..., "device": ...}}}: one JSON text, readable in the settings file.
QJsonObject allRemembered()
{
    return QJsonDocument::fromJson(QSettings().value(settingsKey).toString().toUtf8()).object();
}

void storeRemembered(const QJsonObject &all)
{
    QSettings settings;
    if (all.isEmpty())
        settings.remove(settingsKey);
    else
        settings.setValue(settingsKey, QString::fromUtf8(QJsonDocument(all).toJson(QJsonDocument::Compact)));
}

// The template's id or the job file's name, as the command line there says (shorter than a template's title).
QString workloadName(const JobOffer &offer)
{
    const RunCommandParts parts = runCommandParts(offer.job.command);
    if (!parts.workload.isEmpty())
        return parts.workload;
    return offer.remembered.title.isEmpty() ? QStringLiteral("fio") : offer.remembered.title;
}

} // namespace

Result<QList<AgentJob>> parseAgentJobs(const QJsonObject &response)
{
    using R = Result<QList<AgentJob>>;
    if (response.value("type"_L1).toString() == QLatin1String("error"))
        return R::failure(response.value("error"_L1).toString());
    if (!response.value("jobs"_L1).isArray())
        return R::failure(QStringLiteral("the agent's answer has no job list"));
    QList<AgentJob> jobs;
    for (const QJsonValue &v : response.value("jobs"_L1).toArray()) {
        const QJsonObject o = v.toObject();
        AgentJob job;
        job.id = o.value("job"_L1).toString();
        if (job.id.isEmpty())
            return R::failure(QStringLiteral("a job without an id in the agent's answer"));
        const QString state = o.value("state"_L1).toString();
        if (state == QLatin1String("running"))
            job.state = AgentJob::State::Running;
        else if (state == QLatin1String("ended"))
            job.state = AgentJob::State::Ended;
        else if (state == QLatin1String("lost"))
            job.state = AgentJob::State::Lost;
        else
            return R::failure(QStringLiteral("job %1: unknown state '%2'").arg(job.id, state));
        job.status = o.value("status"_L1).toInt(-1);
        job.started = QDateTime::fromString(o.value("started"_L1).toString(), Qt::ISODate);
        job.command = o.value("command"_L1).toString();
        jobs << job;
    }
    return jobs;
}

RunCommandParts runCommandParts(const QString &command)
{
    const QStringList args = command.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    RunCommandParts parts;
    // A `run` command line, or an operation job's listing ("workload.start NAME --device DEV", remote/operationjob.h).
    if (args.value(0) != QLatin1String("run") && args.value(0) != QLatin1String("workload.start"))
        return parts;
    if (!args.value(1).startsWith(QLatin1Char('-')))
        parts.workload = args.value(1);
    for (qsizetype i = 1; i + 1 < args.size(); ++i) {
        if (args.at(i) == QLatin1String("--device"))
            parts.device = args.at(i + 1);
        else if (args.at(i) == QLatin1String("--job"))
            parts.workload = QFileInfo(args.at(i + 1)).fileName();
    }
    return parts;
}

QList<JobOffer> jobOffers(const QList<AgentJob> &jobs, const QList<RememberedJob> &remembered)
{
    QList<JobOffer> ours, others;
    for (const AgentJob &job : jobs) {
        if (!job.command.startsWith(QLatin1String("run ")) && !job.command.startsWith(QLatin1String("workload.start ")))
            continue;
        JobOffer offer;
        offer.job = job;
        for (const RememberedJob &r : remembered) {
            if (r.id == job.id) {
                offer.ours = true;
                offer.remembered = r;
            }
        }
        if (offer.ours) {
            offer.action = job.state == AgentJob::State::Running ? JobOffer::Action::Attach
                : job.state == AgentJob::State::Ended            ? JobOffer::Action::Fetch
                                                                 : JobOffer::Action::None;
            ours << offer;
        } else if (job.state == AgentJob::State::Running) {
            others << offer;
        }
    }
    return ours + others;
}

QString jobOfferText(const JobOffer &offer, const QString &hostName, const QDateTime &now)
{
    const AgentJob &job = offer.job;
    QString started;
    if (job.started.isValid()) {
        const QDateTime local = job.started.toTimeZone(now.timeZone());
        started = local.date() == now.date() ? local.toString(QStringLiteral("HH:mm"))
                                             : local.toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    }
    QString device = offer.remembered.device;
    if (device.isEmpty())
        device = runCommandParts(job.command).device;
    QStringList details;
    if (!started.isEmpty())
        details << QStringLiteral("started %1").arg(started);
    details << (device.isEmpty() ? workloadName(offer) : QStringLiteral("%1 on %2").arg(workloadName(offer), device));
    const QString what = QStringLiteral("fio job %1 on %2").arg(job.id, hostName);
    const QString detail = details.join(QStringLiteral(", "));
    if (!offer.ours)
        return QStringLiteral("%1 is running (%2), not started from a dmtune window: dmtunectl --host %3 job attach %4")
            .arg(what, detail, hostName, job.id);
    switch (job.state) {
    case AgentJob::State::Running:
        return QStringLiteral("%1 is still running (%2)").arg(what, detail);
    case AgentJob::State::Ended:
        return job.status == 0 ? QStringLiteral("%1 ended (%2)").arg(what, detail)
                               : QStringLiteral("%1 ended with status %2 (%3)").arg(what).arg(job.status).arg(detail);
    case AgentJob::State::Lost:
        break;
    }
    return QStringLiteral("%1 ended without an exit status (%2): its runner there is gone").arg(what, detail);
}

QString unusedFilePath(const QString &path)
{
    if (!QFileInfo::exists(path) && !QFileInfo(path).isSymLink())
        return path;
    const QFileInfo info(path);
    const QString suffix = info.suffix();
    const QString stem = info.path() + QLatin1Char('/') + info.completeBaseName();
    for (int n = 2; n <= 1000; ++n) {
        const QString candidate = suffix.isEmpty() ? QStringLiteral("%1-%2").arg(stem).arg(n)
                                                   : QStringLiteral("%1-%2.%3").arg(stem).arg(n).arg(suffix);
        if (!QFileInfo::exists(candidate) && !QFileInfo(candidate).isSymLink())
            return candidate;
    }
    return {};
}

QList<RememberedJob> rememberedJobs(const QString &host)
{
    QList<RememberedJob> out;
    const QJsonObject jobs = allRemembered().value(host).toObject();
    for (auto it = jobs.begin(); it != jobs.end(); ++it) {
        const QJsonObject o = it.value().toObject();
        out << RememberedJob { it.key(), o.value("record"_L1).toString(), o.value("title"_L1).toString(),
            o.value("device"_L1).toString() };
    }
    return out;
}

void rememberJob(const QString &host, const RememberedJob &job)
{
    QJsonObject all = allRemembered();
    QJsonObject jobs = all.value(host).toObject();
    jobs.insert(job.id,
        QJsonObject { { "record"_L1, job.recordPath }, { "title"_L1, job.title }, { "device"_L1, job.device } });
    all.insert(host, jobs);
    storeRemembered(all);
}

void keepRememberedJobs(const QString &host, const QList<AgentJob> &jobsThere)
{
    QJsonObject all = allRemembered();
    QJsonObject jobs = all.value(host).toObject();
    const QStringList ids = jobs.keys();
    bool changed = false;
    for (const QString &id : ids) {
        if (std::none_of(jobsThere.begin(), jobsThere.end(), [&](const AgentJob &j) { return j.id == id; })) {
            jobs.remove(id);
            changed = true;
        }
    }
    if (!changed)
        return;
    if (jobs.isEmpty())
        all.remove(host);
    else
        all.insert(host, jobs);
    storeRemembered(all);
}

} // namespace dmtune
