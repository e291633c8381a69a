// Statistics > Export… on the offscreen platform: the dialog says which formats and which files, the choice of
// formats is what is written, the view says what it wrote (count, names, folder) in its banner and in exported();
// files already in the folder are never written over unless "Replace them" is ticked, a file that is a link is never
// written through, and the file names and the one-line description are checked as pure functions.
#include "batchmaker.h"

#include "core/stats/seriesstore.h"
#include "widgets/charts/livestatsview.h"
#include "widgets/charts/statsexport.h"
#include "widgets/charts/statsexportdialog.h"
#include "widgets/messagebanner.h"

#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace dmtune;
using dmtune::test::BatchMaker;
using statsexport::Format;

namespace {

const QStringList mapAndPaths { QStringLiteral("dm-0"), QStringLiteral("sdb"), QStringLiteral("sdc") };

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeText(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

QStringList namesIn(const QString &directory)
{
    QStringList names = QDir(directory).entryList(QDir::Files | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    names.sort();
    return names;
}

} // namespace

class TestStatsExport : public QObject {
    Q_OBJECT

    SeriesStore m_store;
    std::unique_ptr<LiveStatsView> m_view;

    StatsExportDialog *openDialog(const QString &directory)
    {
        QToolButton *exportButton = nullptr;
        for (QToolButton *b : m_view->findChildren<QToolButton *>()) {
            if (b->text() == QStringLiteral("Export…"))
                exportButton = b;
        }
        if (!exportButton)
            return nullptr;
        QTest::mouseClick(exportButton, Qt::LeftButton);
        auto *dialog = m_view->findChild<StatsExportDialog *>();
        if (dialog)
            dialog->directoryEdit()->setText(directory);
        return dialog;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_view = std::make_unique<LiveStatsView>(nullptr, &m_store);
        m_view->setDevices(mapAndPaths);
        BatchMaker maker;
        for (int i = 0; i < 30; ++i) {
            const SampleBatch b = maker.next(mapAndPaths);
            m_store.append(b);
            m_view->onBatch(b);
        }
        m_view->resize(1400, 900);
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
    }

    void cleanupTestCase() { m_view.reset(); }

    void fileNamesAndDescription()
    {
        const QStringList ids { QStringLiteral("iops"), QStringLiteral("merges") };
        QCOMPARE(statsexport::fileNames(ids, Format::Png | Format::Csv),
            (QStringList { QStringLiteral("iops.png"), QStringLiteral("merges.png"), QStringLiteral("samples.csv") }));
        QCOMPARE(statsexport::fileNames(ids, Format::Pdf | Format::Svg),
            (QStringList { QStringLiteral("iops.pdf"), QStringLiteral("iops.svg"), QStringLiteral("merges.pdf"),
                QStringLiteral("merges.svg") }));
        QVERIFY(statsexport::fileNames(ids, {}).isEmpty());
        QCOMPARE(statsexport::describeNames(ids, statsexport::everyFormat()),
            QStringLiteral("iops, merges as .png, .pdf and .svg, and samples.csv"));
        QCOMPARE(statsexport::describeNames(ids, Format::Csv), QStringLiteral("samples.csv"));
        statsexport::Outcome failed;
        failed.directory = QStringLiteral("/x");
        failed.status = Status::failure(QStringLiteral("iops.png already exists there (nothing was replaced)"));
        QCOMPARE(statsexport::describe(failed, ids, Format::Png),
            QStringLiteral("Export into /x failed: iops.png already exists there (nothing was replaced). Nothing was "
                           "written."));
    }

    void dialogSaysWhatItWritesAndTheViewReportsIt()
    {
        QTemporaryDir temp;
        QVERIFY(temp.isValid());
        const QString target = temp.filePath(QStringLiteral("run 1")); // not there yet: the export creates it
        StatsExportDialog *dialog = openDialog(target);
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        const QStringList ids = m_view->chartIds();
        QVERIFY(ids.size() >= 5);

        // The formats are offered by name, each with what it writes.
        for (Format f : statsexport::allFormats) {
            QCheckBox *box = dialog->formatBox(f);
            QVERIFY(box);
            QVERIFY2(box->text().remove(u'&').contains(statsexport::formatName(f)), qPrintable(box->text()));
        }
        QVERIFY(dialog->formatBox(Format::Png)->text().contains(QStringLiteral("%1 files").arg(ids.size())));
        QVERIFY(dialog->formatBox(Format::Csv)->text().contains(QStringLiteral("samples.csv")));

        // PNG and CSV only: the summary names the count, the folder (new) and the names before anything is written.
        dialog->formatBox(Format::Png)->setChecked(true);
        dialog->formatBox(Format::Pdf)->setChecked(false);
        dialog->formatBox(Format::Svg)->setChecked(false);
        dialog->formatBox(Format::Csv)->setChecked(true);
        const qsizetype expected = ids.size() + 1;
        QVERIFY2(dialog->summaryText().startsWith(
                     QStringLiteral("Writes %1 files into %2 (a new folder): ").arg(expected).arg(target)),
            qPrintable(dialog->summaryText()));
        QVERIFY(dialog->summaryText().contains(QStringLiteral("as .png, and samples.csv")));
        QVERIFY(dialog->conflictBanner()->isHidden());
        QVERIFY(dialog->exportButton()->isEnabled());
        QCOMPARE(dialog->exportButton()->text(), QStringLiteral("&Export %1 files").arg(expected));
        QVERIFY(!QFileInfo::exists(target));

        // No format: nothing to export.
        for (Format f : statsexport::allFormats)
            dialog->formatBox(f)->setChecked(false);
        QVERIFY(!dialog->exportButton()->isEnabled());
        QCOMPARE(dialog->summaryText(), QStringLiteral("Choose at least one format."));
        dialog->formatBox(Format::Png)->setChecked(true);
        dialog->formatBox(Format::Csv)->setChecked(true);

        QSignalSpy exported(m_view.get(), &LiveStatsView::exported);
        QTest::mouseClick(dialog->exportButton(), Qt::LeftButton);
        QCOMPARE(exported.count(), 1);
        QStringList want = statsexport::fileNames(ids, Format::Png | Format::Csv);
        want.sort();
        QCOMPARE(namesIn(target), want); // exactly those: no PDF, no SVG, no staging left behind
        QVERIFY(QDir(target).entryList(QDir::Dirs | QDir::Hidden | QDir::NoDotAndDotDot).isEmpty());
        QVERIFY(readAll(QDir(target).filePath(QStringLiteral("samples.csv"))).startsWith("timestamp,Device,"));
        QVERIFY(readAll(QDir(target).filePath(ids.first() + QStringLiteral(".png"))).startsWith("\x89PNG"));

        // Said: how many, where, which names; in the view's banner and in the signal (the status bar's line).
        const QString message = exported.first().at(2).toString();
        QCOMPARE(exported.first().at(0).toString(), QDir(target).absolutePath());
        QCOMPARE(exported.first().at(1).toStringList().size(), expected);
        QVERIFY2(message.startsWith(QStringLiteral("Wrote %1 files into %2: ").arg(expected).arg(target)),
            qPrintable(message));
        QVERIFY(message.contains(ids.first()) && message.contains(QStringLiteral("samples.csv")));
        MessageBanner *banner = m_view->exportBanner();
        QVERIFY(banner);
        QVERIFY(banner->isVisible());
        QCOMPARE(banner->text(), message);
        QCOMPARE(banner->tone(), MessageTone::Positive);
        QTRY_VERIFY(!m_view->findChild<StatsExportDialog *>()); // closed and deleted
    }

    void existingFilesAreReplacedOnlyWhenChosen()
    {
        QTemporaryDir temp;
        QVERIFY(temp.isValid());
        const QDir dir(temp.path());
        const QStringList ids = m_view->chartIds();
        const QString firstPng = dir.filePath(ids.first() + QStringLiteral(".png"));
        QVERIFY(writeText(firstPng, "mine"));
        QVERIFY(writeText(dir.filePath(QStringLiteral("samples.csv")), "mine too"));

        StatsExportDialog *dialog = openDialog(temp.path());
        QVERIFY(dialog);
        for (Format f : statsexport::allFormats)
            dialog->formatBox(f)->setChecked(f == Format::Png || f == Format::Csv);
        // Both are named before anything is written, and Export waits for a decision.
        QCOMPARE(dialog->existingNames(),
            (QStringList { ids.first() + QStringLiteral(".png"), QStringLiteral("samples.csv") }));
        QVERIFY(dialog->conflictBanner()->isVisible());
        QCOMPARE(dialog->conflictBanner()->tone(), MessageTone::Warning);
        QVERIFY2(
            dialog->conflictBanner()->text().contains(QStringLiteral("2 of these files are already in this folder")),
            qPrintable(dialog->conflictBanner()->text()));
        QVERIFY(dialog->conflictBanner()->text().contains(QStringLiteral("samples.csv")));
        QVERIFY(!dialog->exportButton()->isEnabled());
        QVERIFY(!dialog->replaceExisting());

        // Another format's files do not exist there: asked again when the set changes, Replace goes back off.
        dialog->replaceBox()->setChecked(true);
        QVERIFY(dialog->exportButton()->isEnabled());
        dialog->formatBox(Format::Csv)->setChecked(false);
        QCOMPARE(dialog->existingNames(), QStringList { ids.first() + QStringLiteral(".png") });
        QVERIFY(!dialog->replaceBox()->isChecked());
        QVERIFY(!dialog->exportButton()->isEnabled());
        dialog->formatBox(Format::Csv)->setChecked(true);

        // Export without replacing is not possible from the dialog; the view's own call refuses and writes nothing.
        statsexport::Outcome refused
            = m_view->exportFiles(temp.path(), Format::Png | Format::Csv, ExistingFile::Refuse, 800, 300);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.status.errorMessage().contains(QStringLiteral("samples.csv")),
            qPrintable(refused.status.errorMessage()));
        QVERIFY(refused.written.isEmpty());
        QCOMPARE(readAll(firstPng), QByteArray("mine"));
        QCOMPARE(namesIn(temp.path()),
            (QStringList { ids.first() + QStringLiteral(".png"), QStringLiteral("samples.csv") }));

        // Ticked: replaced, and the banner says so.
        dialog->replaceBox()->setChecked(true);
        QVERIFY(dialog->exportButton()->isEnabled());
        QSignalSpy exported(m_view.get(), &LiveStatsView::exported);
        QTest::mouseClick(dialog->exportButton(), Qt::LeftButton);
        QCOMPARE(exported.count(), 1);
        QVERIFY(readAll(firstPng).startsWith("\x89PNG"));
        QVERIFY(readAll(dir.filePath(QStringLiteral("samples.csv"))).startsWith("timestamp,"));
        QCOMPARE(namesIn(temp.path()).size(), ids.size() + 1);
    }

    void aLinkIsNeverWrittenThrough()
    {
        QTemporaryDir temp;
        QVERIFY(temp.isValid());
        const QDir dir(temp.path());
        const QString outside = dir.filePath(QStringLiteral("outside.txt"));
        QVERIFY(writeText(outside, "keep"));
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("out"))));
        QVERIFY(QFile::link(outside, dir.filePath(QStringLiteral("out/samples.csv"))));
        // Even with Replace: the link is refused, the file it points at stays as it was.
        const statsexport::Outcome outcome
            = m_view->exportFiles(dir.filePath(QStringLiteral("out")), Format::Csv, ExistingFile::Replace);
        QVERIFY(!outcome.ok());
        QVERIFY(outcome.written.isEmpty());
        QCOMPARE(readAll(outside), QByteArray("keep"));
        QVERIFY(QFileInfo(dir.filePath(QStringLiteral("out/samples.csv"))).isSymLink());
        // And the dialog lists a dangling link as taken too.
        QVERIFY(QFile::remove(outside));
        QCOMPARE(statsexport::existingNames(dir.filePath(QStringLiteral("out")), { QStringLiteral("samples.csv") }),
            QStringList { QStringLiteral("samples.csv") });
    }
};

QTEST_MAIN(TestStatsExport)
#include "tst_statsexport.moc"
