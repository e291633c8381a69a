// FioRun's process handling with a stand-in for fio (a shell script: it prints a version, replays a real
// captured status stream, then lingers with a child process): the version check, progress from the stream,
// stop() escalating to SIGKILL for the whole process group when SIGINT is ignored, failures with their reason.
// The real fio is exercised by tst_live_workloads.
#include "core/util/systemprogram.h"
#include "core/workloads/fiorun.h"
#include "tests/common/testpaths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <unistd.h>

using namespace dmtune;

class TestFioRun : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parsesVersions_data();
    void parsesVersions();
    void streamsAndKillsTheGroupWhenSigintIsIgnored();
    void refusesAnOldFio();
    void reportsAFailedRun();
    void reportsAMissingProgram();
    void runsInAPrivateDirectory();
    void findsFioOnlyInSystemDirectoriesAsRoot();

private:
    QString script(const QString &body);
    QTemporaryDir m_dir;
    int m_scripts = 0;
};

QString TestFioRun::script(const QString &body)
{
    const QString path = m_dir.filePath(QStringLiteral("fio%1").arg(++m_scripts));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write("#!/bin/sh\n");
    file.write(body.toUtf8());
    file.close();
    file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

void TestFioRun::parsesVersions_data()
{
    QTest::addColumn<QString>("printed");
    QTest::addColumn<QString>("version"); // empty: an error
    QTest::newRow("Debian 12") << "fio-3.33\n"
                               << "3.33";
    QTest::newRow("seed's") << "fio-2.1.10"
                            << "2.1.10";
    QTest::newRow("git build") << "fio-3.36-45-g1234abc\n"
                               << "3.36";
    QTest::newRow("not fio") << "bash: fio: command not found" << QString();
    QTest::newRow("empty") << "" << QString();
}

void TestFioRun::parsesVersions()
{
    QFETCH(QString, printed);
    QFETCH(QString, version);
    const auto parsed = FioRun::parseFioVersion(printed);
    QCOMPARE(parsed.ok(), !version.isEmpty());
    if (parsed)
        QCOMPARE(*parsed, version);
}

void TestFioRun::streamsAndKillsTheGroupWhenSigintIsIgnored()
{
    const QString pidFile = m_dir.filePath(QStringLiteral("child.pid"));
    const QString fio = script(QStringLiteral("[ \"$1\" = --version ] && { echo fio-3.33; exit 0; }\n"
                                              "trap '' INT\n"
                                              "cat '%1'\n"
                                              "sleep 60 & echo $! > '%2'\n"
                                              "wait\n")
                                   .arg(DMTUNE_SOURCE_PATH(DMTUNE_FIXTURES "/seqread8k-plus.json"), pidFile));
    FioRun run;
    run.setProgram(fio);
    run.setGraceMs(300);
    QSignalSpy progress(&run, &FioRun::progress);
    QSignalSpy finished(&run, &FioRun::finished);
    QSignalSpy failed(&run, &FioRun::failed);
    QVERIFY(run.start({ QStringLiteral("--name=x") }));
    QTRY_COMPARE_WITH_TIMEOUT(progress.count(), 4, 10000);
    QCOMPARE(run.fioVersion().toString(), QStringLiteral("3.33"));
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(pidFile), 5000);
    QFile f(pidFile);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const pid_t child = pid_t(f.readAll().trimmed().toInt());
    QVERIFY(child > 0);

    run.stop(); // SIGINT is ignored: SIGKILL after 300 ms, for the script and its sleep
    QVERIFY(finished.wait(5000));
    QVERIFY(failed.isEmpty());
    const FioOutcome outcome = finished.first().first().value<FioOutcome>();
    QVERIFY(outcome.stopped);
    QVERIFY(outcome.killed);
    QCOMPARE(outcome.final, progress.last().first().value<FioProgress>().status);
    QCOMPARE(outcome.overall.size(), 1);
    QVERIFY(outcome.overall.first().readIops > 0);
    QCOMPARE(outcome.argv, (QStringList { fio, QStringLiteral("--name=x") }));
    QTRY_VERIFY_WITH_TIMEOUT(::kill(child, 0) != 0, 3000); // the job process went with the group
}

void TestFioRun::refusesAnOldFio()
{
    FioRun run;
    run.setProgram(script(QStringLiteral("echo fio-2.1.10\n")));
    QSignalSpy failed(&run, &FioRun::failed);
    QVERIFY(run.start({}));
    QVERIFY(failed.wait(5000));
    QVERIFY2(failed.first().first().toString().contains(QStringLiteral("fio 2.1.10 is too old")),
        qPrintable(failed.first().first().toString()));
    QVERIFY(!run.isRunning());
}

void TestFioRun::reportsAFailedRun()
{
    FioRun run;
    run.setProgram(script(QStringLiteral("[ \"$1\" = --version ] && { echo fio-3.33; exit 0; }\n"
                                         "echo 'fio: failed opening blockdev /dev/nope' >&2\nexit 1\n")));
    QSignalSpy failed(&run, &FioRun::failed);
    QSignalSpy finished(&run, &FioRun::finished);
    QVERIFY(run.start({}));
    QVERIFY(failed.wait(5000));
    QCOMPARE(failed.first().first().toString(),
        QStringLiteral("fio failed (exit code 1): fio: failed opening blockdev /dev/nope"));
    QVERIFY(finished.isEmpty());
}

void TestFioRun::runsInAPrivateDirectory()
{
    // What fio writes by a relative name (a verify job's state) must not land in the caller's
    // directory, where a link may wait: fio runs in a new 0700 directory, its state files kept there.
    FioRun run;
    run.setProgram(script(QStringLiteral("[ \"$1\" = --version ] && { echo fio-3.33; exit 0; }\n"
                                         "echo \"$(pwd -P) $(stat -c %a .) $1\" >&2\nexit 1\n")));
    QSignalSpy failed(&run, &FioRun::failed);
    QVERIFY(run.start({ QStringLiteral("--name=x") }));
    QVERIFY(failed.wait(5000));
    const QString said = failed.first().first().toString().section(QStringLiteral("): "), 1);
    const QStringList words = said.split(u' ');
    QCOMPARE(words.size(), 3);
    const QString directory = words.at(0);
    QVERIFY2(directory != QDir::current().canonicalPath(), qPrintable(said));
    QVERIFY2(directory.startsWith(QDir(QDir::tempPath()).canonicalPath() + QStringLiteral("/dmtune-fio-")),
        qPrintable(said));
    QCOMPARE(words.at(1), QStringLiteral("700"));
    QCOMPARE(words.at(2), QStringLiteral("--aux-path=") + QDir(QDir::tempPath()).filePath(directory.section(u'/', -1)));
    QVERIFY(!QFileInfo::exists(directory)); // removed with the run
}

void TestFioRun::reportsAMissingProgram()
{
    FioRun run;
    run.setProgram(m_dir.filePath(QStringLiteral("no-such-fio")));
    QSignalSpy failed(&run, &FioRun::failed);
    QVERIFY(run.start({}));
    QVERIFY(failed.wait(5000));
    QVERIFY(failed.first().first().toString().startsWith(QStringLiteral("cannot run ")));
}

void TestFioRun::findsFioOnlyInSystemDirectoriesAsRoot()
{
    // A "fio" first in PATH: a user's own wins for the user, never for root.
    QTemporaryDir bin;
    const QString planted = bin.filePath(QStringLiteral("fio"));
    QVERIFY(QFile::copy(script(QStringLiteral("echo fio-3.33\n")), planted));
    QCOMPARE(findProgram(QStringLiteral("fio"), false, { bin.path() }).value(), planted);
    const auto asRoot = findProgram(QStringLiteral("fio"), true, { bin.path() });
    QVERIFY(!asRoot || asRoot.value() != planted);
    if (asRoot)
        QVERIFY(systemProgramDirectories().contains(QFileInfo(asRoot.value()).path()));
    const auto shell = findProgram(QStringLiteral("sh"), true);
    QVERIFY2(shell && shell.value().startsWith(u'/'), qPrintable(shell.errorMessage()));
    QVERIFY(!findProgram(QStringLiteral("../bin/sh"), true));
    QVERIFY(!findProgram(QStringLiteral("dmtune-no-such-program"), true));

    if (::geteuid() != 0)
        QSKIP("FioRun::findFio() as root: not root");
    const QByteArray path = qgetenv("PATH");
    qputenv("PATH", QFile::encodeName(bin.path()) + ':' + path);
    const auto found = FioRun::findFio();
    qputenv("PATH", path);
    QVERIFY(!found || found.value() != planted);
}

QTEST_GUILESS_MAIN(TestFioRun)
#include "tst_fiorun.moc"
