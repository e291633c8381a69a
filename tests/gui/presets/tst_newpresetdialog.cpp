// gui (offscreen): "New from selection" on the standard machine. The manager records the values
// it first sees; one attribute is changed through the tuning session and another out of band; the dialog lists
// sdm's writable attributes with exactly those two checked (with the reason), refuses an empty, a built-in's and a
// stored preset's name and an empty choice in one line with Save disabled, and Save stores a preset holding only
// the checked attributes (through the core's presetFromSelection, as dmtunectl preset save --attr).
#include "tests/common/fakesysfs.h"
#include "tests/common/standardmachine.h"
#include "tests/common/testpaths.h"

#include "core/discovery/discovery.h"
#include "core/params/tuningsession.h"
#include "core/presets/presetjson.h"
#include "core/presets/presetstore.h"
#include "widgets/presets/newpresetdialog.h"
#include "widgets/presets/presetmanager.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QScreen>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTreeWidget>

using namespace dmtune;

class TestNewPresetDialog : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void checksChangedAndDriftedAttributes();

private:
    QStringList checkedRows(NewPresetDialog *dialog) const
    {
        QStringList rows;
        QTreeWidget *list = dialog->attributeList();
        for (int i = 0; i < list->topLevelItemCount(); ++i) {
            const QTreeWidgetItem *item = list->topLevelItem(i);
            if (item->checkState(NewPresetDialog::AttributeColumn) == Qt::Checked)
                rows << QStringLiteral("%1 %2 = %3 (%4)")
                            .arg(item->text(NewPresetDialog::DeviceColumn),
                                item->text(NewPresetDialog::AttributeColumn), item->text(NewPresetDialog::ValueColumn),
                                item->text(NewPresetDialog::ReasonColumn));
        }
        return rows;
    }
    test::FakeSysfs m_tree;
    std::unique_ptr<TuningSession> m_session;
    std::unique_ptr<PresetManager> m_manager;
};

void TestNewPresetDialog::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // user presets in a test dir, never the real config
    QDir(userPresetDir()).removeRecursively();
    test::buildStandardMachine(m_tree);
    const SysfsRoot sysfs = SysfsRoot::scratch(m_tree.root());
    m_session = std::make_unique<TuningSession>(sysfs, Applier::Mode::InProcess);
    m_manager = std::make_unique<PresetManager>(m_session.get());
    m_manager->resize(1100, 700);
    m_manager->setSnapshot(Discovery::scan(sysfs));
    m_manager->show(); // the dialog opens over it (the screenshot under Xvfb)
    QTRY_VERIFY(m_manager->firstSeenRecorded()); // read on a job
}

void TestNewPresetDialog::checksChangedAndDriftedAttributes()
{
    // Through dmtune: rq_affinity 1 -> 2. Out of band (after dmtune first saw it): fifo_batch 16 -> 32.
    QSignalSpy finished(m_session.get(), &TuningSession::finished);
    const auto plan = m_session->plan(
        { Change { QStringLiteral("sdm"), QStringLiteral("queue/rq_affinity"), QStringLiteral("2") } });
    QVERIFY2(plan, qPrintable(plan.errorMessage()));
    QVERIFY(m_session->run(plan.value(), acceptAll(plan.value())));
    QVERIFY(finished.wait(10000));
    QVERIFY2(finished.first().at(0).value<ApplyResult>().ok(),
        qPrintable(finished.first().at(0).value<ApplyResult>().errorMessage()));
    m_tree.file(
        m_tree.devicePath(QStringLiteral("sdm")) + QStringLiteral("/queue/iosched/fifo_batch"), QStringLiteral("32"));

    m_manager->setSelection({});
    QVERIFY(!m_manager->promptNewFromSelection());
    QCOMPARE(m_manager->statusText(), QStringLiteral("Select devices in the tree first"));
    m_manager->setSelection({ QStringLiteral("sdm") });
    QVERIFY(m_manager->promptNewFromSelection(QStringLiteral("From sdm")));
    QTRY_VERIFY(m_manager->pendingNewPresetDialog()); // the attributes are read on a job
    NewPresetDialog *dialog = m_manager->pendingNewPresetDialog();
    QCOMPARE(dialog->name(), QStringLiteral("From sdm"));

    QCOMPARE(checkedRows(dialog),
        QStringList({ QStringLiteral("sdm queue/rq_affinity = 2 (changed in dmtune: 1 -> 2)"),
            QStringLiteral("sdm queue/iosched/fifo_batch = 32 (first seen 16)") }));
    QStringList listed;
    for (int i = 0; i < dialog->attributeList()->topLevelItemCount(); ++i)
        listed << dialog->attributeList()->topLevelItem(i)->text(NewPresetDialog::AttributeColumn);
    QVERIFY2(listed.contains(QStringLiteral("queue/write_cache"))
            && listed.contains(QStringLiteral("queue/nr_requests"))
            && !listed.contains(QStringLiteral("queue/physical_block_size")),
        qPrintable(listed.join(u' ')));
    QVERIFY(dialog->okButton()->isEnabled());
    QVERIFY(dialog->problem().isEmpty());

    // The screenshot (docs/, and a look at it): under Xvfb, the whole 1400x900 screen.
    dialog->resize(900, 600);
    QTRY_VERIFY(dialog->isVisible() && dialog->size() == QSize(900, 600)); // a window manager's answer under Xvfb
    QCoreApplication::sendPostedEvents(); // laid out at that size
    QCoreApplication::processEvents();
    dialog->grab().save(DMTUNE_BINARY_PATH("/presets-new-from-selection.png"));
    if (QGuiApplication::platformName() == QLatin1String("xcb"))
        dialog->screen()->grabWindow(0).save(DMTUNE_BINARY_PATH("/presets-new-from-selection-screen.png"));

    // Names that cannot be used: one line, Save disabled.
    dialog->nameEdit()->setText(QStringLiteral("   "));
    QVERIFY(!dialog->okButton()->isEnabled());
    QCOMPARE(dialog->problem(), QStringLiteral("Name the preset"));
    dialog->nameEdit()->setText(QStringLiteral("Low-latency random I/O"));
    QVERIFY(!dialog->okButton()->isEnabled());
    QCOMPARE(
        dialog->problem(), QStringLiteral("\"Low-latency random I/O\" is a built-in preset's name: choose another"));
    dialog->nameEdit()->setText(QStringLiteral("sdm tuned"));
    QVERIFY(dialog->okButton()->isEnabled());
    // Nothing checked: Save disabled, with the reason; All checks every row; None again, then the defaults by hand.
    QPushButton *all = nullptr, *none = nullptr;
    for (QPushButton *b : dialog->findChildren<QPushButton *>()) {
        if (b->text() == QLatin1String("&All"))
            all = b;
        else if (b->text() == QLatin1String("N&one"))
            none = b;
    }
    QVERIFY(all && none);
    QTest::mouseClick(none, Qt::LeftButton);
    QVERIFY(!dialog->okButton()->isEnabled());
    QCOMPARE(dialog->problem(), QStringLiteral("Check at least one attribute to save"));
    QCOMPARE(dialog->okButton()->toolTip(), dialog->problem());
    QTest::mouseClick(all, Qt::LeftButton);
    QVERIFY(dialog->okButton()->isEnabled());
    QCOMPARE(dialog->checkedSelection().size(), 1);
    QCOMPARE(dialog->checkedSelection().first().attributes, listed);
    QTest::mouseClick(none, Qt::LeftButton);
    for (int i = 0; i < dialog->attributeList()->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = dialog->attributeList()->topLevelItem(i);
        if (!item->text(NewPresetDialog::ReasonColumn).isEmpty())
            item->setCheckState(NewPresetDialog::AttributeColumn, Qt::Checked);
    }
    QVERIFY(dialog->okButton()->isEnabled());

    QSignalSpy saved(m_manager.get(), &PresetManager::newPresetSaved);
    QTest::mouseClick(dialog->okButton(), Qt::LeftButton);
    QVERIFY(saved.wait(5000));
    const QList<QVariant> args = saved.takeFirst();
    QVERIFY2(args.at(0).toBool(), qPrintable(args.at(1).toString()));
    const auto preset = loadPresetFile(args.at(1).toString());
    QVERIFY2(preset, qPrintable(preset.errorMessage()));
    QCOMPARE(preset->name, QStringLiteral("sdm tuned"));
    QCOMPARE(preset->rules.size(), 1);
    QCOMPARE(preset->rules.first().match.wwid, QStringLiteral("naa.600a098038303053453f463045535a59"));
    QStringList settings;
    for (const Assignment &a : preset->rules.first().settings)
        settings << QStringLiteral("%1=%2").arg(a.attribute, a.value);
    QCOMPARE(settings,
        QStringList({ QStringLiteral("queue/iosched/fifo_batch=32"), QStringLiteral("queue/rq_affinity=2") }));

    // The stored preset's name is taken now: the next dialog says so and saves nothing.
    QVERIFY(m_manager->promptNewFromSelection(QStringLiteral("sdm tuned")));
    QTRY_VERIFY(m_manager->pendingNewPresetDialog());
    dialog = m_manager->pendingNewPresetDialog();
    QVERIFY(!dialog->okButton()->isEnabled());
    QVERIFY2(dialog->problem().startsWith(QStringLiteral("A preset \"sdm tuned\" is already stored as ")),
        qPrintable(dialog->problem()));
    QVERIFY(dialog->problem().endsWith(QStringLiteral("sdm-tuned.json: choose another name")));
    QTest::keyClick(dialog->nameEdit(), Qt::Key_Return); // Enter with Save disabled does nothing
    QVERIFY(!saved.wait(300));
    QVERIFY(dialog->isVisible());
    dialog->reject();
    QFile::remove(args.at(1).toString());
}

QTEST_MAIN(TestNewPresetDialog)
#include "tst_newpresetdialog.moc"
