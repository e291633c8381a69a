// dmtunectl reads only regular files of bounded size. `preset apply /dev/zero DEV --dry-run`
// grew to gigabytes; a FIFO under a preset's or a sweep manifest's name hung the command. Each is now one line
// naming the path and its kind, at once, and the exit status a bad input has (2 for a bad preset, 1 otherwise).
// The newline item of the same issue: a newline in a path or host name quoted by an error forged a second line;
// one error is one line now, the newline shown as \x0a.
#include "tests/common/testpaths.h"

#include "core/experiments/sweep.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

namespace {

QStringList words(const char *line)
{
    return QString::fromUtf8(line).split(u' ');
}

} // namespace

class TestCliInputFiles : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void refusesWhatIsNotARegularFile_data();
    void refusesWhatIsNotARegularFile();
    void oneErrorIsOneLine_data();
    void oneErrorIsOneLine();

private:
    QTemporaryDir m_dir;
};

void TestCliInputFiles::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(::mkfifo(QFile::encodeName(m_dir.filePath(QStringLiteral("preset.fifo"))).constData(), 0600) == 0);
    QVERIFY(QDir(m_dir.path()).mkdir(QStringLiteral("pcp")));
    QVERIFY(::mkfifo(QFile::encodeName(m_dir.filePath(QStringLiteral("pcp/arch.meta"))).constData(), 0600) == 0);
    QVERIFY(QDir(m_dir.path()).mkdir(QStringLiteral("sweep")));
    QVERIFY(
        ::mkfifo(QFile::encodeName(m_dir.filePath(QStringLiteral("sweep/") + QLatin1String(dmtune::SweepManifestName)))
                     .constData(),
            0600)
        == 0);
}

void TestCliInputFiles::refusesWhatIsNotARegularFile_data()
{
    QTest::addColumn<QStringList>("args"); // "@/" stands for the temporary directory
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("line"); // the first line of stderr
    QTest::newRow("preset apply /dev/zero")
        << words("preset apply /dev/zero loop0 --dry-run") << 2
        << "dmtunectl: /dev/zero: not a regular file (a character device); a preset must be one (see dmtunectl preset "
           "apply --help)";
    QTest::newRow("preset apply FIFO")
        << words("preset apply @/preset.fifo loop0 --dry-run") << 2
        << "dmtunectl: @/preset.fifo: not a regular file (a FIFO); a preset must be one (see "
           "dmtunectl preset apply --help)";
    QTest::newRow("preset diff /dev/zero")
        << words("preset diff /dev/zero /dev/zero") << 2
        << "dmtunectl: /dev/zero: not a regular file (a character device); a preset must be one (see dmtunectl preset "
           "diff --help)";
    QTest::newRow("sweep --open, manifest a FIFO") << words("sweep --open @/sweep") << 1
                                                   << "dmtunectl: sweep: cannot read @/sweep/sweep.json: not a regular "
                                                      "file (a FIFO); a sweep manifest must be one";
    QTest::newRow("record import, an archive's volume a FIFO")
        << words("record import --pcp-archive @/pcp/arch -o @/out.dmrec") << 1
        << "dmtunectl: record import: pcp archive @/pcp/arch.meta: not a regular file; an archive's files must be";
    QTest::newRow("record show /dev/zero")
        << words("record show /dev/zero") << 1 << "dmtunectl: /dev/zero: not a regular file";
}

void TestCliInputFiles::refusesWhatIsNotARegularFile()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, line);
    for (QString &a : args)
        a.replace(QStringLiteral("@/"), m_dir.path() + u'/');
    line.replace(QStringLiteral("@/"), m_dir.path() + u'/');
    QProcess p;
    p.start(DMTUNE_BINARY_PATH("/app/dmtunectl/dmtunectl"), args);
    // The old reader ran until memory ran out (/dev/zero) or forever (a FIFO): it must end on its own, soon.
    const bool ended = p.waitForFinished(10000);
    if (!ended) {
        p.kill();
        p.waitForFinished();
    }
    QVERIFY2(ended, "dmtunectl kept reading");
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), exitCode);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QCOMPARE(err.section(u'\n', 0, 0), line);
}

void TestCliInputFiles::oneErrorIsOneLine_data()
{
    QTest::addColumn<QStringList>("args"); // "@/" stands for the temporary directory, "|" for a newline
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("line"); // the first line of stderr, "|" for the escaped newline

    QTest::newRow("preset path") << words("preset apply @/x|ERROR:_forged loop0 --dry-run") << 2
                                 << "dmtunectl: @/x|ERROR:_forged: no such file, and no stored or built-in preset "
                                    "of that name (see dmtunectl preset apply --help)";
    QTest::newRow("host")
        << words("--host a|ERROR:_forged list") << 2
        << "dmtunectl: bad host 'a|ERROR:_forged': no valid host name (expected [user@]host[:port]) (see "
           "dmtunectl --help)";
    QTest::newRow("recording path") << words("record show @/r|ERROR:_forged.dmrec") << 1
                                    << "dmtunectl: cannot open @/r|ERROR:_forged.dmrec: No such file or directory";
}

void TestCliInputFiles::oneErrorIsOneLine()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, line);
    for (QString &a : args)
        a.replace(QStringLiteral("@/"), m_dir.path() + u'/').replace(u'|', u'\n').replace(u'_', u' ');
    line.replace(QStringLiteral("@/"), m_dir.path() + u'/')
        .replace(QStringLiteral("|"), QStringLiteral("\\x0a"))
        .replace(u'_', u' ');
    QProcess p;
    p.start(DMTUNE_BINARY_PATH("/app/dmtunectl/dmtunectl"), args);
    QVERIFY(p.waitForFinished(10000));
    QCOMPARE(p.exitCode(), exitCode);
    const QStringList lines = QString::fromUtf8(p.readAllStandardError()).split(u'\n', Qt::SkipEmptyParts);
    QVERIFY(!lines.isEmpty());
    QCOMPARE(lines.first(), line);
    // One line, a usage error's ending in the pointer to --help: nothing that starts like another error.
    QCOMPARE(lines.size(), 1);
    for (const QString &l : lines)
        QVERIFY2(!l.startsWith(QLatin1String("ERROR")), qPrintable(l));
}

QTEST_GUILESS_MAIN(TestCliInputFiles)
#include "tst_cli_inputfiles.moc"
