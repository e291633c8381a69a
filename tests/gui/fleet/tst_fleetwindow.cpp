// The fleet window over real engines: three prometheus-node-exporter instances scraped every second by a prometheus,
// a pmcd when PCP is installed, and a host that does not answer; every process started here on loopback ports with
// its own configuration and killed at the end. The only I/O generated is dd READING /dev/vda (never a write).
#include "core/fleet/fleetpoller.h"
#include "core/metrics/prometheussource.h"
#include "tests/common/loopbackport.h"
#include "widgets/charts/livestatsview.h"
#include "widgets/fleet/fleetmodel.h"
#include "widgets/fleet/fleetwindow.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QMenu>
#include <QProcess>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include <arpa/inet.h>
#include <csignal>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>

using namespace dmtune;
using namespace Qt::StringLiterals;

namespace {

const QString NodeExporter = u"/usr/bin/prometheus-node-exporter"_s;
const QString Prometheus = u"/usr/bin/prometheus"_s;
const QString Pmcd = u"/usr/lib/pcp/bin/pmcd"_s;
const QString Pmproxy = u"/usr/lib/pcp/bin/pmproxy"_s;
const QString Pmnsmerge = u"/usr/lib/pcp/bin/pmnsmerge"_s;
const QString PcpPmns = u"/var/lib/pcp/pmns"_s;
const QString PcpPmdas = u"/var/lib/pcp/pmdas"_s;

int freePort()
{
    return dmtune::test::freeLoopbackPort();
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size();
}

} // namespace

class TestFleetWindow : public QObject {
    Q_OBJECT
private:
    QProcess *startProcess(const QString &program, const QStringList &arguments, const QProcessEnvironment &env = {})
    {
        auto *process = new QProcess(this);
        process->setProgram(program);
        process->setArguments(arguments);
        if (!env.isEmpty())
            process->setProcessEnvironment(env);
        // Killed with the test even when it crashes or is killed itself, so no server outlives it.
        process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
        // Their logs beside their data, out of the test's output.
        const QString log = m_dir.filePath(u"%1-%2.log"_s.arg(QFileInfo(program).fileName()).arg(m_processes.size()));
        process->setStandardOutputFile(log);
        process->setStandardErrorFile(log, QIODevice::Append);
        process->start();
        m_processes.append(process);
        return process->waitForStarted(5000) ? process : nullptr;
    }

    // pmcd with the linux and pmcd agents as DSOs, its own namespace, sockets and logs: no system service.
    bool startPmcd()
    {
        if (!QFileInfo::exists(Pmcd) || !QFileInfo::exists(Pmnsmerge)
            || !QFileInfo::exists(PcpPmdas + u"/linux/pmda_linux.so"_s))
            return false;
        const QString dir = m_dir.filePath(u"pcp"_s);
        QDir().mkpath(dir + u"/run"_s);
        QDir().mkpath(dir + u"/tmp"_s);
        if (QProcess::execute(
                Pmnsmerge, { u"-a"_s, PcpPmns + u"/root_linux"_s, PcpPmns + u"/root_pmcd"_s, dir + u"/root"_s })
            != 0)
            return false;
        writeFile(dir + u"/pmcd.conf"_s,
            "linux\t60\tdso\tlinux_init\t" + PcpPmdas.toUtf8()
                + "/linux/pmda_linux.so\n"
                  "pmcd\t2\tdso\tpmcd_init\t"
                + PcpPmdas.toUtf8() + "/pmcd/pmda_pmcd.so\n");
        m_pmcdPort = freePort();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"PCP_RUN_DIR"_s, dir + u"/run"_s);
        env.insert(u"PCP_TMP_DIR"_s, dir + u"/tmp"_s);
        const QProcess *pmcd = startProcess(Pmcd,
            { u"-f"_s, u"-A"_s, u"-U"_s, u"root"_s, u"-n"_s, dir + u"/root"_s, u"-c"_s, dir + u"/pmcd.conf"_s, u"-i"_s,
                u"127.0.0.1"_s, u"-p"_s, QString::number(m_pmcdPort), u"-s"_s, dir + u"/run/pmcd.socket"_s, u"-l"_s,
                dir + u"/pmcd.log"_s, u"-x"_s, dir + u"/pmcd.err"_s },
            env);
        if (!pmcd)
            return false;
        // A pmproxy in front of it: the fleet reaches pmcd hosts through it as HOST:PORT@PROXY:PORT.
        m_pmproxyPort = freePort();
        if (!startProcess(Pmproxy,
                { u"-F"_s, u"-A"_s, u"-U"_s, u"root"_s, u"-i"_s, u"127.0.0.1"_s, u"-p"_s,
                    QString::number(m_pmproxyPort), u"-s"_s, dir + u"/run/pmproxy.socket"_s, u"-l"_s,
                    dir + u"/pmproxy.log"_s },
                env))
            m_pmproxyPort = 0;
        const QString pminfo = QStandardPaths::findExecutable(u"pminfo"_s);
        if (pminfo.isEmpty())
            return false;
        // Up when pminfo gets the disks from it (pmcd loads its agents after it listens); given up if pmcd exits.
        bool answered = false;
        const bool settled = QTest::qWaitFor(
            [&] {
                QProcess probe;
                probe.start(pminfo, { u"-h"_s, u"127.0.0.1:%1"_s.arg(m_pmcdPort), u"-f"_s, u"disk.dev.read"_s });
                answered = probe.waitForFinished(5000) && probe.exitCode() == 0;
                return answered || pmcd->state() == QProcess::NotRunning;
            },
            60000);
        return settled && answered;
    }

    // Some read I/O on vda between two scrapes, read only: dd with O_DIRECT (the page cache would hide it) from the
    // disk itself where it may be opened, else from a large file on the root file system (on vda here: a container
    // may refuse to open the block device even to root).
    void readFromDisk()
    {
        const QString source = QFile(u"/dev/vda"_s).open(QIODevice::ReadOnly) ? u"/dev/vda"_s : Prometheus;
        QProcess::execute(u"dd"_s,
            { u"if="_s + source, u"of=/dev/null"_s, u"bs=1M"_s, u"count=50"_s, u"iflag=direct"_s, u"status=none"_s });
    }

    // The figures of a device of a host, from the model's latest summary.
    const FleetDeviceFigures *figures(int host, const QString &device) const
    {
        const auto &summary = m_window->model()->summary(host);
        if (!summary)
            return nullptr;
        for (const FleetDeviceFigures &figures : summary->devices) {
            if (figures.name == device)
                return &figures;
        }
        return nullptr;
    }

    QTemporaryDir m_dir;
    QList<QProcess *> m_processes;
    QList<int> m_exporterPorts;
    int m_prometheusPort = 0;
    int m_pmcdPort = 0;
    int m_pmproxyPort = 0; // 0: no pmproxy
    bool m_havePcp = false;
    int m_badHost = -1;
    int m_pcpHost = -1;
    std::unique_ptr<FleetWindow> m_window;
    std::unique_ptr<QAbstractItemModelTester> m_modelTester;
    std::unique_ptr<QAbstractItemModelTester> m_proxyTester;

private Q_SLOTS:
    void initTestCase()
    {
        if (!QFileInfo::exists(NodeExporter) || !QFileInfo::exists(Prometheus))
            QSKIP("prometheus-node-exporter or prometheus is not installed");
        QVERIFY(m_dir.isValid());
        QByteArray targets;
        for (int i = 0; i < 3; ++i) {
            const int port = freePort();
            m_exporterPorts.append(port);
            QVERIFY(startProcess(NodeExporter,
                { u"--web.listen-address=127.0.0.1:%1"_s.arg(port), u"--collector.disable-defaults"_s,
                    u"--collector.diskstats"_s, u"--collector.diskstats.device-exclude=^(ram|fd)\\d+$"_s }));
            targets += (i ? ", " : "") + u"'127.0.0.1:%1'"_s.arg(port).toUtf8();
        }
        const QString config = m_dir.filePath(u"prometheus.yml"_s);
        QVERIFY(writeFile(config,
            "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n  - job_name: node\n"
            "    static_configs:\n      - targets: ["
                + targets + "]\n"));
        m_prometheusPort = freePort();
        QVERIFY(startProcess(Prometheus,
            { u"--config.file="_s + config, u"--storage.tsdb.path="_s + m_dir.filePath(u"tsdb"_s),
                u"--web.listen-address=127.0.0.1:%1"_s.arg(m_prometheusPort), u"--log.level=warn"_s }));
        // Up when every instance has disk series at the server (what the fleet's sources need to open).
        const QString url = u"http://127.0.0.1:%1"_s.arg(m_prometheusPort);
        QString lastError;
        const bool up = QTest::qWaitFor(
            [&] {
                for (int port : std::as_const(m_exporterPorts)) {
                    const auto source = PrometheusSource::open(url, u"127.0.0.1:%1"_s.arg(port));
                    if (!source) {
                        lastError = source.errorMessage();
                        return false;
                    }
                }
                return true;
            },
            60000);
        QVERIFY2(up, qPrintable(u"prometheus targets not up: "_s + lastError));
        m_havePcp = startPmcd();
        if (!m_havePcp)
            qInfo("pmcd could not be started here: no PCP host row");
    }

    void cleanupTestCase()
    {
        m_proxyTester.reset();
        m_modelTester.reset();
        m_window.reset(); // its poller's jobs join before the servers go
        for (QProcess *process : std::as_const(m_processes)) {
            if (process->state() == QProcess::NotRunning)
                continue;
            process->terminate();
            if (!process->waitForFinished(5000)) {
                process->kill();
                process->waitForFinished(5000);
            }
        }
    }

    void fillsTheFleet()
    {
        const QString url = u"http://127.0.0.1:%1"_s.arg(m_prometheusPort);
        QList<FleetHost> hosts;
        for (int i = 0; i < m_exporterPorts.size(); ++i) {
            hosts.append({ FleetHost::Kind::Prometheus, url, u"127.0.0.1:%1"_s.arg(m_exporterPorts[i]),
                u"node-%1"_s.arg(i + 1) });
        }
        m_badHost = int(hosts.size());
        hosts.append(
            { FleetHost::Kind::Prometheus, u"http://127.0.0.1:%1"_s.arg(freePort()), u"db9:9100"_s, u"unreachable"_s });
        if (m_havePcp) {
            m_pcpHost = int(hosts.size());
            hosts.append({ FleetHost::Kind::Pcp, u"127.0.0.1:%1"_s.arg(m_pmcdPort), {}, u"pcp-local"_s });
        }
        m_window = std::make_unique<FleetWindow>();
        m_modelTester = std::make_unique<QAbstractItemModelTester>(
            m_window->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        m_proxyTester = std::make_unique<QAbstractItemModelTester>(
            m_window->proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        m_window->intervalSpin()->setValue(1);
        QCOMPARE(m_window->poller()->intervalSeconds(), 1);
        m_window->setHosts(hosts);
        m_window->show();
        QCOMPARE(m_window->model()->rowCount(), hosts.size());

        for (int host = 0; host < 3; ++host)
            QTRY_VERIFY_WITH_TIMEOUT(m_window->model()->summary(host).has_value(), 20000);
        if (m_havePcp)
            QTRY_VERIFY_WITH_TIMEOUT(m_window->model()->summary(m_pcpHost).has_value(), 20000);
    }

    void realDevicesAndNumbers()
    {
        QVERIFY(m_window);
        FleetModel *model = m_window->model();
        for (int host = 0; host < 3; ++host) {
            const QModelIndex hostIndex = model->hostIndex(host);
            QStringList names;
            for (int row = 0; row < model->rowCount(hostIndex); ++row)
                names += model->index(row, 0, hostIndex).data(FleetModel::DeviceRole).toString();
            if (QFileInfo::exists(u"/sys/block/vda"_s))
                QVERIFY2(names.contains(u"vda"_s), qPrintable(names.join(u' ')));
            if (QFileInfo::exists(u"/sys/block/loop0"_s))
                QVERIFY2(names.filter(QRegularExpression(u"^loop\\d+$"_s)).size() > 0, qPrintable(names.join(u' ')));
            // Every figure of the host row is a number.
            bool ok = false;
            model->hostIndex(host, FleetModel::UtilColumn).data(FleetModel::SortRole).toDouble(&ok);
            QVERIFY(ok);
            QVERIFY(model->hostIndex(host, FleetModel::DevicesColumn).data().toString().contains(u"maps"_s));
            // node_exporter 1.5 gives no paths or path states: said, not invented.
            QCOMPARE(
                model->hostIndex(host, FleetModel::FailedPathsColumn).data().toString(), FleetModel::tr("unknown"));
        }
        if (!QFileInfo::exists(u"/sys/block/vda"_s))
            QSKIP("no vda here");
        // Reads show up in the figures: dd reads while the fleet polls, until an interval of every Prometheus host
        // has them.
        QTRY_VERIFY_WITH_TIMEOUT(
            [this] {
                readFromDisk();
                for (int host = 0; host < 3; ++host) {
                    const FleetDeviceFigures *vda = figures(host, u"vda"_s);
                    if (!vda || !(vda->readsPerSec > 0) || !(vda->utilPercent > 0))
                        return false;
                }
                return true;
            }(),
            30000);
        if (m_havePcp) {
            QTRY_VERIFY_WITH_TIMEOUT(
                [this] {
                    readFromDisk();
                    const FleetDeviceFigures *vda = figures(m_pcpHost, u"vda"_s);
                    return vda && vda->readsPerSec > 0;
                }(),
                30000);
        }
    }

    void badHostShowsItsError()
    {
        QVERIFY(m_window);
        const QModelIndex status = m_window->model()->hostIndex(m_badHost, FleetModel::StatusColumn);
        QTRY_VERIFY_WITH_TIMEOUT(status.data(Qt::ForegroundRole).isValid(), 10000);
        const QString text = status.data().toString();
        QVERIFY2(!text.isEmpty() && !text.contains(u'\n'), qPrintable(text));
        QVERIFY(!m_window->model()->summary(m_badHost).has_value());
        QCOMPARE(m_window->model()->rowCount(m_window->model()->hostIndex(m_badHost)), 0);
    }

    // prometheus-targets URL: the server's instances with disk series become hosts, listed on a job; a server
    // that does not answer stays one row with its error.
    void serversTargetsBecomeHosts()
    {
        const QString url = u"http://127.0.0.1:%1"_s.arg(m_prometheusPort);
        const QString deadUrl = u"http://127.0.0.1:%1"_s.arg(freePort());
        FleetWindow window;
        window.setHosts({ { FleetHost::Kind::Pcp, u"127.0.0.1:1"_s, {}, u"first"_s },
            { FleetHost::Kind::PrometheusTargets, url, {}, {} },
            { FleetHost::Kind::PrometheusTargets, deadUrl, {}, {} } });
        QTRY_COMPARE_WITH_TIMEOUT(window.poller()->hosts().size(), 5, 10000); // first, three instances, the dead one
        const QList<FleetHost> hosts = window.poller()->hosts();
        QCOMPARE(hosts.at(0).label, u"first"_s);
        QStringList instances;
        for (int i = 1; i <= 3; ++i) {
            QCOMPARE(hosts.at(i).kind, FleetHost::Kind::Prometheus);
            QCOMPARE(hosts.at(i).address, url);
            instances.append(hosts.at(i).instance);
        }
        QStringList expected;
        for (const int port : std::as_const(m_exporterPorts))
            expected.append(u"127.0.0.1:%1"_s.arg(port));
        instances.sort();
        expected.sort();
        QCOMPARE(instances, expected);
        QCOMPARE(hosts.at(4).kind, FleetHost::Kind::PrometheusTargets);
        const QModelIndex dead = window.model()->hostIndex(4, FleetModel::StatusColumn);
        QTRY_VERIFY_WITH_TIMEOUT(dead.data(Qt::ForegroundRole).isValid(), 10000);
        QVERIFY2(dead.data().toString().contains(u"Prometheus at"_s), qPrintable(dead.data().toString()));
    }

    // pcp-find SUBNET: the pmcds pmfind finds by probing (on PMCD_PORT: the test's pmcd) become hosts.
    void pmfindFindsThePmcd()
    {
        if (!m_havePcp || QStandardPaths::findExecutable(u"pmfind"_s).isEmpty())
            QSKIP("no pmcd or pmfind here");
        qputenv("PMCD_PORT", QByteArray::number(m_pmcdPort)); // pmfind probes this port
        FleetWindow window;
        window.setHosts({ { FleetHost::Kind::PcpFind, u"127.0.0.1/32"_s, {}, {} } });
        QTRY_VERIFY_WITH_TIMEOUT(!window.poller()->hosts().isEmpty(), 30000); // listed on a job
        qunsetenv("PMCD_PORT");
        QCOMPARE(window.poller()->hosts().size(), 1);
        QCOMPARE(window.poller()->hosts().first().kind, FleetHost::Kind::Pcp);
        QCOMPARE(window.poller()->hosts().first().address, u"127.0.0.1:%1"_s.arg(m_pmcdPort));
        QTRY_VERIFY_WITH_TIMEOUT(window.model()->summary(0).has_value(), 20000);
    }

    // A pmcd through a pmproxy (HOST:PORT@PROXY:PORT): the same figures as directly.
    void pcpHostThroughPmproxy()
    {
        if (!m_havePcp || m_pmproxyPort == 0)
            QSKIP("no pmcd or pmproxy here");
        FleetWindow window;
        window.intervalSpin()->setValue(1);
        window.setHosts({ { FleetHost::Kind::Pcp, u"127.0.0.1:%1@127.0.0.1:%2"_s.arg(m_pmcdPort).arg(m_pmproxyPort), {},
            u"via-pmproxy"_s } });
        QTRY_VERIFY_WITH_TIMEOUT(window.model()->summary(0).has_value(), 20000);
        QVERIFY2(window.poller()->description(0).contains(u"@127.0.0.1:%1"_s.arg(m_pmproxyPort)),
            qPrintable(window.poller()->description(0)));
        const auto &summary = window.model()->summary(0);
        QVERIFY(summary->devices.size() >= 1); // vda: PCP's disk.dev leaves out loop devices
    }

    // A host's context menu opens it with the agent: the name ssh takes (no port), never for `local`.
    void hostOpensWithTheAgent()
    {
        QVERIFY(m_window);
        QCOMPARE(FleetWindow::agentHostName({ FleetHost::Kind::Pcp, u"db7:44321"_s, {}, {} }), u"db7"_s);
        QCOMPARE(FleetWindow::agentHostName({ FleetHost::Kind::Pcp, u"[::1]:44321"_s, {}, {} }), u"::1"_s);
        QCOMPARE(FleetWindow::agentHostName({ FleetHost::Kind::Prometheus, u"http://p:9090"_s, u"db9:9100"_s, {} }),
            u"db9"_s);
        QCOMPARE(FleetWindow::agentHostName({ FleetHost::Kind::Local, {}, {}, {} }), QString());
        QStringList opened;
        m_window->setAgentOpener([&opened](const QString &name) { opened.append(name); });
        QTreeView *view = m_window->view();
        const QModelIndex host = m_window->proxy()->mapFromSource(m_window->model()->hostIndex(m_badHost));
        QVERIFY(host.isValid());
        view->scrollTo(host);
        Q_EMIT view->customContextMenuRequested(view->visualRect(host).center());
        QMenu *menu = m_window->findChild<QMenu *>();
        QVERIFY(menu);
        QAction *open = menu->findChild<QAction *>(u"openWithAgent"_s);
        QVERIFY(open && open->isEnabled());
        open->trigger();
        QCOMPARE(opened, QStringList { u"db9"_s }); // the unreachable host's instance label, db9:9100
        menu->close();
    }

    void sortsByMaxUtil()
    {
        QVERIFY(m_window);
        QSortFilterProxyModel *proxy = m_window->proxy();
        for (Qt::SortOrder order : { Qt::DescendingOrder, Qt::AscendingOrder }) {
            m_window->view()->sortByColumn(FleetModel::UtilColumn, order);
            QList<double> values;
            for (int row = 0; row < proxy->rowCount(); ++row)
                values += proxy->index(row, FleetModel::UtilColumn).data(FleetModel::SortRole).toDouble();
            QList<double> sorted = values;
            std::sort(sorted.begin(), sorted.end());
            if (order == Qt::DescendingOrder)
                std::reverse(sorted.begin(), sorted.end());
            QCOMPARE(values, sorted);
            // The unreachable host has no figures: last when the busiest come first.
            if (order == Qt::DescendingOrder)
                QCOMPARE(proxy->index(proxy->rowCount() - 1, 0).data().toString(), u"unreachable"_s);
        }
        m_window->view()->sortByColumn(FleetModel::UtilColumn, Qt::DescendingOrder);
    }

    void filterHidesRows()
    {
        QVERIFY(m_window);
        QSortFilterProxyModel *proxy = m_window->proxy();
        const int hosts = m_window->model()->rowCount();
        m_window->filterEdit()->setText(u"node-2"_s);
        QCOMPARE(proxy->rowCount(), 1);
        QCOMPARE(proxy->index(0, 0).data().toString(), u"node-2"_s);
        QVERIFY(proxy->rowCount(proxy->index(0, 0)) > 1); // a host that matches keeps its devices
        m_window->filterEdit()->setText(u"vda"_s);
        QVERIFY(proxy->rowCount() >= 3);
        for (int row = 0; row < proxy->rowCount(); ++row) {
            const QModelIndex host = proxy->index(row, 0);
            QVERIFY(proxy->rowCount(host) >= 1);
            for (int child = 0; child < proxy->rowCount(host); ++child)
                QVERIFY(proxy->index(child, 0, host).data().toString().contains(u"vda"_s));
        }
        m_window->filterEdit()->setText(u"no-such-host-or-device"_s);
        QCOMPARE(proxy->rowCount(), 0);
        m_window->filterEdit()->clear();
        QCOMPARE(proxy->rowCount(), hosts);
    }

    void selectingADeviceChartsIt()
    {
        QVERIFY(m_window);
        QSortFilterProxyModel *proxy = m_window->proxy();
        m_window->filterEdit()->setText(u"node-1"_s);
        const QModelIndex host = proxy->index(0, 0);
        QModelIndex vda;
        for (int row = 0; row < proxy->rowCount(host); ++row) {
            if (proxy->index(row, 0, host).data(FleetModel::DeviceRole).toString() == "vda"_L1)
                vda = proxy->index(row, 0, host);
        }
        m_window->filterEdit()->clear();
        if (!vda.isValid())
            QSKIP("no vda here");
        m_window->view()->expand(vda.parent());
        m_window->view()->setCurrentIndex(vda);
        QVERIFY(m_window->charts());
        QCOMPARE(m_window->chartedDevices(), QStringList { u"vda"_s });
        QCOMPARE(m_window->charts()->devices(), QStringList { u"vda"_s });
        // Batches keep coming from the host's own frames.
        QTRY_VERIFY_WITH_TIMEOUT(m_window->charts()->now() > 0, 10000);
    }

    // Screenshots for docs/ when DMTUNE_FLEET_SCREENSHOTS names a directory (run under xvfb-run, QT_QPA_PLATFORM=xcb).
    void screenshots()
    {
        const QString directory = qEnvironmentVariable("DMTUNE_FLEET_SCREENSHOTS");
        if (directory.isEmpty())
            QSKIP("DMTUNE_FLEET_SCREENSHOTS not set");
        QVERIFY2(m_window, "the fleet is filled by fillsTheFleet, which must run first");
        m_window->view()->expand(m_window->proxy()->index(0, 0));
        // Steady reads until the poller has brought that many more summaries of the expanded host (one a second), so
        // that every interval in the picture has some.
        int summaries = 0;
        QObject counting; // the connection's context: gone before `summaries` is
        connect(m_window->poller(), &FleetPoller::summaryReady, &counting, [&summaries](int host) {
            if (host == 0)
                ++summaries;
        });
        const auto keepReading = [this, &summaries](int intervals) {
            const int until = summaries + intervals;
            return QTest::qWaitFor(
                [&] {
                    readFromDisk();
                    return summaries >= until;
                },
                30000);
        };
        QVERIFY(keepReading(3));
        for (const QSize size : { QSize(1280, 720), QSize(1400, 900), QSize(1920, 1080) }) {
            m_window->resize(size);
            QVERIFY(keepReading(2));
            const QString path = u"%1/screenshot-fleet-%2x%3.png"_s.arg(directory).arg(size.width()).arg(size.height());
            QVERIFY(m_window->grab().save(path));
        }
    }
};

QTEST_MAIN(TestFleetWindow)
#include "tst_fleetwindow.moc"
