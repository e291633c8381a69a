// The Experiment panel on a loop device made here (root, offscreen):
//   * nomerges over 0 and 2 under batched-write-4k, run from the panel: the plan dialog, the run on the panel's
//     thread, the table filled point by point (merges at 0, none at 2), the old nomerges back, the recordings'
//     folder reopening into the same table;
//   * Stop during the first point: the sweep cancelled through its run handle, nomerges back;
//   * the panel destroyed during the second point (the window closed): fio stopped and nomerges back before the
//     destructor returns.
#include "core/ops/hostcontext.h"
#include "tests/live/scratchloop.h"
#include "widgets/experiments/experimentpanel.h"
#include "widgets/experiments/sweepresultsmodel.h"

#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <memory>

#include <fcntl.h>
#include <unistd.h>

using namespace dmtune;
using dmtune::live::ScratchLoop;
using namespace Qt::StringLiterals;

namespace {

DeviceSnapshot snapshotWith(const QString &name)
{
    DeviceSnapshot s;
    BlockDevice d;
    d.name = name;
    d.sizeBytes = 256LL << 20;
    s.devices << d;
    return s;
}

// A fio process (the sweep's run, not its version check) with the device as its --filename.
bool fioRunsOn(const QString &devicePath)
{
    const QByteArray filename = "--filename=" + QFile::encodeName(devicePath) + '\0';
    const QDir proc(u"/proc"_s);
    for (const QString &pid : proc.entryList(QDir::Dirs)) {
        QFile cmdline(proc.filePath(pid + u"/cmdline"_s));
        if (pid.toInt() > 0 && cmdline.open(QIODevice::ReadOnly)) {
            const QByteArray argv = cmdline.readAll(); // NUL-terminated arguments
            const QByteArray program = argv.left(argv.indexOf('\0'));
            if ((program == "fio" || program.endsWith("/fio")) && argv.contains(filename))
                return true;
        }
    }
    return false;
}

int column(const QAbstractItemModel *model, const QString &header)
{
    for (int c = 0; c < model->columnCount(); ++c) {
        if (model->headerData(c, Qt::Horizontal).toString() == header)
            return c;
    }
    return -1;
}

void fill(ExperimentPanel &panel, const ScratchLoop &loop, const QString &recordDir)
{
    panel.setSnapshot(snapshotWith(loop.name()));
    QVERIFY(panel.selectDevice(loop.name()));
    panel.setParameters(u"nomerges=0,2"_s);
    panel.setWorkloads({ u"batched-write-4k"_s });
    panel.setRepeats(1);
    panel.setRuntimeSeconds(2);
    panel.setSettleSeconds(0);
    panel.setRecordDirectory(recordDir);
}

// Run pressed, then the plan dialog's button once it is open.
bool confirmPlan(ExperimentPanel &panel)
{
    panel.run();
    if (!QTest::qWaitFor([&] { return panel.pendingConfirmation() != nullptr || !panel.isBusy(); }, 20000))
        return false;
    PlanDialog *dialog = panel.pendingConfirmation();
    if (!dialog || !dialog->runButton()->isEnabled())
        return false;
    dialog->runButton()->click();
    return QTest::qWaitFor([&] { return panel.isRunning(); }, 20000);
}

} // namespace

class TestLiveExperimentPanel : public QObject {
    Q_OBJECT
    SysfsRoot m_sys;

    QString nomerges(const ScratchLoop &loop) const
    {
        return m_sys.readOr(u"block/%1/queue/nomerges"_s.arg(loop.name())).trimmed();
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString reason = ScratchLoop::unavailableReason({ u"losetup"_s, u"fio"_s });
        if (!reason.isEmpty())
            QSKIP(qPrintable(reason));
    }

    void sweepsNomergesFromThePanel()
    {
        ScratchLoop loop;
        const QString problem = loop.createWithMqDeadline(m_sys, 256LL << 20);
        if (!problem.isEmpty())
            QSKIP(qPrintable(problem));
        QVERIFY(loop.setQueue(m_sys, u"nomerges"_s, u"1"_s)); // restored as found, not to the default
        QTemporaryDir dir;
        const QString recordDir = dir.filePath(u"sweep"_s);
        ExperimentPanel panel(std::make_shared<const HostContext>(m_sys));
        panel.resize(1400, 800);
        panel.show();
        fill(panel, loop, recordDir);
        QSignalSpy finished(&panel, &ExperimentPanel::sweepFinished);
        QVERIFY2(confirmPlan(panel), qPrintable(panel.statusText()));
        QVERIFY2(finished.wait(90000), qPrintable(panel.logText()));
        const SweepOutcome outcome = panel.lastOutcome();
        QVERIFY2(outcome.status.ok() && !outcome.stopped, qPrintable(outcome.status.errorMessage()));
        QVERIFY2(panel.statusText().startsWith(u"Done: 2 points"_s), qPrintable(panel.statusText()));
        QCOMPARE(nomerges(loop), u"1"_s);
        QVERIFY2(
            panel.logText().contains(u"restored: %1 nomerges 2 -> 1"_s.arg(loop.name())), qPrintable(panel.logText()));

        const QAbstractItemModel *model = panel.resultsView()->model();
        QCOMPARE(model->rowCount(), 2);
        const int wrqm = column(model, u"%wrqm (%)"_s);
        const int size = column(model, u"wareq-sz (kB)"_s);
        QVERIFY(wrqm > 0 && size > 0);
        const double merged = model->index(0, wrqm).data(Qt::UserRole).toDouble();
        qInfo() << "nomerges=0: %wrqm" << merged << "wareq-sz" << model->index(0, size).data(Qt::UserRole).toDouble()
                << "| nomerges=2: %wrqm" << model->index(1, wrqm).data(Qt::UserRole).toDouble();
        QVERIFY(merged > 50);
        QCOMPARE(model->index(1, wrqm).data(Qt::UserRole).toDouble(), 0.0);
        QCOMPARE(model->index(1, size).data(Qt::UserRole).toDouble(), 4.0);
        QVERIFY(QFileInfo::exists(recordDir + u"/point-01-repeat-1.dmrec"_s));

        // Reopened from the folder: the same numbers.
        ExperimentPanel again(std::make_shared<const HostContext>(m_sys));
        QVERIFY2(again.openResults(recordDir), qPrintable(again.statusText()));
        QCOMPARE(again.resultsModel()->rowCount(), 2);
        QCOMPARE(again.resultsModel()->index(0, wrqm).data(Qt::UserRole).toDouble(), merged);
    }

    // Stop while fio runs on the first point: the run handle cancels the sweep; fio stopped, nothing measured,
    // nomerges back, the panel ready again.
    void stopRestores()
    {
        ScratchLoop loop;
        const QString problem = loop.createWithMqDeadline(m_sys, 256LL << 20);
        if (!problem.isEmpty())
            QSKIP(qPrintable(problem));
        QVERIFY(loop.setQueue(m_sys, u"nomerges"_s, u"1"_s));
        ExperimentPanel panel(std::make_shared<const HostContext>(m_sys));
        fill(panel, loop, QString());
        panel.setRuntimeSeconds(20);
        QSignalSpy finished(&panel, &ExperimentPanel::sweepFinished);
        QVERIFY2(confirmPlan(panel), qPrintable(panel.statusText()));
        QTRY_VERIFY_WITH_TIMEOUT(fioRunsOn(loop.devicePath()), 20000);
        QCOMPARE(nomerges(loop), u"0"_s);
        panel.stop();
        QVERIFY2(finished.wait(30000), qPrintable(panel.logText()));
        QVERIFY(panel.lastOutcome().stopped);
        QVERIFY2(panel.statusText().startsWith(u"Stopped; 0 run(s) measured"_s), qPrintable(panel.statusText()));
        QCOMPARE(nomerges(loop), u"1"_s);
        QVERIFY2(
            panel.logText().contains(u"restored: %1 nomerges 0 -> 1"_s.arg(loop.name())), qPrintable(panel.logText()));
        QVERIFY(!panel.isBusy());
        QVERIFY(!fioRunsOn(loop.devicePath()));
    }

    void closingThePanelRestores()
    {
        ScratchLoop loop;
        const QString problem = loop.createWithMqDeadline(m_sys, 256LL << 20);
        if (!problem.isEmpty())
            QSKIP(qPrintable(problem));
        QVERIFY(loop.setQueue(m_sys, u"nomerges"_s, u"1"_s));
        auto panel = std::make_unique<ExperimentPanel>(std::make_shared<const HostContext>(m_sys));
        fill(*panel, loop, QString());
        panel->setRuntimeSeconds(20);
        QVERIFY2(confirmPlan(*panel), qPrintable(panel->statusText()));
        QVERIFY(QTest::qWaitFor([&] { return nomerges(loop) == u"0"_s; }, 20000));
        QTRY_VERIFY_WITH_TIMEOUT(fioRunsOn(loop.devicePath()), 20000); // fio is running on the first point
        panel.reset(); // the window closes
        QCOMPARE(nomerges(loop), u"1"_s);
        // No fio left with the device on its command line (fio is started by its full path: the same test that saw
        // it running above), and the sweep's O_EXCL hold let go.
        QVERIFY(!fioRunsOn(loop.devicePath()));
        const int fd = ::open(loop.devicePath().toLocal8Bit().constData(), O_RDONLY | O_EXCL | O_CLOEXEC);
        QVERIFY2(fd >= 0, "the device is still held");
        ::close(fd);
    }
};

QTEST_MAIN(TestLiveExperimentPanel)
#include "tst_live_experimentpanel.moc"
