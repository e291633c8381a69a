#pragma once
// The hosts of a fleet, from a hosts file or a Prometheus server's instance list. The parsers are pure (text in,
// values out); expandFleetHosts() asks the servers.
#include "core/util/result.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>

namespace dmtune {

struct FleetHost {
    enum class Kind { Pcp, Prometheus, Local, PrometheusTargets, PcpFind };
    Kind kind = Kind::Pcp;
    QString address; // pcp: HOST[:PORT]; prometheus: the server's URL; local: empty
    QString instance; // prometheus: the instance label; pcp: empty
    QString label; // as the file names it; empty: displayName() falls back to the address or instance

    QString displayName() const;
    // What makes two entries the same host: the kind, the address and the instance.
    QString identity() const;
    bool operator==(const FleetHost &other) const = default;
};

// One host per line:
//   pcp HOST[:PORT] [LABEL]
//   prometheus URL INSTANCE [LABEL]
//   local [LABEL]                      (this machine, as the local sampler reads it)
//   prometheus-targets URL             (every instance of the server with node_disk_* series; expandFleetHosts)
//   pcp-find SUBNET                    (every pmcd pmfind finds probing SUBNET, e.g. 10.1.2.0/24)
// LABEL is the rest of the line. `#` starts a comment; blank lines are skipped. A bad line fails the whole file
// with its line number; the same host twice, or two hosts with one label, too.
Result<QList<FleetHost>> parseFleetHosts(QStringView text);

// The instances of a Prometheus server (parsePrometheusTargets' or parsePrometheusVectorInstances' list) as hosts
// of that server, in the list's order, duplicates once.
QList<FleetHost> fleetHostsFromPrometheusInstances(const QString &url, const QStringList &instances);

// pmfind's report ("Discovered pmcd servers:" then "  pcp://HOST:PORT" lines) -> HOST:PORT each, in its order.
QStringList parsePmfindServers(QStringView text);

// Every prometheus-targets entry replaced by its server's instances, every pcp-find entry by the pmcds pmfind finds
// (asked on the network: call it from a job), duplicates of hosts listed before them dropped. An entry whose server
// does not answer stays, with its error in *errors (by its URL): its row says why.
QList<FleetHost> expandFleetHosts(const QList<FleetHost> &hosts, QHash<QString, QString> *errors);

} // namespace dmtune
