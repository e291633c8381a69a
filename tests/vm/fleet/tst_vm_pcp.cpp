// vm (Debian's kernel): Performance Co-Pilot's counters of the lab's map and its SCSI paths. The test starts its
// own pmcd (linux PMDA as a DSO, its own namespace and run directory, 127.0.0.1:44331) and pmlogger (every
// second), runs fio on the map, and compares:
// - dmtunectl stat --pcp-archive with PCP's own pcp iostat over the same archive, interpolated (-i 1 against
//   iostat's default -t 1) and on the archive's own samples (against iostat -u), to its printed precision;
// - dmtunectl stat --pcp-host with the local sampler (dmtunectl stat) run over the same seconds: the I/Os
//   counted agree within the two runs' alignment.
// Runs inside the lab VM (tests/vm/lab/klab.sh); skips elsewhere.
#include "tests/common/testpaths.h"
#include "tests/vm/multipath/vmsupport.h"

#include <QDateTime>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

#include <cmath>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace {

const QString Dmtunectl = DMTUNE_BINARY_PATH("/app/dmtunectl/dmtunectl");
const QString PcpBin = u"/usr/lib/pcp/bin"_s;
constexpr int PmcdPort = 44331;
const QString PmcdHost = u"127.0.0.1:44331"_s;

// One row of a report: the numbers by column, keyed by pcp iostat's column names.
struct Row {
    qint64 second = 0; // the report's time, whole seconds since the epoch
    QString device; // kernel name (dm-0, sda)
    QHash<QString, double> values;
};

// pcp iostat -x t: "Sat Dec  5 18:55:32 2026 vda  11.00 4.00 25.00 ..." (NODATA and '?' lines skipped).
QList<Row> parsePcpIostat(const QString &text, const QHash<QString, QString> &kernelNameOf)
{
    static const QStringList columns { u"rrqm/s"_s, u"wrqm/s"_s, u"r/s"_s, u"w/s"_s, u"rkB/s"_s, u"wkB/s"_s,
        u"avgrq-sz"_s, u"avgqu-sz"_s, u"await"_s, u"r_await"_s, u"w_await"_s, u"%util"_s };
    QList<Row> rows;
    for (const QString &line : text.split(u'\n')) {
        if (line.startsWith(u'#') || line.size() < 26)
            continue;
        QDateTime when = QDateTime::fromString(line.left(24).simplified(), u"ddd MMM d HH:mm:ss yyyy"_s);
        when.setTimeZone(QTimeZone::utc()); // pcp iostat ran with TZ=UTC
        const QStringList words = line.mid(24).split(u' ', Qt::SkipEmptyParts);
        if (!when.isValid() || words.size() != 13 || words.at(1) == u"?"_s)
            continue;
        Row row;
        row.second = when.toSecsSinceEpoch();
        row.device = kernelNameOf.value(words.at(0), words.at(0));
        for (int i = 0; i < columns.size(); ++i)
            row.values.insert(columns.at(i), words.at(i + 1).toDouble());
        rows.append(row);
    }
    return rows;
}

// dmtunectl stat --json (S_TIME_FORMAT=ISO): sysstat's document, columns renamed to pcp iostat's.
QList<Row> parseStatJson(const QByteArray &json)
{
    static const QList<std::pair<QString, QString>> columns { { u"rrqm/s"_s, u"rrqm/s"_s },
        { u"wrqm/s"_s, u"wrqm/s"_s }, { u"r/s"_s, u"r/s"_s }, { u"w/s"_s, u"w/s"_s }, { u"rkB/s"_s, u"rkB/s"_s },
        { u"wkB/s"_s, u"wkB/s"_s }, { u"r_await"_s, u"r_await"_s }, { u"w_await"_s, u"w_await"_s },
        { u"util"_s, u"%util"_s } };
    QList<Row> rows;
    const QJsonArray stats
        = QJsonDocument::fromJson(json).object()[u"sysstat"_s][u"hosts"_s][0][u"statistics"_s].toArray();
    for (const QJsonValue &entry : stats) {
        QDateTime when = QDateTime::fromString(entry[u"timestamp"_s].toString().left(19), u"yyyy-MM-ddTHH:mm:ss"_s);
        when.setTimeZone(QTimeZone::utc()); // TZ=UTC: "+0000" follows
        for (const QJsonValue &disk : entry[u"disk"_s].toArray()) {
            Row row;
            row.second = when.toSecsSinceEpoch();
            row.device = disk[u"disk_device"_s].toString();
            for (const auto &[json, pcp] : columns)
                row.values.insert(pcp, disk[json].toDouble());
            rows.append(row);
        }
    }
    return rows;
}

} // namespace

class TestVmPcp : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void archiveEqualsPcpIostat_data();
    void archiveEqualsPcpIostat();
    void livePmcdAgreesWithLocalSampler();
    void mapNamesAndBadInput();
    void cleanupTestCase();

private:
    QStringList pcpEnv() const;
    void compareWithPcpIostat(const QStringList &iostatArgs, const QStringList &statArgs, const QString &what);

    dmtune::SysfsRoot m_sys;
    vm::MergingMap m_lab;
    QString m_dir; // pmcd's and pmlogger's logs and the archive, kept in the run's output
    QTemporaryDir m_runDir;
    QString m_archive;
    QProcess m_pmcd;
    QProcess m_pmlogger;
    QByteArray m_liveJson; // dmtunectl stat --pcp-host during fio
    QByteArray m_localJson; // dmtunectl stat over the same seconds
    qint64 m_fioReads = 0;
};

QStringList TestVmPcp::pcpEnv() const
{
    // Debian's own python3 for pcp iostat (python3-pcp), and the test's run and tmp directories.
    // No derived metrics (PCP_DERIVED_CONFIG empty): the archive holds the counters only.
    return { u"PATH=/usr/sbin:/usr/bin:/sbin:/bin"_s, u"PCP_RUN_DIR=%1/run"_s.arg(m_runDir.path()),
        u"PCP_TMP_DIR=%1/tmp"_s.arg(m_runDir.path()), u"PCP_DERIVED_CONFIG="_s, u"S_TIME_FORMAT=ISO"_s, u"TZ=UTC"_s };
}

void TestVmPcp::initTestCase()
{
    if (qEnvironmentVariable("KLAB_OUT").isEmpty())
        QSKIP("not inside the dmtune lab VM ($KLAB_OUT unset): run 'ctest -L vm -R pcp' as root");
    if (!QFile::exists(PcpBin + u"/pmcd"_s) || !QFile::exists(u"/usr/bin/pminfo"_s))
        QSKIP("PCP is not installed (packaging/install-deps.sh installs pcp and python3-pcp)");
    QVERIFY(::geteuid() == 0);
    qputenv("TZ", "UTC");
    const QString problem = m_lab.setUp(m_sys);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));

    m_dir = qEnvironmentVariable("KLAB_OUT") + u"/pcp"_s;
    QDir(m_dir).removeRecursively();
    QVERIFY(QDir().mkpath(m_dir + u"/archive"_s));
    // pmcd's socket and pmlogger's control files: not on the 9p export.
    QVERIFY(m_runDir.isValid());
    for (const QString &sub : { u"run"_s, u"tmp"_s })
        QVERIFY(QDir().mkpath(m_runDir.path() + u'/' + sub));
    // The namespace the service would build at its start (pmns/Rebuild): the linux and pmcd PMDAs' only.
    const vm::Run merged = vm::run(PcpBin + u"/pmnsmerge"_s,
        { u"-a"_s, u"/var/lib/pcp/pmns/root_linux"_s, u"/var/lib/pcp/pmns/root_pmcd"_s, m_dir + u"/root"_s });
    QVERIFY2(merged.exitCode == 0, qPrintable(vm::describe(u"pmnsmerge"_s, {}, merged)));
    QFile conf(m_dir + u"/pmcd.conf"_s);
    QVERIFY(conf.open(QIODevice::WriteOnly));
    conf.write("linux\t60\tdso\tlinux_init\t/var/lib/pcp/pmdas/linux/pmda_linux.so\n"
               "pmcd\t2\tdso\tpmcd_init\t/var/lib/pcp/pmdas/pmcd/pmda_pmcd.so\n");
    conf.close();

    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString &kv : pcpEnv())
        env.insert(kv.section(u'=', 0, 0), kv.section(u'=', 1));
    m_pmcd.setProcessEnvironment(env);
    m_pmcd.setProcessChannelMode(QProcess::ForwardedChannels);
    m_pmcd.start(PcpBin + u"/pmcd"_s,
        { u"-f"_s, u"-A"_s, u"-U"_s, u"root"_s, u"-n"_s, m_dir + u"/root"_s, u"-c"_s, conf.fileName(), u"-i"_s,
            u"127.0.0.1"_s, u"-p"_s, QString::number(PmcdPort), u"-s"_s, m_runDir.path() + u"/run/pmcd.socket"_s,
            u"-l"_s, m_dir + u"/pmcd.log"_s, u"-x"_s, m_dir + u"/pmcd.err"_s });
    QVERIFY(m_pmcd.waitForStarted());
    // Under emulation pmcd takes seconds to answer: wait for the map's counters before logging.
    const bool answering = vm::waitUntil(
        [&] {
            const vm::Run r = vm::run(u"pminfo"_s, { u"-h"_s, PmcdHost, u"-f"_s, u"disk.dm.read"_s }, 120000, pcpEnv());
            return r.exitCode == 0 && r.out.contains(m_lab.map);
        },
        120000, 500);
    QVERIFY2(answering, "pmcd did not answer with disk.dm.read within 120 s");

    QFile logConf(m_dir + u"/pmlogger.conf"_s);
    QVERIFY(logConf.open(QIODevice::WriteOnly));
    // The counters by name: disk.dev's subtree also holds derived metrics (disk.dev.await, ...), which
    // pmlogger 6.0.3 loses its pmcd connection over under emulation.
    QByteArray counters;
    for (const char *tree : { "disk.dev.", "disk.dm." }) {
        for (const char *name : { "read", "read_merge", "read_bytes", "read_rawactive", "write", "write_merge",
                 "write_bytes", "write_rawactive", "inflight", "avactive", "aveq", "discard", "discard_merge",
                 "discard_bytes", "discard_rawactive", "flush", "flush_rawactive", "blkread", "blkwrite" })
            counters += QByteArray(tree) + name + ' ';
    }
    logConf.write("log mandatory on once { kernel.uname.release kernel.uname.machine kernel.uname.nodename "
                  "hinv.ncpu }\n"
                  "log mandatory on 1 sec { "
        + counters + "hinv.map.dmname disk.wwid.scsi_paths }\n");
    logConf.close();
    m_archive = m_dir + u"/archive/lab"_s;
    m_pmlogger.setProcessEnvironment(env);
    m_pmlogger.setProcessChannelMode(QProcess::ForwardedChannels);
    m_pmlogger.start(PcpBin + u"/pmlogger"_s,
        { u"-h"_s, PmcdHost, u"-U"_s, u"root"_s, u"-c"_s, logConf.fileName(), u"-t"_s, u"1"_s, u"-l"_s,
            m_dir + u"/pmlogger.log"_s, m_archive });
    QVERIFY(m_pmlogger.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(m_archive + u".0"_s).size() > 0, 30000);
    // pmlogger appends each record to the archive's data volume at once (its archive output is unbuffered), a
    // sample a second: the samples logged are counted by the volume's growth.
    qint64 volumeSize = QFileInfo(m_archive + u".0"_s).size();
    int logged = 0;
    const auto samplesLogged = [&] {
        const qint64 size = QFileInfo(m_archive + u".0"_s).size();
        if (size > volumeSize) {
            ++logged;
            volumeSize = size;
        }
        return logged;
    };
    // An idle lead-in before fio: until three more records are in the archive (the "once" group's among them).
    QTRY_VERIFY_WITH_TIMEOUT(samplesLogged() >= 3, 30000);

    // fio on the map while the local sampler and the live pmcd are read over the same seconds.
    QProcess live;
    QProcess local;
    live.setProcessEnvironment(env);
    local.setProcessEnvironment(env);
    const QStringList common { u"--json"_s, u"-c"_s, u"8"_s, m_lab.dm, m_lab.paths.first() };
    const quint64 readsBefore = vm::ioCounter(m_lab.dm, dmtune::DiskField::ReadIos);
    QProcess fio;
    fio.start(u"fio"_s,
        { u"--name=pcp"_s, u"--filename=/dev/mapper/"_s + m_lab.map, u"--rw=randrw"_s, u"--bs=4k"_s, u"--direct=1"_s,
            u"--ioengine=libaio"_s, u"--iodepth=8"_s, u"--runtime=12"_s, u"--time_based"_s, u"--size=32m"_s,
            u"--output-format=json"_s });
    QVERIFY(fio.waitForStarted());
    // Past fio's start-up: until its reads show in the map's counters.
    QTRY_VERIFY_WITH_TIMEOUT(vm::ioCounter(m_lab.dm, dmtune::DiskField::ReadIos) > readsBefore, 30000);
    live.start(Dmtunectl, QStringList { u"stat"_s, u"--pcp-host"_s, PmcdHost } + common);
    local.start(Dmtunectl, QStringList { u"stat"_s } + common);
    QVERIFY(live.waitForFinished(60000) && live.exitCode() == 0);
    QVERIFY(local.waitForFinished(60000) && local.exitCode() == 0);
    m_liveJson = live.readAllStandardOutput();
    m_localJson = local.readAllStandardOutput();
    QVERIFY(fio.waitForFinished(60000));
    const QJsonObject fioJson = QJsonDocument::fromJson(fio.readAllStandardOutput()).object();
    m_fioReads = fioJson[u"jobs"_s][0][u"read"_s][u"total_ios"_s].toInteger();
    QVERIFY2(m_fioReads > 0, "fio read nothing");
    // The archive past fio's end: until three more samples are in it.
    logged = 0;
    volumeSize = QFileInfo(m_archive + u".0"_s).size();
    QTRY_VERIFY_WITH_TIMEOUT(samplesLogged() >= 3, 30000);
    m_pmlogger.terminate(); // SIGTERM: pmlogger closes the archive
    QVERIFY(m_pmlogger.waitForFinished(20000));
}

void TestVmPcp::archiveEqualsPcpIostat_data()
{
    QTest::addColumn<QStringList>("iostatArgs");
    QTest::addColumn<QStringList>("statArgs");
    QTest::newRow("interpolated, paths") << QStringList { u"-x"_s, u"t"_s } << QStringList { u"-i"_s, u"1"_s };
    QTest::newRow("interpolated, maps") << QStringList { u"-x"_s, u"dm,t"_s } << QStringList { u"-i"_s, u"1"_s };
    QTest::newRow("archive's samples, paths") << QStringList { u"-x"_s, u"t"_s, u"-u"_s } << QStringList {};
    QTest::newRow("archive's samples, maps") << QStringList { u"-x"_s, u"dm,t"_s, u"-u"_s } << QStringList {};
}

void TestVmPcp::archiveEqualsPcpIostat()
{
    QFETCH(QStringList, iostatArgs);
    QFETCH(QStringList, statArgs);
    const vm::Run iostat
        = vm::run(u"pcp"_s, QStringList { u"-a"_s, m_archive, u"iostat"_s } + iostatArgs, 120000, pcpEnv());
    QVERIFY2(iostat.exitCode == 0, qPrintable(vm::describe(u"pcp iostat"_s, iostatArgs, iostat)));
    const vm::Run stat = vm::run(
        Dmtunectl, QStringList { u"stat"_s, u"--pcp-archive"_s, m_archive, u"--json"_s } + statArgs, 120000, pcpEnv());
    QVERIFY2(stat.exitCode == 0, qPrintable(vm::describe(u"dmtunectl stat"_s, statArgs, stat)));
    QVERIFY2(stat.err.contains(statArgs.isEmpty() ? u"the archive's own samples"_s : u"interpolated every 1 s"_s),
        qPrintable(stat.err));

    QHash<QString, QString> kernelNameOf; // pcp iostat -x dm names maps by their dm name
    for (const QString &dev : m_sys.list(u"block"_s)) {
        if (dev.startsWith(u"dm-"_s))
            kernelNameOf.insert(m_sys.readOr(u"block/%1/dm/name"_s.arg(dev)), dev);
    }
    const QList<Row> pcpRows = parsePcpIostat(iostat.out, kernelNameOf);
    // Both print whole seconds, and an archive's own samples may share one (pmlogger late under the emulated
    // guest's load, then on time: a clean-clone run compared the second of two with the first): a second's rows
    // are matched in their order.
    QHash<QString, QList<Row>> ours;
    for (const Row &row : parseStatJson(stat.out.toUtf8()))
        ours[u"%1 %2"_s.arg(row.second).arg(row.device)].append(row);
    QHash<QString, int> matched;
    int compared = 0;
    int busy = 0;
    for (const Row &theirs : pcpRows) {
        const QString key = u"%1 %2"_s.arg(theirs.second).arg(theirs.device);
        const QList<Row> sameSecond = ours.value(key);
        const int nth = matched[key]++;
        const Row *mine = nth < sameSecond.size() ? &sameSecond.at(nth) : nullptr;
        QVERIFY2(mine,
            qPrintable(
                u"pcp iostat reports %1 at %2, dmtunectl does not\n%3"_s.arg(theirs.device)
                    .arg(QDateTime::fromSecsSinceEpoch(theirs.second).toString(Qt::ISODate), stat.out.left(2000))));
        for (const QString &column : { u"rrqm/s"_s, u"wrqm/s"_s, u"r/s"_s, u"w/s"_s, u"rkB/s"_s, u"wkB/s"_s,
                 u"r_await"_s, u"w_await"_s, u"%util"_s }) {
            const double a = mine->values.value(column);
            const double b = theirs.values.value(column);
            // Both print two decimals of the same arithmetic on the same counters: equal as printed.
            QVERIFY2(std::abs(a - b) < 0.001,
                qPrintable(u"%1 %2 at %3: dmtunectl %4, pcp iostat %5"_s.arg(theirs.device, column)
                               .arg(theirs.second)
                               .arg(a)
                               .arg(b)));
        }
        ++compared;
        busy += theirs.values.value(u"r/s"_s) > 0 ? 1 : 0;
    }
    qInfo().noquote() << u"%1 rows equal to pcp iostat's (%2 with reads)"_s.arg(compared).arg(busy);
    QVERIFY2(busy >= 8, qPrintable(iostat.out));
}

void TestVmPcp::livePmcdAgreesWithLocalSampler()
{
    const QList<Row> live = parseStatJson(m_liveJson);
    const QList<Row> local = parseStatJson(m_localJson);
    QCOMPARE(live.size(), 16); // 8 reports x (map, a path)
    QCOMPARE(local.size(), 16);
    for (const QString &device : { m_lab.dm, m_lab.paths.first() }) {
        double liveReads = 0;
        double localReads = 0;
        double largest = 0;
        for (const Row &row : live) {
            if (row.device == device)
                liveReads += row.values.value(u"r/s"_s); // 1 s reports: r/s is the interval's reads
        }
        for (const Row &row : local) {
            if (row.device == device) {
                localReads += row.values.value(u"r/s"_s);
                largest = std::max(largest, row.values.value(u"r/s"_s));
            }
        }
        qInfo().noquote() << u"%1: %2 reads through pmcd, %3 from /proc over the same 8 s (fio read %4 in all)"_s
                                 .arg(device)
                                 .arg(liveReads)
                                 .arg(localReads)
                                 .arg(m_fioReads);
        QVERIFY2(localReads > 0 && liveReads > 0, "no reads seen");
        // The two runs start apart by the time a process takes to start and pmcd to answer: their 8 s
        // windows differ at both edges by less than one report each.
        QVERIFY2(std::abs(liveReads - localReads) <= 2 * largest,
            qPrintable(u"%1 vs %2 (largest 1 s: %3)"_s.arg(liveReads).arg(localReads).arg(largest)));
    }
}

void TestVmPcp::mapNamesAndBadInput()
{
    // The map by its name, through hinv.map.dmname, is reported under its kernel name.
    const vm::Run byName = vm::run(
        Dmtunectl, { u"stat"_s, u"--pcp-host"_s, PmcdHost, u"--json"_s, u"-c"_s, u"1"_s, m_lab.map }, 120000, pcpEnv());
    QVERIFY2(byName.exitCode == 0, qPrintable(byName.err));
    const QList<Row> rows = parseStatJson(byName.out.toUtf8());
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows.first().device, m_lab.dm);

    const QList<std::pair<QStringList, QString>> bad {
        { { u"--pcp-host"_s, u"127.0.0.1:1"_s }, u"Connection refused"_s },
        { { u"--pcp-host"_s, PmcdHost, u"nosuchdev"_s }, u"has no device nosuchdev"_s },
        { { u"--pcp-archive"_s, m_dir + u"/nosuch"_s }, u"pcp archive"_s },
        { { u"--pcp-archive"_s, m_archive, u"--start"_s, u"not a time"_s }, u"--start/--finish"_s },
        { { u"--start"_s, u"+1s"_s }, u"go with --pcp-archive"_s },
        { { u"--pcp-host"_s, u"a;b"_s }, u"not a PCP host"_s },
    };
    for (const auto &[args, says] : bad) {
        const vm::Run r = vm::run(Dmtunectl, QStringList { u"stat"_s, u"-c"_s, u"1"_s } + args, 120000, pcpEnv());
        QVERIFY2(r.exitCode != 0 && r.err.contains(says), qPrintable(vm::describe(u"dmtunectl stat"_s, args, r)));
        QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
    }
}

void TestVmPcp::cleanupTestCase()
{
    if (m_pmlogger.state() != QProcess::NotRunning) {
        m_pmlogger.terminate();
        m_pmlogger.waitForFinished(10000);
    }
    if (m_pmcd.state() != QProcess::NotRunning) {
        m_pmcd.terminate();
        m_pmcd.waitForFinished(10000);
    }
    m_lab.restore(m_sys);
}

QTEST_GUILESS_MAIN(TestVmPcp)
#include "tst_vm_pcp.moc"
