#include "core/fleet/fleethosts.h"

#include "core/metrics/prometheussource.h"
#include "core/util/systemprogram.h"

#include <QHash>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace dmtune {

QString FleetHost::displayName() const
{
    if (!label.isEmpty())
        return label;
    return kind == Kind::Pcp || kind == Kind::PrometheusTargets || kind == Kind::PcpFind ? address
        : kind == Kind::Local                                                            ? u"this machine"_s
                                                                                         : instance;
}

QString FleetHost::identity() const
{
    return (kind == Kind::Pcp            ? u"pcp "_s
                   : kind == Kind::Local ? u"local "_s
                                         : u"prometheus "_s)
        + address + u' ' + instance;
}

namespace {

// HOST, HOST:PORT, [V6], [V6]:PORT; PORT 1..65535.
QString checkPcpHost(const QString &spec)
{
    // HOST[:PORT], or HOST[:PORT]@PROXY[:PORT]: the pmcd reached through a pmproxy (PCP's own spelling).
    static const QRegularExpression form(uR"(^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(:(\d{1,5}))?$)"_s);
    const QStringList parts = spec.split(u'@');
    if (parts.size() > 2)
        return u"not a host or host:port: %1"_s.arg(spec);
    for (const QString &part : parts) {
        const QRegularExpressionMatch match = form.match(part);
        if (!match.hasMatch())
            return u"not a host or host:port: %1"_s.arg(spec);
        if (match.hasCaptured(3)) {
            const int port = match.captured(3).toInt();
            if (port < 1 || port > 65535)
                return u"port out of range (1..65535): %1"_s.arg(spec);
        }
    }
    return {};
}

QString checkPrometheusUrl(const QString &text)
{
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid() || (url.scheme() != "http"_L1 && url.scheme() != "https"_L1) || url.host().isEmpty())
        return u"not an http(s) URL with a host: %1"_s.arg(text);
    return {};
}

} // namespace

Result<QList<FleetHost>> parseFleetHosts(QStringView text)
{
    QList<FleetHost> hosts;
    QHash<QString, int> lineOfIdentity;
    QHash<QString, int> lineOfLabel;
    int lineNumber = 0;
    for (QStringView line : text.split(u'\n')) {
        ++lineNumber;
        if (const qsizetype hash = line.indexOf(u'#'); hash >= 0)
            line = line.left(hash);
        line = line.trimmed();
        if (line.isEmpty())
            continue;
        const auto fail = [lineNumber](const QString &why) {
            return Result<QList<FleetHost>>::failure(u"line %1: %2"_s.arg(lineNumber).arg(why));
        };
        const QStringList words = line.toString().split(QRegularExpression(u"\\s+"_s));
        FleetHost host;
        qsizetype labelFrom = 0;
        if (words[0] == "pcp"_L1) {
            if (words.size() < 2)
                return fail(u"pcp needs a HOST[:PORT]"_s);
            if (const QString why = checkPcpHost(words[1]); !why.isEmpty())
                return fail(why);
            host.kind = FleetHost::Kind::Pcp;
            host.address = words[1];
            labelFrom = 2;
        } else if (words[0] == "prometheus"_L1) {
            if (words.size() < 3)
                return fail(u"prometheus needs a URL and an INSTANCE"_s);
            if (const QString why = checkPrometheusUrl(words[1]); !why.isEmpty())
                return fail(why);
            host.kind = FleetHost::Kind::Prometheus;
            host.address = words[1];
            host.instance = words[2];
            labelFrom = 3;
        } else if (words[0] == "prometheus-targets"_L1) {
            if (words.size() < 2)
                return fail(u"prometheus-targets needs a URL"_s);
            if (const QString why = checkPrometheusUrl(words[1]); !why.isEmpty())
                return fail(why);
            host.kind = FleetHost::Kind::PrometheusTargets;
            host.address = words[1];
            labelFrom = 2;
        } else if (words[0] == "pcp-find"_L1) {
            static const QRegularExpression subnet(uR"(^[0-9A-Fa-f.:]+/\d{1,3}$)"_s);
            if (words.size() < 2 || !subnet.match(words[1]).hasMatch())
                return fail(u"pcp-find needs a SUBNET (10.1.2.0/24)"_s);
            host.kind = FleetHost::Kind::PcpFind;
            host.address = words[1];
            labelFrom = 2;
        } else if (words[0] == "local"_L1) {
            host.kind = FleetHost::Kind::Local;
            labelFrom = 1;
        } else {
            return fail(
                u"unknown kind \"%1\" (pcp, pcp-find, prometheus, prometheus-targets or local)"_s.arg(words[0]));
        }
        host.label = words.mid(labelFrom).join(u' ');
        if (const int first = lineOfIdentity.value(host.identity()); first > 0)
            return fail(u"the same host as line %1"_s.arg(first));
        if (const int first = lineOfLabel.value(host.displayName()); first > 0)
            return fail(u"the same name as line %1: %2"_s.arg(first).arg(host.displayName()));
        lineOfIdentity.insert(host.identity(), lineNumber);
        lineOfLabel.insert(host.displayName(), lineNumber);
        hosts.append(host);
    }
    return hosts;
}

QList<FleetHost> fleetHostsFromPrometheusInstances(const QString &url, const QStringList &instances)
{
    QList<FleetHost> hosts;
    QSet<QString> seen;
    for (const QString &instance : instances) {
        if (instance.isEmpty() || seen.contains(instance))
            continue;
        seen.insert(instance);
        FleetHost host;
        host.kind = FleetHost::Kind::Prometheus;
        host.address = url;
        host.instance = instance;
        hosts.append(host);
    }
    return hosts;
}

QStringList parsePmfindServers(QStringView text)
{
    static const QRegularExpression server(uR"(^\s*pcp://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(:\d{1,5})?\s*$)"_s);
    QStringList servers;
    for (const QStringView line : text.split(u'\n')) {
        const QRegularExpressionMatch match = server.match(line);
        if (match.hasMatch() && !servers.contains(match.captured(1) + match.captured(2)))
            servers.append(match.captured(1) + match.captured(2));
    }
    return servers;
}

namespace {

// pmfind probing a subnet for pmcds (on PMCD_PORT when the environment sets one); blocks up to its timeout.
Result<QStringList> findPmcds(const QString &subnet)
{
    const Result<QString> pmfind = findProgram(u"pmfind"_s);
    if (!pmfind)
        return Result<QStringList>::failure(u"pcp-find %1: %2"_s.arg(subnet, pmfind.errorMessage()));
    QProcess process;
    process.start(*pmfind, { u"-s"_s, u"pmcd"_s, u"-m"_s, u"probe="_s + subnet, u"-t"_s, u"2"_s });
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished(1000);
        return Result<QStringList>::failure(u"pcp-find %1: pmfind did not finish"_s.arg(subnet));
    }
    // pmfind exits 1 when it finds nothing: that is an empty list, not an error.
    return parsePmfindServers(QString::fromLocal8Bit(process.readAllStandardOutput()));
}

} // namespace

QList<FleetHost> expandFleetHosts(const QList<FleetHost> &hosts, QHash<QString, QString> *errors)
{
    QList<FleetHost> expanded;
    QSet<QString> seen;
    const auto add = [&](const FleetHost &host) {
        if (!seen.contains(host.identity())) {
            seen.insert(host.identity());
            expanded.append(host);
        }
    };
    for (const FleetHost &host : hosts) {
        if (host.kind == FleetHost::Kind::PcpFind) {
            const Result<QStringList> found = findPmcds(host.address);
            if (!found || found->isEmpty()) {
                if (errors)
                    errors->insert(
                        host.address, found ? u"pmfind found no pmcd in %1"_s.arg(host.address) : found.errorMessage());
                add(host);
                continue;
            }
            for (const QString &server : found.value())
                add({ FleetHost::Kind::Pcp, server, {}, {} });
            continue;
        }
        if (host.kind != FleetHost::Kind::PrometheusTargets) {
            add(host);
            continue;
        }
        const Result<QStringList> instances = PrometheusSource::diskInstances(host.address);
        if (!instances) {
            if (errors)
                errors->insert(host.address, instances.errorMessage());
            add(host);
            continue;
        }
        for (const FleetHost &instance : fleetHostsFromPrometheusInstances(host.address, instances.value()))
            add(instance);
    }
    return expanded;
}

} // namespace dmtune
