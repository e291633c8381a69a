#pragma once
// The host's change log: every value a dmtune program writes to the live sysfs, one JSON line
// per attribute, whoever wrote it (dmtunectl set, a preset, the GUI in-process or through dmtune-helper, an agent for
// a remote window). A window that sees a charted value change tells from it who changed it, and says "changed
// outside dmtune" when no dmtune program did. It is kept where every dmtune program of the host writes it:
// /var/lib/dmtune/changes.jsonl (only root writes the live sysfs; a user's window reads it); DMTUNE_CHANGE_LOG
// overrides (tests). Appended with O_APPEND and never followed through a link; read from its last
// MaxChangeLogBytes; moved aside to changes.jsonl.1 when it grows past that.
#include "core/params/applyresult.h"
#include "core/util/result.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace dmtune {

inline constexpr qint64 MaxChangeLogBytes = 1 << 20;

struct ChangeLogEntry {
    double epochSeconds = 0;
    QString tool; // the program: "dmtunectl", "dmtune", "dmtune-helper"
    qint64 pid = 0;
    qint64 parentPid = 0; // dmtune-helper's: the GUI that asked (pkexec's parent)
    QString device;
    QString attribute;
    QString oldValue;
    QString newValue;
};

QString changeLogPath();

// The written changes of a result as entries of this process, at `epochSeconds`.
QList<ChangeLogEntry> changeLogEntries(const ApplyResult &result, double epochSeconds);
QByteArray changeLogLine(const ChangeLogEntry &entry);
// Appends the lines to the log at `path` (its directory made, 0755; the file 0644, created new when missing).
Status appendChangeLog(const QString &path, const QList<ChangeLogEntry> &entries);

// The log's lines, oldest first; a line that is not an entry (cut short, foreign) is skipped. Pure.
QList<ChangeLogEntry> parseChangeLog(const QByteArray &bytes);
// The last MaxChangeLogBytes of the log (empty when there is none).
Result<QList<ChangeLogEntry>> readChangeLog(const QString &path);

// A charted value seen to change from `oldValue` to `newValue` between two reads (at `fromEpoch` and `toEpoch`): the
// marker's label. "sdb queue/nomerges 0 -> 2 (dmtunectl, pid 4242)" when the log has the write of a dmtune program
// that is not this window's (`ownPid`: its own process, and dmtune-helper started by it), "sdb queue/nomerges 0 -> 2
// (changed outside dmtune)" when it has none; empty when the write was this window's own (it has its marker). Pure.
QString externalChangeLabel(const QString &device, const QString &attribute, const QString &oldValue,
    const QString &newValue, double fromEpoch, double toEpoch, const QList<ChangeLogEntry> &log, qint64 ownPid);

} // namespace dmtune
