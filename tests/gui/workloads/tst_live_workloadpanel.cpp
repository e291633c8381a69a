// The Workload dock of the real main window (root, offscreen): the lab device created from the window is the
// default target, a batched-write run streams into fio's charts, the Statistics tab charts the device with
// start/stop markers, and the summary shows the merges; in front of an ext4 loop device Start asks for the
// device name and, refused, writes nothing. DMTUNE_WORKLOAD_SCREENSHOT=FILE saves the window after the run.
#include "tests/live/scratchloop.h"

#include "app/dmtune/mainwindow.h"
#include "core/discovery/discovery.h"
#include "core/ops/hostcontext.h"
#include "core/params/externalchanges.h"
#include "core/recordings/recordingreader.h"
#include "core/recordings/recordingreplay.h"
#include "core/workloads/workloadsession.h"
#include "core/workloads/writeguard.h"
#include "widgets/charts/livestatsview.h"
#include "widgets/workloads/confirmwritedialog.h"
#include "widgets/workloads/fiochart.h"
#include "widgets/workloads/workloadpanel.h"

#include <algorithm>

#include <QDir>
#include <QDockWidget>
#include <QJsonArray>
#include <QJsonObject>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <unistd.h>

using namespace dmtune;
using dmtune::live::ScratchLoop;

class TestLiveWorkloadPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void runsOnTheLabDeviceFromTheDock();
    void asksBeforeWritingOverExt4();
    void freezesTheJobAtStartAndHoldsTheDevice();
    void recordToAsksAndProposesAFreshName();
};

void TestLiveWorkloadPanel::initTestCase()
{
    const QString reason = ScratchLoop::unavailableReason(
        { QStringLiteral("losetup"), QStringLiteral("fio"), QStringLiteral("mkfs.ext4") });
    if (!reason.isEmpty())
        QSKIP(qPrintable(reason));
}

void TestLiveWorkloadPanel::runsOnTheLabDeviceFromTheDock()
{
    MainWindow window;
    window.resize(1280, 720); // a laptop's screen (the picture in docs/workloads.md)
    window.show();
    QSignalSpy shown(&window, &MainWindow::snapshotShown);
    window.start();
    QVERIFY(shown.wait(15000));
    WorkloadPanel *panel = window.workloadPanel();
    QVERIFY(panel);
    QSignalSpy labChanged(&window, &MainWindow::labDeviceChanged);
    window.createLabDevice();
    QVERIFY(panel->labState().device.isEmpty() && panel->labState().busy); // both buttons wait for the result
    QTRY_COMPARE_WITH_TIMEOUT(labChanged.count(), 1, 15000);
    const QString lab = window.labDeviceName();
    QVERIFY2(!lab.isEmpty(), qPrintable(window.statusBar()->currentMessage()));
    QCOMPARE(panel->labState().device, lab);
    QVERIFY(!panel->labState().busy);
    QTRY_COMPARE_WITH_TIMEOUT(panel->currentDevice(), lab, 15000); // the default target once a scan shows it
    QVERIFY(panel->selectTemplate(QStringLiteral("batched-write-4k")));
    panel->findChildren<QSpinBox *>().at(2)->setValue(6); // runtime
    QVERIFY(panel->commandLine().contains(QStringLiteral("--filename=/dev/") + lab));

    QSignalSpy finished(panel, &WorkloadPanel::runFinished);
    window.workloadDock()->raise();
    // Recorded as root: the recording carries the latency histograms of the device it records.
    const QString recording = QDir::temp().filePath(QStringLiteral("dmtune-panel-%1.dmrec").arg(::getpid()));
    panel->setRecording(recording);
    panel->start();
    QVERIFY(!panel->pendingConfirmation()); // an empty lab device needs no confirmation
    QTRY_VERIFY2_WITH_TIMEOUT(panel->isRunning(), qPrintable(panel->statusText()), 5000);
    // Selecting another device while fio runs leaves the charts (and what is recorded) on the target.
    const QStringList charted = window.statsView()->devices();
    QVERIFY(charted.contains(lab));
    const QString other = window.discovery()->snapshot().devices.first().name == lab
        ? window.discovery()->snapshot().devices.last().name
        : window.discovery()->snapshot().devices.first().name;
    QVERIFY(window.selectDevice(other));
    QCOMPARE(window.statsView()->devices(), charted);
    QVERIFY(finished.wait(40000));
    // After the run the selection is charted.
    QTRY_VERIFY_WITH_TIMEOUT(window.statsView()->devices().contains(other), 5000);
    QVERIFY(window.selectDevice(lab));
    const QJsonObject summary = finished.first().first().toJsonObject();
    QVERIFY(
        summary.value(QLatin1String("fio")).toArray().first().toObject().value(QLatin1String("write_iops")).toDouble()
        > 0);
    // mq-deadline (set by the lab device) merges the batched 4K writes.
    QVERIFY(summary.value(QLatin1String("devices"))
                .toObject()
                .value(lab)
                .toObject()
                .value(QLatin1String("wrqm/s"))
                .toDouble()
        > 0);
    QVERIFY(panel->chart()->pointCount() >= 4);
    const Result<Recording> rec = readRecording(recording);
    QFile::remove(recording);
    QVERIFY2(rec, qPrintable(rec.errorMessage()));
    QVERIFY(rec->hasLatency);
    quint64 counted = 0;
    quint64 probed = 0;
    quint64 lost = 0;
    // I/Os per sampled interval: the probe and the counters are read one after the other, not at one instant.
    QList<quint64> perInterval;
    for (const SampleBatch &b : replayBatches(*rec)) {
        for (const DeviceSample &d : b.devices) {
            if (d.name() == lab)
                perInterval << d.deltas[DiskField::ReadIos] + d.deltas[DiskField::WriteIos]
                        + d.deltas[DiskField::DiscardIos] + d.deltas[DiskField::FlushIos];
        }
    }
    QVERIFY(perInterval.size() >= 2);
    for (quint64 n : std::as_const(perInterval))
        counted += n;
    for (const RecordedBatch &b : rec->batches) {
        for (const RecordedLatency &l : b.latency) {
            if (rec->devices.value(l.device).name == lab)
                probed += l.latency.device.total(), lost += l.latency.lost;
        }
    }
    qInfo("recorded from the dock: %llu I/Os of %s in the counters, %llu in the latency frames (lost %llu)", counted,
        qPrintable(lab), probed, lost);
    QVERIFY(counted > 100);
    // The lab device is watched from the run's start, while fio may already be running: the probe's first reading
    // comes just after the counters' first read (and its last just after theirs), so the I/Os of those moments are
    // in the counters only. How many depends on the machine's load (105 of 90,401 in one CI run, a few ms of I/O);
    // a quarter of the busiest interval is far more than those moments hold, and every other I/O is in both.
    const quint64 busiest = *std::max_element(perInterval.cbegin(), perInterval.cend());
    QVERIFY2(probed + lost <= counted && (counted - probed - lost) * 4 < busiest,
        qPrintable(QStringLiteral("%1 counted, %2 probed, %3 lost, busiest interval %4")
                       .arg(counted)
                       .arg(probed)
                       .arg(lost)
                       .arg(busiest)));
    QVERIFY(panel->readoutText().contains(QStringLiteral("MiB/s")));
    QVERIFY(!panel->readoutText().contains(QStringLiteral("IOPS -")));

    // The Statistics tab charts the target, with fio's start and end as markers.
    QVERIFY(window.statsView()->devices().contains(lab));
    QStringList kinds;
    for (const ChartMarker &m : window.statsView()->markers())
        kinds << ChartMarker::kindName(m.kind);
    QVERIFY2(kinds.contains(QStringLiteral("start")) && kinds.contains(QStringLiteral("stop")),
        qPrintable(kinds.join(u',')));

    // A change made outside dmtune to the charted device becomes a marker that says so.
    QVERIFY(window.externalChanges());
    QTRY_COMPARE_WITH_TIMEOUT(window.externalChanges()->devices(), window.statsView()->devices(), 5000);
    const QString nomergesPath = QStringLiteral("/sys/block/%1/queue/nomerges").arg(lab);
    QSignalSpy baseline(window.externalChanges(), &ExternalChangeWatcher::readDone);
    window.externalChanges()->readNow();
    QVERIFY(baseline.wait(15000));
    const QByteArray before = SysfsRoot().readOr(QStringLiteral("block/%1/queue/nomerges").arg(lab)).toLatin1();
    const QByteArray changed = before == "1" ? "0" : "1";
    const auto writeNomerges = [&](const QByteArray &value) {
        QFile f(nomergesPath);
        return f.open(QIODevice::WriteOnly) && f.write(value) == value.size();
    };
    QVERIFY(writeNomerges(changed));
    const QString expected = QStringLiteral("%1 nomerges %2 -> %3 (changed outside dmtune)")
                                 .arg(lab, QString::fromLatin1(before), QString::fromLatin1(changed));
    const auto hasMarker = [&] {
        for (const ChartMarker &m : window.statsView()->markers()) {
            if (m.label == expected)
                return true;
        }
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(hasMarker(), 10000); // the watcher's next read (every 2 s)
    QVERIFY(writeNomerges(before)); // the lab device's queue as it was: loop devices keep it after they go

    const QString screenshot = qEnvironmentVariable("DMTUNE_WORKLOAD_SCREENSHOT");
    if (!screenshot.isEmpty()) {
        // One more sampler tick after the end marker: a batch newer than the newest the view has now.
        const double newest = window.statsView()->now();
        QTRY_VERIFY_WITH_TIMEOUT(window.statsView()->now() > newest, 15000);
        QVERIFY(window.grab().save(screenshot));
    }
    window.removeLabDevice();
    QTRY_COMPARE_WITH_TIMEOUT(labChanged.count(), 2, 15000);
    QVERIFY(window.labDeviceName().isEmpty());
    QVERIFY(panel->labState().device.isEmpty());
}

void TestLiveWorkloadPanel::asksBeforeWritingOverExt4()
{
    ScratchLoop loop;
    QVERIFY2(loop.create(64LL << 20), qPrintable(loop.error()));
    QProcess mkfs;
    mkfs.start(QStringLiteral("mkfs.ext4"), { QStringLiteral("-q"), QStringLiteral("-F"), loop.devicePath() });
    QVERIFY(mkfs.waitForFinished(30000) && mkfs.exitCode() == 0);

    WorkloadPanel panel(std::make_shared<const HostContext>(SysfsRoot()));
    panel.setSnapshot(Discovery::scan(SysfsRoot()));
    QVERIFY(panel.selectDevice(loop.name()));
    QVERIFY(panel.selectTemplate(QStringLiteral("batched-write-4k")));
    panel.start();
    QTRY_VERIFY_WITH_TIMEOUT(panel.pendingConfirmation(), 10000); // after the probe on its worker thread
    ConfirmWriteDialog *dialog = panel.pendingConfirmation();
    QVERIFY(dialog->isVisible());
    dialog->nameEdit()->setText(QStringLiteral("yes"));
    QVERIFY(!dialog->destroyButton()->isEnabled());
    dialog->reject();
    QVERIFY(!panel.isRunning());
    QVERIFY(panel.statusText().contains(QStringLiteral("not confirmed")));
    const DeviceFacts facts = gatherDeviceFacts(SysfsRoot(), loop.name());
    QCOMPARE(facts.signatures.size(), 1);
    QCOMPARE(facts.signatures.first().type, QStringLiteral("ext4"));
    QProcess fsck;
    fsck.start(QStringLiteral("fsck.ext4"), { QStringLiteral("-n"), QStringLiteral("-f"), loop.devicePath() });
    QVERIFY(fsck.waitForFinished(30000));
    QCOMPARE(fsck.exitCode(), 0);

    // A read workload on the same device starts without asking (and is stopped at once).
    QVERIFY(panel.selectTemplate(QStringLiteral("seq-read-8k-4jobs")));
    int reports = 0; // fio's status reports (one a second) of this run
    QObject counting; // the connection's context: gone before `reports` is
    connect(&panel, &WorkloadPanel::progressShown, &counting, [&reports] { ++reports; });
    panel.start();
    QVERIFY(!panel.pendingConfirmation() || !panel.pendingConfirmation()->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(panel.isRunning(), 5000);
    QSignalSpy finished(&panel, &WorkloadPanel::runFinished);
    QTRY_VERIFY_WITH_TIMEOUT(reports >= 1, 15000); // fio is reading: stopped mid-run, not before it began
    panel.stop();
    QVERIFY(finished.wait(15000));
    QVERIFY(finished.first().first().toJsonObject().value(QLatin1String("stopped")).toBool());
}

void TestLiveWorkloadPanel::freezesTheJobAtStartAndHoldsTheDevice()
{
    ScratchLoop loop;
    QVERIFY2(loop.create(64LL << 20), qPrintable(loop.error()));
    WorkloadPanel panel(std::make_shared<const HostContext>(SysfsRoot()));
    panel.setSnapshot(Discovery::scan(SysfsRoot()));
    QVERIFY(panel.selectDevice(loop.name()));
    QVERIFY(panel.selectTemplate(QStringLiteral("batched-write-4k")));
    const QList<QSpinBox *> spins = panel.findChildren<QSpinBox *>(); // iodepth, numjobs, runtime
    spins.at(2)->setValue(2);
    const FioJob pressed = panel.currentJob();
    QSignalSpy started(&panel, &WorkloadPanel::fioStarted);
    QSignalSpy finished(&panel, &WorkloadPanel::runFinished);
    panel.start();
    // The guard probes on its worker thread; meanwhile the form is edited. What runs is what Start saw.
    spins.at(2)->setValue(30);
    spins.at(0)->setValue(1);
    spins.at(1)->setValue(3);
    QVERIFY(started.wait(10000));
    const QStringList argv = started.first().at(0).toStringList();
    QVERIFY2(argv.contains(QStringLiteral("--runtime=2")), qPrintable(argv.join(u' ')));
    QVERIFY2(argv.contains(QStringLiteral("--iodepth=%1").arg(pressed.iodepth)), qPrintable(argv.join(u' ')));
    QVERIFY2(argv.contains(QStringLiteral("--numjobs=%1").arg(pressed.numjobs)), qPrintable(argv.join(u' ')));
    // The run holds the device: nothing may mount or claim it while fio writes.
    const QByteArray node = QFile::encodeName(loop.devicePath());
    const int during = ::open(node.constData(), O_RDONLY | O_EXCL | O_CLOEXEC);
    const int duringErrno = errno;
    if (during >= 0)
        ::close(during);
    QVERIFY(finished.wait(20000));
    QCOMPARE(during, -1);
    QCOMPARE(duringErrno, EBUSY);
    const int after = ::open(node.constData(), O_RDONLY | O_EXCL | O_CLOEXEC);
    QVERIFY(after >= 0); // released when fio ended
    ::close(after);
}

// Start again with the same "Record to" path silently replaced the first recording. Now the field
// proposes a fresh name after a run, and the same path again is asked about: Cancel keeps the file and runs
// nothing, Replace replaces it.
void TestLiveWorkloadPanel::recordToAsksAndProposesAFreshName()
{
    ScratchLoop loop;
    QVERIFY2(loop.create(64LL << 20), qPrintable(loop.error()));
    QTemporaryDir dir;
    const QString recording = dir.filePath(QStringLiteral("run.dmrec"));
    WorkloadPanel panel(std::make_shared<const HostContext>(SysfsRoot()));
    panel.setSnapshot(Discovery::scan(SysfsRoot()));
    QVERIFY(panel.selectDevice(loop.name()));
    QVERIFY(panel.selectTemplate(QStringLiteral("seq-read-8k-4jobs")));
    panel.findChildren<QSpinBox *>().at(2)->setValue(1); // runtime
    auto *field = panel.findChild<QLineEdit *>(QStringLiteral("recordPath"));
    QVERIFY(field);
    QSignalSpy finished(&panel, &WorkloadPanel::runFinished);
    panel.setRecording(recording);
    panel.start();
    QVERIFY(finished.wait(30000));
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(recording).size() > 0, 5000);
    QCOMPARE(field->text(), dir.filePath(QStringLiteral("run-2.dmrec"))); // the next run's name, proposed
    QFile first(recording);
    QVERIFY(first.open(QIODevice::ReadOnly));
    const QByteArray firstBytes = first.readAll();
    first.close();

    const auto question
        = [&panel] { return panel.findChild<QMessageBox *>(QStringLiteral("replaceRecordingQuestion")); };
    // The same path again: asked; Cancel runs nothing and keeps the file.
    panel.setRecording(recording);
    panel.start();
    QTRY_VERIFY_WITH_TIMEOUT(question() && question()->isVisible(), 5000);
    QVERIFY(!panel.isRunning());
    question()->button(QMessageBox::Cancel)->click();
    QTRY_VERIFY_WITH_TIMEOUT(!question(), 5000);
    QVERIFY(!panel.isRunning());
    QVERIFY(first.open(QIODevice::ReadOnly));
    QCOMPARE(first.readAll(), firstBytes);
    first.close();

    // Asked again, answered Replace: the run records over it.
    panel.start();
    QTRY_VERIFY_WITH_TIMEOUT(question() && question()->isVisible(), 5000);
    QPushButton *replace = nullptr;
    for (QAbstractButton *b : question()->buttons())
        if (question()->buttonRole(b) == QMessageBox::AcceptRole)
            replace = qobject_cast<QPushButton *>(b);
    QVERIFY(replace);
    replace->click();
    QVERIFY(finished.wait(30000));
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(recording).size() > 0, 5000);
    QVERIFY(first.open(QIODevice::ReadOnly));
    QVERIFY(first.readAll() != firstBytes);
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("run-2.dmrec"))));
}

QTEST_MAIN(TestLiveWorkloadPanel)
#include "tst_live_workloadpanel.moc"
