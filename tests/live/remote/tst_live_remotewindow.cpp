// A remote host's window against a real sshd on 127.0.0.1 (sshdfixture.h; the host `dmtune-test` of its ssh
// config is this machine): the tree shows the host's devices (the names of a scan here), the charts take the
// agent's stream, a killed ssh brings the banner up, the window reconnects by itself, the banner goes and the charts
// go on after a gap. A host without dmtune and an unknown host key get one line each and no retry; a sudo that
// wants a password has the window ask for it, and the far side reads it once, as its first line.
// A custom job file runs there as the far side's plan checked it. DMTUNE_SHOTS=DIR saves the window connected and
// disconnected at 1280x720 and 1920x1080 there.
#include "sshdfixture.h"
#include "tests/live/scratchloop.h"
#include "tests/live/workloads/livesupport.h"

#include "app/dmtune/mainwindow.h"
#include "core/discovery/discovery.h"
#include "core/host/workloadruns.h"
#include "core/remote/agentclient.h"
#include "core/remote/remotehost.h"
#include "core/remote/remotejobs.h"
#include "core/remote/remotesampler.h"
#include "core/stats/metriccatalog.h"
#include "core/stats/seriesstore.h"
#include "core/workloads/fiorun.h"
#include "tests/common/remotewindowaccess.h"
#include "widgets/charts/chartpanel.h"
#include "widgets/charts/livestatsview.h"
#include "widgets/charts/qcp_p.h"
#include "widgets/devices/devicetreemodel.h"
#include "widgets/remote/connectdialog.h"
#include "widgets/remote/hostheader.h"
#include "widgets/remote/remotebanner.h"
#include "widgets/workloads/confirmwritedialog.h"
#include "widgets/workloads/workloadpanel.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProcess>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTest>

#include <cmath>
#include <csignal>

using namespace dmtune;
using namespace dmtune::live;

namespace {

QStringList names(const DeviceSnapshot &snapshot)
{
    QStringList out;
    for (const BlockDevice &d : snapshot.devices)
        out << d.name;
    out.sort();
    return out;
}

// Whether the graph has a NaN point (a gap) with real points before and after it.
bool hasGapBetweenPoints(const QCPGraph *graph)
{
    bool before = false, gap = false;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
        if (std::isnan(it->value)) {
            gap = before;
        } else if (gap) {
            return true;
        } else {
            before = true;
        }
    }
    return false;
}

} // namespace

class TestLiveRemoteWindow : public QObject {
    Q_OBJECT

    SshdFixture m_sshd;
    ScratchLoop m_loop;
    MainWindow *m_local = nullptr;
    QString m_shots;
    QTemporaryDir m_empty;

    HostAddress host() const { return parseHostAddress(m_sshd.host()).value(); }

    void shoot(MainWindow *window, const QString &name)
    {
        if (m_shots.isEmpty())
            return;
        QDir().mkpath(m_shots);
        for (const QSize size : { QSize(1280, 720), QSize(1920, 1080) }) {
            window->resize(size);
            // Laid out at the new size: until the window has it, then the layout requests and queued replots it
            // posted run before the grab.
            if (!QTest::qWaitFor([&] { return window->size() == size; }, 10000))
                qWarning(
                    "the window is %dx%d, not %dx%d", window->width(), window->height(), size.width(), size.height());
            QCoreApplication::sendPostedEvents();
            QCoreApplication::processEvents();
            window->grab().save(
                QStringLiteral("%1/remote-%2-%3x%4.png").arg(m_shots, name).arg(size.width()).arg(size.height()));
        }
    }

    // A window of the host, connected and showing its devices.
    MainWindow *openConnectedWindow()
    {
        MainWindow *window = m_local->openRemoteWindow(host(), { m_sshd.configFile(), dmtunectl }, {});
        remoteSessionOf(window)->remoteHost()->setRetryDelays(1000, 1000);
        if (!QTest::qWaitFor([&] { return remoteSessionOf(window)->remoteHost()->hasCapture(); }, 30000))
            return nullptr;
        return window;
    }

    // Closed as the user closes it (the window is deleted): the job it started goes on there.
    static bool closeAndWaitUntilGone(MainWindow *window)
    {
        const QPointer<MainWindow> gone(window);
        window->close();
        return QTest::qWaitFor([&] { return gone.isNull(); }, 10000);
    }

    // The write confirmation the dock shows, if any, answered with the test device's name.
    void confirmWithTheDevicesName(WorkloadPanel *panel) const
    {
        ConfirmWriteDialog *confirm = panel->pendingConfirmation();
        if (!confirm)
            return;
        confirm->findChild<QLineEdit *>()->setText(m_loop.name());
        for (QPushButton *b : confirm->findChildren<QPushButton *>()) {
            if (b->isEnabled() && b->isVisible() && !b->text().contains(QLatin1String("Cancel"))) {
                QTest::mouseClick(b, Qt::LeftButton);
                return;
            }
        }
    }

    // A recorded batched-write-4k on the test's loop device from the window's dock, as the user starts it (the
    // device's name typed when the far side's plan asks for it); its job id there, or empty.
    QString startRecordedWorkload(MainWindow *window, int runtimeSeconds, const QString &recording)
    {
        WorkloadPanel *panel = window->workloadPanel();
        if (!QTest::qWaitFor([&] { return panel->selectDevice(m_loop.name()); }, 20000))
            return {};
        panel->selectTemplate(QStringLiteral("batched-write-4k"));
        panel->setRuntimeSeconds(runtimeSeconds);
        panel->setRecording(recording);
        panel->start();
        WorkloadRuns *run = panel->runs();
        if (!QTest::qWaitFor([&] { return panel->pendingConfirmation() || !run->jobId().isEmpty(); }, 20000))
            return {};
        confirmWithTheDevicesName(panel);
        return QTest::qWaitFor([&] { return !run->jobId().isEmpty(); }, 20000) ? run->jobId() : QString();
    }

    // `dmtunectl --host H job list`: the job's line (JOB STATE STARTED COMMAND), empty when it is not there.
    QString jobListLine(const QString &job) const
    {
        const ProgramRun listed = runProgram(dmtunectl,
            { QStringLiteral("--host"), m_sshd.host(), QStringLiteral("--ssh-config"), m_sshd.configFile(),
                QStringLiteral("--remote-dmtunectl"), dmtunectl, QStringLiteral("job"), QStringLiteral("list") });
        for (const QString &line : listed.out.split(QLatin1Char('\n'))) {
            if (line.startsWith(job + QLatin1Char(' ')))
                return line;
        }
        return {};
    }

    static const JobOffer *offerOf(const QList<JobOffer> &offers, const QString &job)
    {
        for (const JobOffer &offer : offers) {
            if (offer.job.id == job)
                return &offer;
        }
        return nullptr;
    }

    static bool isCompleteRecording(const QString &path)
    {
        const ProgramRun shown = runProgram(
            dmtunectl, { QStringLiteral("record"), QStringLiteral("show"), path, QStringLiteral("--json") });
        return shown.exitCode == 0
            && QJsonDocument::fromJson(shown.out.toUtf8()).object().value(QLatin1String("complete")).toBool();
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (const QString why = ScratchLoop::unavailableReason({ QStringLiteral("losetup"), QStringLiteral("fio") });
            !why.isEmpty())
            QSKIP(qPrintable(why));
        if (SshdFixture::sshdPath().isEmpty())
            QSKIP("sshd not installed (packaging/install-deps.sh installs openssh-server)");
        QStandardPaths::setTestModeEnabled(true);
        m_shots = qEnvironmentVariable("DMTUNE_SHOTS");
        QVERIFY2(m_sshd.start(), qPrintable(m_sshd.error()));
        QVERIFY2(m_loop.create(256LL << 20), qPrintable(m_loop.error()));
        // The window that opens the remote ones: over an empty tree, nothing of this machine in it.
        m_local = new MainWindow(SysfsRoot(m_empty.path(), QString()));
    }
    void cleanupTestCase() { delete m_local; }

    void connectsChartsLosesAndReconnects()
    {
        // A steady read of the test's own loop device, so that the charts have something to show.
        QProcess fio;
        fio.start(QStringLiteral("fio"),
            { QStringLiteral("--name=steady"), QStringLiteral("--filename=/dev/") + m_loop.name(),
                QStringLiteral("--rw=read"), QStringLiteral("--bs=64k"), QStringLiteral("--direct=1"),
                QStringLiteral("--rate=20m"), QStringLiteral("--time_based"), QStringLiteral("--runtime=60"),
                QStringLiteral("--readonly"), QStringLiteral("--thread") });
        // --thread: the job is a thread of this one process, so killing it ends the read; a forked job process
        // would read on for the rest of its 60 s and hold the device open when the next test writes to it.
        QVERIFY(fio.waitForStarted());

        MainWindow *window = m_local->openRemoteWindow(host(), { m_sshd.configFile(), dmtunectl }, {});
        QVERIFY(window);
        const auto closeWindow = qScopeGuard([&] {
            fio.kill();
            fio.waitForFinished(5000);
            window->close();
        });
        window->resize(1280, 720);
        RemoteHost *remote = remoteSessionOf(window)->remoteHost();
        remote->setRetryDelays(3000, 3000);
        QTRY_COMPARE_WITH_TIMEOUT(remote->state(), RemoteHost::State::Connected, 30000);
        QVERIFY(!window->hostHeader()->banner()->isVisible());
        QVERIFY(window->windowTitle().contains(m_sshd.host()));
        QVERIFY(window->hostHeader()->label()->text().contains(m_sshd.host()));
        QVERIFY(!remote->agentHostName().isEmpty());

        // The tree shows this machine's devices, fetched over ssh (another test's loop device may come or go
        // meanwhile: the watch events fetch the host again, so the two converge).
        QTRY_VERIFY_WITH_TIMEOUT(remote->hasCapture(), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(names(window->discovery()->snapshot()) == names(Discovery::scan(SysfsRoot())), 30000);
        QVERIFY(window->treeModel()->indexForDevice(m_loop.name()).isValid());

        // The loop device charted from the agent's stream.
        QVERIFY(window->selectDevice(m_loop.name()));
        QVERIFY(window->showTab(QStringLiteral("statistics")));
        SeriesStore *store = window->seriesStore();
        QTRY_VERIFY_WITH_TIMEOUT(store->sampleCount(m_loop.name()) >= 3, 20000);
        QVERIFY(remoteSessionOf(window)->remoteSampler()->isStreaming());
        ChartPanel *iops = window->statsView()->panels().first();
        QVERIFY(iops->titleText().startsWith(m_sshd.host() + QLatin1Char(':')));
        QTRY_VERIFY(iops->pointCount(m_loop.name(), 0) >= 3);
        const QList<TimedMetrics> before = store->history(m_loop.name());
        QVERIFY(before.last().metrics[Metric::ReadKBPerSec] > 10000); // fio's 20 MB/s, read there
        shoot(window, QStringLiteral("connected"));

        // The connection is lost: the ssh client killed.
        QProcess *ssh = remote->client()->findChild<QProcess *>();
        QVERIFY(ssh);
        ::kill(static_cast<pid_t>(ssh->processId()), SIGKILL);
        RemoteBanner *banner = window->hostHeader()->banner();
        QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), 10000);
        QVERIFY2(banner->text().startsWith(QStringLiteral("Disconnected from %1").arg(m_sshd.host()))
                && banner->text().contains(QLatin1String("reconnecting in")),
            qPrintable(banner->text()));
        QCOMPARE(remote->need(), RemoteHost::Need::Retry);
        QVERIFY(!remoteSessionOf(window)->remoteSampler()->isStreaming());
        QVERIFY(window->hostHeader()->label()->text().contains(QLatin1String("not connected")));
        const qsizetype samplesAtLoss = store->sampleCount(m_loop.name());
        shoot(window, QStringLiteral("disconnected"));
        window->resize(1280, 720);

        // It reconnects by itself; the banner goes, the stream comes back, the charts go on after a gap.
        QTRY_COMPARE_WITH_TIMEOUT(remote->state(), RemoteHost::State::Connected, 30000);
        QTRY_VERIFY(!banner->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(store->sampleCount(m_loop.name()) >= samplesAtLoss + 3, 20000);
        const QList<TimedMetrics> after = store->history(m_loop.name());
        int segments = 0;
        for (const TimedMetrics &tm : after)
            segments += tm.startsSegment;
        QVERIFY2(segments >= 2, qPrintable(QString::number(segments)));
        QTRY_VERIFY(hasGapBetweenPoints(iops->graph(m_loop.name(), 0)));
        // No invented data: nothing between the last sample before the loss and the first after it.
        double lastBefore = 0, firstAfter = 0;
        for (qsizetype i = 1; i < after.size(); ++i) {
            if (after[i].startsSegment) {
                lastBefore = after[i - 1].time;
                firstAfter = after[i].time - after[i].intervalSeconds;
            }
        }
        QVERIFY2(firstAfter - lastBefore > 1.0, qPrintable(QStringLiteral("%1 .. %2").arg(lastBefore).arg(firstAfter)));
        shoot(window, QStringLiteral("reconnected"));
    }

    // The Workload dock of a remote window: the far side's guard asks for the device's name (an ext4 on the test's
    // own loop device), fio runs there as a job, the connection is killed in the middle, the window reconnects by
    // itself, and the job's result and recording arrive here.
    void aWorkloadRunsThereAndOutlivesALostConnection()
    {
        const ProgramRun mkfs = runProgram(QStringLiteral("mkfs.ext4"),
            { QStringLiteral("-q"), QStringLiteral("-F"), QStringLiteral("/dev/") + m_loop.name() });
        QVERIFY2(mkfs.exitCode == 0, qPrintable(mkfs.err));
        MainWindow *window = m_local->openRemoteWindow(host(), { m_sshd.configFile(), dmtunectl }, {});
        const auto closeWindow = qScopeGuard([window] { window->close(); });
        RemoteHost *remote = remoteSessionOf(window)->remoteHost();
        remote->setRetryDelays(1000, 1000);
        QTRY_COMPARE_WITH_TIMEOUT(remote->state(), RemoteHost::State::Connected, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(remote->hasCapture(), 30000);
        WorkloadPanel *panel = window->workloadPanel();
        QVERIFY(window->workloadDock()->toggleViewAction()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(panel->selectDevice(m_loop.name()), 20000);
        QVERIFY(panel->selectTemplate(QStringLiteral("batched-write-4k")));
        panel->setRuntimeSeconds(5);
        QTemporaryDir dir;
        const QString recording = dir.filePath(QStringLiteral("remote-run.dmrec"));
        panel->setRecording(recording);

        panel->start();
        // The far side's plan found the file system: its name must be typed.
        QTRY_VERIFY2_WITH_TIMEOUT(panel->pendingConfirmation(), qPrintable(panel->statusText()), 20000);
        ConfirmWriteDialog *confirm = panel->pendingConfirmation();
        QVERIFY(confirm->findChild<QLineEdit *>());
        confirm->findChild<QLineEdit *>()->setText(m_loop.name());
        QPushButton *ok = nullptr;
        for (QPushButton *b : confirm->findChildren<QPushButton *>()) {
            if (b->isEnabled() && b->isVisible() && !b->text().contains(QLatin1String("Cancel")))
                ok = b;
        }
        QVERIFY(ok);
        QTest::mouseClick(ok, Qt::LeftButton);
        WorkloadRuns *run = panel->runs();
        QTRY_VERIFY_WITH_TIMEOUT(!run->jobId().isEmpty(), 20000);
        QVERIFY(panel->isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(!panel->readoutText().isEmpty(), 10000);

        QProcess *ssh = remote->client()->findChild<QProcess *>();
        QVERIFY(ssh);
        ::kill(static_cast<pid_t>(ssh->processId()), SIGKILL);
        QTRY_VERIFY_WITH_TIMEOUT(window->hostHeader()->banner()->isVisible(), 10000);
        QVERIFY(panel->isRunning()); // it goes on there
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isRunning(), 40000);
        QVERIFY2(panel->statusText().startsWith(QStringLiteral("Done after")), qPrintable(panel->statusText()));
        QVERIFY(QFileInfo::exists(recording));
        const ProgramRun shown = runProgram(
            dmtunectl, { QStringLiteral("record"), QStringLiteral("show"), recording, QStringLiteral("--json") });
        QCOMPARE(shown.exitCode, 0);
        QVERIFY(QJsonDocument::fromJson(shown.out.toUtf8()).object().value(QLatin1String("complete")).toBool());
        // The file system is gone (confirmed), and nothing else was written: the device is the test's own.
        const ProgramRun blkid = runProgram(QStringLiteral("blkid"), { QStringLiteral("/dev/") + m_loop.name() });
        QVERIFY2(!blkid.out.contains(QLatin1String("ext4")), qPrintable(blkid.out));
    }

    // A custom job file in a remote window: read here once at Start, its content planned there (fio reads it on the
    // far side: a filename= list that names another file is refused), an ext4 asks for the device's name, and what
    // runs is the content the plan checked, even when the file here is edited while the dialog is open.
    void aJobFileRunsThereAsItWasChecked()
    {
        const ProgramRun mkfs = runProgram(QStringLiteral("mkfs.ext4"),
            { QStringLiteral("-q"), QStringLiteral("-F"), QStringLiteral("/dev/") + m_loop.name() });
        QVERIFY2(mkfs.exitCode == 0, qPrintable(mkfs.err));
        MainWindow *window = m_local->openRemoteWindow(host(), { m_sshd.configFile(), dmtunectl }, {});
        const auto closeWindow = qScopeGuard([window] { window->close(); });
        RemoteHost *remote = remoteSessionOf(window)->remoteHost();
        QTRY_COMPARE_WITH_TIMEOUT(remote->state(), RemoteHost::State::Connected, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(remote->hasCapture(), 30000);
        WorkloadPanel *panel = window->workloadPanel();
        QTRY_VERIFY_WITH_TIMEOUT(panel->selectDevice(m_loop.name()), 20000);
        QVERIFY(panel->selectTemplate(QStringLiteral("custom")));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("merge test.fio"));
        const auto write = [&](const QByteArray &text) {
            QFile file(path);
            return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(text) == text.size();
        };
        for (QLineEdit *edit : panel->findChildren<QLineEdit *>()) {
            if (edit->placeholderText().contains(QLatin1String("DMTUNE_DEVICE")))
                edit->setText(path);
        }
        const QString device = QStringLiteral("/dev/") + m_loop.name();

        // The far side's plan refuses what fio would open besides the device; nothing is asked, nothing runs.
        const QString elsewhere = dir.filePath(QStringLiteral("elsewhere.img"));
        QVERIFY(write("[elsewhere]\nfilename=${DMTUNE_DEVICE}:" + elsewhere.toUtf8() + "\nrw=write\n"));
        panel->start();
        QTRY_VERIFY_WITH_TIMEOUT(panel->statusText().contains(QLatin1String("is not the device")), 20000);
        QVERIFY2(
            panel->statusText().contains(QStringLiteral("filename %1 is not the device %2").arg(elsewhere, device)),
            qPrintable(panel->statusText()));
        QVERIFY(!panel->pendingConfirmation());
        QVERIFY(!panel->isRunning());
        QVERIFY(!QFileInfo::exists(elsewhere));

        // A write to the ext4: its name is asked for; the file here is changed meanwhile and nothing of that runs.
        QVERIFY(write("[planned-job]\nfilename=${DMTUNE_DEVICE}\nrw=write\nbs=64k\ndirect=1\nioengine=libaio\n"
                      "iodepth=4\nruntime=3\ntime_based\n"));
        QSignalSpy finished(panel, &WorkloadPanel::runFinished);
        panel->start();
        QTRY_VERIFY_WITH_TIMEOUT(panel->pendingConfirmation(), 20000);
        QVERIFY(write("[changed-job]\nfilename=${DMTUNE_DEVICE}\nrw=read\nruntime=1\n"));
        ConfirmWriteDialog *confirm = panel->pendingConfirmation();
        QVERIFY(confirm->findChild<QLineEdit *>());
        confirm->findChild<QLineEdit *>()->setText(m_loop.name());
        QPushButton *ok = nullptr;
        for (QPushButton *b : confirm->findChildren<QPushButton *>()) {
            if (b->isEnabled() && b->isVisible() && !b->text().contains(QLatin1String("Cancel")))
                ok = b;
        }
        QVERIFY(ok);
        QTest::mouseClick(ok, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!panel->runs()->jobId().isEmpty(), 20000);
        // fio's start there, as the job reports it.
        const auto *messages = panel->findChild<QPlainTextEdit *>();
        QTRY_VERIFY_WITH_TIMEOUT(messages->toPlainText().contains(QLatin1String("\n$ ")), 20000);
        const QString logged = messages->toPlainText();
        // The command there is the plan's frozen job, not the file as it is now.
        QVERIFY2(logged.contains(QStringLiteral("$ %1 --status-interval=1 --output-format=json+ --name=planned-job "
                                                "--rw=write --bs=64k")
                                     .arg(FioRun::findFio().value()))
                && logged.contains(QStringLiteral("--filename=/dev/%1").arg(m_loop.name()))
                && !logged.contains(QLatin1String("changed-job")),
            qPrintable(logged));
        QVERIFY(finished.wait(30000));
        QVERIFY2(panel->statusText().startsWith(QStringLiteral("Done after")), qPrintable(panel->statusText()));
        const QJsonArray jobs = finished.first().at(0).toJsonObject().value(QLatin1String("fio")).toArray();
        QCOMPARE(jobs.size(), 1);
        QCOMPARE(jobs.first().toObject().value(QLatin1String("name")).toString(), QStringLiteral("planned-job"));
        QVERIFY(jobs.first().toObject().value(QLatin1String("write_iops")).toDouble() > 0);
        // The file system is gone (confirmed), on the test's own device only.
        const ProgramRun blkid = runProgram(QStringLiteral("blkid"), { device });
        QVERIFY2(!blkid.out.contains(QLatin1String("ext4")), qPrintable(blkid.out));
    }

    // A recorded workload whose window is closed while it runs: the host's next window offers it (this GUI started
    // it), Attach brings its progress, and at its end the complete recording is in the file chosen at Start.
    void aJobOfAClosedWindowIsOfferedAndAttached()
    {
        QTemporaryDir dir;
        const QString recording = dir.filePath(QStringLiteral("closed-window.dmrec"));
        MainWindow *first = openConnectedWindow();
        QVERIFY(first);
        const QString job = startRecordedWorkload(first, 6, recording);
        QVERIFY2(!job.isEmpty(), qPrintable(first->workloadPanel()->statusText()));
        QTRY_VERIFY_WITH_TIMEOUT(!first->workloadPanel()->readoutText().startsWith(QLatin1String("IOPS -")), 10000);
        QVERIFY(closeAndWaitUntilGone(first));
        QVERIFY(!QFileInfo::exists(recording));

        MainWindow *second = openConnectedWindow();
        QVERIFY(second);
        const auto closeSecond = qScopeGuard([second] { second->close(); });
        WorkloadPanel *panel = second->workloadPanel();
        QTRY_VERIFY_WITH_TIMEOUT(offerOf(panel->offeredJobs(), job), 20000);
        const JobOffer offer = *offerOf(panel->offeredJobs(), job);
        QVERIFY(offer.ours);
        QCOMPARE(offer.action, JobOffer::Action::Attach);
        QCOMPARE(offer.remembered.recordPath, recording);
        QCOMPARE(offer.remembered.device, m_loop.name());
        QString shown;
        for (QLabel *label : panel->findChild<QWidget *>(QStringLiteral("jobOffers"))->findChildren<QLabel *>())
            shown += label->text();
        QVERIFY2(shown.contains(QStringLiteral("fio job %1 on %2 is still running (started ").arg(job, m_sshd.host()))
                && shown.contains(QStringLiteral("on %1").arg(m_loop.name())),
            qPrintable(shown));
        auto *attach = panel->findChild<QPushButton *>(QStringLiteral("adopt-") + job);
        QVERIFY(attach);
        QCOMPARE(attach->text(), QStringLiteral("Attach"));

        QObject scope; // the connections below end with this function
        QList<double> progress; // the t of each progress line that reaches the dock
        connect(panel, &WorkloadPanel::progressShown, &scope, [&](double t) { progress << t; });
        QSignalSpy finished(panel, &WorkloadPanel::runFinished);
        const double attachedAt = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
        QTest::mouseClick(attach, Qt::LeftButton);
        QVERIFY(panel->isRunning());
        QCOMPARE(panel->runs()->jobId(), job);
        // Its progress from the start, and then live: a line newer than the attach.
        QTRY_VERIFY_WITH_TIMEOUT(!progress.isEmpty() && progress.last() > attachedAt, 15000);
        QVERIFY(!panel->readoutText().startsWith(QLatin1String("IOPS -")));
        QVERIFY(finished.wait(30000));
        QVERIFY2(panel->statusText().startsWith(QStringLiteral("Done after")), qPrintable(panel->statusText()));
        QVERIFY(isCompleteRecording(recording));
        // Fetched, then forgotten there and here (the dock lists the jobs again after a run): nothing is offered.
        QTRY_VERIFY_WITH_TIMEOUT(jobListLine(job).isEmpty(), 10000);
        const QString hostName = remoteSessionOf(second)->remoteHost()->displayName();
        const auto remembered = [&] {
            const QList<RememberedJob> jobs = rememberedJobs(hostName);
            return std::any_of(jobs.begin(), jobs.end(), [&](const RememberedJob &r) { return r.id == job; });
        };
        QTRY_VERIFY(!remembered());
        QVERIFY(!offerOf(panel->offeredJobs(), job));
    }

    // A job that ended while no window of the host was open is offered as ended; its result is fetched, and
    // since a file appeared meanwhile where its recording was to go, the recording goes beside it.
    void aJobThatEndedMeanwhileIsFetched()
    {
        QTemporaryDir dir;
        const QString recording = dir.filePath(QStringLiteral("ended.dmrec"));
        MainWindow *first = openConnectedWindow();
        QVERIFY(first);
        const QString job = startRecordedWorkload(first, 2, recording);
        QVERIFY(!job.isEmpty());
        QVERIFY(closeAndWaitUntilGone(first));
        QTRY_VERIFY_WITH_TIMEOUT(jobListLine(job).contains(QLatin1String(" ended 0 ")), 30000);
        QFile inTheWay(recording);
        QVERIFY(inTheWay.open(QIODevice::WriteOnly) && inTheWay.write("mine") == 4);
        inTheWay.close();

        MainWindow *second = openConnectedWindow();
        QVERIFY(second);
        const auto closeSecond = qScopeGuard([second] { second->close(); });
        WorkloadPanel *panel = second->workloadPanel();
        QTRY_VERIFY_WITH_TIMEOUT(offerOf(panel->offeredJobs(), job), 20000);
        QCOMPARE(offerOf(panel->offeredJobs(), job)->action, JobOffer::Action::Fetch);
        auto *fetch = panel->findChild<QPushButton *>(QStringLiteral("adopt-") + job);
        QVERIFY(fetch);
        QCOMPARE(fetch->text(), QStringLiteral("Fetch result"));
        QSignalSpy finished(panel, &WorkloadPanel::runFinished);
        QTest::mouseClick(fetch, Qt::LeftButton);
        QVERIFY(finished.wait(20000));
        QVERIFY2(panel->statusText().startsWith(QStringLiteral("Done after")), qPrintable(panel->statusText()));
        QVERIFY(inTheWay.open(QIODevice::ReadOnly));
        QCOMPARE(inTheWay.readAll(), QByteArray("mine"));
        const QString beside = dir.filePath(QStringLiteral("ended-2.dmrec"));
        QVERIFY(isCompleteRecording(beside));
        const QString logged = panel->findChild<QPlainTextEdit *>()->toPlainText();
        QVERIFY2(logged.contains(QStringLiteral("%1 exists here now (not written over)").arg(recording))
                && logged.contains(QStringLiteral("recorded to %1").arg(beside)),
            qPrintable(logged));
        QTRY_VERIFY_WITH_TIMEOUT(jobListLine(job).isEmpty(), 10000);
    }

    // Stop works on an adopted job as on one started in the window: SIGINT there, the recording closed and fetched.
    // A recording file that exists here: Start asks, as in a local window; Cancel runs nothing and keeps the file,
    // Replace runs and the fetched recording replaces it.
    void anExistingRecordingIsReplacedOnlyWhenAsked()
    {
        QTemporaryDir dir;
        const QString recording = dir.filePath(QStringLiteral("again.dmrec"));
        QFile mine(recording);
        QVERIFY(mine.open(QIODevice::WriteOnly) && mine.write("mine") == 4);
        mine.close();
        MainWindow *window = openConnectedWindow();
        QVERIFY(window);
        const auto closeWindow = qScopeGuard([window] { window->close(); });
        WorkloadPanel *panel = window->workloadPanel();
        QTRY_VERIFY_WITH_TIMEOUT(panel->selectDevice(m_loop.name()), 20000);
        panel->selectTemplate(QStringLiteral("batched-write-4k"));
        panel->setRuntimeSeconds(2);
        const auto question
            = [panel] { return panel->findChild<QMessageBox *>(QStringLiteral("replaceRecordingQuestion")); };
        panel->setRecording(recording);
        panel->start();
        QTRY_VERIFY_WITH_TIMEOUT(question() && question()->isVisible(), 5000);
        question()->button(QMessageBox::Cancel)->click();
        QTRY_VERIFY_WITH_TIMEOUT(!question(), 5000);
        QVERIFY(!panel->isRunning());
        QVERIFY(panel->runs()->jobId().isEmpty());
        QVERIFY(mine.open(QIODevice::ReadOnly));
        QCOMPARE(mine.readAll(), QByteArray("mine"));
        mine.close();

        QSignalSpy finished(panel, &WorkloadPanel::runFinished);
        panel->start();
        QTRY_VERIFY_WITH_TIMEOUT(question() && question()->isVisible(), 5000);
        for (QAbstractButton *b : question()->buttons()) {
            if (question()->buttonRole(b) == QMessageBox::AcceptRole) {
                b->click();
                break;
            }
        }
        QTRY_VERIFY_WITH_TIMEOUT(panel->pendingConfirmation() || !panel->runs()->jobId().isEmpty(), 20000);
        confirmWithTheDevicesName(panel); // what an earlier test left on the device
        QVERIFY(finished.wait(30000));
        QVERIFY2(panel->statusText().startsWith(QStringLiteral("Done after")), qPrintable(panel->statusText()));
        QVERIFY(isCompleteRecording(recording));
    }

    void anAttachedJobStops()
    {
        QTemporaryDir dir;
        const QString recording = dir.filePath(QStringLiteral("stopped.dmrec"));
        MainWindow *first = openConnectedWindow();
        QVERIFY(first);
        const QString job = startRecordedWorkload(first, 60, recording);
        QVERIFY(!job.isEmpty());
        QVERIFY(closeAndWaitUntilGone(first));

        MainWindow *second = openConnectedWindow();
        QVERIFY(second);
        const auto closeSecond = qScopeGuard([second] { second->close(); });
        WorkloadPanel *panel = second->workloadPanel();
        QTRY_VERIFY_WITH_TIMEOUT(offerOf(panel->offeredJobs(), job), 20000);
        QObject scope;
        int progress = 0;
        connect(panel, &WorkloadPanel::progressShown, &scope, [&] { ++progress; });
        QSignalSpy finished(panel, &WorkloadPanel::runFinished);
        panel->adoptJob(job);
        QTRY_VERIFY_WITH_TIMEOUT(progress > 0, 15000);
        panel->stop();
        QVERIFY(finished.wait(20000));
        QVERIFY2(panel->statusText().startsWith(QStringLiteral("Stopped after")), qPrintable(panel->statusText()));
        QVERIFY(isCompleteRecording(recording));
        QTRY_VERIFY_WITH_TIMEOUT(jobListLine(job).isEmpty(), 10000);
    }

    void aCaptureOverHostHasTheDevicesOfHere()
    {
        // dmtunectl --host H capture DIR: the far side's links (block/X -> ../devices/...) come back as links.
        QTemporaryDir work;
        const QString dir = work.filePath(QStringLiteral("capture"));
        const ProgramRun captured = runProgram(dmtunectl,
            { QStringLiteral("--host"), m_sshd.host(), QStringLiteral("--ssh-config"), m_sshd.configFile(),
                QStringLiteral("--remote-dmtunectl"), dmtunectl, QStringLiteral("capture"), dir });
        QVERIFY2(captured.exitCode == 0, qPrintable(captured.err));
        QVERIFY(QFileInfo(dir + QStringLiteral("/sys/block/") + m_loop.name()).isSymLink());
        QCOMPARE(names(Discovery::scan(SysfsRoot(dir + QStringLiteral("/sys"), dir + QStringLiteral("/proc")))),
            names(Discovery::scan(SysfsRoot())));
    }

    void aHostWithoutDmtuneGetsOneLineAndNoRetry()
    {
        MainWindow *window
            = m_local->openRemoteWindow(host(), { m_sshd.configFile(), QStringLiteral("/nonexistent/dmtunectl") }, {});
        const auto closeWindow = qScopeGuard([window] { window->close(); });
        RemoteHost *remote = remoteSessionOf(window)->remoteHost();
        QTRY_VERIFY_WITH_TIMEOUT(
            remote->state() == RemoteHost::State::Disconnected && !remote->problem().isEmpty(), 30000);
        QVERIFY2(remote->need() == RemoteHost::Need::User, qPrintable(remote->problem()));
        QCOMPARE(remote->attempts(), 0);
        QCOMPARE(remote->msecsUntilRetry(), -1);
        const QString text = window->hostHeader()->banner()->text();
        QVERIFY2(text.contains(QLatin1String("install dmtune there")) && !text.contains(QLatin1Char('\n')),
            qPrintable(text));
        QCOMPARE(window->hostHeader()->banner()->button()->text(), QStringLiteral("&Reconnect"));
        shoot(window, QStringLiteral("no-dmtune"));
    }

    void aSudoPasswordIsAskedForAndGivenOnce()
    {
        // A far side whose sudo wants a password (root logs in here, so a stand-in for the agent says what the
        // remote command says then): the window asks, and the password is the first line the far side reads, once.
        QTemporaryDir dir;
        const QString got = dir.filePath(QStringLiteral("first-line"));
        const QString agent = dir.filePath(QStringLiteral("agent"));
        QFile script(agent);
        QVERIFY(script.open(QIODevice::WriteOnly));
        // What it reads within 2 s: nothing when no password was given (the client speaks only after the agent's
        // hello), the password when one was.
        script.write(QStringLiteral(
            "#!/bin/bash\nread -r -t 2 line; printf '%s\\n' \"$line\" >> '%1'\necho '%2' >&2\nexit 126\n")
                         .arg(got, QLatin1String(RemoteNoSudoMarker))
                         .toUtf8());
        script.close();
        QFile::setPermissions(agent, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);

        QSignalSpy asked(m_local, &MainWindow::connectDialogShown);
        MainWindow *window = m_local->openRemoteWindow(host(), { m_sshd.configFile(), agent }, {});
        const auto closeWindow = qScopeGuard([window] { window->close(); });
        QSignalSpy windowAsked(window, &MainWindow::connectDialogShown);
        QTRY_VERIFY_WITH_TIMEOUT(windowAsked.count() == 1, 30000);
        QCOMPARE(remoteSessionOf(window)->remoteHost()->need(), RemoteHost::Need::Password);
        QCOMPARE(remoteSessionOf(window)->remoteHost()->msecsUntilRetry(), -1);
        auto *dialog = qobject_cast<ConnectDialog *>(windowAsked.first().first().value<QDialog *>());
        QVERIFY(dialog);
        QVERIFY(!dialog->hostCombo()->isEnabled());
        dialog->passwordEdit()->setText(QStringLiteral("pw-once"));
        QTest::mouseClick(dialog->connectButton(), Qt::LeftButton);
        // Asked again (this stand-in always refuses), after the far side read the password as its first line.
        QTRY_VERIFY_WITH_TIMEOUT(windowAsked.count() == 2, 30000);
        QFile lines(got);
        QVERIFY(lines.open(QIODevice::ReadOnly));
        const QList<QByteArray> read = lines.readAll().split('\n');
        QCOMPARE(read.value(0), QByteArray()); // the first attempt, without a password: nothing was sent
        QCOMPARE(read.value(1), QByteArray("pw-once"));
        QVERIFY(!window->hostHeader()->banner()->text().contains(QLatin1String("pw-once")));
        QVERIFY(window->hostHeader()->banner()->button()->text().contains(QLatin1String("password")));
        QCOMPARE(asked.count(), 0); // the host's window asked, not the one that opened it
    }

    void anUnknownHostKeyIsRefusedWithSshsLine()
    {
        MainWindow *window = m_local->openRemoteWindow(host(), { m_sshd.configFileUnknownKey(), dmtunectl }, {});
        const auto closeWindow = qScopeGuard([window] { window->close(); });
        RemoteHost *remote = remoteSessionOf(window)->remoteHost();
        QTRY_VERIFY_WITH_TIMEOUT(
            remote->state() == RemoteHost::State::Disconnected && !remote->problem().isEmpty(), 30000);
        QVERIFY2(remote->need() == RemoteHost::Need::User, qPrintable(remote->problem()));
        QCOMPARE(remote->msecsUntilRetry(), -1);
        QVERIFY2(window->hostHeader()->banner()->text().contains(QLatin1String("Host key verification failed")),
            qPrintable(window->hostHeader()->banner()->text()));
    }
};

QTEST_MAIN(TestLiveRemoteWindow)
#include "tst_live_remotewindow.moc"
