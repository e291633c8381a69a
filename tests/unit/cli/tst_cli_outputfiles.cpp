// dmtunectl's output files (holes 4 and 5): `report -o`, `preset export -o` and `sweep --record-dir`
// never write through a symbolic link (to a victim, or dangling: its target would be created elsewhere) and never
// replace an existing file without --replace: exit 1, one line, the victim unchanged. A file dmtune wrote is
// replaced with --replace; a new file is written. (run --record, preset save and the --host spellings need a
// device and an sshd: tests/live/remote/tst_live_remote.cpp.)
#include "tests/common/dmtunectlrun.h"
#include "tests/common/testpaths.h"

#include "tests/unit/recordings/syntheticbatches.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace dmtune;

namespace {

using clitest::dmtunectl;
using clitest::Run;

QByteArray contentOf(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

bool writePlain(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

const QByteArray victimBytes("the victim's own bytes\n");

} // namespace

class TestCliOutputFiles : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_recording;
    QString m_preset;

    // The command line writing to `out`: report or preset export.
    QStringList commandWriting(const QString &command, const QString &out, bool replace) const
    {
        QStringList args;
        if (command == QLatin1String("report"))
            args = { QStringLiteral("report"), m_recording, QStringLiteral("-o"), out };
        else
            args = { QStringLiteral("preset"), QStringLiteral("export"), m_preset, QStringLiteral("--format"),
                QStringLiteral("udev"), QStringLiteral("-o"), out };
        if (replace)
            args << QStringLiteral("--replace");
        return args;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_recording = m_dir.filePath(QStringLiteral("run.dmrec"));
        test::writeSyntheticRecording(m_recording, QStringLiteral("lab run"), { QStringLiteral("sda") }, 100);
        QVERIFY(QFileInfo::exists(m_recording));
        m_preset = m_dir.filePath(QStringLiteral("p.json"));
        QVERIFY(writePlain(m_preset,
            R"({"schema": 1, "name": "p", "rules": [{"match": {"name": "sda"}, "settings": {"queue/nomerges": 2}}]})"));
    }

    void refusedTargets_data()
    {
        QTest::addColumn<QString>("command"); // report, export
        QTest::addColumn<QString>("target"); // link, dangling, file
        QTest::addColumn<bool>("replace");
        QTest::addColumn<QString>("error");
        for (const char *command : { "report", "export" }) {
            const QString c = QString::fromLatin1(command);
            QTest::addRow("%s -o link to a victim", command) << c << "link" << false << "symbolic link";
            QTest::addRow("%s -o link to a victim --replace", command) << c << "link" << true << "symbolic link";
            QTest::addRow("%s -o dangling link", command) << c << "dangling" << false << "symbolic link";
            QTest::addRow("%s -o dangling link --replace", command) << c << "dangling" << true << "symbolic link";
            QTest::addRow("%s -o existing file", command) << c << "file" << false << "exists (--replace replaces it)";
        }
    }

    void refusedTargets()
    {
        QFETCH(QString, command);
        QFETCH(QString, target);
        QFETCH(bool, replace);
        QFETCH(QString, error);
        QTemporaryDir dir;
        const QString suffix = command == QLatin1String("report") ? QStringLiteral(".html") : QStringLiteral(".rules");
        const QString out = dir.filePath(QStringLiteral("out") + suffix);
        const QString victim = dir.filePath(QStringLiteral("victim") + suffix);
        const QString elsewhere = dir.filePath(QStringLiteral("elsewhere") + suffix);
        QVERIFY(writePlain(victim, victimBytes));
        if (target == QLatin1String("link"))
            QVERIFY(QFile::link(victim, out));
        else if (target == QLatin1String("dangling"))
            QVERIFY(QFile::link(elsewhere, out));
        else
            QVERIFY(writePlain(out, victimBytes));

        const Run r = dmtunectl(commandWriting(command, out, replace));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(error) && r.err.contains(out), qPrintable(r.err));
        QVERIFY2(r.err.count(QLatin1Char('\n')) == 1, qPrintable(r.err));
        QCOMPARE(contentOf(victim), victimBytes);
        QVERIFY(!QFileInfo::exists(elsewhere) && !QFileInfo(elsewhere).isSymLink());
        if (target == QLatin1String("file"))
            QCOMPARE(contentOf(out), victimBytes);
        else
            QVERIFY(QFileInfo(out).isSymLink());
    }

    // The legitimate uses: a new file; the same file again with --replace (dmtune wrote it); not again without.
    void newThenReplaced_data()
    {
        QTest::addColumn<QString>("command");
        QTest::newRow("report") << "report";
        QTest::newRow("preset export") << "export";
    }

    void newThenReplaced()
    {
        QFETCH(QString, command);
        QTemporaryDir dir;
        const QString out
            = dir.filePath(command == QLatin1String("report") ? QStringLiteral("r.html") : QStringLiteral("p.rules"));
        const Run first = dmtunectl(commandWriting(command, out, false));
        QVERIFY2(first.exitCode == 0, qPrintable(first.err));
        const QByteArray written = contentOf(out);
        QVERIFY(!written.isEmpty());
        QVERIFY(writePlain(out, "edited since\n"));
        const Run again = dmtunectl(commandWriting(command, out, false));
        QCOMPARE(again.exitCode, 1);
        QCOMPARE(contentOf(out), QByteArray("edited since\n"));
        const Run replaced = dmtunectl(commandWriting(command, out, true));
        QVERIFY2(replaced.exitCode == 0, qPrintable(replaced.err));
        QVERIFY(!QFileInfo(out).isSymLink());
        QVERIFY(contentOf(out) != "edited since\n");
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::System).size(), 1); // no temp file
    }

    // sweep --record-dir: a link to a directory (or a dangling one) is refused before anything is looked at.
    void sweepRecordDirLinkIsRefused_data()
    {
        QTest::addColumn<bool>("dangling");
        QTest::newRow("link to a directory") << false;
        QTest::newRow("dangling link") << true;
    }

    void sweepRecordDirLinkIsRefused()
    {
        QFETCH(bool, dangling);
        QTemporaryDir dir;
        const QString victim = dir.filePath(QStringLiteral("victim"));
        if (!dangling)
            QVERIFY(QDir().mkdir(victim));
        const QString records = dir.filePath(QStringLiteral("records"));
        QVERIFY(QFile::link(victim, records));
        const Run r = dmtunectl({ QStringLiteral("sweep"), QStringLiteral("nosuchdevice0"), QStringLiteral("--param"),
            QStringLiteral("nomerges=0,2"), QStringLiteral("batched-write-4k"), QStringLiteral("--record-dir"),
            records });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QLatin1String("symbolic link")) && r.err.contains(records), qPrintable(r.err));
        QVERIFY2(r.err.count(QLatin1Char('\n')) == 1, qPrintable(r.err));
        if (dangling)
            QVERIFY(!QFileInfo::exists(victim));
        else
            QVERIFY(QDir(victim).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliOutputFiles)
#include "tst_cli_outputfiles.moc"
