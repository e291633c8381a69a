// widgets/filedialogs: a dialog starts in the folder last used for its purpose, the fallback the first time or when
// that folder is gone, and hands over what is chosen after remembering its folder.
#include "widgets/filedialogs.h"

#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace dmtune;

class TestFileDialogs : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void startsInTheFolderLastUsed();
    void dialogRemembersWhatIsChosen();
    void saveKeepsTheSuggestedName();

private:
    QTemporaryDir m_dir;
    QString folder(const QString &name) const;
};

void TestFileDialogs::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_dir.isValid());
}

void TestFileDialogs::init()
{
    QSettings().remove(QStringLiteral("fileDialogs"));
}

QString TestFileDialogs::folder(const QString &name) const
{
    const QString path = m_dir.filePath(name);
    QDir().mkpath(path);
    return path;
}

void TestFileDialogs::startsInTheFolderLastUsed()
{
    const QString fallback = folder(QStringLiteral("recordings"));
    const QString used = folder(QStringLiteral("elsewhere"));
    QCOMPARE(filedialogs::startFolder(QStringLiteral("recordings"), fallback), fallback);
    filedialogs::remember(QStringLiteral("recordings"), used + QStringLiteral("/a.dmrec"));
    QCOMPARE(filedialogs::startFolder(QStringLiteral("recordings"), fallback), used);
    // Each purpose its own folder; a folder remembered as a folder is that folder.
    QCOMPARE(filedialogs::startFolder(QStringLiteral("reports"), fallback), fallback);
    filedialogs::remember(QStringLiteral("sweeps"), used);
    QCOMPARE(filedialogs::startFolder(QStringLiteral("sweeps"), fallback), used);
    // No purpose: nothing remembered, the fallback always.
    filedialogs::remember(QString(), used + QStringLiteral("/b.dmrec"));
    QCOMPARE(filedialogs::startFolder(QString(), fallback), fallback);
    // A folder that is gone: the fallback again.
    QVERIFY(QDir(used).removeRecursively());
    QCOMPARE(filedialogs::startFolder(QStringLiteral("recordings"), fallback), fallback);
}

void TestFileDialogs::dialogRemembersWhatIsChosen()
{
    const QString fallback = folder(QStringLiteral("recordings"));
    const QString chosenFolder = folder(QStringLiteral("lab"));
    QWidget parent;
    QStringList got;
    QFileDialog *first = filedialogs::open(&parent,
        { QStringLiteral("recordings"), QStringLiteral("Open"), fallback, QString(), QFileDialog::ExistingFiles },
        [&](const QStringList &files) { got = files; });
    QVERIFY(first->isVisible());
    QVERIFY(!first->isModal() || first->windowModality() == Qt::WindowModal); // open(): no nested event loop
    QCOMPARE(first->directory().absolutePath(), fallback);
    const QStringList picked { chosenFolder + QStringLiteral("/a.dmrec"), chosenFolder + QStringLiteral("/b.dmrec") };
    Q_EMIT first->filesSelected(picked);
    QCOMPARE(got, picked);
    first->close();
    QFileDialog *second = filedialogs::open(&parent,
        { QStringLiteral("recordings"), QStringLiteral("Open"), fallback, QString() }, [](const QStringList &) {});
    QCOMPARE(second->directory().absolutePath(), chosenFolder);
    second->close();
}

void TestFileDialogs::saveKeepsTheSuggestedName()
{
    const QString used = folder(QStringLiteral("presets"));
    filedialogs::remember(QStringLiteral("presets"), used + QStringLiteral("/old.json"));
    QWidget parent;
    QFileDialog *dialog = filedialogs::open(&parent,
        { QStringLiteral("presets"), QStringLiteral("Export"), QDir::home().filePath(QStringLiteral("fast.json")),
            QString(), QFileDialog::AnyFile, QFileDialog::AcceptSave },
        [](const QStringList &) {});
    QCOMPARE(dialog->acceptMode(), QFileDialog::AcceptSave);
    QCOMPARE(dialog->directory().absolutePath(), used);
    QCOMPARE(dialog->selectedFiles().value(0), QDir(used).filePath(QStringLiteral("fast.json")));
    dialog->close();
}

QTEST_MAIN(TestFileDialogs)
#include "tst_filedialogs.moc"
