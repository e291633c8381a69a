// The window's default layout at the sizes engineers use (1280x720, 1400x900, 1920x1080), offscreen, over the
// standard machine: every row of a four-path map's iostat table and the columns
// of the load without scrolling, the Workload dock's rows down to Start, both group cards of a two-group map in
// the Path groups tab, the device filter over the tree. DMTUNE_SCREENSHOT_DIR=DIR saves what each size looks like.
#include "tests/common/fakedevicemapper.h"
#include "tests/common/fakesysfs.h"
#include "tests/common/multipathfixture.h"
#include "tests/common/standardmachine.h"

#include "app/dmtune/mainwindow.h"
#include "core/discovery/discovery.h"
#include "core/discovery/snapshotbuilder.h"
#include "core/params/tunable.h"
#include "widgets/charts/iostattablemodel.h"
#include "widgets/charts/livestatsview.h"
#include "widgets/devices/devicetreemodel.h"
#include "widgets/devices/devicetreeview.h"
#include "widgets/params/parametereditor.h"
#include "widgets/params/tunabletablemodel.h"
#include "widgets/pathgroups/pathgroupeditor.h"
#include "widgets/pathgroups/pathgroupspanel.h"
#include "widgets/workloads/workloadpanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTest>

using namespace dmtune;
using dmtune::test::FakeSysfs;

namespace {

// Whether `widget` is shown whole inside every scroll area's viewport and every window it sits in.
bool wholeOnScreen(const QWidget *widget, QString *why)
{
    if (!widget->isVisible()) {
        *why = QStringLiteral("%1 is hidden").arg(widget->objectName());
        return false;
    }
    QRect rect(widget->mapTo(widget->window(), QPoint(0, 0)), widget->size());
    for (const QWidget *w = widget->parentWidget(); w; w = w->parentWidget()) {
        const QRect clip(w->mapTo(widget->window(), QPoint(0, 0)), w->size());
        if (!clip.contains(rect)) {
            *why = QStringLiteral("%1 (%2,%3 %4x%5 in the window) is cut off by %6 (%7,%8 %9x%10)")
                       .arg(widget->objectName())
                       .arg(rect.x())
                       .arg(rect.y())
                       .arg(rect.width())
                       .arg(rect.height())
                       .arg(QString::fromLatin1(w->metaObject()->className()) + u' ' + w->objectName())
                       .arg(clip.x())
                       .arg(clip.y())
                       .arg(clip.width())
                       .arg(clip.height());
            return false;
        }
    }
    return true;
}

// One interval of a write run on the map and its paths, as the sampler reports it: writes only, most of them
// merged (the loop device demonstration of docs), nothing read.
SampleBatch writeBatch(const QStringList &devices, quint64 sequence)
{
    SampleBatch b;
    b.sequence = sequence;
    b.elapsedSeconds = 1.0;
    b.wallMs = 1'700'000'000'000 + qint64(sequence) * 1000;
    b.monotonicNs = 5'000'000'000'000 + qint64(sequence) * 1'000'000'000;
    for (qsizetype i = 0; i < devices.size(); ++i) {
        CounterDeltas d;
        const quint64 writes = i == 0 ? 1200 : 300;
        d[DiskField::WriteIos] = writes;
        d[DiskField::WriteMerges] = writes * 7;
        d[DiskField::WriteSectors] = writes * 64;
        d[DiskField::WriteTicks] = writes * 3;
        d[DiskField::IoTicks] = 800;
        d[DiskField::TimeInQueue] = 2400;
        DeviceSample s;
        s.counters.name = devices[i];
        s.counters.fieldCount = 17;
        s.deltas = d;
        s.inflight = { 0, 4 };
        b.devices.append(s);
    }
    return b;
}

void saveScreenshot(QWidget *widget, const QString &name)
{
    const QString dir = qEnvironmentVariable("DMTUNE_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        widget->grab().save(dir + u'/' + name + QStringLiteral(".png"));
}

QString sizeName(const QSize &size)
{
    return QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
}

} // namespace

class TestMainWindowLayout : public QObject {
    Q_OBJECT

    void sizes()
    {
        QTest::addColumn<QSize>("size");
        for (const QSize size : { QSize(1280, 720), QSize(1400, 900), QSize(1920, 1080) })
            QTest::newRow(qPrintable(sizeName(size))) << size;
    }

    // The window over the standard machine, shown at `size`, its first scan in.
    static bool showWindow(MainWindow &window, const QSize &size)
    {
        QSignalSpy shown(&window, &MainWindow::snapshotShown);
        window.resize(size);
        window.show();
        window.start();
        if (!QTest::qWaitForWindowExposed(&window))
            return false;
        return shown.count() > 0 || shown.wait(10000);
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void iostatTableShowsTheMapAndTheLoad_data() { sizes(); }
    void iostatTableShowsTheMapAndTheLoad()
    {
        QFETCH(QSize, size);
        FakeSysfs fake;
        QVERIFY(fake.isValid());
        buildStandardMachine(fake);
        MainWindow window(SysfsRoot(fake.root(), QString()));
        QVERIFY(showWindow(window, size));
        QVERIFY(window.selectDevice(QStringLiteral("mpatha")));
        QVERIFY(window.showTab(QStringLiteral("statistics")));
        LiveStatsView *stats = window.statsView();
        const QStringList devices = stats->devices();
        QCOMPARE(devices.size(), 5); // the map and its four paths
        stats->onBatch(writeBatch(devices, 1));
        QCOMPARE(stats->tableModel()->load(), IostatTableModel::Load::Writes);
        QApplication::processEvents();

        QTableView *table = stats->tableView();
        QCOMPARE(table->model()->rowCount(), 5);
        const QRect viewport = table->viewport()->rect();
        for (int row = 0; row < 5; ++row) {
            const QRect cell = table->visualRect(table->model()->index(row, 0));
            QVERIFY2(viewport.contains(cell),
                qPrintable(QStringLiteral("row %1 (%2) at y %3..%4, the table shows 0..%5")
                               .arg(row)
                               .arg(table->model()->index(row, 0).data().toString())
                               .arg(cell.top())
                               .arg(cell.bottom())
                               .arg(viewport.bottom())));
        }
        QString why;
        QVERIFY2(wholeOnScreen(table, &why), qPrintable(why));
        // A write run: its columns first, w/s to w_await and the merges in view without scrolling.
        const QHeaderView *header = table->horizontalHeader();
        for (Metric metric : { Metric::WritesPerSec, Metric::WriteKBPerSec, Metric::WriteMergesPerSec,
                 Metric::WriteMergedPercent, Metric::WriteAwait }) {
            const int column = IostatTableModel::columnOf(metric);
            const int right = header->sectionViewportPosition(column) + header->sectionSize(column);
            QVERIFY2(header->sectionViewportPosition(column) >= 0 && right <= viewport.width(),
                qPrintable(QStringLiteral("%1 at x %2..%3, the table shows 0..%4")
                               .arg(MetricCatalog::column(metric))
                               .arg(header->sectionViewportPosition(column))
                               .arg(right)
                               .arg(viewport.width())));
            QVERIFY(table->model()->index(0, column).data().toString() != QStringLiteral("0.00"));
        }
        QVERIFY(header->visualIndex(IostatTableModel::columnOf(Metric::WritesPerSec))
            < header->visualIndex(IostatTableModel::columnOf(Metric::ReadsPerSec)));
        saveScreenshot(&window, QStringLiteral("statistics-") + sizeName(size));
    }

    // The Workload dock by default: every row needed to start a run, down to Start, and fio's charts beside them tall
    // enough to read.
    void workloadDockShowsEverythingToStart_data() { sizes(); }
    void workloadDockShowsEverythingToStart()
    {
        QFETCH(QSize, size);
        FakeSysfs fake;
        QVERIFY(fake.isValid());
        buildStandardMachine(fake);
        MainWindow window(SysfsRoot(fake.root(), QString()));
        QVERIFY(showWindow(window, size));
        QVERIFY(window.showTab(QStringLiteral("statistics")));
        QApplication::processEvents();
        saveScreenshot(&window, QStringLiteral("workload-") + sizeName(size));
        QVERIFY(window.workloadDock()->isVisible());
        WorkloadPanel *panel = window.workloadPanel();
        QStringList wanted { QStringLiteral("&Start"), QStringLiteral("St&op"), QStringLiteral("&Copy"),
            QStringLiteral("Create lab device") };
        for (QPushButton *button : panel->findChildren<QPushButton *>()) {
            if (!wanted.removeOne(button->text()))
                continue;
            QString why;
            button->setObjectName(button->text());
            QVERIFY2(wholeOnScreen(button, &why), qPrintable(why));
        }
        QVERIFY2(wanted.isEmpty(), qPrintable(wanted.join(u',')));
        for (QWidget *field : { static_cast<QWidget *>(panel->findChild<QCheckBox *>()),
                 static_cast<QWidget *>(panel->findChildren<QComboBox *>().constFirst()) }) {
            QString why;
            QVERIFY2(wholeOnScreen(field, &why), qPrintable(why));
        }
        // The Record row and the device combo: by what they show.
        for (const QString &text : { QStringLiteral("&Record to") }) {
            bool found = false;
            for (QCheckBox *box : panel->findChildren<QCheckBox *>()) {
                if (box->text() != text)
                    continue;
                found = true;
                QString why;
                box->setObjectName(text);
                QVERIFY2(wholeOnScreen(box, &why), qPrintable(why));
            }
            QVERIFY2(found, qPrintable(text));
        }
        for (QComboBox *combo : panel->findChildren<QComboBox *>()) {
            if (!combo->isEditable() || combo->findData(QStringLiteral("vda")) < 0)
                continue; // the device combo (ioengine is editable too)
            QString why;
            combo->setObjectName(QStringLiteral("device combo"));
            QVERIFY2(wholeOnScreen(combo, &why), qPrintable(why));
        }
        for (QWidget *chart : panel->findChildren<QWidget *>()) {
            if (qstrcmp(chart->metaObject()->className(), "dmtune::FioChart") != 0)
                continue;
            QVERIFY2(chart->height() >= 150, qPrintable(QStringLiteral("fio chart %1 px high").arg(chart->height())));
        }
        // The charts above keep room too: the Statistics tab's iostat table whole.
        QString why;
        QVERIFY2(wholeOnScreen(window.statsView()->tableView(), &why), qPrintable(why));
    }

    // The Workload dock's device combo: the tree's device preselected, a choice made in it kept over a rescan, the
    // sizes in the unit that fits, typing filters the list.
    void workloadDeviceCombo()
    {
        FakeSysfs fake;
        QVERIFY(fake.isValid());
        buildStandardMachine(fake);
        fake.virtualDisk(QStringLiteral("zram1"), QStringLiteral("252:1"), 32768, false); // 16 MiB
        MainWindow window(SysfsRoot(fake.root(), QString()));
        QVERIFY(showWindow(window, QSize(1280, 720)));
        WorkloadPanel *panel = window.workloadPanel();
        QComboBox *combo = nullptr;
        for (QComboBox *c : panel->findChildren<QComboBox *>()) {
            if (c->findData(QStringLiteral("vda")) >= 0)
                combo = c;
        }
        QVERIFY(combo);
        QCOMPARE(combo->itemText(combo->findData(QStringLiteral("zram1"))), QStringLiteral("zram1  16 MiB"));
        QCOMPARE(combo->itemText(combo->findData(QStringLiteral("vda"))), QStringLiteral("vda  20 GiB"));
        QCOMPARE(combo->itemText(combo->findData(QStringLiteral("dm-0"))), QStringLiteral("dm-0  (mpatha)  100 GiB"));

        // The tree's device (the map, selected at start), then the row the user picks.
        QCOMPARE(panel->currentDevice(), QStringLiteral("dm-0"));
        QVERIFY(window.selectDevice(QStringLiteral("vda")));
        QCOMPARE(panel->currentDevice(), QStringLiteral("vda"));
        // A device chosen in the combo stays over a rescan.
        QVERIFY(panel->selectDevice(QStringLiteral("zram1")));
        QSignalSpy rescanned(&window, &MainWindow::snapshotShown);
        window.discovery()->refresh();
        QVERIFY(rescanned.wait(10000));
        QCOMPARE(panel->currentDevice(), QStringLiteral("zram1"));

        // Typing filters: any part of the text, case aside.
        combo->lineEdit()->selectAll();
        QTest::keyClicks(combo->lineEdit(), QStringLiteral("SDA"));
        QCompleter *completer = combo->completer();
        QCOMPARE(completer->completionPrefix(), QStringLiteral("SDA"));
        QStringList matches;
        for (int row = 0; row < completer->completionCount(); ++row) {
            completer->setCurrentRow(row);
            matches << completer->currentCompletion();
        }
        QCOMPARE(matches.size(), 2);
        QVERIFY(
            matches.join(u' ').contains(QLatin1String("sdak")) && matches.join(u' ').contains(QLatin1String("sdac")));
        // A text that names no device goes back to the one chosen.
        combo->lineEdit()->setText(QStringLiteral("nothing like it"));
        Q_EMIT combo->lineEdit()->editingFinished();
        QCOMPARE(combo->currentText(), combo->itemText(combo->findData(QStringLiteral("zram1"))));
        QCOMPARE(panel->currentDevice(), QStringLiteral("zram1"));
    }

    // A map of two path groups (the multipath fixture, service-time) in the Path groups tab as the window at 1400x900
    // gives it room: both cards whole, beside each other, without scrolling.
    void pathGroupCardsFitAt1400x900()
    {
        FakeSysfs fake;
        QVERIFY(fake.isValid());
        buildStandardMachine(fake);
        MainWindow window(SysfsRoot(fake.root(), QString()));
        QVERIFY(showWindow(window, QSize(1400, 900)));
        QVERIFY(window.selectDevice(QStringLiteral("mpatha")));
        QVERIFY(window.showTab(QStringLiteral("paths")));
        QApplication::processEvents();
        const QSize tab = window.pathGroupsPanel()->size();
        QVERIFY2(tab.width() > 600 && tab.height() > 400, qPrintable(sizeName(tab)));

        // The window's own panel reads no device-mapper over a captured tree: the same panel over a fake one, at
        // the size the window gives the tab, with multipathd's priorities and checker states in the State column.
        FakeSysfs machine;
        test::buildMultipathFixture(machine);
        FakeDeviceMapper dm;
        QVERIFY(test::addFixtureMapWithTable(dm,
            QStringLiteral("0 0 2 1 service-time 0 2 2 8:0 1 1 8:16 1 1 service-time 0 2 2 8:32 1 1 8:48 1 1"),
            QStringLiteral("2 0 0 0 2 1 A 0 2 2 8:0 A 0 0 1 8:16 A 0 4096 1 E 0 2 2 8:32 A 0 0 1 8:48 A 0 0 1")));
        PathGroupsPanel panel(&dm);
        DeviceMapperState state;
        state.available = true;
        const SysfsRoot sysfs(machine.root(), QString());
        panel.setSnapshot(buildSnapshot(sysfs, enumerateBlockDirectory(sysfs), &dm, state));
        panel.resize(tab);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSignalSpy read(&panel, &PathGroupsPanel::stateRead);
        panel.showMap(test::fixtureMap);
        QVERIFY(read.wait(5000));
        QApplication::processEvents();
        PathGroupEditor *editor = panel.editor();
        QCOMPARE(editor->groupColumnCount(), 2);
        QList<QWidget *> cards;
        for (QWidget *card : editor->findChildren<QWidget *>(QStringLiteral("pathGroupColumn"))) {
            if (card->isVisible())
                cards << card;
        }
        QCOMPARE(cards.size(), 2);
        for (QWidget *card : cards) {
            QString why;
            QVERIFY2(wholeOnScreen(card, &why), qPrintable(why));
            auto *paths = card->findChild<QTableView *>(QStringLiteral("pathTable"));
            QVERIFY(paths);
            QCOMPARE(paths->model()->rowCount(), 2);
            for (int row = 0; row < 2; ++row)
                QVERIFY(paths->viewport()->rect().contains(paths->visualRect(paths->model()->index(row, 0))));
        }
        saveScreenshot(&panel, QStringLiteral("pathgroups-1400x900-tab"));
        saveScreenshot(&window, QStringLiteral("pathgroups-1400x900-window"));
    }

    // The Tune table: the attribute names take what they need, the notes the rest, so that a note reads in a line
    // or two rather than four.
    void tuneTableGivesTheNotesRoom_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("device");
        for (const QSize size : { QSize(1280, 720), QSize(1400, 900), QSize(1920, 1080) }) {
            for (const QString &device : { QStringLiteral("sdak"), QStringLiteral("dm-0"), QStringLiteral("loop0") })
                QTest::newRow(qPrintable(sizeName(size) + u' ' + device)) << size << device;
        }
    }
    void tuneTableGivesTheNotesRoom()
    {
        QFETCH(QSize, size);
        QFETCH(QString, device);
        FakeSysfs fake;
        QVERIFY(fake.isValid());
        buildStandardMachine(fake);
        MainWindow window(SysfsRoot(fake.root(), QString()));
        QVERIFY(showWindow(window, size));
        QVERIFY(window.selectDevice(device));
        QVERIFY(window.showTab(QStringLiteral("tune")));
        ParameterEditor *editor = window.parameterEditor();
        QTRY_VERIFY(!editor->isReading());
        QApplication::processEvents();
        QTableView *table = editor->tableView();
        saveScreenshot(&window, QStringLiteral("tune-%1-%2").arg(sizeName(size), device));
        QVERIFY(table->model()->rowCount() > 5);
        const QHeaderView *header = table->horizontalHeader();
        const int attribute = header->sectionSize(TunableTableModel::AttributeColumn);
        const int note = header->sectionSize(TunableTableModel::NoteColumn);
        QVERIFY2(note > attribute,
            qPrintable(
                QStringLiteral("Attribute %1 px, Note %2 px of %3").arg(attribute).arg(note).arg(header->width())));
        QVERIFY2(attribute < header->width() / 3,
            qPrintable(QStringLiteral("Attribute %1 px of %2").arg(attribute).arg(header->width())));
        // Every name of a knob one can set on one line; every note in at most two; the struck-out name of a knob
        // current kernels ignore (dm/rq_based_seq_io_merge_deadline) wraps rather than widening the column.
        const QFontMetrics metrics = table->fontMetrics();
        for (int row = 0; row < table->model()->rowCount(); ++row) {
            const QModelIndex index = table->model()->index(row, TunableTableModel::AttributeColumn);
            const QString name = index.data().toString();
            const bool ignored = index.data(TunableTableModel::TunableRole).value<Tunable>().ignored;
            if (!ignored)
                QVERIFY2(metrics.horizontalAdvance(name) < attribute, qPrintable(name));
            const QString text = table->model()->index(row, TunableTableModel::NoteColumn).data().toString();
            const int noteHeight = metrics.boundingRect(QRect(0, 0, note - 8, 10000), Qt::TextWordWrap, text).height();
            QVERIFY2(noteHeight <= 2 * metrics.lineSpacing(),
                qPrintable(QStringLiteral("%1: the note \"%2\" takes %3 px in %4 px, a line is %5")
                               .arg(name, text)
                               .arg(noteHeight)
                               .arg(note)
                               .arg(metrics.lineSpacing())));
            QVERIFY2(table->rowHeight(row) <= (ignored ? 3 : 2) * metrics.lineSpacing() + 10, qPrintable(name));
        }
    }

    // A status message (an undo's summary, a report's path) is not cut off by the permanent labels at 1280 px: the
    // kernel, device-mapper and hotplug labels step aside while it shows and come back after it.
    void statusMessageHasRoom()
    {
        FakeSysfs fake;
        QVERIFY(fake.isValid());
        buildStandardMachine(fake);
        MainWindow window(SysfsRoot(fake.root(), QString()));
        QVERIFY(showWindow(window, QSize(1280, 720)));
        QStatusBar *bar = window.statusBar();
        const auto permanentWidth = [bar] {
            int width = 0;
            for (const QLabel *label : bar->findChildren<QLabel *>(Qt::FindDirectChildrenOnly)) {
                if (label->isVisible() && label->objectName() != QLatin1String("multipathResultLabel"))
                    width += label->width();
            }
            return width;
        };
        const QString before = window.statusText();
        const QString message = QStringLiteral("Undone: sdak nomerges 2 -> 0, read_ahead_kb 4096 -> 128 (2 changes)");
        bar->showMessage(message);
        QApplication::processEvents();
        const int room = bar->width() - permanentWidth();
        QVERIFY2(room > bar->fontMetrics().horizontalAdvance(message) + 20,
            qPrintable(QStringLiteral("%1 px for a %2 px message")
                           .arg(room)
                           .arg(bar->fontMetrics().horizontalAdvance(message))));
        QCOMPARE(window.statusText(), before);
        saveScreenshot(&window, QStringLiteral("statusbar-message"));
        bar->clearMessage();
        QApplication::processEvents();
        QTRY_VERIFY(permanentWidth() > bar->width() / 3); // the labels are back
    }

    // Typing into the filter over the tree narrows it to the matching devices with their map and paths; Return
    // selects the first; clearing it shows every row again.
    void deviceFilterNarrowsTheTree()
    {
        FakeSysfs fake;
        QVERIFY(fake.isValid());
        buildStandardMachine(fake);
        MainWindow window(SysfsRoot(fake.root(), QString()));
        QVERIFY(showWindow(window, QSize(1280, 720)));
        auto *tree = qobject_cast<DeviceTreeView *>(window.treeView());
        QVERIFY(tree);
        QLineEdit *filter = tree->filterEdit();
        QString why;
        QVERIFY2(wholeOnScreen(filter, &why), qPrintable(why));
        const DeviceTreeModel *model = window.treeModel();
        const auto shown = [&](const char *device) {
            const QModelIndex index = model->indexForDevice(QString::fromLatin1(device));
            return index.isValid() && tree->isShownByFilter(index);
        };
        for (const char *device : { "dm-0", "sdak", "vda", "loop0", "zram0" })
            QVERIFY2(shown(device), device);

        // A path: it, the map it serves (with the section and group above it); not the other devices.
        QTest::keyClicks(filter, QStringLiteral("SDAK"));
        QCOMPARE(tree->filterText(), QStringLiteral("SDAK"));
        QVERIFY(shown("sdak"));
        QVERIFY(tree->isShownByFilter(model->indexForKey(QStringLiteral("map/mpatha"))));
        for (const char *device : { "sdu", "vda", "loop0", "zram0", "dm-1" })
            QVERIFY2(!shown(device), device);
        const QModelIndex path = model->indexForDevice(QStringLiteral("sdak"));
        for (QModelIndex above = path.parent(); above.isValid(); above = above.parent())
            QVERIFY(tree->isExpanded(above));
        QVERIFY(!tree->visualRect(path).isEmpty()); // on screen, not just not hidden
        saveScreenshot(&window, QStringLiteral("filter-sdak-1280x720"));

        // The map by name: every one of its paths with it.
        filter->clear();
        QTest::keyClicks(filter, QStringLiteral("mpatha"));
        for (const char *device : { "dm-0", "sdak", "sdu", "sdm", "sdac" })
            QVERIFY2(shown(device), device);
        QVERIFY(!shown("vda"));

        // Another column (the loop device's backing file in its identity) and Return: selected.
        filter->clear();
        QTest::keyClicks(filter, QStringLiteral("zram"));
        QVERIFY(shown("zram0"));
        QVERIFY(!shown("dm-0"));
        QTest::keyClick(filter, Qt::Key_Return);
        QCOMPARE(tree->currentIndex().data(DeviceTreeModel::DeviceNameRole).toString(), QStringLiteral("zram0"));

        // Nothing matches: nothing shown; Escape clears and every row is back.
        filter->clear();
        QTest::keyClicks(filter, QStringLiteral("no-such-device"));
        QVERIFY(!shown("dm-0") && !shown("zram0") && !shown("vda"));
        QVERIFY(!tree->firstMatch().isValid());
        QTest::keyClick(filter, Qt::Key_Escape);
        QVERIFY(filter->text().isEmpty());
        for (const char *device : { "dm-0", "sdak", "sdu", "vda", "vda1", "dm-1", "loop0", "zram0" })
            QVERIFY2(shown(device), device);

        // A rescan while a filter is on filters the new rows too.
        QTest::keyClicks(filter, QStringLiteral("vda"));
        QSignalSpy rescanned(&window, &MainWindow::snapshotShown);
        fake.removeDevice(QStringLiteral("loop0"));
        window.discovery()->refresh();
        QVERIFY(rescanned.wait(10000));
        QTRY_VERIFY(shown("vda") && !shown("sdak") && !shown("zram0"));
    }
};

QTEST_MAIN(TestMainWindowLayout)
#include "tst_mainwindow_layout.moc"
