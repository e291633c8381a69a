#pragma once
// Helpers of the multipath vm tests (run INSIDE the lab VM): programs, the lab's KEY=VALUE
// variables, the kernel's table and status through dmsetup (an independent reader, parsed with
// the unit-tested grammar), waiting for a signal.
#include "core/dm/grammar/multipathstatus.h"
#include "core/dm/grammar/multipathtable.h"
#include "core/stats/diskcounters.h"
#include "core/sysfs/sysfsroot.h"
#include "tests/common/multipathcontrol.h"
#include "tests/common/testpaths.h"

#include <QElapsedTimer>
#include <QFile>
#include <QHash>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QtTest>

namespace vm {

using namespace Qt::StringLiterals;

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
    bool started = false;
};

// env: VAR=VALUE entries over the test's own environment.
inline Run run(const QString &program, const QStringList &args, int timeoutMs = 120000, const QStringList &env = {})
{
    QProcess p;
    if (!env.isEmpty()) {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        for (const QString &entry : env)
            e.insert(entry.section(u'=', 0, 0), entry.section(u'=', 1));
        p.setProcessEnvironment(e);
    }
    p.start(program, args);
    Run r;
    r.started = p.waitForStarted();
    if (!r.started)
        return r;
    p.waitForFinished(timeoutMs);
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromLocal8Bit(p.readAllStandardOutput());
    r.err = QString::fromLocal8Bit(p.readAllStandardError());
    return r;
}

inline QString describe(const QString &program, const QStringList &args, const Run &r)
{
    return u"%1 %2 -> exit %3\nstdout:\n%4\nstderr:\n%5"_s.arg(program, args.join(u' '))
        .arg(r.exitCode)
        .arg(r.out, r.err);
}

inline QHash<QString, QString> parseVars(const QString &text)
{
    QHash<QString, QString> vars;
    for (const QString &line : text.split(u'\n')) {
        const qsizetype eq = line.indexOf(u'=');
        if (eq > 0)
            vars.insert(line.left(eq), line.mid(eq + 1));
    }
    return vars;
}

inline QString dmsetupParams(const QString &what, const QString &map)
{
    const Run r = run(u"dmsetup"_s, { what, map });
    const QStringList words = r.out.trimmed().split(u' ', Qt::SkipEmptyParts);
    return words.mid(3).join(u' '); // drop "start length multipath"
}

inline dmtune::MultipathStatus kernelStatus(const QString &map)
{
    const QString params = dmsetupParams(u"status"_s, map);
    const auto parsed = dmtune::parseMultipathStatus(params);
    if (!parsed)
        qWarning().noquote() << "status of" << map << "does not parse:" << parsed.errorMessage() << params;
    return parsed.value();
}

inline dmtune::MultipathTable kernelTable(const QString &map)
{
    const QString params = dmsetupParams(u"table"_s, map);
    const auto parsed = dmtune::parseMultipathTable(params);
    if (!parsed)
        qWarning().noquote() << "table of" << map << "does not parse:" << parsed.errorMessage() << params;
    return parsed.value();
}

// "A"/"F" of a path in the kernel's status, empty when it is not there.
inline QString pathState(const QString &map, const QString &devnum)
{
    for (const auto &group : kernelStatus(map).groups) {
        for (const auto &path : group.paths) {
            if (path.device == devnum)
                return path.active ? u"A"_s : u"F"_s;
        }
    }
    return {};
}

inline QString groupStates(const QString &map)
{
    QString states;
    for (const auto &group : kernelStatus(map).groups)
        states += group.state;
    return states;
}

// One direct read through the map: the kernel picks (or keeps) a group.
inline bool readThrough(const QString &map)
{
    return run(u"dd"_s,
               { u"if=/dev/mapper/"_s + map, u"of=/dev/null"_s, u"bs=4096"_s, u"count=8"_s, u"iflag=direct"_s,
                   u"status=none"_s })
               .exitCode
        == 0;
}

// `dmsetup info MAP` says State: ACTIVE (not SUSPENDED).
inline bool notSuspended(const QString &map)
{
    const Run r = run(u"dmsetup"_s, { u"info"_s, map });
    return r.exitCode == 0 && QRegularExpression(u"State:\\s+ACTIVE\\b"_s).match(r.out).hasMatch();
}

// A counter of a block device (sda, dm-0) as /sys/block/<device>/stat says it now; 0 when unreadable.
inline quint64 ioCounter(const QString &device, dmtune::DiskField field)
{
    const auto counters = dmtune::parseBlockStat(dmtune::SysfsRoot().readOr(u"block/%1/stat"_s.arg(device)), device);
    return counters ? (*counters)[field] : 0;
}

// Until `condition` holds (true) or `timeoutMs` passed (false), the event loop running meanwhile. A condition that
// costs under emulation (a program run, a daemon's answer) is asked at most every `pollMs`, not to slow down what
// it waits for.
template<typename Condition>
bool waitUntil(Condition condition, int timeoutMs, int pollMs)
{
    QElapsedTimer sinceAsked;
    const auto paced = [&] {
        if (sinceAsked.isValid() && !sinceAsked.hasExpired(pollMs))
            return false;
        sinceAsked.start();
        return bool(condition());
    };
    return QTest::qWaitFor(paced, timeoutMs) || bool(condition());
}

inline void saveFile(const QString &path, const QString &text)
{
    QFile f(path);
    if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        f.write(text.toUtf8());
}

// One operation through MultipathControl; waits for its finished() (a test may spin the event
// loop; the product never does).
inline dmtune::MultipathOperationResult runOperation(
    dmtune::MultipathControl &control, const std::function<void(dmtune::MultipathControl &)> &op)
{
    QSignalSpy spy(&control, &dmtune::MultipathControl::finished);
    op(control);
    if (!spy.wait(60000)) {
        dmtune::MultipathOperationResult timedOut;
        timedOut.status = dmtune::Status::failure(u"no finished() within 60 s"_s);
        return timedOut;
    }
    return spy.first().first().value<dmtune::MultipathOperationResult>();
}

// The lab's standard map (setup-multipath.sh: 4 scsi_debug paths, 2 groups of 2) with mq-deadline on the map's
// own queue, where request-based multipath merges; restore() puts the map's old scheduler back.
struct MergingMap {
    QString map; // mpatha
    QString dm; // dm-0
    QStringList paths; // sda..sdd
    QString oldScheduler;

    // Empty on success, else what went wrong.
    QString setUp(const dmtune::SysfsRoot &sys)
    {
        const QStringList args { DMTUNE_SOURCE_PATH(DMTUNE_VM_GUEST_DIR "/setup-multipath.sh") };
        const Run setup = run(u"bash"_s, args);
        if (setup.exitCode != 0)
            return describe(u"bash"_s, args, setup);
        const QHash<QString, QString> env = parseVars(setup.out);
        map = env.value(u"MAP"_s);
        dm = env.value(u"DM"_s);
        paths = env.value(u"SD"_s).split(u' ', Qt::SkipEmptyParts);
        if (map.isEmpty() || dm.isEmpty() || paths.size() != 4)
            return u"setup-multipath.sh printed no map with 4 paths:\n"_s + setup.out;
        const QString rel = u"block/%1/queue/scheduler"_s.arg(dm);
        const QString current = sys.readOr(rel);
        oldScheduler = current.section(u'[', 1).section(u']', 0, 0);
        if (const dmtune::Status s = sys.write(rel, u"mq-deadline"_s); !s)
            return s.errorMessage();
        return {};
    }
    void restore(const dmtune::SysfsRoot &sys) const
    {
        if (!dm.isEmpty() && !oldScheduler.isEmpty()) {
            if (const dmtune::Status restored = sys.write(u"block/%1/queue/scheduler"_s.arg(dm), oldScheduler);
                !restored)
                qWarning("the scheduler of %s not put back: %s", qPrintable(dm), qPrintable(restored.errorMessage()));
        }
    }
};

} // namespace vm
