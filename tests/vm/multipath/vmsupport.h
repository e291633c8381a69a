#pragma once
// Helpers of the multipath vm tests (run INSIDE the lab VM): programs, the lab's KEY=VALUE
// variables, the kernel's table and status through dmsetup (an independent reader, parsed with
// the unit-tested grammar), waiting for a signal.
#include "dm/multipathcontrol.h"
#include "dm/multipathstatus.h"
#include "dm/multipathtable.h"

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

inline Run run(const QString &program, const QStringList &args, int timeoutMs = 120000)
{
    QProcess p;
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

inline void saveFile(const QString &path, const QString &text)
{
    QFile f(path);
    if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        f.write(text.toUtf8());
}

// One operation through MultipathControl; waits for its finished() (a test may spin the event
// loop; the product never does).
inline dmtune::MultipathOperationResult runOperation(dmtune::MultipathControl &control,
                                                     const std::function<void(dmtune::MultipathControl &)> &op)
{
    QSignalSpy spy(&control, &dmtune::MultipathControl::finished);
    op(control);
    if (!spy.wait(60000)) {
        dmtune::MultipathOperationResult timedOut;
        timedOut.error = u"no finished() within 60 s"_s;
        return timedOut;
    }
    return spy.first().first().value<dmtune::MultipathOperationResult>();
}

} // namespace vm
