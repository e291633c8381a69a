// The path-group tab offscreen against a FakeDeviceMapper: the editor (drag a path, the previewed table
// line and diff, Apply plans multipath.reload, asks with a PlanDialog naming the map and runs on its answer;
// a map that changed while the dialog was open is refused as stale), the device tree's multipath actions
// and their PlanDialogs, the selector chart, and the tab without device-mapper. The tab reads the map on
// jobs: tests wait for stateRead(). The map is tests/common's fixture (mpatha over sda..sdd), its snapshot
// what discovery makes of the fixture's tree and the fake.
#include "widgets/devices/devicetreemodel.h"
#include "widgets/devices/devicetreeview.h"
#include "widgets/pathgroups/multipathactions.h"
#include "widgets/pathgroups/pathgroupeditor.h"
#include "widgets/pathgroups/pathgroupmodel.h"
#include "widgets/pathgroups/pathgroupspanel.h"
#include "widgets/pathgroups/selectorchart.h"

#include "core/discovery/snapshotbuilder.h"
#include "core/ops/hostcontext.h"
#include "tests/common/fakedevicemapper.h"
#include "tests/common/fakesysfs.h"
#include "tests/common/multipathfixture.h"
#include "widgets/ops/plandialog.h"

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QDir>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSplitter>
#include <QTableView>
#include <QTest>

#include <memory>

using namespace dmtune;

namespace {

const QString mapName = test::fixtureMap;
// Two round-robin groups (sda sdb | sdc sdd), no queueing, group 1 in use.
const QString tableParams = test::fixtureTableParams();

QString liveParams(FakeDeviceMapper &dm)
{
    const auto lines = dm.table(mapName);
    return lines && lines->size() == 1 ? lines->first().params : QString();
}

MultipathStatus liveStatus(FakeDeviceMapper &dm)
{
    const auto lines = dm.status(mapName);
    return lines ? multipathStatusOf(lines.value()).value() : MultipathStatus();
}

// What discovery makes of the fixture's tree and the fake's map as it is now.
DeviceSnapshot snapshotOf(const test::FakeSysfs &tree, FakeDeviceMapper &dm)
{
    const SysfsRoot sysfs(tree.root(), QString());
    DeviceMapperState state;
    state.available = true;
    return buildSnapshot(sysfs, enumerateBlockDirectory(sysfs), &dm, state);
}

QModelIndex findKey(const QAbstractItemModel &model, const QString &key, const QModelIndex &parent = {})
{
    for (int row = 0; row < model.rowCount(parent); ++row) {
        const QModelIndex index = model.index(row, 0, parent);
        if (index.data(DeviceTreeModel::RowKeyRole).toString() == key)
            return index;
        const QModelIndex below = findKey(model, key, index);
        if (below.isValid())
            return below;
    }
    return {};
}

QMap<QString, bool> menuActions(QMenu &menu)
{
    QMap<QString, bool> actions;
    for (QAction *action : menu.actions()) {
        if (!action->objectName().isEmpty())
            actions.insert(action->objectName(), action->isEnabled());
    }
    return actions;
}

} // namespace

class TestPathGroupEditor : public QObject {
    Q_OBJECT

private:
    test::FakeSysfs m_tree;
    std::unique_ptr<FakeDeviceMapper> m_dm;
    std::unique_ptr<PathGroupsPanel> m_panel;

    // Shows the map and waits until its first read reached the editor.
    bool showAndRead()
    {
        QSignalSpy read(m_panel.get(), &PathGroupsPanel::stateRead);
        m_panel->showMap(mapName);
        return read.wait(5000);
    }
    // Reads again and waits for a read that started after the call (one in flight may predate a change).
    bool readAgain()
    {
        QSignalSpy read(m_panel.get(), &PathGroupsPanel::stateRead);
        const int wanted = m_panel->isReading() ? 2 : 1;
        m_panel->readNow();
        while (read.size() < wanted) {
            if (!read.wait(5000))
                return false;
        }
        return true;
    }
    template<typename Asker>
    static PlanDialog *waitForPlan(Asker *asker)
    {
        QSignalSpy opened(asker, &Asker::planOpened);
        if (!opened.wait(5000))
            return nullptr;
        return opened.first().first().template value<PlanDialog *>();
    }
    static QString riskTexts(const OperationPlan &plan)
    {
        QStringList texts;
        for (const OperationRisk &risk : plan.risks)
            texts << risk.text;
        return texts.join(QLatin1Char('\n'));
    }

private Q_SLOTS:
    void initTestCase() { test::buildMultipathFixture(m_tree); }

    void init()
    {
        m_dm = std::make_unique<FakeDeviceMapper>();
        QVERIFY(test::addFixtureMap(*m_dm));
        m_panel = std::make_unique<PathGroupsPanel>(m_dm.get());
        m_panel->setSnapshot(snapshotOf(m_tree, *m_dm));
        m_panel->resize(1100, 750);
    }

    void cleanup()
    {
        m_panel.reset();
        m_dm.reset();
    }

    void showsTheLiveGroups()
    {
        QVERIFY(showAndRead());
        PathGroupEditor *editor = m_panel->editor();
        QVERIFY(editor->isEditable());
        QCOMPARE(editor->groupColumnCount(), 2);
        QCOMPARE(editor->previewText(), tableParams);
        QVERIFY(editor->diffText().isEmpty());
        QVERIFY(!editor->canApply()); // nothing edited
        PathGroupModel *first = editor->groupModel(0);
        QCOMPARE(first->rowCount(), 2);
        QCOMPARE(first->index(0, 0).data().toString(), QStringLiteral("sda (8:0)"));
        QCOMPARE(first->index(1, 1).data().toString(), QStringLiteral("active"));
        QCOMPARE(first->index(1, 2).data().toString(), QStringLiteral("0"));
        QCOMPARE(first->headerData(3, Qt::Horizontal).toString(),
            QStringLiteral("repeat_count")); // no live info for round-robin
        QCOMPARE(first->index(0, 3).data().toString(), QStringLiteral("1"));
        QVERIFY(first->flags(first->index(0, 3)) & Qt::ItemIsEditable);
        QVERIFY(!(first->flags(first->index(0, 1)) & Qt::ItemIsEditable));
    }

    // multipathd's priorities and checker states beside the kernel's A/F, as multipath -ll shows them; the
    // view is matched by group number and path devnum, and dropped when another map is shown.
    void showsMultipathdPriorities()
    {
        QVERIFY(showAndRead());
        PathGroupEditor *editor = m_panel->editor();
        MultipathdMapView view;
        view.name = mapName;
        view.groups
            = { MultipathdGroupView { 1, QStringLiteral("round-robin 0"), 50, QStringLiteral("active"),
                    { MultipathdPathView { QStringLiteral("sda"), QStringLiteral("8:0"), QStringLiteral("active"),
                        QStringLiteral("running"), QStringLiteral("ready"), QStringLiteral("tur"), 50 } } },
                  MultipathdGroupView { 2, QStringLiteral("round-robin 0"), 10, QStringLiteral("enabled"),
                      { MultipathdPathView { QStringLiteral("sdc"), QStringLiteral("8:32"), QStringLiteral("active"),
                          QStringLiteral("running"), QStringLiteral("ghost"), QStringLiteral("tur"), 10 } } } };
        editor->setMultipathdView(view);
        PathGroupModel *first = editor->groupModel(0);
        PathGroupModel *second = editor->groupModel(1);
        QCOMPARE(first->index(0, 1).data().toString(), QStringLiteral("active · prio 50 · ready"));
        QCOMPARE(first->index(0, 1).data(Qt::ToolTipRole).toString(),
            QStringLiteral("Kernel: active. multipathd: priority 50, checker ready, device running."));
        QCOMPARE(first->index(1, 1).data().toString(), QStringLiteral("active")); // 8:16: not in the view
        QCOMPARE(second->index(0, 1).data().toString(), QStringLiteral("active · prio 10 · ghost"));
        QStringList subtitles;
        for (const QLabel *label : editor->findChildren<QLabel *>())
            subtitles << label->text();
        QVERIFY2(subtitles.filter(QStringLiteral("· prio 50")).size() == 1, qPrintable(subtitles.join(u'|')));
        QVERIFY2(subtitles.filter(QStringLiteral("· prio 10")).size() == 1, qPrintable(subtitles.join(u'|')));
        // A status tick keeps them; no view (multipathd gone) takes them away.
        QVERIFY(readAgain());
        QCOMPARE(editor->groupModel(0)->index(0, 1).data().toString(), QStringLiteral("active · prio 50 · ready"));
        editor->setMultipathdView(std::nullopt);
        QCOMPARE(editor->groupModel(0)->index(0, 1).data().toString(), QStringLiteral("active"));
    }

    // In a 1280x720 window the tab is about 480 px high: the group cards still show their path tables whole
    // (they were cut to a 67 px strip under the chart's share); the chart has its minimum or is folded away.
    void pathTablesFitA720PixelWindow()
    {
        m_panel->resize(900, 480);
        m_panel->show();
        QVERIFY(showAndRead());
        const auto tables = m_panel->editor()->findChildren<QTableView *>();
        QVERIFY(!tables.isEmpty());
        const auto *scroll = m_panel->editor()->findChild<QScrollArea *>(QStringLiteral("pathGroupScroll"));
        QVERIFY(scroll);
        // The read is in: what is left is the cards' layout, on posted events. The first table that sticks out of
        // the viewport, or nothing once every shown one fits.
        const auto overflow = [&tables, scroll]() -> QString {
            const QRect viewport = scroll->viewport()->rect();
            for (const QTableView *table : tables) {
                if (!table->isVisible())
                    continue;
                const QRect inViewport(table->mapTo(scroll->viewport(), QPoint(0, 0)), table->size());
                if (inViewport.bottom() > viewport.bottom())
                    return QStringLiteral("table bottom %1, viewport %2")
                        .arg(inViewport.bottom())
                        .arg(viewport.bottom());
            }
            return QString();
        };
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
        QTRY_VERIFY2_WITH_TIMEOUT(overflow().isEmpty(), qPrintable(overflow()), 5000);
        const auto *splitter = m_panel->findChild<QSplitter *>(QStringLiteral("pathGroupsSplitter"));
        const int chart = splitter->sizes().value(1);
        QVERIFY2(
            chart == 0 || chart >= splitter->widget(1)->minimumSizeHint().height(), qPrintable(QString::number(chart)));
        // With room, the chart is there.
        m_panel->resize(900, 900);
        QTRY_VERIFY(splitter->sizes().value(1) >= splitter->widget(1)->minimumSizeHint().height());
    }

    void dragPathToOtherGroupAndApply()
    {
        QVERIFY(showAndRead());
        PathGroupEditor *editor = m_panel->editor();
        PathGroupModel *from = editor->groupModel(0);
        PathGroupModel *to = editor->groupModel(1);
        QAbstractItemModelTester fromTester(from, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester toTester(to, QAbstractItemModelTester::FailureReportingMode::QtTest);

        // What a drag from group 1's table onto group 2's table does.
        std::unique_ptr<QMimeData> mime(from->mimeData({ from->index(1, 0) }));
        QVERIFY(mime);
        QCOMPARE(PathGroupModel::deviceFromMime(mime.get(), mapName), QStringLiteral("8:16"));
        QVERIFY(PathGroupModel::deviceFromMime(mime.get(), QStringLiteral("mpathb")).isEmpty());
        QVERIFY(to->canDropMimeData(mime.get(), Qt::MoveAction, -1, -1, {}));
        QVERIFY(to->dropMimeData(mime.get(), Qt::MoveAction, -1, -1, {}));
        QTRY_COMPARE(to->rowCount(), 3);
        QCOMPARE(from->rowCount(), 1);

        const QString expected
            = QStringLiteral("0 0 2 1 round-robin 0 1 1 8:0 1 round-robin 0 3 1 8:32 1 8:48 1 8:16 1");
        QCOMPARE(editor->previewText(), expected);
        QVERIFY2(editor->diffText().contains(QLatin1String("8:16")), qPrintable(editor->diffText()));
        QVERIFY(editor->problemText().isEmpty());
        QVERIFY(editor->canApply());
        // The moved path keeps its live state in its new group.
        QCOMPARE(to->index(2, 0).data().toString(), QStringLiteral("sdb (8:16)"));
        QCOMPARE(to->index(2, 1).data().toString(), QStringLiteral("active"));

        // Said no: nothing happens.
        QSignalSpy finished(editor, &PathGroupEditor::applyFinished);
        QVERIFY(editor->apply());
        QVERIFY(!editor->apply()); // one plan at a time
        QPointer<PlanDialog> dialog = waitForPlan(editor);
        QVERIFY(dialog);
        QCOMPARE(editor->pendingPlan(), dialog.data());
        QVERIFY(dialog->isVisible());
        QVERIFY(!editor->canApply()); // while asked
        dialog->reject();
        QTRY_VERIFY(!dialog);
        QTest::qWait(50); // deliberate negative check: nothing runs after the refusal
        QVERIFY(finished.isEmpty());
        QCOMPARE(liveParams(*m_dm), tableParams);

        QTRY_VERIFY(editor->canApply());
        QVERIFY(editor->apply());
        dialog = waitForPlan(editor);
        QVERIFY(dialog);
        const OperationPlan &asked = dialog->plan();
        QCOMPARE(asked.kind, QStringLiteral("multipath.reload"));
        QCOMPARE(asked.target, mapName);
        QVERIFY(asked.summary.contains(mapName));
        QVERIFY(dialog->windowTitle().contains(mapName));
        QVERIFY2(asked.preview.contains(QLatin1String("8:16")), qPrintable(asked.preview));
        QVERIFY2(asked.risks.isEmpty(), qPrintable(riskTexts(asked)));
        dialog->runButton()->click();
        QVERIFY(finished.wait(5000));
        const auto result = finished.first().first().value<OperationResult>();
        QVERIFY2(result.ok, qPrintable(result.error));
        QCOMPARE(result.target, mapName);
        QCOMPARE(liveParams(*m_dm), expected);
        // The panel read the new table back: a clean draft of it.
        QTRY_VERIFY(!editor->draft().isModified());
        QCOMPARE(editor->previewText(), expected);
        QVERIFY(editor->bannerText().contains(QLatin1String("Reloaded mpatha")));
    }

    void newGroupSelectorAndFeatures()
    {
        QVERIFY(showAndRead());
        PathGroupEditor *editor = m_panel->editor();
        QVERIFY(editor->movePathToNewGroup(QStringLiteral("8:48")));
        QCOMPARE(editor->groupColumnCount(), 3);
        QVERIFY(editor->setSelector(2, QStringLiteral("service-time")));
        PathGroupModel *third = editor->groupModel(2);
        QAbstractItemModelTester tester(third, QAbstractItemModelTester::FailureReportingMode::QtTest);
        // Path, state, fails, one live info column (in-flight bytes), two table arguments: the relative throughput the
        // selector reports back is the argument's column, not a second one of its own.
        QCOMPARE(third->columnCount(), 6);
        QCOMPARE(third->headerData(3, Qt::Horizontal).toString(), QStringLiteral("in-flight\nbytes"));
        QCOMPARE(third->headerData(5, Qt::Horizontal).toString(), QStringLiteral("relative_throughput"));
        for (int c = 0; c < third->columnCount(); ++c)
            QVERIFY(third->headerData(c, Qt::Horizontal).toString() != QStringLiteral("relative throughput"));
        // The path ran under round-robin: no service-time info yet.
        QCOMPARE(third->index(0, 3).data().toString(), QStringLiteral("–"));
        // Edit the relative throughput in the cell: through the draft (queued).
        QVERIFY(third->setData(third->index(0, 5), QStringLiteral("60")));
        QTRY_COMPARE(third->index(0, 5).data().toString(), QStringLiteral("60"));
        MultipathFeatures f = editor->draft().features();
        f.queueIfNoPath = true;
        editor->setFeatures(f);
        QCOMPARE(editor->previewText(),
            QStringLiteral("1 queue_if_no_path 0 3 1 round-robin 0 2 1 8:0 1 8:16 1 round-robin 0 1 1 8:32 1 "
                           "service-time 0 1 2 8:48 1 60"));
        QVERIFY(editor->canApply());
        // A value the kernel would refuse turns Apply off and says why.
        QVERIFY(editor->setPathArg(QStringLiteral("8:48"), 1, QStringLiteral("150")));
        QVERIFY(!editor->canApply());
        QVERIFY(editor->problemText().contains(QLatin1String("relative throughput")));
        editor->resetDraft();
        QCOMPARE(editor->groupColumnCount(), 2);
        QVERIFY(!editor->draft().isModified());
    }

    // service-time reports each path's relative throughput back in its status: one column, the table argument's,
    // which shows the live value beside the draft's only when they differ.
    void relativeThroughputIsOneColumn()
    {
        const MultipathTable table
            = parseMultipathTable(QStringLiteral("0 0 1 1 service-time 0 2 2 8:0 1 100 8:16 1 40")).value();
        const MultipathStatus status
            = parseMultipathStatus(QStringLiteral("2 0 0 0 1 1 A 0 2 2 8:0 A 0 4096 100 8:16 A 0 0 50")).value();
        QHash<QString, LivePath> live;
        for (const PathStatus &path : status.groups.first().paths)
            live.insert(path.device, LivePath { path, QStringLiteral("service-time"), 1 });
        PathGroupModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setGroup(mapName, 0, table.groups.first(), live, {});
        QStringList headers;
        for (int c = 0; c < model.columnCount(); ++c)
            headers << model.headerData(c, Qt::Horizontal).toString();
        QCOMPARE(headers,
            (QStringList { QStringLiteral("Path"), QStringLiteral("State"), QStringLiteral("Fails"),
                QStringLiteral("in-flight\nbytes"), QStringLiteral("repeat_count"),
                QStringLiteral("relative_throughput") }));
        QCOMPARE(model.columnKind(3), PathGroupModel::ColumnKind::SelectorInfo);
        QCOMPARE(model.index(0, 3).data().toString(), QStringLiteral("4096"));
        QCOMPARE(model.index(0, 5).data().toString(), QStringLiteral("100")); // the kernel runs what the table says
        QCOMPARE(model.index(1, 5).data().toString(), QStringLiteral("40 (live 50)"));
        QCOMPARE(model.index(1, 5).data(Qt::EditRole).toString(), QStringLiteral("40")); // what is edited
        QVERIFY(model.index(1, 5).data(Qt::ToolTipRole).toString().contains(QLatin1String("reports 50 now")));
    }

    void failedReloadKeepsTheTable()
    {
        QVERIFY(showAndRead());
        PathGroupEditor *editor = m_panel->editor();
        QVERIFY(editor->moveGroup(0, 1));
        m_dm->failNextLoad(mapName, QStringLiteral("Invalid argument"));
        QSignalSpy finished(editor, &PathGroupEditor::applyFinished);
        QVERIFY(editor->apply());
        PlanDialog *dialog = waitForPlan(editor);
        QVERIFY(dialog);
        dialog->runButton()->click();
        QVERIFY(finished.wait(5000));
        QVERIFY(!finished.first().first().value<OperationResult>().ok);
        QCOMPARE(liveParams(*m_dm), tableParams);
        QVERIFY(editor->draft().isModified()); // the edits stay for another try
        QVERIFY(editor->bannerText().contains(QLatin1String("failed")));
    }

    // A disk dragged in from the device tree that reports another LUN (or none) is not added at once: an
    // asynchronous confirmation names both LUNs; Cancel changes nothing; accepting adds it only to the draft
    // it was asked about, and Apply asks again with the same risk. A disk of the map's own LUN goes in.
    void foreignDiskAsksNamingBothLuns()
    {
        const QString lun0 = test::fixtureLun;
        const QString lun1 = QStringLiteral("naa.6001405bbbbbbbbb");
        DeviceSnapshot snapshot = snapshotOf(m_tree, *m_dm);
        for (const QString &path : test::fixturePaths()) {
            QVERIFY(snapshot.device(path));
            QCOMPARE(snapshot.device(path)->wwid, lun0);
        }
        const auto disk = [](const char *name, const char *devnum, const QString &wwid) {
            BlockDevice device;
            device.name = QLatin1String(name);
            device.devnum = QLatin1String(devnum);
            device.kind = DeviceKind::Scsi;
            device.wwid = wwid;
            return device;
        };
        snapshot.devices << disk("sde", "8:64", lun1) << disk("sdf", "8:80", lun0) << disk("nullb0", "252:0", {});
        m_panel->setSnapshot(snapshot);
        QVERIFY(showAndRead());
        PathGroupEditor *editor = m_panel->editor();
        const QString live = editor->previewText();
        QSignalSpy opened(editor, &PathGroupEditor::confirmationOpened);

        // The drag: a row of the device tree onto group 1's table.
        DeviceTreeModel tree;
        tree.setSnapshot(snapshot);
        const QModelIndex sde = tree.indexForDevice(QStringLiteral("sde"));
        QVERIFY(sde.isValid());
        QVERIFY(tree.flags(sde) & Qt::ItemIsDragEnabled);
        std::unique_ptr<QMimeData> mime(tree.mimeData({ sde }));
        QVERIFY(mime);
        QCOMPARE(PathGroupModel::diskFromMime(mime.get()), QStringLiteral("sde"));
        PathGroupModel *first = editor->groupModel(0);
        QVERIFY(first->canDropMimeData(mime.get(), Qt::CopyAction, -1, -1, {}));
        QVERIFY(first->dropMimeData(mime.get(), Qt::CopyAction, -1, -1, {}));
        QTRY_VERIFY(editor->pendingConfirmation());
        QMessageBox *box = editor->pendingConfirmation();
        QVERIFY(box->isVisible());
        QCOMPARE(box->windowModality(), Qt::WindowModal); // open(), not exec(): the event loop runs on
        const QString wanted = QStringLiteral("sde (8:64) is LUN %1, not LUN %2 of mpatha").arg(lun1, lun0);
        QVERIFY2(box->informativeText().contains(wanted), qPrintable(box->informativeText()));
        QCOMPARE(opened.size(), 1);
        QVERIFY(opened.first().first().value<Confirmation>().risks.join(QLatin1Char(' ')).contains(wanted));
        // Cancel: nothing changes.
        QPointer<QMessageBox> guard(box);
        box->button(QMessageBox::Cancel)->click();
        QTRY_VERIFY(!guard);
        QVERIFY(!editor->pendingConfirmation());
        QVERIFY(!editor->draft().isModified());
        QCOMPARE(editor->previewText(), live);
        QCOMPARE(liveParams(*m_dm), tableParams);

        // Accepted, but the draft changed meanwhile: not what was asked, not added.
        QVERIFY(!editor->addPath(QStringLiteral("sde"), 1));
        box = editor->pendingConfirmation();
        QVERIFY(box);
        QVERIFY(editor->moveGroup(0, 1));
        const QString moved = editor->previewText();
        guard = box;
        box->defaultButton()->click(); // Enter (the default button) says no
        QTRY_VERIFY(!guard);
        QCOMPARE(editor->previewText(), moved);
        QVERIFY(!editor->addPath(QStringLiteral("sde"), 1));
        box = editor->pendingConfirmation();
        QVERIFY(box);
        QVERIFY(editor->moveGroup(1, 0));
        QAbstractButton *accept = nullptr;
        for (QAbstractButton *button : box->buttons()) {
            if (button->text().contains(QLatin1String("anyway")))
                accept = button;
        }
        QVERIFY(accept);
        QVERIFY(accept->text().contains(QLatin1String("sde (8:64)")));
        guard = box;
        accept->click();
        QTRY_VERIFY(!guard);
        QVERIFY2(editor->bannerText().contains(QLatin1String("changed while you were asked")),
            qPrintable(editor->bannerText()));
        QVERIFY(!editor->previewText().contains(QLatin1String("8:64")));

        // Accepted on the same draft: added; Apply names the risk again.
        QVERIFY(!editor->addPath(QStringLiteral("sde"), 1));
        box = editor->pendingConfirmation();
        QVERIFY(box);
        for (QAbstractButton *button : box->buttons()) {
            if (button->text().contains(QLatin1String("anyway")))
                accept = button;
        }
        guard = box;
        accept->click();
        QTRY_VERIFY(!guard);
        QCOMPARE(editor->previewText(),
            QStringLiteral("0 0 2 1 round-robin 0 2 1 8:0 1 8:16 1 round-robin 0 3 1 8:32 1 8:48 1 8:64 1"));
        // (Apply's own LUN check is the core's, over sysfs: tests/vm/multipath and tests/unit/ops.)
        QCOMPARE(liveParams(*m_dm), tableParams);

        // A disk of the map's own LUN goes in without a question; one without a WWID asks.
        editor->resetDraft();
        QVERIFY(editor->addPath(QStringLiteral("sdf"), 0));
        QVERIFY(editor->previewText().contains(QLatin1String("8:80")));
        QVERIFY(!editor->pendingConfirmation());
        QVERIFY(!editor->addPath(QStringLiteral("nullb0"), editor->groupColumnCount()));
        box = editor->pendingConfirmation();
        QVERIFY(box);
        QVERIFY2(box->informativeText().contains(QStringLiteral("nullb0 (252:0) reports no WWID")),
            qPrintable(box->informativeText()));
        QVERIFY(box->informativeText().contains(lun0));
        guard = box;
        box->reject();
        QTRY_VERIFY(!guard);
        QVERIFY(!editor->previewText().contains(QLatin1String("252:0")));
    }

    void liveTableChangedUnderEdits()
    {
        QVERIFY(showAndRead());
        PathGroupEditor *editor = m_panel->editor();
        QVERIFY(editor->movePath(QStringLiteral("8:0"), 1));
        // Someone else turns queueing on: the table changes under the edits.
        QVERIFY(m_dm->message(mapName, QStringLiteral("queue_if_no_path")));
        QVERIFY(readAgain());
        QVERIFY(editor->draft().isModified());
        QVERIFY(editor->bannerText().contains(QLatin1String("changed while you edited")));
        QVERIFY(editor->diffText().contains(QLatin1String("queue_if_no_path")));
    }

    // The map changes while the reload's PlanDialog is open (a path fails, or someone reloads the table):
    // the user confirms, the core plans again, finds the basis changed and refuses the stale plan. Nothing is
    // reloaded, the banner says why, the edits stay. (The old editor asked in a nested QMessageBox::exec()
    // and then sent the draft without re-checking: the reload went through on the changed map.)
    void staleReloadIsRefused_data()
    {
        QTest::addColumn<QString>("behind");
        QTest::addColumn<QString>("changed");
        QTest::newRow("a path fails") << QStringLiteral("fail_path 8:16") << QStringLiteral("paths");
        QTest::newRow("the table is reloaded") << QStringLiteral("queue_if_no_path") << QStringLiteral("table");
    }

    void staleReloadIsRefused()
    {
        QFETCH(QString, behind);
        QFETCH(QString, changed);
        QVERIFY(showAndRead());
        PathGroupEditor *editor = m_panel->editor();
        QVERIFY(editor->moveGroup(0, 1));
        const QString edited = editor->previewText();
        QSignalSpy finished(editor, &PathGroupEditor::applyFinished);
        QVERIFY(editor->apply());
        PlanDialog *dialog = waitForPlan(editor);
        QVERIFY(dialog);
        const QString planned = liveParams(*m_dm);
        // Behind the editor, while the user reads the dialog; the poll may see it too.
        QVERIFY(m_dm->message(mapName, behind));
        const QString changedLive = liveParams(*m_dm);
        QVERIFY(readAgain());
        QVERIFY(editor->pendingPlan()); // the dialog stays open across the poll
        dialog->runButton()->click();
        QVERIFY(finished.wait(5000));
        const auto result = finished.first().first().value<OperationResult>();
        QVERIFY(!result.ok);
        QVERIFY(result.stale);
        QVERIFY2(result.error.contains(QLatin1String("changed since the plan was made")), qPrintable(result.error));
        QVERIFY2(result.error.contains(changed), qPrintable(result.error));
        // Nothing reloaded: the live table is what the change made it, not the draft.
        QCOMPARE(liveParams(*m_dm), changedLive);
        QVERIFY(liveParams(*m_dm) != edited);
        Q_UNUSED(planned);
        QVERIFY2(editor->bannerText().contains(QLatin1String("changed since the plan was made")),
            qPrintable(editor->bannerText()));
        QVERIFY(editor->bannerText().contains(QLatin1String("edits are kept")));
        QVERIFY(editor->draft().isModified());
        QVERIFY(readAgain());
        QVERIFY(editor->draft().isModified()); // the poll after the refusal keeps them too
        QTRY_VERIFY(editor->canApply()); // and the user can plan again
    }

    // Failing the last active path is risky: it is asked in a PlanDialog (opened, not exec()), nothing is sent
    // while it is open, and the path fails only on its answer.
    void riskOfFailingTheLastActivePath()
    {
        for (const QString &device : { QStringLiteral("8:16"), QStringLiteral("8:32"), QStringLiteral("8:48") })
            QVERIFY(m_dm->message(mapName, QStringLiteral("fail_path ") + device));
        m_panel->setSnapshot(snapshotOf(m_tree, *m_dm));
        QSignalSpy finished(m_panel.get(), &PathGroupsPanel::operationFinished);
        QVERIFY(m_panel->actions()->failPath(mapName, QStringLiteral("8:0")));
        QPointer<PlanDialog> dialog = waitForPlan(m_panel->actions());
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        const OperationPlan &plan = dialog->plan();
        QCOMPARE(plan.kind, QStringLiteral("multipath.fail-path"));
        QCOMPARE(plan.target, mapName);
        QVERIFY(plan.summary.contains(mapName));
        QVERIFY(plan.needsAnswers());
        QVERIFY2(riskTexts(plan).contains(QLatin1String("last active path")), qPrintable(riskTexts(plan)));
        QVERIFY(riskTexts(plan).contains(QLatin1String("queue_if_no_path is off")));
        QTest::qWait(100); // deliberate negative check: nothing is sent while the dialog is open
        QVERIFY(finished.isEmpty());
        QVERIFY(!m_dm->receivedMessages(mapName).contains(QLatin1String("fail_path 8:0")));
        dialog->runButton()->click();
        QVERIFY(finished.wait(5000));
        const auto result = finished.first().first().value<OperationResult>();
        QVERIFY2(result.ok, qPrintable(result.error));
        QVERIFY(m_dm->receivedMessages(mapName).contains(QLatin1String("fail_path 8:0")));
        QVERIFY(result.warnings.join(QLatin1Char(' ')).contains(QLatin1String("last active path")));
    }

    void riskOfAGroupWithoutActivePath()
    {
        QVERIFY(m_dm->message(mapName, QStringLiteral("fail_path 8:0")));
        QVERIFY(m_panel->actions()->failPath(mapName, QStringLiteral("8:16")));
        PlanDialog *dialog = waitForPlan(m_panel->actions());
        QVERIFY(dialog);
        QVERIFY2(riskTexts(dialog->plan()).contains(QLatin1String("without an active path")),
            qPrintable(riskTexts(dialog->plan())));
        dialog->reject();
    }

    void riskOfDisablingTheActiveGroup()
    {
        QVERIFY(m_dm->simulateIo(mapName));
        QVERIFY(m_panel->actions()->disableGroup(mapName, 1));
        PlanDialog *dialog = waitForPlan(m_panel->actions());
        QVERIFY(dialog);
        QVERIFY2(
            riskTexts(dialog->plan()).contains(QLatin1String("active group")), qPrintable(riskTexts(dialog->plan())));
        dialog->reject();
        // Group 2 is not in use: no risk, still asked (it changes where I/O may go).
        QVERIFY(m_panel->actions()->disableGroup(mapName, 2));
        dialog = waitForPlan(m_panel->actions());
        QVERIFY(dialog);
        QVERIFY(dialog->plan().risks.isEmpty());
        dialog->reject();
        QVERIFY(!m_dm->receivedMessages(mapName).contains(QLatin1String("disable_group 2")));
    }

    void operationRunsAndIsReported()
    {
        QVERIFY(showAndRead());
        QSignalSpy finished(m_panel.get(), &PathGroupsPanel::operationFinished);
        QSignalSpy messages(m_panel.get(), &PathGroupsPanel::statusMessage);
        QSignalSpy refresh(m_panel.get(), &PathGroupsPanel::refreshRequested);
        QSignalSpy asked(m_panel->actions(), &MultipathActions::planOpened);
        const int readsBefore = m_panel->chart()->statusCount();
        QVERIFY(m_panel->actions()->failPath(mapName, QStringLiteral("8:16")));
        QVERIFY(asked.wait(5000));
        PlanDialog *dialog = asked.last().first().value<PlanDialog *>();
        QVERIFY(dialog->plan().risks.isEmpty()); // three paths stay active
        dialog->runButton()->click();
        QVERIFY(finished.wait(5000));
        const auto result = finished.first().first().value<OperationResult>();
        QVERIFY2(result.ok, qPrintable(result.error));
        QCOMPARE(result.details.value(QLatin1String("operation")).toString(), QStringLiteral("fail_path 8:16"));
        QVERIFY(!liveStatus(*m_dm).groups.at(0).paths.at(1).active);
        QTRY_VERIFY(!messages.isEmpty());
        QVERIFY(messages.last().first().toString().contains(QLatin1String("mpatha: fail_path 8:16 done")));
        QTRY_COMPARE(refresh.size(), 1); // discovery rescans
        // The panel read the status back: the editor shows the failure, the chart marks it.
        QTRY_COMPARE(m_panel->editor()->groupModel(0)->index(1, 1).data().toString(), QStringLiteral("failed"));
        QVERIFY(m_panel->chart()->statusCount() > readsBefore);
        QCOMPARE(m_panel->chart()->markers().size(), 1);
        QCOMPARE(m_panel->chart()->markers().first().kind, SelectorChartMarker::PathFailed);
        QCOMPARE(m_panel->chart()->markers().first().label, QStringLiteral("sdb failed"));

        // Reinstating is safe: not asked.
        finished.clear();
        QVERIFY(m_panel->actions()->reinstatePath(mapName, QStringLiteral("8:16")));
        QVERIFY(finished.wait(5000));
        QCOMPARE(asked.size(), 1);
        QVERIFY(liveStatus(*m_dm).groups.at(0).paths.at(1).active);
    }

    void treeContextMenu()
    {
        QVERIFY(m_dm->message(mapName, QStringLiteral("fail_path 8:48")));
        const DeviceSnapshot snapshot = snapshotOf(m_tree, *m_dm);
        m_panel->setSnapshot(snapshot);
        DeviceTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(snapshot);
        DeviceTreeView view;
        view.setModel(&model);
        view.addContextMenuProvider(
            [this](QMenu *menu, const QModelIndex &index) { m_panel->actions()->fillMenu(menu, index); });

        const QModelIndex mapRow = findKey(model, QStringLiteral("map/mpatha"));
        const QModelIndex activeGroup = findKey(model, QStringLiteral("map/mpatha/group/1"));
        const QModelIndex groupRow = findKey(model, QStringLiteral("map/mpatha/group/2"));
        const QModelIndex activePath = findKey(model, QStringLiteral("map/mpatha/group/1/path/sdb"));
        const QModelIndex failedPath = findKey(model, QStringLiteral("map/mpatha/group/2/path/sdd"));
        QVERIFY(mapRow.isValid() && activeGroup.isValid() && groupRow.isValid() && activePath.isValid()
            && failedPath.isValid());

        QMenu mapMenu;
        view.fillContextMenu(&mapMenu, mapRow);
        QCOMPARE(menuActions(mapMenu),
            (QMap<QString, bool> {
                { QStringLiteral("editPathGroups"), true }, { QStringLiteral("setQueueing"), true } }));
        const auto trigger = [](QMenu &menu, QLatin1String name) {
            for (QAction *action : menu.actions()) {
                if (action->objectName() == name)
                    action->trigger();
            }
        };
        QSignalSpy edit(m_panel->actions(), &MultipathActions::editPathGroupsRequested);
        trigger(mapMenu, QLatin1String("editPathGroups"));
        QCOMPARE(edit.size(), 1);
        QCOMPARE(m_panel->shownMap(), mapName);
        // queue_if_no_path is off in the fixture's table: the map's menu turns it on (no risk, so no question).
        {
            QSignalSpy queued(m_panel.get(), &PathGroupsPanel::operationFinished);
            trigger(mapMenu, QLatin1String("setQueueing"));
            QVERIFY(queued.wait(5000));
            QVERIFY2(queued.first().first().value<OperationResult>().ok,
                qPrintable(queued.first().first().value<OperationResult>().error));
            QVERIFY(m_dm->receivedMessages(mapName).contains(QLatin1String("queue_if_no_path")));
        }

        QMenu activeMenu;
        view.fillContextMenu(&activeMenu, activeGroup);
        // Group 1 is the active group: nothing to switch to or enable.
        QCOMPARE(menuActions(activeMenu),
            (QMap<QString, bool> { { QStringLiteral("switchGroup"), false }, { QStringLiteral("enableGroup"), false },
                { QStringLiteral("disableGroup"), true } }));
        QMenu groupMenu;
        view.fillContextMenu(&groupMenu, groupRow.siblingAtColumn(2));
        // Group 2 is enabled, not in use: switch and disable, not enable.
        QCOMPARE(menuActions(groupMenu),
            (QMap<QString, bool> { { QStringLiteral("switchGroup"), true }, { QStringLiteral("enableGroup"), false },
                { QStringLiteral("disableGroup"), true } }));

        QMenu pathMenu;
        view.fillContextMenu(&pathMenu, activePath);
        QCOMPARE(menuActions(pathMenu),
            (QMap<QString, bool> { { QStringLiteral("failPath"), true }, { QStringLiteral("reinstatePath"), false } }));
        const MultipathRowTarget target = m_panel->actions()->targetOf(activePath);
        QCOMPARE(target.kind, MultipathRowTarget::Path);
        QCOMPARE(target.device, QStringLiteral("8:16"));
        QCOMPARE(target.group, 1);

        QMenu failedMenu;
        view.fillContextMenu(&failedMenu, failedPath);
        QCOMPARE(menuActions(failedMenu),
            (QMap<QString, bool> { { QStringLiteral("failPath"), false }, { QStringLiteral("reinstatePath"), true } }));
        QSignalSpy finished(m_panel.get(), &PathGroupsPanel::operationFinished);
        for (QAction *action : failedMenu.actions()) {
            if (action->objectName() == QLatin1String("reinstatePath"))
                action->trigger();
        }
        QVERIFY(finished.wait(5000));
        QVERIFY(m_dm->receivedMessages(mapName).contains(QLatin1String("reinstate_path 8:48")));

        // Switching group from the menu asks first, naming the map.
        QSignalSpy asked(m_panel->actions(), &MultipathActions::planOpened);
        for (QAction *action : groupMenu.actions()) {
            if (action->objectName() == QLatin1String("switchGroup"))
                action->trigger();
        }
        QVERIFY(asked.wait(5000));
        PlanDialog *dialog = asked.first().first().value<PlanDialog *>();
        QVERIFY(dialog->windowTitle().contains(mapName));
        QVERIFY(dialog->windowTitle().contains(QLatin1String("group 2")));
        dialog->reject();
        QTest::qWait(50); // deliberate negative check: no switch_group is sent after Cancel
        QVERIFY(!m_dm->receivedMessages(mapName).contains(QLatin1String("switch_group 2")));
    }

    void selectorChart_data()
    {
        QTest::addColumn<QString>("table");
        QTest::addColumn<QStringList>("statuses");
        QTest::addColumn<QStringList>("series");
        QTest::addColumn<QStringList>("markers");

        const QString st
            = QStringLiteral("0 0 2 1 service-time 0 2 2 8:0 1 1 8:16 1 1 queue-length 0 2 1 8:32 1 8:48 1");
        QTest::newRow("service-time and queue-length")
            << st
            << QStringList { QStringLiteral(
                                 "2 0 0 0 2 1 A 0 2 2 8:0 A 0 4096 1 8:16 A 0 0 1 E 0 2 1 8:32 A 0 0 8:48 A 0 0"),
                   QStringLiteral("2 0 0 0 2 1 A 0 2 2 8:0 A 0 8192 1 8:16 F 1 0 1 E 0 2 1 8:32 A 0 0 8:48 A 0 0"),
                   QStringLiteral("2 0 0 0 2 2 E 0 2 2 8:0 F 1 0 1 8:16 F 1 0 1 A 0 2 1 8:32 A 0 3 8:48 A 0 5") }
            << QStringList { QStringLiteral("sda fail count"), QStringLiteral("sda in-flight bytes"),
                   QStringLiteral("sdb fail count"), QStringLiteral("sdb in-flight bytes"),
                   QStringLiteral("sdc fail count"), QStringLiteral("sdc in-flight I/Os"),
                   QStringLiteral("sdd fail count"), QStringLiteral("sdd in-flight I/Os") }
            << QStringList { QStringLiteral("sdb failed"), QStringLiteral("group 1 → 2"),
                   QStringLiteral("sda failed") };
        QTest::newRow("round-robin: fail counts only")
            << tableParams
            << QStringList { test::fixtureStatusParams(),
                   QStringLiteral("2 0 0 0 2 1 A 0 2 0 8:0 A 0 8:16 F 1 E 0 2 0 8:32 A 0 8:48 A 0"),
                   QStringLiteral("2 0 0 0 2 1 A 0 2 0 8:0 A 0 8:16 A 1 E 0 2 0 8:32 A 0 8:48 A 0") }
            << QStringList { QStringLiteral("sda fail count"), QStringLiteral("sdb fail count"),
                   QStringLiteral("sdc fail count"), QStringLiteral("sdd fail count") }
            << QStringList { QStringLiteral("sdb failed"), QStringLiteral("sdb back") };
        QTest::newRow("historical-service-time: outstanding I/Os; a reload")
            << QStringLiteral("0 0 1 1 historical-service-time 0 2 1 8:0 1 8:16 1")
            << QStringList { QStringLiteral("2 0 0 0 1 1 A 0 2 3 8:0 A 0 1024 2 0 8:16 A 0 2048 0 0"),
                   QStringLiteral("2 0 0 0 1 1 E 0 2 3 8:0 A 0 1024 0 0 8:16 A 0 2048 1 0") }
            << QStringList { QStringLiteral("sda fail count"), QStringLiteral("sda in-flight I/Os"),
                   QStringLiteral("sdb fail count"), QStringLiteral("sdb in-flight I/Os") }
            << QStringList();
    }

    void selectorChart()
    {
        QFETCH(QString, table);
        QFETCH(QStringList, statuses);
        QFETCH(QStringList, series);
        QFETCH(QStringList, markers);
        SelectorChart chart;
        chart.resize(700, 260);
        chart.setDeviceNames(
            { { QStringLiteral("8:0"), QStringLiteral("sda") }, { QStringLiteral("8:16"), QStringLiteral("sdb") },
                { QStringLiteral("8:32"), QStringLiteral("sdc") }, { QStringLiteral("8:48"), QStringLiteral("sdd") } });
        const MultipathTable parsedTable = parseMultipathTable(table).value();
        double t = 1'700'000'000;
        for (const QString &text : statuses) {
            const auto status = parseMultipathStatus(text);
            QVERIFY2(status, qPrintable(status.errorMessage()));
            chart.addStatus(t, parsedTable, status.value());
            t += 1;
        }
        QStringList names = chart.seriesNames();
        names.sort();
        QCOMPARE(names, series);
        for (const QString &name : series)
            QCOMPARE(chart.pointCount(name), int(statuses.size()));
        QStringList labels;
        for (const SelectorChartMarker &marker : chart.markers())
            labels << marker.label;
        QCOMPARE(labels, markers);
        QCOMPARE(chart.statusCount(), statuses.size());
        QVERIFY(!chart.grab().isNull());
    }

    void selectorChartValuesAndWindow()
    {
        SelectorChart chart;
        chart.setWindow(30);
        const MultipathTable table = parseMultipathTable(QStringLiteral("0 0 1 1 queue-length 0 1 1 8:0 1")).value();
        for (int i = 0; i < 100; ++i) {
            const auto status = parseMultipathStatus(QStringLiteral("2 0 0 0 1 1 A 0 1 1 8:0 %1 %2 %3")
                                                         .arg(i % 10 == 5 ? QStringLiteral("F") : QStringLiteral("A"))
                                                         .arg(i / 10)
                                                         .arg(i));
            chart.addStatus(1000 + i, table, status.value());
        }
        // Only the last 30 s are kept, points and markers alike.
        QCOMPARE(chart.pointCount(QStringLiteral("8:0 in-flight I/Os")), 31);
        QCOMPARE(chart.lastValue(QStringLiteral("8:0 in-flight I/Os")), 99.0);
        QCOMPARE(chart.lastValue(QStringLiteral("8:0 fail count")), 9.0);
        for (const SelectorChartMarker &marker : chart.markers())
            QVERIFY(marker.time >= 1099 - 30);
        QCOMPARE(chart.markers().size(), 6); // 3 failures and 3 reinstatements in the window
        chart.clear();
        QVERIFY(chart.seriesNames().isEmpty());
        QVERIFY(chart.markers().isEmpty());
    }

    void withoutDeviceMapper()
    {
        // A captured tree: device-mapper is not queried; the tab says why and edits nothing.
        PathGroupsPanel panel(std::make_shared<const HostContext>(SysfsRoot(QDir::tempPath(), QString())));
        QVERIFY(!panel.deviceMapperAvailable());
        QVERIFY(panel.unavailableReason().contains(QLatin1String("captured")));
        DeviceSnapshot snapshot = snapshotOf(m_tree, *m_dm);
        MultipathMap &map = snapshot.maps[0];
        map.groupsKnown = false;
        map.groups.clear();
        map.groupsUnknownReason = QStringLiteral("device-mapper: not available (no dm_mod in /sys/module)");
        panel.setSnapshot(snapshot);
        QVERIFY(panel.showDevice(QStringLiteral("sdb")));
        QCOMPARE(panel.shownMap(), mapName);
        PathGroupEditor *editor = panel.editor();
        QVERIFY(!editor->isEditable());
        QVERIFY2(editor->bannerText().contains(map.groupsUnknownReason), qPrintable(editor->bannerText()));
        QVERIFY(editor->bannerText().contains(QLatin1String("Editing is off")));
        QCOMPARE(editor->groupColumnCount(), 0);
        QVERIFY(!editor->movePath(QStringLiteral("8:0"), 1));
        QVERIFY(!editor->apply());
        QVERIFY(panel.chart()->markers().isEmpty());

        // The tree's actions are there but off, with the reason.
        DeviceTreeModel model;
        model.setSnapshot(snapshot);
        QMenu menu;
        panel.actions()->fillMenu(&menu, findKey(model, QStringLiteral("map/mpatha/group/unknown/path/sdb")));
        QCOMPARE(menuActions(menu),
            (QMap<QString, bool> {
                { QStringLiteral("failPath"), false }, { QStringLiteral("reinstatePath"), false } }));
        QVERIFY(menu.actions().first()->toolTip().contains(QLatin1String("captured")));

        // Not a map: the tab asks for one.
        QVERIFY(!panel.showDevice(QStringLiteral("nvme0n1")));
        QVERIFY(editor->bannerText().contains(QLatin1String("Select a multipath map")));
    }
};

QTEST_MAIN(TestPathGroupEditor)
#include "tst_pathgroupeditor.moc"
