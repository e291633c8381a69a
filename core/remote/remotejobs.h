#pragma once
// The detached `run` jobs on a remote host (the agent's `jobs` answer) and which of them a window offers again
// (docs/remote.md): a job this dmtune GUI started, whose window was closed, quit or crashed, is offered to the
// host's next window (attach while it runs, fetch its result once it ended). The GUI knows its own jobs by what it
// remembered when they began (QSettings remote/guiJobs: job id, the near side's recording file, the template's
// title, the device; never a password). A job started elsewhere (`dmtunectl --host H run` in a terminal) is only
// listed: attaching ends with a forget there, and stopping or forgetting another's job is never done implicitly.
#include "core/util/result.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace dmtune {

// One entry of the agent's `jobs` answer.
struct AgentJob {
    enum class State { Running, Ended, Lost }; // Lost: its runner is gone without an exit status
    QString id;
    State state = State::Running;
    int status = -1; // the exit status once ended
    QDateTime started; // UTC; invalid when the agent gave none
    QString command; // the `run` command line there, with the near side's file names put back
};

// The agent's answer {"type":"response","jobs":[{job, state, status, started, command}, ...]}, in its order.
Result<QList<AgentJob>> parseAgentJobs(const QJsonObject &response);

// What a `run` command line names: the template (or the job file's name for --job FILE) and the device.
struct RunCommandParts {
    QString workload;
    QString device;
};
RunCommandParts runCommandParts(const QString &command);

// A job this GUI started on a host, as remembered for the host's later windows.
struct RememberedJob {
    QString id;
    QString recordPath; // this side's file for the recording; empty when it is not recorded
    QString title; // the template's title as the dock showed it
    QString device;
};

struct JobOffer {
    enum class Action { Attach, Fetch, None };
    AgentJob job;
    bool ours = false; // started by this GUI (remembered)
    RememberedJob remembered; // when ours
    Action action = Action::None;
};

// What a window offers of the host's jobs: the GUI's own running ones (Attach) and ended ones (Fetch), then the
// ones started elsewhere that still run (listed only). Ended or lost jobs of others are not shown; the GUI's own
// lost ones are, without an action.
QList<JobOffer> jobOffers(const QList<AgentJob> &jobs, const QList<RememberedJob> &remembered);

// The offer as one line: "fio job ID on db1 is still running (started 14:02, batched-write-4k on mpatha)".
// `now` decides the time zone and whether the date is needed.
QString jobOfferText(const JobOffer &offer, const QString &hostName, const QDateTime &now);

// `path` when nothing is there, else the first free "NAME-2.EXT", "NAME-3.EXT"... beside it (empty if none of
// the first thousand is free).
QString unusedFilePath(const QString &path);

// The remembered jobs of a host (its address as display() writes it), in QSettings remote/guiJobs.
QList<RememberedJob> rememberedJobs(const QString &host);
void rememberJob(const QString &host, const RememberedJob &job);
// Drops the host's remembered jobs the agent no longer has (fetched and forgotten, by a window or `job attach`).
void keepRememberedJobs(const QString &host, const QList<AgentJob> &jobsThere);

} // namespace dmtune
