#pragma once
// The versions of what dmtune stands on, for the About dialog and `dmtunectl version`: Qt (run time
// and build), libudev, libdevmapper (and the kernel's dm driver when there is one), fio and the
// kernel. QCustomPlot is the GUI's: the widgets add it (its header lives in chart sources only).
#include "core/sysfs/sysfsroot.h"

#include <QJsonObject>
#include <QList>
#include <QObject>

class QProcess;

namespace dmtune {

struct ComponentVersion {
    QString key; // JSON key: "qt", "libudev", "dm_driver", ...
    QString name; // for people: "Qt", "libudev", ...
    QString version; // empty: unknown or not installed (detail says which)
    QString detail; // where the number comes from, or why there is none
};

// What is known without running a program, in this order: dmtune, Qt, libudev (its package
// version at build time: libudev has no version call), libdevmapper, the kernel's device-mapper
// driver (asked only when `root` has device-mapper; else the reason), the kernel
// (<proc>/sys/kernel/osrelease of `root`).
QList<ComponentVersion> localComponentVersions(const SysfsRoot &root);

// fio's entry from what `fio --version` printed, or from why it could not run.
ComponentVersion fioComponentVersion(const Result<QString> &printed);

// {"qt": {"version": "6.4.2", "detail": "built with 6.4.2"}, ...}; an unknown version is null.
QJsonObject componentVersionsToJson(const QList<ComponentVersion> &versions);
// One "name  version  (detail)" line per component, names padded to one column.
QString componentVersionsToText(const QList<ComponentVersion> &versions);

// Runs `fio --version` without blocking (QProcess signals; killed after timeoutMs) and emits
// finished() once, always from the event loop or from start() (no fio). Nothing here waits: a caller that may
// block (the CLI) runs its event loop until finished().
class FioVersionProbe : public QObject {
    Q_OBJECT
public:
    explicit FioVersionProbe(QObject *parent = nullptr);
    void start(int timeoutMs = 5000);
    bool isFinished() const { return m_done; }

Q_SIGNALS:
    void finished(const dmtune::ComponentVersion &fio);

private:
    void finish(const Result<QString> &printed);

    QProcess *m_process = nullptr;
    bool m_done = false;
};

} // namespace dmtune

Q_DECLARE_METATYPE(dmtune::ComponentVersion)
