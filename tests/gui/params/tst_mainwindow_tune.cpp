// The Tune tab inside the main window, offscreen, over the GUI tests' standard machine made
// writable: select a path, edit, apply; parameterChanged for chart markers, the detail pane re-read,
// the History dock and Undo, the status bar's executor, the tree's multi-selection scope.
#include "tests/common/fakesysfs.h"
#include "tests/common/standardmachine.h"
#include "tests/common/testpaths.h"

#include "app/dmtune/mainwindow.h"
#include "core/params/tuningsession.h"
#include "widgets/devices/devicedetailpane.h"
#include "widgets/devices/devicetreemodel.h"
#include "widgets/devices/queueattributemodel.h"
#include "widgets/params/changehistorymodel.h"
#include "widgets/params/changehistorypanel.h"
#include "widgets/params/changepreviewmodel.h"
#include "widgets/params/parametereditor.h"
#include "widgets/params/tunabletablemodel.h"

#include "core/discovery/discovery.h"

#include <QCoreApplication>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTreeView>

using namespace dmtune;
using dmtune::test::FakeSysfs;

namespace {

QString queueValue(const DeviceDetailPane *pane, const QString &name)
{
    const QueueAttributeModel *m = pane->queueModel();
    const int row = m->rowOf(name);
    return row < 0 ? QString() : m->index(row, QueueAttributeModel::ValueColumn).data().toString();
}

QString fileValue(const FakeSysfs &fake, const QString &relative)
{
    QFile f(fake.root() + QLatin1Char('/') + relative);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).trimmed() : QString();
}

} // namespace

class TestMainWindowTune : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void capturedTreeIsReadOnly()
    {
        FakeSysfs fake;
        buildStandardMachine(fake);
        MainWindow window(SysfsRoot(fake.root(), QString()));
        QCOMPARE(window.tuningStatusText(), QStringLiteral("tuning: read-only (captured tree)"));
        QVERIFY(window.statusText().contains(QStringLiteral("tuning: read-only")));
        QVERIFY(window.tuningSession()->isReadOnly());
        QVERIFY(window.historyDock());
        QCOMPARE(window.historyDock()->windowTitle(), QStringLiteral("History"));
        QCOMPARE(window.currentTabName(), QStringLiteral("details"));
        QVERIFY(window.showTab(QStringLiteral("tune")));
        QCOMPARE(window.currentTabName(), QStringLiteral("tune"));
        QVERIFY(!window.showTab(QStringLiteral("charts")));

        // The captured system's writable attributes are shown as such, and none can be edited here.
        QSignalSpy shown(&window, &MainWindow::snapshotShown);
        window.start();
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, 10000);
        QVERIFY(window.selectDevice(QStringLiteral("sdak")));
        QVERIFY(window.showTab(QStringLiteral("tune")));
        TunableTableModel *model = window.parameterEditor()->model();
        QTRY_VERIFY(!window.parameterEditor()->isReading()); // read on a job
        QVERIFY(model->rowCount() > 0);
        int writableRows = 0;
        for (int row = 0; row < model->rowCount(); ++row) {
            const QModelIndex value = model->index(row, TunableTableModel::NewValueColumn);
            QVERIFY(!(model->flags(value) & Qt::ItemIsEditable));
            writableRows
                += model->index(row, TunableTableModel::WritableColumn).data().toString() == QLatin1String("yes");
        }
        QVERIFY(writableRows > 0);
        const auto labels = window.parameterEditor()->findChildren<QLabel *>();
        QVERIFY(std::any_of(labels.begin(), labels.end(),
            [](const QLabel *l) { return l->text().contains(QLatin1String("read-only here")); }));
    }

    void applyFromTheTuneTab()
    {
        FakeSysfs fake;
        buildStandardMachine(fake);
        MainWindow window(SysfsRoot::scratch(fake.root()));
        window.setTreeWritable(true);
        QCOMPARE(window.tuningStatusText(), QStringLiteral("tuning: in-process (temporary tree)"));
        QSignalSpy shown(&window, &MainWindow::snapshotShown);
        QSignalSpy markers(&window, &MainWindow::parameterChanged);
        window.resize(1400, 900);
        window.show();
        window.start();
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, 10000);

        QVERIFY(window.selectDevice(QStringLiteral("sdak")));
        QVERIFY(window.showTab(QStringLiteral("tune")));
        ParameterEditor *editor = window.parameterEditor();
        QCOMPARE(editor->shownDevice(), QStringLiteral("sdak"));
        QTRY_VERIFY(!editor->isReading()); // read on a job
        QTRY_COMPARE(queueValue(window.detailPane(), QStringLiteral("nomerges")), QStringLiteral("0"));

        QVERIFY(editor->model()->setPending(QStringLiteral("queue/nomerges"), QStringLiteral("2")));
        editor->updatePreview();
        QTRY_VERIFY(!editor->isReading()); // read and planned on jobs
        QCOMPARE(editor->previewModel()->rowCount(), 1);
        QVERIFY(editor->applyButton()->isEnabled());
        QTest::mouseClick(editor->applyButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(markers.count(), 1, 5000);
        QCOMPARE(markers.first().at(1).toString(), QStringLiteral("sdak nomerges 0 -> 2"));
        QVERIFY(markers.first().at(0).toDouble() > 1.7e9);
        const QString blockDir = QStringLiteral("block/sdak/queue/nomerges");
        QCOMPARE(fileValue(fake, blockDir), QStringLiteral("2"));
        // The detail pane shows the new value once re-read (and again after the rescan).
        QTRY_COMPARE(queueValue(window.detailPane(), QStringLiteral("nomerges")), QStringLiteral("2"));
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 2, 10000);
        QTRY_COMPARE(queueValue(window.detailPane(), QStringLiteral("nomerges")), QStringLiteral("2"));
        QCOMPARE(window.parameterEditor()->shownDevice(), QStringLiteral("sdak"));

        // The History dock has it; Undo puts the value back and marks the chart again.
        ChangeHistoryPanel *history = window.historyPanel();
        QCOMPARE(history->model()->rowCount(), 1);
        QTest::mouseClick(history->undoButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(markers.count(), 2, 5000);
        QCOMPARE(markers.last().at(1).toString(), QStringLiteral("sdak nomerges 2 -> 0"));
        QCOMPARE(fileValue(fake, blockDir), QStringLiteral("0"));
        QCOMPARE(history->model()->rowCount(), 0);
        QTRY_COMPARE(queueValue(window.detailPane(), QStringLiteral("nomerges")), QStringLiteral("0"));

        // Several rows selected in the tree: the selection scope.
        QTreeView *tree = window.treeView();
        const QModelIndex sdu = window.treeModel()->indexForDevice(QStringLiteral("sdu"));
        QVERIFY(sdu.isValid());
        tree->selectionModel()->select(sdu, QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QVERIFY(editor->isScopeAvailable(ChangeScope::Selection));
        editor->setScope(ChangeScope::Selection);
        const auto devices = editor->scopeDevices();
        QVERIFY(devices.ok());
        QVERIFY(devices->contains(QStringLiteral("sdak")));
        QVERIFY(devices->contains(QStringLiteral("sdu")));

        // A picture for whoever reviews the layout.
        editor->setScope(ChangeScope::Device);
        editor->model()->setPending(QStringLiteral("queue/nomerges"), QStringLiteral("2"));
        editor->updatePreview();
        QTRY_VERIFY(!editor->isReading()); // read and planned on jobs
        QTRY_VERIFY(editor->isVisible() && editor->previewModel()->rowCount() == 1); // the preview is shown
        QCoreApplication::sendPostedEvents(); // and laid out (nothing else is asynchronous here)
        QCoreApplication::processEvents();
        window.grab().save(DMTUNE_BINARY_PATH("/tst_mainwindow_tune.png"));
    }
};

QTEST_MAIN(TestMainWindowTune)
#include "tst_mainwindow_tune.moc"
