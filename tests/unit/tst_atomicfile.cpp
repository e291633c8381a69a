// The output-file policy (util/atomicfile.h) on every kind of target: a new file is written; an existing one is
// kept unless Replace was asked; a link (to a victim, or dangling) and a directory are refused whatever was asked,
// and the victim is unchanged; nothing else appears beside the target. Then the output directory (new or empty,
// never a link) and the fresh name proposed after a run.
#include "core/util/atomicfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace dmtune;

namespace {

QByteArray contentOf(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

void writePlain(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(bytes), bytes.size());
}

} // namespace

class TestAtomicFile : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void policy_data()
    {
        QTest::addColumn<QString>("target"); // what is at out.txt: none, file, link, dangling, directory
        QTest::addColumn<bool>("replace");
        QTest::addColumn<bool>("written");
        QTest::addColumn<QString>("error"); // a part of the one line of a refusal

        QTest::newRow("new file") << "none" << false << true << QString();
        QTest::newRow("new file, replace asked") << "none" << true << true << QString();
        QTest::newRow("existing file, no replace") << "file" << false << false << "exists";
        QTest::newRow("existing file, replace") << "file" << true << true << QString();
        QTest::newRow("link to a victim") << "link" << false << false << "symbolic link";
        QTest::newRow("link to a victim, replace") << "link" << true << false << "symbolic link";
        QTest::newRow("dangling link") << "dangling" << false << false << "symbolic link";
        QTest::newRow("dangling link, replace") << "dangling" << true << false << "symbolic link";
        QTest::newRow("directory") << "directory" << false << false << "directory";
        QTest::newRow("directory, replace") << "directory" << true << false << "directory";
    }

    void policy()
    {
        QFETCH(QString, target);
        QFETCH(bool, replace);
        QFETCH(bool, written);
        QFETCH(QString, error);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString out = dir.filePath(QStringLiteral("out.txt"));
        const QString victim = dir.filePath(QStringLiteral("victim.txt"));
        const QByteArray before("victim's own bytes\n");
        writePlain(victim, before);
        if (target == QLatin1String("file"))
            writePlain(out, "an earlier output\n");
        else if (target == QLatin1String("link"))
            QVERIFY(QFile::link(victim, out));
        else if (target == QLatin1String("dangling"))
            QVERIFY(QFile::link(dir.filePath(QStringLiteral("elsewhere.txt")), out));
        else if (target == QLatin1String("directory"))
            QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("out.txt")));
        const QStringList entriesBefore
            = QDir(dir.path()).entryList(QDir::AllEntries | QDir::System | QDir::Hidden | QDir::NoDotAndDotDot);

        const Status s
            = writeFileAtomically(out, "new bytes\n", replace ? ExistingFile::Replace : ExistingFile::Refuse);
        QCOMPARE(bool(s), written);
        if (written) {
            QVERIFY(!QFileInfo(out).isSymLink());
            QCOMPARE(contentOf(out), QByteArray("new bytes\n"));
        } else {
            QVERIFY2(s.errorMessage().contains(error), qPrintable(s.errorMessage()));
            QVERIFY2(s.errorMessage().contains(out), qPrintable(s.errorMessage()));
            QVERIFY(!s.errorMessage().contains(QLatin1Char('\n')));
        }
        // The victim and whatever else was there: unchanged; no temp file left, nothing created through a link.
        QCOMPARE(contentOf(victim), before);
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("elsewhere.txt"))));
        if (target == QLatin1String("file") && !written)
            QCOMPARE(contentOf(out), QByteArray("an earlier output\n"));
        QStringList entriesAfter
            = QDir(dir.path()).entryList(QDir::AllEntries | QDir::System | QDir::Hidden | QDir::NoDotAndDotDot);
        QStringList expected = entriesBefore;
        if (target == QLatin1String("none"))
            expected << QStringLiteral("out.txt");
        expected.sort();
        entriesAfter.sort();
        QCOMPARE(entriesAfter, expected);
    }

    // Refuse is what a caller gets without saying anything.
    void refuseIsTheDefault()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("kept.txt"));
        writePlain(out, "kept\n");
        QVERIFY(!writeFileAtomically(out, "other\n"));
        AtomicFile file(out);
        QVERIFY(!file.open());
        QCOMPARE(contentOf(out), QByteArray("kept\n"));
    }

    // A file that appears at the name after open() is kept: the commit's RENAME_NOREPLACE refuses.
    void aFileThatAppearsMeanwhileIsKept()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("late.txt"));
        AtomicFile file(out);
        QVERIFY(file.open());
        QVERIFY(file.write("mine\n"));
        writePlain(out, "theirs\n");
        const Status s = file.commit();
        QVERIFY(!s);
        QVERIFY2(s.errorMessage().contains(QLatin1String("exists")), qPrintable(s.errorMessage()));
        QCOMPARE(contentOf(out), QByteArray("theirs\n"));
    }

    // A link planted at the name after open() is refused even with Replace: the rename would replace the name,
    // the commit says no instead of guessing what the user meant.
    void aLinkPlantedMeanwhileIsRefused()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("planted.txt"));
        const QString victim = dir.filePath(QStringLiteral("victim.txt"));
        writePlain(victim, "victim\n");
        AtomicFile file(out, ExistingFile::Replace);
        QVERIFY(file.open());
        QVERIFY(file.write("mine\n"));
        QVERIFY(QFile::link(victim, out));
        QVERIFY(!file.commit());
        QVERIFY(QFileInfo(out).isSymLink());
        QCOMPARE(contentOf(victim), QByteArray("victim\n"));
    }

    void outputDirectory_data()
    {
        QTest::addColumn<QString>("target"); // none, empty, full, link, dangling, file
        QTest::addColumn<bool>("made");
        QTest::addColumn<QString>("error");
        QTest::newRow("new") << "none" << true << QString();
        QTest::newRow("new under new parents") << "nested" << true << QString();
        QTest::newRow("empty directory") << "empty" << true << QString();
        QTest::newRow("directory with files") << "full" << false << "not empty";
        QTest::newRow("link to a directory") << "link" << false << "symbolic link";
        QTest::newRow("dangling link") << "dangling" << false << "symbolic link";
        QTest::newRow("a file") << "file" << false << "not a directory";
    }

    void outputDirectory()
    {
        QFETCH(QString, target);
        QFETCH(bool, made);
        QFETCH(QString, error);
        QTemporaryDir dir;
        QString out = dir.filePath(QStringLiteral("out"));
        const QString victim = dir.filePath(QStringLiteral("victim"));
        QVERIFY(QDir().mkdir(victim));
        if (target == QLatin1String("nested"))
            out = dir.filePath(QStringLiteral("a/b/out"));
        else if (target == QLatin1String("empty"))
            QVERIFY(QDir().mkdir(out));
        else if (target == QLatin1String("full")) {
            QVERIFY(QDir().mkdir(out));
            writePlain(out + QStringLiteral("/earlier.dmrec"), "earlier\n");
        } else if (target == QLatin1String("link"))
            QVERIFY(QFile::link(victim, out));
        else if (target == QLatin1String("dangling"))
            QVERIFY(QFile::link(dir.filePath(QStringLiteral("elsewhere")), out));
        else if (target == QLatin1String("file"))
            writePlain(out, "a file\n");
        const Status s = makeOutputDirectory(out);
        QCOMPARE(bool(s), made);
        if (made) {
            const QFileInfo info(out);
            QVERIFY(info.isDir() && !info.isSymLink());
        } else {
            QVERIFY2(s.errorMessage().contains(error), qPrintable(s.errorMessage()));
        }
        QVERIFY(QDir(victim).isEmpty());
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("elsewhere"))));
    }

    void nextFreshFilePath_data()
    {
        QTest::addColumn<QString>("used");
        QTest::addColumn<QStringList>("present"); // files already there
        QTest::addColumn<QString>("fresh");
        QTest::newRow("first run") << "run.dmrec" << QStringList() << "run-2.dmrec";
        QTest::newRow("counts on") << "run-2.dmrec" << QStringList() << "run-3.dmrec";
        QTest::newRow("skips files") << "run.dmrec"
                                     << QStringList { QStringLiteral("run-2.dmrec"), QStringLiteral("run-3.dmrec") }
                                     << "run-4.dmrec";
        QTest::newRow("skips links") << "run.dmrec" << QStringList { QStringLiteral("@run-2.dmrec") } << "run-3.dmrec";
        QTest::newRow("no suffix") << "run" << QStringList() << "run-2";
        QTest::newRow("a date is no count") << "2026-12-06.dmrec" << QStringList() << "2026-12-06-2.dmrec";
        QTest::newRow("a time is no count") << "20261206-101010.dmrec" << QStringList() << "20261206-101010-2.dmrec";
    }

    void nextFreshFilePath()
    {
        QFETCH(QString, used);
        QFETCH(QStringList, present);
        QFETCH(QString, fresh);
        QTemporaryDir dir;
        for (const QString &p : present) {
            if (p.startsWith(QLatin1Char('@')))
                QVERIFY(QFile::link(dir.filePath(QStringLiteral("nowhere")), dir.filePath(p.mid(1))));
            else
                writePlain(dir.filePath(p), "x");
        }
        QCOMPARE(dmtune::nextFreshFilePath(dir.filePath(used)), dir.filePath(fresh));
    }
};

QTEST_GUILESS_MAIN(TestAtomicFile)
#include "tst_atomicfile.moc"
