// File > Connect to host… on the offscreen platform: the dialog's validation (a wrong address gets one line and
// changes nothing), the recent hosts (addresses only, never the password), and a remote host's window against a
// real ssh whose 127.0.0.1 port nobody listens on: its name on the title, above the panes and on every chart,
// read-only, and the banner that says it is down and when it tries again. (tst_live_remotewindow connects one.)
#include "app/dmtune/mainwindow.h"
#include "core/params/tuningsession.h"
#include "core/remote/remotehost.h"
#include "core/remote/remoteworkload.h"
#include "tests/common/remotewindowaccess.h"
#include "tests/live/remote/sshtestsupport.h" // a port on 127.0.0.1 that nothing listens on
#include "widgets/charts/chartpanel.h"
#include "widgets/charts/livestatsview.h"
#include "widgets/experiments/experimentpanel.h"
#include "widgets/remote/connectdialog.h"
#include "widgets/remote/hostheader.h"
#include "widgets/remote/remotebanner.h"
#include "widgets/workloads/workloadpanel.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <functional>

#include <unistd.h>

using namespace dmtune;

namespace {

QAction *connectAction(MainWindow &window)
{
    return window.findChild<QAction *>(QStringLiteral("connectToHostAction"));
}

} // namespace

class TestRemoteWindow : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { RecentHosts::clear(); }

    void composesTheAddress_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("user");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("expected"); // display(), or empty: refused
        QTest::newRow("host") << "db1"
                              << "" << 0 << "db1";
        QTest::newRow("fields") << "db1"
                                << "admin" << 2222 << "admin@db1:2222";
        QTest::newRow("all in host") << "admin@db1:2222"
                                     << "" << 0 << "admin@db1:2222";
        QTest::newRow("same twice") << "admin@db1"
                                    << "admin" << 0 << "admin@db1";
        QTest::newRow("ipv6") << "[::1]"
                              << "root" << 22 << "root@[::1]:22";
        QTest::newRow("empty") << "  "
                               << "" << 0 << "";
        QTest::newRow("two users") << "root@db1"
                                   << "admin" << 0 << "";
        QTest::newRow("two ports") << "db1:22"
                                   << "" << 2222 << "";
        QTest::newRow("option as host") << "-oProxyCommand=x"
                                        << "" << 0 << "";
        QTest::newRow("option as user") << "db1"
                                        << "-oProxyCommand=x" << 0 << "";
        QTest::newRow("port out of range") << "db1:70000"
                                           << "" << 0 << "";
        QTest::newRow("space in host") << "db 1"
                                       << "" << 0 << "";
    }
    void composesTheAddress()
    {
        QFETCH(QString, host);
        QFETCH(QString, user);
        QFETCH(int, port);
        QFETCH(QString, expected);
        const Result<HostAddress> a = composeHostAddress(host, user, port);
        if (expected.isEmpty()) {
            QVERIFY(!a);
            QVERIFY(!a.errorMessage().isEmpty());
            QVERIFY(!a.errorMessage().contains(QLatin1Char('\n')));
        } else {
            QVERIFY2(a, qPrintable(a.errorMessage()));
            QCOMPARE(a->display(), expected);
        }
    }

    void aWrongAddressGetsOneLineAndChangesNothing()
    {
        QTemporaryDir empty;
        MainWindow window(SysfsRoot(empty.path(), QString()));
        window.show();
        QSignalSpy shown(&window, &MainWindow::connectDialogShown);
        QSignalSpy opened(&window, &MainWindow::remoteWindowOpened);
        QVERIFY(connectAction(window));
        connectAction(window)->trigger();
        QCOMPARE(shown.count(), 1);
        auto *dialog = qobject_cast<ConnectDialog *>(shown.first().first().value<QDialog *>());
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());
        QSignalSpy requested(dialog, &ConnectDialog::connectRequested);
        dialog->hostCombo()->setEditText(QStringLiteral("-oProxyCommand=touch /tmp/x"));
        dialog->passwordEdit()->setText(QStringLiteral("s3cret"));
        QTest::mouseClick(dialog->connectButton(), Qt::LeftButton);
        QVERIFY(dialog->isVisible()); // still open, nothing started
        QVERIFY(dialog->problemLabel()->isVisible());
        QVERIFY2(dialog->problemLabel()->text().startsWith(QLatin1String("bad host")),
            qPrintable(dialog->problemLabel()->text()));
        QVERIFY(!dialog->problemLabel()->text().contains(QLatin1Char('\n')));
        QCOMPARE(requested.count(), 0);
        QCOMPARE(opened.count(), 0);
        if (const QString shots = qEnvironmentVariable("DMTUNE_SHOTS"); !shots.isEmpty())
            dialog->grab().save(shots + QStringLiteral("/connect-dialog-bad-host.png"));
        QVERIFY(RecentHosts::list().isEmpty());
        // Typing again takes the line away.
        dialog->hostCombo()->setEditText(QStringLiteral("db1"));
        QVERIFY(!dialog->problemLabel()->isVisible());
        dialog->reject();
    }

    void aValidAddressIsHandedOutWithThePasswordOnce()
    {
        ConnectDialog dialog;
        dialog.show();
        QSignalSpy requested(&dialog, &ConnectDialog::connectRequested);
        dialog.hostCombo()->setEditText(QStringLiteral("db1"));
        dialog.userEdit()->setText(QStringLiteral("admin"));
        dialog.portSpin()->setValue(2222);
        dialog.passwordEdit()->setText(QStringLiteral("s3cret"));
        QTest::mouseClick(dialog.connectButton(), Qt::LeftButton);
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.first().at(0).value<HostAddress>().display(), QStringLiteral("admin@db1:2222"));
        QCOMPARE(requested.first().at(1).toByteArray(), QByteArray("s3cret"));
        QVERIFY(dialog.passwordEdit()->text().isEmpty()); // no copy left in the dialog
        QVERIFY(!dialog.isVisible());
    }

    void asksTheSudoPasswordForItsHost()
    {
        ConnectDialog dialog;
        dialog.askPassword({ QStringLiteral("admin"), QStringLiteral("db1"), 0 }, QStringLiteral("sudo asks"));
        dialog.show();
        QVERIFY(dialog.windowTitle().contains(QLatin1String("admin@db1")));
        QVERIFY(!dialog.hostCombo()->isEnabled() && !dialog.userEdit()->isEnabled() && !dialog.portSpin()->isEnabled());
        QSignalSpy requested(&dialog, &ConnectDialog::connectRequested);
        dialog.passwordEdit()->setText(QStringLiteral("s3cret"));
        if (const QString shots = qEnvironmentVariable("DMTUNE_SHOTS"); !shots.isEmpty())
            dialog.grab().save(shots + QStringLiteral("/connect-dialog-password.png"));
        QTest::mouseClick(dialog.connectButton(), Qt::LeftButton);
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.first().at(0).value<HostAddress>().display(), QStringLiteral("admin@db1"));
        QCOMPARE(requested.first().at(1).toByteArray(), QByteArray("s3cret"));
        QVERIFY(dialog.passwordEdit()->text().isEmpty());
    }

    void remembersRecentHostsNeverThePassword()
    {
        RecentHosts::remember({ QStringLiteral("root"), QStringLiteral("db1"), 0 });
        RecentHosts::remember({ QStringLiteral("admin"), QStringLiteral("db2"), 2222 });
        RecentHosts::remember({ QStringLiteral("root"), QStringLiteral("db1"), 0 }); // again: first, not twice
        QCOMPARE(RecentHosts::list(), (QStringList { QStringLiteral("root@db1"), QStringLiteral("admin@db2:2222") }));
        for (int i = 0; i < 15; ++i)
            RecentHosts::remember({ QString(), QStringLiteral("h%1").arg(i), 0 });
        QCOMPARE(RecentHosts::list().size(), RecentHosts::MaxHosts);
        QCOMPARE(RecentHosts::list().first(), QStringLiteral("h14"));

        RecentHosts::clear();
        RecentHosts::remember({ QStringLiteral("root"), QStringLiteral("db1"), 0 });
        RecentHosts::remember({ QStringLiteral("admin"), QStringLiteral("db2"), 2222 });
        ConnectDialog dialog;
        dialog.show();
        QCOMPARE(dialog.hostCombo()->count(), 2);
        QCOMPARE(dialog.hostCombo()->itemText(0), QStringLiteral("admin@db2:2222"));
        // Choosing one fills the three fields.
        dialog.hostCombo()->setCurrentIndex(0);
        Q_EMIT dialog.hostCombo()->activated(0);
        QCOMPARE(dialog.hostCombo()->currentText(), QStringLiteral("db2"));
        QCOMPARE(dialog.userEdit()->text(), QStringLiteral("admin"));
        QCOMPARE(dialog.portSpin()->value(), 2222);
        dialog.passwordEdit()->setText(QStringLiteral("s3cret"));
        QTest::mouseClick(dialog.connectButton(), Qt::LeftButton);

        // Nothing in the settings holds the password.
        QSettings settings;
        settings.sync();
        QFile file(settings.fileName());
        if (file.open(QIODevice::ReadOnly))
            QVERIFY(!file.readAll().contains("s3cret"));
        for (const QString &key : settings.allKeys())
            QVERIFY(!settings.value(key).toString().contains(QLatin1String("s3cret")));
    }

    void aHostThatIsDownHasItsWindowAndBanner()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("ssh")).isEmpty())
            QSKIP("no ssh client");
        QTemporaryDir dir;
        const QString config = dir.filePath(QStringLiteral("ssh_config")); // none of the user's ssh set-up
        QFile(config).open(QIODevice::WriteOnly);
        const int port = sshtest::freeLoopbackPort();
        const HostAddress address { QStringLiteral("root"), QStringLiteral("127.0.0.1"), port };

        MainWindow local(SysfsRoot(dir.path(), QString()));
        QSignalSpy opened(&local, &MainWindow::remoteWindowOpened);
        MainWindow *window = local.openRemoteWindow(address, { config, QStringLiteral("dmtunectl") }, {});
        QVERIFY(window);
        QCOMPARE(opened.count(), 1);
        window->resize(1280, 720);
        const QString name = address.display();
        QVERIFY(!window->hostSession()->name().isEmpty());
        QVERIFY2(window->windowTitle().contains(name), qPrintable(window->windowTitle()));
        QVERIFY(window->windowTitle().contains(QLatin1String("(remote)")));
        // The Tune tab says it only previews there, and how to tune the host.
        auto *tuneNote = window->findChild<QLabel *>(QStringLiteral("remoteTuneNote"));
        QVERIFY(tuneNote);
        QVERIFY2(tuneNote->text().contains(QLatin1String("dmtunectl --host ") + name.toHtmlEscaped()),
            qPrintable(tuneNote->text()));
        QVERIFY(window->hostHeader()->label()->isVisible());
        QVERIFY(window->hostHeader()->label()->text().contains(name));
        for (ChartPanel *panel : window->statsView()->panels())
            QVERIFY2(panel->titleText().startsWith(name + QLatin1Char(':')), qPrintable(panel->titleText()));
        QVERIFY(window->tuningSession()->isRemote());
        QVERIFY(!window->tuningSession()->canUndo()); // nothing applied yet
        // The Experiment tab is there too: its sweeps are planned and started by the host's agent.
        QVERIFY(window->experimentPanel());
        QCOMPARE(window->experimentPanel()->hostName(), name);
        QVERIFY(window->showTab(QStringLiteral("experiment")));
        // The Workload dock runs fio on the host: offered, with a lab device made there.
        QVERIFY(window->workloadDock()->toggleViewAction()->isVisible());
        QVERIFY(qobject_cast<RemoteWorkload *>(window->workloadPanel()->runs())); // jobs of the agent there
        QVERIFY(window->workloadPanel()->labState().device.isEmpty());
        QVERIFY(window->workloadPanel()->canCreateLabDevice()); // on the host, by its agent
        QVERIFY(!window->labDevices()); // none of this machine's

        // The same window as this machine's: every tab and every menu entry, in the same order, each tab's page
        // laid out on a 1280x720 screen (an empty captured tree's window beside it).
        local.resize(1280, 720);
        QCOMPARE(tabTitles(window), tabTitles(&local));
        QCOMPARE(menuEntries(window), menuEntries(&local));
        QVERIFY2(tabTitles(window).size() >= 6, qPrintable(tabTitles(window).join(QLatin1Char(' '))));
        window->show();
        auto *tabs = window->findChild<QTabWidget *>(QStringLiteral("deviceTabs"));
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            QVERIFY(tabs->isTabEnabled(i));
            QTRY_VERIFY(tabs->currentWidget()->isVisible());
            QVERIFY2(tabs->currentWidget()->height() >= 200, qPrintable(tabs->tabText(i)));
            QVERIFY(tabs->currentWidget()->geometry().right() <= window->width());
        }

        // ssh says "Connection refused": the banner says so and counts down to the next attempt.
        RemoteBanner *banner = window->hostHeader()->banner();
        QTRY_VERIFY_WITH_TIMEOUT(
            remoteSessionOf(window)->remoteHost()->state() == RemoteHost::State::Disconnected, 20000);
        QVERIFY(banner->isVisible());
        QVERIFY2(banner->text().contains(QLatin1String("Connection refused"))
                && banner->text().contains(QLatin1String("reconnecting in")),
            qPrintable(banner->text()));
        QVERIFY(banner->button()->isVisible());
        QCOMPARE(banner->button()->text(), QStringLiteral("&Reconnect now"));
        // The whole line is on screen: wrapped, not clipped, the button beside it.
        QVERIFY(banner->label()->wordWrap());
        QVERIFY(banner->geometry().right() <= window->width());
        QVERIFY(banner->button()->geometry().right() <= banner->width());

        // Reconnect now: one more attempt at once.
        const int before = remoteSessionOf(window)->remoteHost()->attempts();
        QTest::mouseClick(banner->button(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(remoteSessionOf(window)->remoteHost()->attempts() > before, 20000);

        // The same host again: its window comes forward, no second one.
        QCOMPARE(local.openRemoteWindow(address, { config, QStringLiteral("dmtunectl") }, {}), window);
        QCOMPARE(opened.count(), 1);
        // Closed, it is deleted (and with it the host's private directory).
        const QString tree = remoteSessionOf(window)->remoteHost()->sysfsRoot().root();
        QPointer<MainWindow> guard(window);
        window->close();
        QTRY_VERIFY(guard.isNull());
        QVERIFY(!QFileInfo::exists(tree));
    }
};

QTEST_MAIN(TestRemoteWindow)
#include "tst_remotewindow.moc"
