// The fleet's hosts file and a Prometheus server's instances as hosts.
#include "core/fleet/fleethosts.h"

#include <QTest>

using namespace dmtune;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(QList<dmtune::FleetHost>)

namespace {

FleetHost pcp(const QString &address, const QString &label = {})
{
    return { FleetHost::Kind::Pcp, address, {}, label };
}

FleetHost prometheus(const QString &url, const QString &instance, const QString &label = {})
{
    return { FleetHost::Kind::Prometheus, url, instance, label };
}

} // namespace

class TestFleetHosts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QList<FleetHost>>("hosts");
        QTest::newRow("empty") << QString() << QList<FleetHost> {};
        QTest::newRow("comments and blanks") << u"# fleet\n\n   \n  # more\n"_s << QList<FleetHost> {};
        QTest::newRow("pcp host") << u"pcp db1"_s << QList<FleetHost> { pcp(u"db1"_s) };
        QTest::newRow("pcp host:port label") << u"pcp 127.0.0.1:44321 local pmcd  # here\n"_s
                                             << QList<FleetHost> { pcp(u"127.0.0.1:44321"_s, u"local pmcd"_s) };
        QTest::newRow("this machine") << u"local"_s
                                      << QList<FleetHost> { FleetHost { FleetHost::Kind::Local, {}, {}, {} } };
        QTest::newRow("this machine, labelled")
            << u"local  lab bench"_s
            << QList<FleetHost> { FleetHost { FleetHost::Kind::Local, {}, {}, u"lab bench"_s } };
        QTest::newRow("pcp through pmproxy")
            << u"pcp db1:44321@proxy:44322 db1"_s
            << QList<FleetHost> { FleetHost { FleetHost::Kind::Pcp, u"db1:44321@proxy:44322"_s, {}, u"db1"_s } };
        QTest::newRow("pmcds found on a subnet")
            << u"pcp-find 10.1.2.0/24 lab"_s
            << QList<FleetHost> { FleetHost { FleetHost::Kind::PcpFind, u"10.1.2.0/24"_s, {}, u"lab"_s } };
        QTest::newRow("a server's targets")
            << u"prometheus-targets http://prom:9090"_s
            << QList<FleetHost> { FleetHost { FleetHost::Kind::PrometheusTargets, u"http://prom:9090"_s, {}, {} } };
        QTest::newRow("pcp ipv6") << u"pcp [::1]:44321"_s << QList<FleetHost> { pcp(u"[::1]:44321"_s) };
        QTest::newRow("prometheus")
            << u"prometheus http://prom:9090 db1:9100\nprometheus https://prom/sub db2:9100 db two\n"_s
            << QList<FleetHost> { prometheus(u"http://prom:9090"_s, u"db1:9100"_s),
                   prometheus(u"https://prom/sub"_s, u"db2:9100"_s, u"db two"_s) };
        QTest::newRow("tabs and CRLF") << u"pcp\tdb1\tone\r\npcp db2\r\n"_s
                                       << QList<FleetHost> { pcp(u"db1"_s, u"one"_s), pcp(u"db2"_s) };
        QTest::newRow("same instance, two servers")
            << u"prometheus http://a:9090 x:9100 a\nprometheus http://b:9090 x:9100 b"_s
            << QList<FleetHost> { prometheus(u"http://a:9090"_s, u"x:9100"_s, u"a"_s),
                   prometheus(u"http://b:9090"_s, u"x:9100"_s, u"b"_s) };
    }
    void parse()
    {
        QFETCH(QString, text);
        QFETCH(QList<FleetHost>, hosts);
        const Result<QList<FleetHost>> parsed = parseFleetHosts(text);
        QVERIFY2(parsed.ok(), qPrintable(parsed.errorMessage()));
        QCOMPARE(parsed.value(), hosts);
    }

    void errors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error");
        QTest::newRow("unknown kind")
            << u"# x\nssh db1"_s
            << u"line 2: unknown kind \"ssh\" (pcp, pcp-find, prometheus, prometheus-targets or local)"_s;
        QTest::newRow("pcp without host") << u"pcp"_s << u"line 1: pcp needs a HOST[:PORT]"_s;
        QTest::newRow("pcp bad port") << u"pcp db1:70000"_s << u"line 1: port out of range (1..65535): db1:70000"_s;
        QTest::newRow("pcp bad host") << u"\npcp db/1"_s << u"line 2: not a host or host:port: db/1"_s;
        QTest::newRow("prometheus without instance")
            << u"prometheus http://p:9090"_s << u"line 1: prometheus needs a URL and an INSTANCE"_s;
        QTest::newRow("prometheus bad url")
            << u"prometheus ftp://p x"_s << u"line 1: not an http(s) URL with a host: ftp://p"_s;
        QTest::newRow("two proxies") << u"pcp a@b@c"_s << u"line 1: not a host or host:port: a@b@c"_s;
        QTest::newRow("pcp-find without subnet")
            << u"pcp-find 10.1.2.3"_s << u"line 1: pcp-find needs a SUBNET (10.1.2.0/24)"_s;
        QTest::newRow("targets without url") << u"prometheus-targets"_s << u"line 1: prometheus-targets needs a URL"_s;
        QTest::newRow("duplicate host") << u"pcp db1 a\n\npcp db1 b"_s << u"line 3: the same host as line 1"_s;
        QTest::newRow("duplicate label") << u"pcp db1 x\npcp db2 x"_s << u"line 2: the same name as line 1: x"_s;
        QTest::newRow("label equals other's address")
            << u"pcp db1\npcp db2 db1"_s << u"line 2: the same name as line 1: db1"_s;
    }
    void errors()
    {
        QFETCH(QString, text);
        QFETCH(QString, error);
        const Result<QList<FleetHost>> parsed = parseFleetHosts(text);
        QVERIFY(!parsed.ok());
        QCOMPARE(parsed.errorMessage(), error);
    }

    void displayName()
    {
        QCOMPARE(pcp(u"db1:44321"_s).displayName(), u"db1:44321"_s);
        QCOMPARE(prometheus(u"http://p"_s, u"db1:9100"_s).displayName(), u"db1:9100"_s);
        QCOMPARE(prometheus(u"http://p"_s, u"db1:9100"_s, u"DB 1"_s).displayName(), u"DB 1"_s);
    }

    // pmfind 6.0.3's report, as it printed it for the fleet test's pmcd (PMCD_PORT set), and edge cases.
    void pmfindServers_data()
    {
        QTest::addColumn<QString>("report");
        QTest::addColumn<QStringList>("servers");
        QTest::newRow("one") << u"Discovered pmcd servers:\n  pcp://127.0.0.1:44999\n"_s
                             << QStringList { u"127.0.0.1:44999"_s };
        QTest::newRow("several, a repeat, ipv6") << u"Discovered pmcd servers:\n  pcp://10.1.2.3:44321\n  "
                                                    "pcp://db7\n  pcp://[fe80::1]:44321\n  pcp://10.1.2.3:44321\n"_s
                                                 << QStringList { u"10.1.2.3:44321"_s, u"db7"_s, u"[fe80::1]:44321"_s };
        QTest::newRow("nothing found") << u"No pmcd servers discovered\n"_s << QStringList {};
        QTest::newRow("not a server line") << u"  pcp://a;rm -rf /\n  http://x:1\n"_s << QStringList {};
    }

    void pmfindServers()
    {
        QFETCH(QString, report);
        QFETCH(QStringList, servers);
        QCOMPARE(parsePmfindServers(report), servers);
    }

    void fromPrometheusInstances()
    {
        const QList<FleetHost> hosts = fleetHostsFromPrometheusInstances(
            u"http://127.0.0.1:9090"_s, { u"b:9100"_s, u"a:9100"_s, QString(), u"b:9100"_s });
        QCOMPARE(hosts,
            (QList<FleetHost> { prometheus(u"http://127.0.0.1:9090"_s, u"b:9100"_s),
                prometheus(u"http://127.0.0.1:9090"_s, u"a:9100"_s) }));
    }
};

QTEST_GUILESS_MAIN(TestFleetHosts)
#include "tst_fleethosts.moc"
