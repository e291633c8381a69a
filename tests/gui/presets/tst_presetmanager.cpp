// gui (offscreen): the preset manager lists the built-in presets, previews a preset against the
// seed's multipath fixture (rows: device, attribute, current -> preset, state, rule), applies it
// through the TuningSession (values land in the temp tree, markers are emitted), verifies, rejects a
// bad edit with the field named, and exports. Saves a picture of itself for docs/. For a user (the helper mode)
// the preset's writes go to dmtune-helper, as the Tune tab's do, never written by the GUI's process.
#include "tests/common/fakesysfs.h"
#include "tests/common/multipathfixture.h"
#include "tests/common/testpaths.h"

#include "core/discovery/discovery.h"
#include "core/params/tuningsession.h"
#include "core/presets/presetjson.h"
#include "core/presets/presetkeeper.h"
#include "tests/common/fakedevicemapper.h"
#include "widgets/ops/plandialog.h"
#include "widgets/presets/presetmanager.h"
#include "widgets/presets/presetpreviewmodel.h"

#include <QAbstractButton>
#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QCoreApplication>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace dmtune;

class TestPresetManager : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void listsBuiltIns();
    void previewRows();
    void applyVerify();
    void badEditNamesField();
    void exportText();
    void keepAppliedOnNewPath();
    void multipathSettingsAllOrNothing();
    void writeThroughAsksTypedConfirmation();
    void saveOverStoredPresetAsks();
    void appliesThroughTheHelperForAUser();
    void newFromSelectionReadsOnAJob();

private:
    QString attr(const QString &device, const QString &attribute) const
    {
        return SysfsRoot(m_tree.root(), QString()).readOr(QStringLiteral("block/%1/%2").arg(device, attribute));
    }
    test::FakeSysfs m_tree;
    std::unique_ptr<TuningSession> m_session;
    std::unique_ptr<PresetManager> m_manager;
};

void TestPresetManager::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // user presets in a test dir, never the real config
    test::buildMultipathFixture(m_tree);
    const SysfsRoot sysfs = SysfsRoot::scratch(m_tree.root());
    m_session = std::make_unique<TuningSession>(sysfs, Applier::Mode::InProcess);
    m_manager = std::make_unique<PresetManager>(m_session.get());
    m_manager->resize(1100, 640);
    m_manager->setSnapshot(Discovery::scan(sysfs));
    QTRY_VERIFY(!m_manager->isResolving()); // the preview is read on a job
    m_manager->show();
    new QAbstractItemModelTester(
        m_manager->previewModel(), QAbstractItemModelTester::FailureReportingMode::QtTest, this);
}

void TestPresetManager::listsBuiltIns()
{
    QStringList names;
    for (int i = 0; i < m_manager->presetList()->count(); ++i)
        names << m_manager->presetList()->item(i)->text();
    QVERIFY2(names.contains(QStringLiteral("Low-latency random I/O  (built-in)")), qPrintable(names.join(u'|')));
    QVERIFY(names.contains(QStringLiteral("max_sectors_kb 128 against long SG lists  (built-in)")));
    QVERIFY(names.contains(QStringLiteral("Merge-friendly sequential writes (request-based multipath)  (built-in)")));
}

void TestPresetManager::previewRows()
{
    QVERIFY(m_manager->selectPreset(QStringLiteral("merge-friendly-sequential-writes")));
    QTRY_VERIFY(!m_manager->isResolving()); // the preview is read on a job
    const QStringList lines = m_manager->previewModel()->lines();
    QCOMPARE(lines.size(), 3 + 4 * 2);
    QVERIFY2(
        lines.contains(QStringLiteral("dm-0 queue/nr_requests 128 -> 256 [differs]")), qPrintable(lines.join(u'\n')));
    QVERIFY(lines.contains(QStringLiteral("sdc device/queue_depth 32 -> 16 [differs]")));
    QVERIFY(lines.contains(QStringLiteral("sdc queue/scheduler none -> none [same]")));
    const QModelIndex rule = m_manager->previewModel()->index(0, PresetPreviewModel::RuleColumn);
    QCOMPARE(rule.data().toString(), QStringLiteral("rule 1 (the multipath maps)"));
    QTRY_VERIFY(m_manager->isVisible()); // the preview is in (above); its layout is on posted events
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    m_manager->grab().save(DMTUNE_BINARY_PATH("/presets-manager.png"));
}

void TestPresetManager::applyVerify()
{
    QSignalSpy finished(m_session.get(), &TuningSession::finished);
    QSignalSpy markers(m_session.get(), &TuningSession::parameterChanged);
    QVERIFY(m_manager->applyCurrent());
    QVERIFY(finished.wait(10000));
    QCOMPARE(attr(QStringLiteral("dm-0"), QStringLiteral("queue/nr_requests")), QStringLiteral("256"));
    QCOMPARE(attr(QStringLiteral("sdb"), QStringLiteral("device/queue_depth")), QStringLiteral("16"));
    QCOMPARE(markers.size(), 5); // one chart marker per value written
    QVERIFY2(
        m_manager->statusText().startsWith(QStringLiteral("Applied 5 writes")), qPrintable(m_manager->statusText()));
    m_manager->verifyCurrent();
    QTRY_VERIFY(!m_manager->isResolving()); // the preview is read on a job
    QCOMPARE(m_manager->previewModel()->rowCount(), 0);
    QVERIFY2(m_manager->statusText().contains(QStringLiteral("no drift")), qPrintable(m_manager->statusText()));
    // Out of band: drift shows up.
    m_tree.file(m_tree.devicePath(QStringLiteral("sdd")) + QStringLiteral("/device/queue_depth"), QStringLiteral("4"));
    m_manager->verifyCurrent();
    QTRY_VERIFY(!m_manager->isResolving()); // the preview is read on a job
    QCOMPARE(
        m_manager->previewModel()->lines(), QStringList { QStringLiteral("sdd device/queue_depth 4 -> 16 [differs]") });
}

void TestPresetManager::badEditNamesField()
{
    QString text = m_manager->editor()->toPlainText();
    text.replace(QStringLiteral("\"device/queue_depth\": 16"), QStringLiteral("\"device/queue_depth\": 0"));
    m_manager->editor()->setPlainText(text);
    QVERIFY2(
        m_manager->validationText().contains(QStringLiteral("rule 2, field &quot;settings.device/queue_depth&quot;")),
        qPrintable(m_manager->validationText()));
    text.replace(QStringLiteral("\"device/queue_depth\": 0"), QStringLiteral("\"device/queue_depth\": 8"));
    m_manager->editor()->setPlainText(text);
    QCOMPARE(m_manager->validationText(), QStringLiteral("valid"));
    QTRY_VERIFY(
        m_manager->previewModel()->lines().contains(QStringLiteral("sda device/queue_depth 16 -> 8 [differs]")));
}

void TestPresetManager::exportText()
{
    const QString udev = m_manager->exportText(QStringLiteral("udev"));
    QVERIFY2(udev.contains(QStringLiteral("ENV{DM_UUID}==\"mpath-*\", ATTR{queue/scheduler}=\"mq-deadline\"")),
        qPrintable(udev));
    QVERIFY(udev.contains(QStringLiteral("match \"paths of the maps matching\"")));
    QVERIFY(m_manager->exportText(QStringLiteral("multipath"))
                .contains(QStringLiteral("multipath.conf has no such setting")));
}

void TestPresetManager::keepAppliedOnNewPath()
{
    // The LUN's WWID, not its names: a fifth path that turns up later gets the depth too.
    const auto preset = parsePreset(R"({"schema": 1, "name": "LUN depth", "rules": [
        {"match": {"wwid": "naa.6001405aaaaaaaaa"}, "settings": {"device/queue_depth": 12}}]})");
    QVERIFY(preset);
    m_manager->showPreset(*preset);
    QTRY_VERIFY(!m_manager->isResolving()); // the preview is read on a job
    auto *keep = m_manager->findChild<QCheckBox *>(QStringLiteral("keepApplied"));
    QVERIFY(keep && keep->text().contains(QStringLiteral("Keep applied")));
    keep->setChecked(true);
    QVERIFY(m_manager->keeper()->isActive());
    QSignalSpy finished(m_session.get(), &TuningSession::finished);
    m_tree.scsiDisk(QStringLiteral("sde"), QStringLiteral("8:64"), QStringLiteral("4:0:0:0"), QStringLiteral("LIO-ORG"),
        QStringLiteral("disk0"), QStringLiteral("naa.6001405aaaaaaaaa"), 2097152, 32);
    m_tree.file(QStringLiteral("class/scsi_host/host4/can_queue"), QStringLiteral("64"), false);
    m_manager->setSnapshot(Discovery::scan(SysfsRoot(m_tree.root(), QString())));
    QVERIFY(finished.wait(10000));
    QCOMPARE(attr(QStringLiteral("sde"), QStringLiteral("device/queue_depth")), QStringLiteral("12"));
    QCOMPARE(
        attr(QStringLiteral("sda"), QStringLiteral("device/queue_depth")), QStringLiteral("16")); // only the new path
    QVERIFY2(m_manager->statusText().startsWith(QStringLiteral("Kept applied (sde appeared): 1 writes")),
        qPrintable(m_manager->statusText()));
    QCOMPARE(m_session->history()->entries().size(), 2); // the preset's apply, then this one
    keep->setChecked(false);
    QVERIFY(!m_manager->keeper()->isActive());
}

// A preset with a selector for mpatha: the table is reloaded first, then the queue values are written; when
// the writes fail, the old table comes back.
void TestPresetManager::multipathSettingsAllOrNothing()
{
    FakeDeviceMapper fake;
    const QString before = test::fixtureTableParams();
    QVERIFY(test::addFixtureMap(fake));
    m_manager->setDeviceMapperFactory(
        [&fake] { return std::unique_ptr<DeviceMapper>(new FakeDeviceMapperHandle(&fake)); });
    auto presetWith = [](const char *settings) {
        return parsePreset(
            QByteArray(R"({"schema": 1, "name": "st", "rules": [{"match": {"dmUuid": "mpath-36001405aaaaaaaaa"},
            "multipath": {"selector": "service-time 0"}, "settings": {)")
            + settings + "}}]}");
    };
    const auto good = presetWith(R"("queue/nr_requests": 96)");
    QVERIFY2(good, qPrintable(good.errorMessage()));
    m_manager->showPreset(*good);
    QTRY_VERIFY(!m_manager->isResolving()); // the preview is read on a job
    QSignalSpy finished(m_session.get(), &TuningSession::finished);
    QVERIFY(m_manager->applyCurrent());
    QVERIFY(finished.wait(10000));
    QVERIFY(fake.table(QStringLiteral("mpatha")).value().first().params.contains(QLatin1String("service-time 0")));
    QCOMPARE(attr(QStringLiteral("dm-0"), QStringLiteral("queue/nr_requests")), QStringLiteral("96"));
    QVERIFY2(m_manager->statusText().startsWith(QStringLiteral("Applied")), qPrintable(m_manager->statusText()));

    // A reload the kernel refuses: nothing is written.
    fake.failNextLoad(QStringLiteral("mpatha"), QStringLiteral("Invalid argument"));
    QVERIFY(fake.reload(QStringLiteral("mpatha"),
                    { parseTargetLine(QStringLiteral("0 2097152 multipath ") + before).value() })
                .errorMessage()
                .contains(QLatin1String("Invalid argument")));
    QVERIFY(fake.reload(
        QStringLiteral("mpatha"), { parseTargetLine(QStringLiteral("0 2097152 multipath ") + before).value() }));
    fake.failNextLoad(QStringLiteral("mpatha"), QStringLiteral("Invalid argument"));
    m_manager->showPreset(*presetWith(R"("queue/nr_requests": 72)"));
    QTRY_VERIFY(!m_manager->isResolving()); // the preview is read on a job
    QVERIFY(m_manager->applyCurrent());
    QTRY_VERIFY_WITH_TIMEOUT(
        m_manager->statusText().startsWith(QLatin1String("Multipath settings not applied")), 10000);
    QCOMPARE(fake.table(QStringLiteral("mpatha")).value().first().params, before);
    QCOMPARE(attr(QStringLiteral("dm-0"), QStringLiteral("queue/nr_requests")), QStringLiteral("96"));

    // A value the planner rejects (max_sectors_kb above the map's max_hw_sectors_kb, 4096) refuses the whole preset
    // before any table is touched (as dmtunectl does): no reload, no write.
    m_manager->showPreset(*presetWith(R"("queue/nr_requests": 64, "queue/max_sectors_kb": 8192)"));
    QTRY_VERIFY(!m_manager->isResolving()); // the preview is read on a job
    finished.clear();
    QVERIFY(m_manager->applyCurrent());
    QTRY_VERIFY_WITH_TIMEOUT(
        m_manager->statusText().contains(QLatin1String("not applied: dm-0 queue/max_sectors_kb=8192")), 10000);
    QCOMPARE(finished.count(), 0);
    QCOMPARE(fake.table(QStringLiteral("mpatha")).value().first().params, before);
    QCOMPARE(attr(QStringLiteral("dm-0"), QStringLiteral("queue/nr_requests")), QStringLiteral("96"));
    m_manager->setDeviceMapperFactory({});
}

void TestPresetManager::writeThroughAsksTypedConfirmation()
{
    // A preset that turns sdb's write cache flushes off: the preview says so, Apply asks for the device's name.
    m_tree.file(
        m_tree.devicePath(QStringLiteral("sdb")) + QStringLiteral("/queue/write_cache"), QStringLiteral("write back"));
    m_manager->setSnapshot(Discovery::scan(SysfsRoot(m_tree.root(), QString())));
    QTRY_VERIFY(!m_manager->isResolving()); // the preview is read on a job
    const auto preset = parsePreset(R"({"schema": 1, "name": "no flushes", "rules": [
        {"match": {"name": "sdb"}, "settings": {"queue/write_cache": "write through", "queue/nomerges": 1}}]})");
    QVERIFY2(preset, qPrintable(preset.errorMessage()));
    m_manager->showPreset(*preset);
    QTRY_VERIFY(!m_manager->isResolving()); // the preview is read on a job
    const QStringList lines = m_manager->previewModel()->lines();
    QVERIFY2(lines.contains(
                 QStringLiteral("sdb queue/write_cache write back -> write through [differs, puts data at risk]")),
        qPrintable(lines.join(u'\n')));
    QSignalSpy finished(m_session.get(), &TuningSession::finished);
    QVERIFY(m_manager->applyCurrent());
    QTRY_VERIFY(m_manager->pendingPlanDialog());
    PlanDialog *dialog = m_manager->pendingPlanDialog();
    QCOMPARE(dialog->confirmWord(), QStringLiteral("sdb"));
    dialog->reject();
    QTest::qWait(50); // deliberate negative check: nothing is written after Cancel
    QCOMPARE(finished.count(), 0);
    QCOMPARE(attr(QStringLiteral("sdb"), QStringLiteral("queue/write_cache")), QStringLiteral("write back"));
    QCOMPARE(attr(QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("0"));
    QVERIFY2(m_manager->statusText().contains(QStringLiteral("not confirmed")), qPrintable(m_manager->statusText()));

    QTRY_VERIFY(!m_manager->pendingPlanDialog());
    QVERIFY(m_manager->applyCurrent());
    QTRY_VERIFY(m_manager->pendingPlanDialog());
    dialog = m_manager->pendingPlanDialog();
    QVERIFY(!dialog->runButton()->isEnabled());
    QTest::keyClicks(dialog->wordEdit(), QStringLiteral("sdb"));
    QTest::mouseClick(dialog->runButton(), Qt::LeftButton);
    QVERIFY(finished.wait(10000));
    QCOMPARE(attr(QStringLiteral("sdb"), QStringLiteral("queue/write_cache")), QStringLiteral("write through"));
    QCOMPARE(attr(QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("1"));
}

void TestPresetManager::saveOverStoredPresetAsks()
{
    const auto preset = parsePreset(R"({"schema": 1, "name": "Mine", "rules": [
        {"match": {"name": "sdb"}, "settings": {"queue/nomerges": 1}}]})");
    QVERIFY(preset);
    m_manager->showPreset(*preset);
    QTRY_VERIFY(!m_manager->isResolving()); // the preview is read on a job
    const auto first = m_manager->saveEdited();
    QVERIFY2(first, qPrintable(first.errorMessage()));
    QVERIFY(!m_manager->pendingReplaceConfirmation());
    // Another preset whose name gives the same file: asked, nothing replaced until "Replace".
    QString text = m_manager->editor()->toPlainText();
    text.replace(QStringLiteral("\"Mine\""), QStringLiteral("\"mine\""))
        .replace(QStringLiteral("\"queue/nomerges\": 1"), QStringLiteral("\"queue/nomerges\": 2"));
    m_manager->editor()->setPlainText(text);
    const auto second = m_manager->saveEdited();
    QVERIFY(!second);
    QVERIFY2(second.errorMessage().contains(QStringLiteral("exists")), qPrintable(second.errorMessage()));
    QMessageBox *box = m_manager->pendingReplaceConfirmation();
    QVERIFY(box && box->isVisible());
    QCOMPARE(loadPresetFile(*first)->name, QStringLiteral("Mine"));
    QAbstractButton *replace = nullptr;
    for (QAbstractButton *b : box->buttons()) {
        if (b->text() == QStringLiteral("Replace"))
            replace = b;
    }
    QVERIFY(replace);
    QTest::mouseClick(replace, Qt::LeftButton);
    QTRY_COMPARE(loadPresetFile(*first)->name, QStringLiteral("mine"));
    QVERIFY2(m_manager->statusText().contains(QStringLiteral("replaced")), qPrintable(m_manager->statusText()));
    QFile::remove(*first);
}

// "New from selection" reads the devices' settings on the manager's job, then stores the preset; without a
// selection nothing starts.
void TestPresetManager::newFromSelectionReadsOnAJob()
{
    QSignalSpy saved(m_manager.get(), &PresetManager::newPresetSaved);
    m_manager->setSelection({});
    QVERIFY(!m_manager->newFromSelection(QStringLiteral("Nothing")));
    QCOMPARE(saved.size(), 1);
    QCOMPARE(saved.takeFirst().at(0).toBool(), false);

    m_manager->setSelection({ QStringLiteral("sdc") });
    QVERIFY(m_manager->newFromSelection(QStringLiteral("From sdc")));
    QVERIFY(m_manager->statusText().contains(QStringLiteral("Reading the settings of sdc")));
    QVERIFY(saved.wait(5000));
    const QList<QVariant> args = saved.takeFirst();
    QVERIFY2(args.at(0).toBool(), qPrintable(args.at(1).toString()));
    const QString path = args.at(1).toString();
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QVERIFY2(text.contains("\"From sdc\"") && text.contains("device/queue_depth"), text.constData());
    QVERIFY(loadPresetFile(path));
    QFile::remove(path);
}

void TestPresetManager::appliesThroughTheHelperForAUser()
{
    const QString sh = QStandardPaths::findExecutable(QStringLiteral("sh"));
    if (sh.isEmpty())
        QSKIP("no sh");
    test::FakeSysfs tree;
    test::buildMultipathFixture(tree);
    const SysfsRoot sysfs = SysfsRoot::scratch(tree.root());
    // As a user would have it: every transaction through the helper (a stand-in that keeps its request and
    // answers as dmtune-helper does; it writes nothing).
    TuningSession session(sysfs, Applier::Mode::Helper);
    QVERIFY(session.applier()->usesHelper());
    QTemporaryDir dir;
    const QString request = dir.filePath(QStringLiteral("request.json"));
    session.applier()->setHelperCommand(sh,
        { QStringLiteral("-c"),
            QStringLiteral("cat > '%1'; echo '{\"ok\":true,\"dry_run\":false,\"rolled_back\":false,"
                           "\"executor\":\"helper\",\"changes\":[{\"device\":\"sdc\",\"attribute\":"
                           "\"queue/nomerges\",\"old\":\"0\",\"requested\":\"1\",\"new\":\"1\","
                           "\"written\":true}],\"errors\":[],\"warnings\":[]}'")
                .arg(request) });
    PresetManager manager(&session);
    manager.setSnapshot(Discovery::scan(sysfs));
    const auto preset = parsePreset(
        R"({"schema": 1, "name": "by helper", "rules": [{"match": {"name": "sdc"}, "settings": {"queue/nomerges": 1}}]})");
    QVERIFY2(preset, qPrintable(preset.errorMessage()));
    manager.showPreset(*preset);
    QTRY_VERIFY(!manager.isResolving());
    QSignalSpy finished(&session, &TuningSession::finished);
    QVERIFY(manager.applyCurrent());
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.first().first().value<ApplyResult>().executor, QStringLiteral("helper"));
    QVERIFY2(manager.statusText().startsWith(QStringLiteral("Applied 1 writes")), qPrintable(manager.statusText()));
    QFile sent(request);
    QVERIFY(sent.open(QIODevice::ReadOnly));
    const QByteArray json = sent.readAll();
    QVERIFY2(
        json.contains("\"device\":\"sdc\"") && json.contains("\"attribute\":\"queue/nomerges\""), json.constData());
    // The GUI's process wrote nothing: the value is the tree's own (the stand-in does not write).
    QCOMPARE(SysfsRoot(tree.root(), QString()).readOr(QStringLiteral("block/sdc/queue/nomerges")), QStringLiteral("0"));
    QCOMPARE(session.history()->entries().size(), 1); // into the window's history (Undo) like any transaction
}

QTEST_MAIN(TestPresetManager)
#include "tst_presetmanager.moc"
