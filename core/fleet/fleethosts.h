#pragma once
// The hosts of a fleet, from a hosts file or a Prometheus server's instance list. Pure: text in, values out.
#include "util/result.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>

namespace dmtune {

struct FleetHost {
    enum class Kind { Pcp, Prometheus, Local };
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
// LABEL is the rest of the line. `#` starts a comment; blank lines are skipped. A bad line fails the whole file
// with its line number; the same host twice, or two hosts with one label, too.
Result<QList<FleetHost>> parseFleetHosts(QStringView text);

// The instances of a Prometheus server (parsePrometheusTargets' or parsePrometheusVectorInstances' list) as hosts
// of that server, in the list's order, duplicates once.
QList<FleetHost> fleetHostsFromPrometheusInstances(const QString &url, const QStringList &instances);

} // namespace dmtune
