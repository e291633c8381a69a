// live (root): presets against the real kernel on a loop device this test creates over its own
// temp file: save, change, verify (drift), apply as a transaction, drift after an out-of-band echo
// into sysfs, and the CLI's exit status. Every value touched is restored; the device is detached.
#include "tests/common/testpaths.h"
#include "tests/live/scratchloop.h"

#include "core/discovery/discovery.h"
#include "core/params/transaction.h"
#include "core/params/tunable.h"
#include "core/presets/presetcapture.h"
#include "core/presets/presetjson.h"
#include "core/presets/presetresolution.h"

#include <QFile>
#include <QProcess>
#include <QTest>

using namespace dmtune;

namespace {
const QStringList attributes { QStringLiteral("queue/max_sectors_kb"), QStringLiteral("queue/nomerges"),
    QStringLiteral("queue/nr_requests"), QStringLiteral("queue/read_ahead_kb"), QStringLiteral("queue/scheduler") };
// Also restored at the end (the write_cache check of cli() may leave it changed when it fails).
const QStringList restored = attributes + QStringList { QStringLiteral("queue/write_cache") };
}

class TestLivePresets : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void saveVerifyApply();
    void outOfBandWriteIsDrift();
    void cli();

private:
    QString value(const QString &attribute) const { return readTunable(m_sysfs, m_loop.name(), attribute)->value; }
    PresetResolution resolve() const { return resolvePreset(m_sysfs, Discovery::scan(m_sysfs), m_preset); }
    // Changes the device away from the preset through the normal transaction code.
    void moveAway()
    {
        const ApplyResult r = applyChanges(m_sysfs,
            { { m_loop.name(), QStringLiteral("queue/scheduler"), QStringLiteral("mq-deadline") },
                { m_loop.name(), QStringLiteral("queue/nomerges"), QStringLiteral("2") },
                { m_loop.name(), QStringLiteral("queue/read_ahead_kb"), QStringLiteral("1024") } });
        QVERIFY2(r.ok(), qPrintable(r.errorMessage()));
    }

    SysfsRoot m_sysfs;
    live::ScratchLoop m_loop;
    ChangeSet m_initial; // restored at the end
    Preset m_preset;
    QTemporaryDir m_dir;
};

void TestLivePresets::initTestCase()
{
    if (const QString why = live::ScratchLoop::unavailableReason({ QStringLiteral("losetup") }); !why.isEmpty())
        QSKIP(qPrintable(why));
    QVERIFY2(m_loop.create(64 << 20), qPrintable(m_loop.error()));
    for (const auto &a : restored)
        m_initial << Change { m_loop.name(), a, value(a) };
    if (!readTunable(m_sysfs, m_loop.name(), QStringLiteral("queue/scheduler"))
             ->limits.choices.contains(QStringLiteral("mq-deadline")))
        QSKIP("no mq-deadline on this kernel");
    // A known starting point: no scheduler, merges on, 128 KiB read-ahead.
    const ApplyResult r = applyChanges(m_sysfs,
        { { m_loop.name(), QStringLiteral("queue/scheduler"), QStringLiteral("none") },
            { m_loop.name(), QStringLiteral("queue/nomerges"), QStringLiteral("0") },
            { m_loop.name(), QStringLiteral("queue/read_ahead_kb"), QStringLiteral("128") } });
    QVERIFY2(r.ok(), qPrintable(r.errorMessage()));
    qInfo("loop device %s, initial %s", qPrintable(m_loop.name()),
        qPrintable(QStringList({ value(attributes[0]), value(attributes[1]), value(attributes[2]), value(attributes[3]),
                                   value(attributes[4]) })
                       .join(QLatin1Char(' '))));
}

void TestLivePresets::cleanupTestCase()
{
    ChangeSet changed;
    for (const auto &c : std::as_const(m_initial)) {
        if (value(c.attribute) != c.value)
            changed << c;
    }
    const ApplyResult r = applyChanges(m_sysfs, changed, false, RiskConsent::Given); // as it was, risky or not
    if (!r.ok())
        qWarning("restoring %s: %s", qPrintable(m_loop.name()), qPrintable(r.errorMessage()));
    m_loop.release();
}

void TestLivePresets::saveVerifyApply()
{
    const DeviceSnapshot snapshot = Discovery::scan(m_sysfs);
    const auto saved = presetFromDevices(m_sysfs, snapshot, { m_loop.name() }, attributes, QStringLiteral("live"));
    QVERIFY2(saved, qPrintable(saved.errorMessage()));
    // Through the file format, as an operator would carry it.
    const QString file = m_dir.filePath(QStringLiteral("live.json"));
    QVERIFY(savePresetFile(file, *saved));
    const auto loaded = loadPresetFile(file);
    QVERIFY2(loaded, qPrintable(loaded.errorMessage()));
    m_preset = *loaded;
    QCOMPARE(resolve().items.size(), attributes.size());
    QVERIFY(!resolve().hasDrift());

    moveAway();
    const PresetResolution drifted = resolve();
    QStringList drift;
    for (const auto &i : drifted.drift()) {
        // The kernel resets nr_requests with the scheduler: its new value is the scheduler's default.
        if (i.attribute == QLatin1String("queue/nr_requests"))
            drift << QStringLiteral("%1 %2->%3").arg(i.attribute, value(i.attribute), i.wanted);
        else
            drift << QStringLiteral("%1 %2->%3").arg(i.attribute, i.current, i.wanted);
    }
    QStringList expected { QStringLiteral("queue/nomerges 2->0"), QStringLiteral("queue/read_ahead_kb 1024->128"),
        QStringLiteral("queue/scheduler mq-deadline->none") };
    const QString nrRequests = m_preset.rules.first().settings[2].value;
    if (value(QStringLiteral("queue/nr_requests")) != nrRequests)
        expected.insert(
            1, QStringLiteral("queue/nr_requests %1->%2").arg(value(QStringLiteral("queue/nr_requests")), nrRequests));
    qInfo("drift: %s", qPrintable(drift.join(QStringLiteral(", "))));
    QCOMPARE(drift, expected);

    // Dry run: the plan, nothing written.
    const ApplyResult dry = applyChanges(m_sysfs, drifted.changes(), true);
    QVERIFY(dry.ok());
    QCOMPARE(value(QStringLiteral("queue/scheduler")), QStringLiteral("mq-deadline"));

    const ApplyResult applied = applyChanges(m_sysfs, drifted.changes());
    QVERIFY2(applied.ok(), qPrintable(applied.errorMessage()));
    for (const auto &c : applied.changes)
        qInfo("%s", qPrintable(c.summary()));
    QCOMPARE(value(QStringLiteral("queue/scheduler")), QStringLiteral("none"));
    QCOMPARE(value(QStringLiteral("queue/nomerges")), QStringLiteral("0"));
    QCOMPARE(value(QStringLiteral("queue/read_ahead_kb")), QStringLiteral("128"));
    QVERIFY(!resolve().hasDrift());
}

void TestLivePresets::outOfBandWriteIsDrift()
{
    QVERIFY(!m_preset.rules.isEmpty());
    QVERIFY(!resolve().hasDrift());
    // Not through dmtune: a plain write into sysfs, as `echo 1 > .../nomerges` does.
    QFile f(QStringLiteral("/sys/block/%1/queue/nomerges").arg(m_loop.name()));
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(f.write("1\n"), qint64(2));
    f.close();
    const auto drift = resolve().drift();
    QCOMPARE(drift.size(), 1);
    QCOMPARE(drift.first().attribute, QStringLiteral("queue/nomerges"));
    QCOMPARE(drift.first().current, QStringLiteral("1"));
    QCOMPARE(drift.first().state, PresetItemState::Differs);
}

void TestLivePresets::cli()
{
    QVERIFY(!m_preset.rules.isEmpty());
    const QString ctl = DMTUNE_BINARY_PATH("/app/dmtunectl/dmtunectl");
    if (!QFile::exists(ctl))
        QSKIP("dmtunectl not built");
    const QString file = m_dir.filePath(QStringLiteral("live.json"));
    const auto run = [&ctl](const QStringList &args, QString *out = nullptr) {
        QProcess p;
        p.start(ctl, args);
        p.waitForFinished(60000);
        if (out)
            *out = QString::fromLocal8Bit(p.readAllStandardOutput() + p.readAllStandardError());
        return p.exitCode();
    };
    QString out;
    // The drift the previous test left (nomerges 1): verify exits 1 and names it.
    QCOMPARE(run({ QStringLiteral("preset"), QStringLiteral("verify"), file }, &out), 1);
    QVERIFY2(out.contains(QStringLiteral("%1 queue/nomerges: 1 -> 0").arg(m_loop.name())), qPrintable(out));
    QCOMPARE(run({ QStringLiteral("preset"), QStringLiteral("apply"), file, QStringLiteral("--dry-run") }, &out), 0);
    QCOMPARE(value(QStringLiteral("queue/nomerges")), QStringLiteral("1"));
    QCOMPARE(run({ QStringLiteral("preset"), QStringLiteral("apply"), file }, &out), 0);
    QVERIFY2(out.contains(QLatin1String("applied 1 write\n")), qPrintable(out));
    QCOMPARE(value(QStringLiteral("queue/nomerges")), QStringLiteral("0"));
    QCOMPARE(run({ QStringLiteral("preset"), QStringLiteral("verify"), file }, &out), 0);
    // diff: a preset against itself, and against a built-in (by name).
    QCOMPARE(run({ QStringLiteral("preset"), QStringLiteral("diff"), file, file }, &out), 0);
    QVERIFY2(out.contains(QLatin1String("same settings")), qPrintable(out));
    QCOMPARE(
        run({ QStringLiteral("preset"), QStringLiteral("diff"), file, QStringLiteral("max-sectors-kb-long-sg-lists") },
            &out),
        1);
    QVERIFY2(out.contains(QStringLiteral("match kind=loop name=%1:").arg(m_loop.name())), qPrintable(out));
    QVERIFY2(out.contains(QLatin1String("  + queue/max_sectors_kb=128")), qPrintable(out));
    // export: the loop device's rule as udev rules, by kernel name (a loop device has no WWID).
    QCOMPARE(run({ QStringLiteral("preset"), QStringLiteral("export"), file, QStringLiteral("--format"),
                     QStringLiteral("udev") },
                 &out),
        0);
    QVERIFY2(
        out.contains(QStringLiteral("KERNEL==\"loop*\", KERNEL==\"%1\", ATTR{queue/scheduler}=").arg(m_loop.name())),
        qPrintable(out));
    // tuned: what it cannot express is listed once (as the text's last comments; stderr only counts them).
    QCOMPARE(run({ QStringLiteral("preset"), QStringLiteral("export"), file, QStringLiteral("--format"),
                     QStringLiteral("tuned") },
                 &out),
        0);
    QVERIFY2(out.contains(QStringLiteral("elevator=")), qPrintable(out));
    QCOMPARE(out.count(QStringLiteral("queue/nomerges=")), 1);
    QVERIFY2(out.contains(QStringLiteral("of the preset not expressed as tuned (listed at the end)")), qPrintable(out));
    // multipath.conf: a loop device's queue settings have nothing to say there: exit 1, one line, no snippet.
    QCOMPARE(run({ QStringLiteral("preset"), QStringLiteral("export"), file, QStringLiteral("--format"),
                     QStringLiteral("multipath") },
                 &out),
        1);
    QVERIFY2(out.contains(QStringLiteral("can be expressed as multipath")) && !out.contains(QStringLiteral("{")),
        qPrintable(out));
    // save --attr takes a list: only those attributes.
    const QString some = m_dir.filePath(QStringLiteral("some.json"));
    QCOMPARE(run({ QStringLiteral("preset"), QStringLiteral("save"), some, m_loop.name(), QStringLiteral("--attr"),
                     QStringLiteral("queue/nomerges,queue/read_ahead_kb") },
                 &out),
        0);
    QVERIFY2(out.contains(QStringLiteral("saved 2 settings")), qPrintable(out));
    // A bad file: exit 2, the field named, nothing written.
    const QString bad = m_dir.filePath(QStringLiteral("bad.json"));
    QFile b(bad);
    QVERIFY(b.open(QIODevice::WriteOnly));
    b.write(QStringLiteral(
        R"({"schema": 1, "name": "bad", "rules": [{"match": {"name": "%1"}, "settings": {"queue/nomerges": 2, "queue/read_ahead_kb": "lots"}}]})")
                .arg(m_loop.name())
                .toUtf8());
    b.close();
    QCOMPARE(run({ QStringLiteral("preset"), QStringLiteral("apply"), bad }, &out), 2);
    QVERIFY2(out.contains(QLatin1String("rule 1, field \"settings.queue/read_ahead_kb\"")), qPrintable(out));
    QCOMPARE(value(QStringLiteral("queue/nomerges")), QStringLiteral("0"));

    // save never replaces a file silently: refused in one line, --replace replaces it.
    QCOMPARE(run({ QStringLiteral("preset"), QStringLiteral("save"), file, m_loop.name() }, &out), 1);
    QVERIFY2(out.contains(QLatin1String("exists")) && out.contains(QLatin1String("--replace"))
            && out.count(QLatin1Char('\n')) == 1,
        qPrintable(out));
    QCOMPARE(run({ QStringLiteral("preset"), QStringLiteral("save"), file, m_loop.name(), QStringLiteral("--replace") },
                 &out),
        0);

    // A preset that turns the volatile write cache's flushes off: its preview says so (and exits 1 as the apply
    // would); a data risk, so apply needs --destroy-data-on naming the device, and --force does not do.
    if (value(QStringLiteral("queue/write_cache")) != QLatin1String("write back"))
        QSKIP("the loop device reports no volatile cache (write_cache is not \"write back\")");
    const QString risky = m_dir.filePath(QStringLiteral("risky.json"));
    QFile r(risky);
    QVERIFY(r.open(QIODevice::WriteOnly));
    r.write(QStringLiteral(
        R"({"schema": 1, "name": "risky", "rules": [{"match": {"name": "%1"}, "settings": {"queue/nomerges": 2, "queue/write_cache": "write through"}}]})")
                .arg(m_loop.name())
                .toUtf8());
    r.close();
    const QString answer = QStringLiteral("refused without --destroy-data-on %1").arg(m_loop.name());
    QCOMPARE(run({ QStringLiteral("preset"), QStringLiteral("apply"), risky, QStringLiteral("--dry-run") }, &out), 1);
    QVERIFY2(out.contains(QLatin1String("RISK: the kernel stops sending cache flushes")), qPrintable(out));
    QVERIFY2(out.contains(answer), qPrintable(out));
    for (const QStringList &extra : { QStringList(), QStringList { QStringLiteral("--force") } }) {
        QCOMPARE(run(QStringList { QStringLiteral("preset"), QStringLiteral("apply"), risky } + extra, &out), 1);
        QVERIFY2(out.contains(answer), qPrintable(out));
        QCOMPARE(value(QStringLiteral("queue/write_cache")), QStringLiteral("write back"));
        QCOMPARE(value(QStringLiteral("queue/nomerges")), QStringLiteral("0")); // nothing of it written
    }
    QCOMPARE(run({ QStringLiteral("preset"), QStringLiteral("apply"), risky, QStringLiteral("--destroy-data-on"),
                     m_loop.name() },
                 &out),
        0);
    QCOMPARE(value(QStringLiteral("queue/write_cache")), QStringLiteral("write through"));
    const ApplyResult back = applyChanges(m_sysfs,
        { { m_loop.name(), QStringLiteral("queue/write_cache"), QStringLiteral("write back") },
            { m_loop.name(), QStringLiteral("queue/nomerges"), QStringLiteral("0") } });
    QVERIFY2(back.ok(), qPrintable(back.errorMessage()));
}

QTEST_GUILESS_MAIN(TestLivePresets)
#include "tst_live_presets.moc"
