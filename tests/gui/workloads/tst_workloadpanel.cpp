// The Workload panel without devices: every template fills the form, the command line is the exact one the
// core builds and follows every edit, Copy copies it, Start needs a device, the confirmation dialog's button
// needs the exact device name.
#include "core/ops/hostcontext.h"
#include "core/workloads/fiojob.h"
#include "core/workloads/fiorun.h"
#include "widgets/workloads/confirmwritedialog.h"
#include "widgets/workloads/fiochart.h"
#include "widgets/workloads/workloadpanel.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

using namespace dmtune;

namespace {

DeviceSnapshot snapshotWith(const QStringList &names)
{
    DeviceSnapshot s;
    for (const QString &name : names) {
        BlockDevice d;
        d.name = name;
        d.sizeBytes = qint64(1) << 30;
        s.devices << d;
    }
    return s;
}

QString fioPath()
{
    const auto found = FioRun::findFio();
    return found ? found.value() : QStringLiteral("fio");
}

} // namespace

class TestWorkloadPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyTemplateFillsTheForm_data();
    void everyTemplateFillsTheForm();
    void editsShowInTheCommandLine();
    void startNeedsADevice();
    void writeTemplateOnlyOnTheLabDevice();
    void capturedSystemRunsNothing();
    void labButtonsFollowTheWindowsState();
    void confirmationNeedsTheExactName();
    void jobFileIsCheckedByTheCore();
    void chartTakesRates();
    void removedLabDeviceIsNoTarget();
    void runResultShowsTheSummary();
};

void TestWorkloadPanel::everyTemplateFillsTheForm_data()
{
    QTest::addColumn<QString>("id");
    for (const FioJob &job : fioTemplates())
        QTest::newRow(qPrintable(job.id)) << job.id;
}

void TestWorkloadPanel::everyTemplateFillsTheForm()
{
    QFETCH(QString, id);
    WorkloadPanel panel(std::make_shared<const HostContext>(SysfsRoot()));
    panel.setSnapshot(snapshotWith({ QStringLiteral("loop3"), QStringLiteral("sdb") }));
    QVERIFY(panel.selectDevice(QStringLiteral("loop3")));
    QVERIFY(panel.selectTemplate(id));
    const FioJob *job = fioTemplate(id);
    const FioJob shown = panel.currentJob();
    QCOMPARE(fioArguments(shown, QStringLiteral("/dev/loop3")), fioArguments(*job, QStringLiteral("/dev/loop3")));
    QCOMPARE(panel.commandLine(), fioCommandLine(fioPath(), *job, QStringLiteral("/dev/loop3")));
}

void TestWorkloadPanel::editsShowInTheCommandLine()
{
    WorkloadPanel panel(std::make_shared<const HostContext>(SysfsRoot()));
    panel.setSnapshot(snapshotWith({ QStringLiteral("loop3") }));
    QVERIFY(panel.selectDevice(QStringLiteral("loop3")));
    QVERIFY(panel.selectTemplate(QStringLiteral("seq-read-8k-4jobs")));
    const auto spins = panel.findChildren<QSpinBox *>();
    QCOMPARE(spins.size(), 3); // iodepth, numjobs, runtime
    spins.at(0)->setValue(7);
    spins.at(2)->setValue(5);
    QComboBox *engine = nullptr;
    for (QComboBox *combo : panel.findChildren<QComboBox *>()) {
        if (combo->isEditable() && combo->findText(QStringLiteral("libaio")) >= 0) // the device combo is editable too
            engine = combo;
    }
    QVERIFY(engine);
    engine->setCurrentText(QStringLiteral("io_uring"));
    QVERIFY(panel.commandLine().contains(QStringLiteral(" --iodepth=7 ")));
    QVERIFY(panel.commandLine().contains(QStringLiteral(" --runtime=5 ")));
    QVERIFY(panel.commandLine().contains(QStringLiteral(" --ioengine=io_uring ")));
    QCOMPARE(panel.commandLine(), fioCommandLine(fioPath(), panel.currentJob(), QStringLiteral("/dev/loop3")));

    QPushButton *copy = nullptr;
    for (QPushButton *b : panel.findChildren<QPushButton *>()) {
        if (b->text() == QLatin1String("&Copy"))
            copy = b;
    }
    QVERIFY(copy);
    copy->click();
    QCOMPARE(QApplication::clipboard()->text(), panel.commandLine());

    // The custom job file: the command line runs the file, the device goes in through the environment.
    QVERIFY(panel.selectTemplate(QStringLiteral("custom")));
    for (QLineEdit *edit : panel.findChildren<QLineEdit *>()) {
        if (edit->placeholderText().contains(QLatin1String("DMTUNE_DEVICE")))
            edit->setText(QStringLiteral("/tmp/my job.fio"));
    }
    QVERIFY(panel.commandLine().startsWith(QStringLiteral("DMTUNE_DEVICE=/dev/loop3 ")));
    QVERIFY(panel.commandLine().contains(QStringLiteral("'/tmp/my job.fio'")));
}

void TestWorkloadPanel::startNeedsADevice()
{
    WorkloadPanel panel(std::make_shared<const HostContext>(SysfsRoot()));
    panel.setSnapshot(snapshotWith({ QStringLiteral("sdb") }));
    QVERIFY(panel.currentDevice().isEmpty()); // never chosen for the user (no lab device here)
    QVERIFY(panel.commandLine().contains(QStringLiteral("--filename=/dev/DEV")));
    // The Device field shows its text from the start, not the end of a text longer than itself (at
    // 1280x720 it read "evice, or create the lab device)").
    auto *device = panel.findChild<QComboBox *>(QStringLiteral("workloadDevice"));
    QVERIFY(device && device->isEditable());
    QCOMPARE(device->lineEdit()->cursorPosition(), 0);
    device->setCurrentIndex(1);
    QCOMPARE(device->lineEdit()->cursorPosition(), 0);
    Q_EMIT device->lineEdit()->editingFinished();
    QCOMPARE(device->lineEdit()->cursorPosition(), 0);
    panel.start();
    QVERIFY(!panel.isRunning());
    QVERIFY(!panel.pendingConfirmation());
}

// Until the user picks a template, it follows the target: writes on the lab device, reads on a device that may hold
// data; a template the user picked stays.
void TestWorkloadPanel::writeTemplateOnlyOnTheLabDevice()
{
    const auto writes
        = [](const WorkloadPanel &panel) { return panel.currentJob().rw.contains(QLatin1String("write")); };
    WorkloadPanel panel(std::make_shared<const HostContext>(SysfsRoot()));
    QVERIFY2(!writes(panel), qPrintable(panel.currentJob().id)); // no target
    panel.setSnapshot(snapshotWith({ QStringLiteral("sdb"), QStringLiteral("loop3") }));
    panel.setLabState({ QStringLiteral("loop3"), QString(), false });
    QCOMPARE(panel.currentDevice(), QStringLiteral("loop3")); // the lab device is the target
    QCOMPARE(panel.currentJob().id, QStringLiteral("seq-write-4k-64jobs"));
    QVERIFY(panel.selectDevice(QStringLiteral("sdb")));
    QVERIFY2(!writes(panel), qPrintable(panel.currentJob().id));
    QVERIFY(panel.selectDevice(QStringLiteral("loop3")));
    QVERIFY(writes(panel));

    QVERIFY(panel.selectTemplate(QStringLiteral("rand-read-4k-24jobs"))); // the user's choice
    QVERIFY(panel.selectDevice(QStringLiteral("sdb")));
    QVERIFY(panel.selectDevice(QStringLiteral("loop3")));
    QCOMPARE(panel.currentJob().id, QStringLiteral("rand-read-4k-24jobs"));
}

// The devices of a captured system are another machine's: no workload, no lab device from here.
void TestWorkloadPanel::capturedSystemRunsNothing()
{
    QTemporaryDir captured;
    WorkloadPanel panel(std::make_shared<const HostContext>(SysfsRoot(captured.path(), QString())));
    panel.setSnapshot(snapshotWith({ QStringLiteral("loop3") }));
    QVERIFY(panel.selectDevice(QStringLiteral("loop3")));
    QPushButton *start = nullptr, *create = nullptr;
    for (QPushButton *b : panel.findChildren<QPushButton *>()) {
        if (b->text() == QLatin1String("&Start"))
            start = b;
        else if (b->text() == QLatin1String("Create lab device"))
            create = b;
    }
    QVERIFY(start && create);
    QVERIFY(!start->isEnabled());
    QVERIFY(!create->isEnabled());
    panel.start();
    QVERIFY(!panel.isRunning());
    QVERIFY(!panel.pendingConfirmation());
    QVERIFY(panel.statusText().contains(QLatin1String("captured system")));
}

// The Create/Remove buttons show what the window says (LabDeviceState); the panel never asks the device.
void TestWorkloadPanel::labButtonsFollowTheWindowsState()
{
    WorkloadPanel panel(std::make_shared<const HostContext>(SysfsRoot()));
    panel.setSnapshot(snapshotWith({ QStringLiteral("sdb"), QStringLiteral("loop3") }));
    QPushButton *create = nullptr, *remove = nullptr;
    for (QPushButton *b : panel.findChildren<QPushButton *>()) {
        if (b->text() == QLatin1String("Create lab device"))
            create = b;
        else if (b->text() == QLatin1String("Remove lab device"))
            remove = b;
    }
    QVERIFY(create && remove);
    QVERIFY(!create->isEnabled()); // nothing offered until the window says so
    QVERIFY(!remove->isEnabled());

    panel.setLabState({ QString(), QString(), false });
    QVERIFY(create->isEnabled());
    QVERIFY(!remove->isEnabled());
    panel.setLabState({ QString(), QString(), true }); // being created: both wait
    QVERIFY(!create->isEnabled());
    QVERIFY(!remove->isEnabled());

    panel.setLabState({ QStringLiteral("loop3"), QString(), false });
    QVERIFY(!create->isEnabled());
    QVERIFY(remove->isEnabled());
    QCOMPARE(panel.currentDevice(), QStringLiteral("loop3")); // the lab device is the default target
    panel.setLabState({ QStringLiteral("loop3"), QString(), true }); // being removed
    QVERIFY(!remove->isEnabled());

    panel.setLabState({ QString(), QStringLiteral("creating a loop device needs root"), false });
    QVERIFY(!create->isEnabled());
    QCOMPARE(create->toolTip(), QStringLiteral("creating a loop device needs root"));
}

void TestWorkloadPanel::confirmationNeedsTheExactName()
{
    ConfirmWriteDialog dialog(QStringLiteral("loop3"), { QStringLiteral("loop3 holds ext4 (filesystem)") });
    QVERIFY(!dialog.destroyButton()->isEnabled());
    for (const char *typed : { "loop", "loop33", "yes", "/dev/loop3x" }) {
        dialog.nameEdit()->setText(QString::fromLatin1(typed));
        QVERIFY2(!dialog.destroyButton()->isEnabled(), typed);
    }
    dialog.nameEdit()->setText(QStringLiteral("loop3"));
    QVERIFY(dialog.destroyButton()->isEnabled());
    QCOMPARE(dialog.typedName(), QStringLiteral("loop3"));

    // The fio command is shown once, in the preview; the step that runs it refers to it.
    OperationPlan plan = dialog.plan();
    const QString command = QStringLiteral("/usr/bin/fio --name=seq --filename=/dev/loop3 --rw=write --bs=4k");
    plan.preview = command;
    plan.steps = { QStringLiteral("hold /dev/loop3 (O_EXCL) until fio ends"), QStringLiteral("run ") + command };
    ConfirmWriteDialog shown(plan);
    const QString text = shown.findChild<QLabel *>(QStringLiteral("planText"))->text();
    QVERIFY2(!text.contains(command.toHtmlEscaped()), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("run the command below")), qPrintable(text));
    QCOMPARE(shown.findChild<QPlainTextEdit *>(QStringLiteral("planPreview"))->toPlainText(), command);
    // Steps that are the preview's lines (a tuning plan's writes) are folded into one entry.
    plan.preview
        = QStringLiteral("/sys/block/loop3/queue/nr_requests: 64 -> 2\n/sys/block/loop3/queue/nomerges: 0 -> 1");
    plan.steps = plan.preview.split(u'\n') + QStringList { QStringLiteral("read every value back") };
    QCOMPARE(PlanDialog::stepsBesidePreview(plan),
        QStringList({ QStringLiteral("the 2 lines below"), QStringLiteral("read every value back") }));
}

// Start reads a job file through the core's check (fio --showcmd), off the UI thread, as dmtunectl does.
void TestWorkloadPanel::jobFileIsCheckedByTheCore()
{
    if (!FioRun::findFio())
        QSKIP("fio is not installed");
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("job.fio"));
    const auto write = [&](const QByteArray &text) {
        QFile file(path);
        return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(text) == text.size();
    };
    const QString device = QStringLiteral("dmtune-test-nodev"); // no such device: nothing can run
    WorkloadPanel panel(std::make_shared<const HostContext>(SysfsRoot()));
    panel.setSnapshot(snapshotWith({ device }));
    QVERIFY(panel.selectDevice(device));
    QVERIFY(panel.selectTemplate(QStringLiteral("custom")));
    for (QLineEdit *edit : panel.findChildren<QLineEdit *>()) {
        if (edit->placeholderText().contains(QLatin1String("DMTUNE_DEVICE")))
            edit->setText(path);
    }
    QVERIFY(write("[j]\nfilename=${DMTUNE_DEVICE}\nexec_prerun=/bin/true\n"));
    panel.start();
    QTRY_VERIFY_WITH_TIMEOUT(panel.statusText().contains(QLatin1String("exec_prerun is refused")), 10000);
    QVERIFY(!panel.isRunning());
    // fio drops the comment: a write, so the device is probed (and, not being one, refused).
    QVERIFY(write("[j]\nfilename=${DMTUNE_DEVICE}\nrw=write   # 4k sequential\n"));
    panel.start();
    QTRY_VERIFY_WITH_TIMEOUT(panel.statusText().contains(QLatin1String("is not a block device")), 10000);
    QVERIFY(!panel.isRunning());
    QVERIFY(!panel.pendingConfirmation());
}

void TestWorkloadPanel::chartTakesRates()
{
    FioChart chart;
    FioRates r;
    r.seconds = 1;
    r.writeIops = 5000;
    r.writeBytesPerSecond = 5000 * 4096;
    r.clat.perInterval = true;
    r.clat.samples = 5000;
    r.clat.p50Ns = 200000;
    r.clat.p99Ns = 900000;
    chart.addMarker(1000, QStringLiteral("fio start"));
    chart.addRates(1001, { r });
    chart.addRates(1002, { r });
    QCOMPARE(chart.pointCount(), 2);
    chart.clear();
    QCOMPARE(chart.pointCount(), 0);
}

// A removed lab device stays in the snapshot as a 0 B loop node: it is no longer the target, and Start waits for a
// device to be chosen.
void TestWorkloadPanel::removedLabDeviceIsNoTarget()
{
    WorkloadPanel panel(std::make_shared<const HostContext>(SysfsRoot()));
    panel.setSnapshot(snapshotWith({ QStringLiteral("sdb"), QStringLiteral("loop3") }));
    panel.setLabState({ QStringLiteral("loop3"), QString(), false });
    QCOMPARE(panel.currentDevice(), QStringLiteral("loop3"));
    panel.setLabState({ QStringLiteral("loop3"), QString(), true }); // being removed
    panel.setLabState({ QString(), QString(), false }); // removed
    QVERIFY(panel.currentDevice().isEmpty());
    // The next scan still lists the loop node, detached: 0 B.
    DeviceSnapshot after = snapshotWith({ QStringLiteral("sdb"), QStringLiteral("loop3") });
    after.devices[1].sizeBytes = 0;
    panel.setSnapshot(after);
    QVERIFY(panel.currentDevice().isEmpty());
    QPushButton *start = nullptr;
    for (QPushButton *b : panel.findChildren<QPushButton *>()) {
        if (b->text() == QLatin1String("&Start"))
            start = b;
    }
    QVERIFY(start);
    QVERIFY(!start->isEnabled());
    // Chosen by hand (or by the tree), the 0 B node still cannot be started on.
    QVERIFY(panel.selectDevice(QStringLiteral("loop3")));
    QVERIFY(!start->isEnabled());
    QVERIFY(start->toolTip().contains(QLatin1String("0 B")));
    QVERIFY(panel.selectDevice(QStringLiteral("sdb")));
    QVERIFY(start->isEnabled() || !SysfsRoot().isLive());
}

// After a run the readout shows the summary's numbers (not fio's last second), the messages end on the summary, the
// recording's file name is in the dock.
void TestWorkloadPanel::runResultShowsTheSummary()
{
    WorkloadPanel panel(std::make_shared<const HostContext>(SysfsRoot()));
    panel.resize(1200, 260);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    // fio's last second: 137.1k IOPS.
    FioRates last;
    last.seconds = 1;
    last.writeIops = 137'100;
    last.writeBytesPerSecond = 137'100 * 4096;
    panel.chart()->addRates(1001, { last });
    auto *log = panel.findChild<QPlainTextEdit *>();
    QVERIFY(log);
    for (int i = 0; i < 200; ++i)
        log->appendPlainText(QStringLiteral("fio: line %1").arg(i));
    log->verticalScrollBar()->setValue(0); // the user scrolled up
    FioRates overall;
    overall.name = QStringLiteral("seq-write-4k-64jobs");
    overall.writeIops = 116'500;
    overall.writeBytesPerSecond = 116'500 * 4096;
    overall.clat.p50Ns = 180'000;
    overall.clat.p99Ns = 1'250'000;
    panel.showRunResult({ overall }, QStringLiteral("/tmp/recordings/20261206-091500-seq-write-4k-64jobs.dmrec"));
    QVERIFY2(panel.readoutText().contains(QLatin1String("IOPS 116.5k")), qPrintable(panel.readoutText()));
    QVERIFY(!panel.readoutText().contains(QLatin1String("137.1k")));
    QCOMPARE(log->verticalScrollBar()->value(), log->verticalScrollBar()->maximum());
    QVERIFY(log->toPlainText().endsWith(QLatin1String("p99 1.25 ms")));
    QVERIFY2(panel.recordingText().contains(QLatin1String("20261206-091500-seq-write-4k-64jobs.dmrec")),
        qPrintable(panel.recordingText()));
    auto *recorded = panel.findChild<QLabel *>(QStringLiteral("recordedTo"));
    QVERIFY(recorded && recorded->isVisible());
    QCOMPARE(recorded->toolTip(), QStringLiteral("/tmp/recordings/20261206-091500-seq-write-4k-64jobs.dmrec"));
    // A run that recorded nothing shows no name.
    panel.showRunResult({ overall }, QString());
    QVERIFY(panel.recordingText().isEmpty());
}

QTEST_MAIN(TestWorkloadPanel)
#include "tst_workloadpanel.moc"
