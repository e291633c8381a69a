// Checks on a real loop device through `dmtunectl run --job`: checking a job file runs no
// code (an engine library in any spelling, in [global], through an include, assembled from a '$', with
// --dry-run: refused by name and never loaded, as a canary library that records its loads shows), and fio's
// verify state never goes through a link in the directory dmtunectl runs in (a write+verify job that ends,
// and one stopped with SIGINT: the file the link points to is unchanged).
#include "livesupport.h"
#include "tests/live/scratchloop.h"

#include "core/workloads/fiojob.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

#include <csignal>

using namespace dmtune;
using namespace dmtune::live;

namespace {

const QByteArray victimText = "root's file, not fio's verify state\n";

bool writeFile(const QString &path, const QByteArray &text)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(text) == text.size();
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("(unreadable)");
}

const QFile::Permissions openDirectory = QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup
    | QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther;

} // namespace

class TestLiveFioCheck : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void engineLibraryNeverLoaded_data();
    void engineLibraryNeverLoaded();
    void verifyStateNeverThroughALink_data();
    void verifyStateNeverThroughALink();
    void everyTemplateRunsOnAnEmptyDevice_data();
    void everyTemplateRunsOnAnEmptyDevice();

private:
    QString path(const QString &name) const { return m_work.filePath(name); }

    QTemporaryDir m_work;
    QString m_canary; // the canary library's copy in m_work
    ScratchLoop m_device; // empty: write jobs run on it without confirmation
};

void TestLiveFioCheck::initTestCase()
{
    const QString reason = ScratchLoop::unavailableReason({ QStringLiteral("losetup"), QStringLiteral("fio") });
    if (!reason.isEmpty())
        QSKIP(qPrintable(reason));
    QVERIFY(QFileInfo::exists(dmtunectl));
    // Open to all, so that a load as any user (nobody) would still be recorded.
    QVERIFY(QFile::setPermissions(m_work.path(), openDirectory));
    m_canary = path(QStringLiteral("canary.so"));
    QVERIFY(QFile::copy(QStringLiteral(DMTUNE_CANARY_LIBRARY), m_canary));
    QVERIFY(QFile::setPermissions(m_canary, openDirectory));
    QVERIFY2(m_device.create(16LL << 20), qPrintable(m_device.error()));
}

void TestLiveFioCheck::engineLibraryNeverLoaded_data()
{
    QTest::addColumn<QByteArray>("text"); // "CANARY" stands for the library's path
    QTest::addColumn<QByteArray>("include"); // engine.inc's text ("CANARY" too)
    QTest::addColumn<QStringList>("extra"); // dmtunectl run's further arguments
    QTest::addColumn<QString>("refusal"); // in the one line on stderr: the option named
    // An option fio does not know makes it load the engine to look for engine options: the load is what the
    // canary sees. Each spelling is refused before fio ever reads the job.
    const QByteArray job = "[j]\nfilename=${DMTUNE_DEVICE}\nrw=read\nsize=1m\n";
    const QByteArray engineOption = "dmtune_canary_option=1\n";
    const QString library = QStringLiteral("is refused: it loads a library");
    QTest::newRow("external:") << job + "ioengine=external:CANARY\n" + engineOption << QByteArray() << QStringList()
                               << QStringLiteral("ioengine=external:CANARY ") + library;
    QTest::newRow("external: --dry-run") << job + "ioengine=external:CANARY\n" + engineOption << QByteArray()
                                         << QStringList { QStringLiteral("--dry-run") }
                                         << QStringLiteral("ioengine=external:CANARY ") + library;
    QTest::newRow("bare path") << job + "ioengine=CANARY\n" + engineOption << QByteArray() << QStringList()
                               << QStringLiteral("ioengine=CANARY ") + library;
    QTest::newRow("bare path --dry-run") << job + "ioengine=CANARY\n" + engineOption << QByteArray()
                                         << QStringList { QStringLiteral("--dry-run") }
                                         << QStringLiteral("ioengine=CANARY ") + library;
    QTest::newRow("blanks around =") << job + "  ioengine\t =  external:CANARY   ; a comment\n" + engineOption
                                     << QByteArray() << QStringList()
                                     << QStringLiteral("ioengine=  external:CANARY ") + library;
    QTest::newRow("quoted") << job + "ioengine=\"CANARY\"\n" + engineOption << QByteArray() << QStringList()
                            << QStringLiteral("ioengine=\"CANARY\" ") + library;
    QTest::newRow("in [global]") << "[global]\nioengine=CANARY\n" + engineOption + job << QByteArray() << QStringList()
                                 << QStringLiteral("ioengine=CANARY ") + library;
    QTest::newRow("include external:") << job + "include engine.inc\n"
                                       << "ioengine=external:CANARY\n" + engineOption << QStringList()
                                       << QStringLiteral("ioengine=external:CANARY ") + library;
    QTest::newRow("include bare path, --dry-run")
        << job + "include\tengine.inc\n"
        << "ioengine=CANARY\n" + engineOption << QStringList { QStringLiteral("--dry-run") }
        << QStringLiteral("ioengine=CANARY ") + library;
    QTest::newRow("assembled from ${VAR}") << job + "io${DMTUNE_NOT_SET}engine=CANARY\n" + engineOption << QByteArray()
                                           << QStringList() << QStringLiteral("io${DMTUNE_NOT_SET}engine is refused");
}

void TestLiveFioCheck::engineLibraryNeverLoaded()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, include);
    QFETCH(QStringList, extra);
    QFETCH(QString, refusal);
    const QByteArray canary = QFile::encodeName(m_canary);
    refusal.replace(QStringLiteral("CANARY"), m_canary);
    const QString loaded = m_canary + QStringLiteral(".loaded");
    QVERIFY(writeFile(loaded, {}));
    QVERIFY(QFile::setPermissions(loaded,
        QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::WriteGroup | QFile::ReadOther
            | QFile::WriteOther));
    QVERIFY(writeFile(path(QStringLiteral("engine.inc")), include.replace("CANARY", canary)));
    const QString file = path(QStringLiteral("job.fio"));
    QVERIFY(writeFile(file, text.replace("CANARY", canary)));
    const ProgramRun run = runProgram(dmtunectl,
        QStringList {
            QStringLiteral("run"), QStringLiteral("--job=") + file, QStringLiteral("--device"), m_device.devicePath() }
            + extra,
        m_work.path());
    const QByteArray uids = readFile(loaded);
    QVERIFY2(uids.isEmpty(),
        qPrintable(QStringLiteral("the library was loaded, as uid %1").arg(QString::fromLatin1(uids).trimmed())));
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(refusal), qPrintable(run.err));
    QCOMPARE(run.err.count(u'\n'), 1); // one line
}

void TestLiveFioCheck::verifyStateNeverThroughALink_data()
{
    QTest::addColumn<bool>("interrupt");
    QTest::newRow("write+verify job ends") << false;
    QTest::newRow("write+verify job stopped with SIGINT") << true;
}

void TestLiveFioCheck::verifyStateNeverThroughALink()
{
    QFETCH(bool, interrupt);
    // fio saves a verify job's state as "local-<job>-0-verify.state" in its working directory: here, a link
    // to root's file, in the directory dmtunectl is started from.
    QTemporaryDir cwd;
    const QString victim = cwd.filePath(QStringLiteral("victim.txt"));
    QVERIFY(writeFile(victim, victimText));
    QVERIFY(QFile::link(victim, cwd.filePath(QStringLiteral("local-vjob-0-verify.state"))));
    const QString file = cwd.filePath(QStringLiteral("verify.fio"));
    QVERIFY(writeFile(file,
        QByteArray("[vjob]\nfilename=${DMTUNE_DEVICE}\nrw=write\nbs=4k\nsize=4m\nverify=crc32c\nioengine=psync\n")
            + (interrupt ? "time_based\nruntime=60\n" : "")));
    QProcess run;
    run.setWorkingDirectory(cwd.path());
    run.start(dmtunectl,
        { QStringLiteral("run"), QStringLiteral("--job=") + file, QStringLiteral("--device"), m_device.devicePath() });
    QVERIFY(run.waitForStarted());
    QByteArray out, err;
    const auto take = [&] {
        out += run.readAllStandardOutput();
        err += run.readAllStandardError();
    };
    if (interrupt) {
        // Stopped once fio reports I/O: its jobs are running and save their state as they stop.
        QTRY_VERIFY2_WITH_TIMEOUT(
            (take(), out.contains(" s] ") || run.state() == QProcess::NotRunning), err.constData(), 30000);
        QCOMPARE(run.state(), QProcess::Running);
        QCOMPARE(::kill(pid_t(run.processId()), SIGINT), 0);
    }
    QVERIFY(run.waitForFinished(90000));
    take();
    QVERIFY2(run.exitStatus() == QProcess::NormalExit && run.exitCode() == 0, err.constData());
    QVERIFY2(out.contains(interrupt ? "stopped after" : "done after"), out.right(400).constData());
    QCOMPARE(readFile(victim), victimText);
    QCOMPARE(QDir(cwd.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System).size(), 3);
}

void TestLiveFioCheck::everyTemplateRunsOnAnEmptyDevice_data()
{
    QTest::addColumn<QString>("id");
    for (const FioJob &job : fioTemplates())
        QTest::newRow(qPrintable(job.id)) << job.id;
}

void TestLiveFioCheck::everyTemplateRunsOnAnEmptyDevice()
{
    // The legitimate use: each template, writes included, runs on an empty device from fio's private directory
    // and leaves nothing in the directory dmtunectl runs in.
    QFETCH(QString, id);
    QTemporaryDir cwd;
    const ProgramRun run = runProgram(dmtunectl,
        { QStringLiteral("run"), id, QStringLiteral("--device"), m_device.devicePath(), QStringLiteral("--runtime"),
            QStringLiteral("1"), QStringLiteral("--json") },
        cwd.path());
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QJsonObject summary
        = QJsonDocument::fromJson(run.out.mid(run.out.lastIndexOf(QStringLiteral("\n{\n")) + 1).toUtf8()).object();
    double iops = 0;
    for (const QJsonValue &group : summary.value(QLatin1String("fio")).toArray())
        iops += group.toObject().value(QLatin1String("read_iops")).toDouble()
            + group.toObject().value(QLatin1String("write_iops")).toDouble();
    QVERIFY2(iops > 0, qPrintable(run.out.right(400)));
    QVERIFY(QDir(cwd.path()).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System | QDir::Hidden));
}

QTEST_GUILESS_MAIN(TestLiveFioCheck)
#include "tst_live_fiocheck.moc"
