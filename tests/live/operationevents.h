#pragma once
// What a long-running operation started in a test (OperationService::start) delivered: its progress events in the
// order they came, and its result once.
#include "core/ops/operation.h"

#include <QJsonObject>
#include <QList>
#include <QStringList>

#include <algorithm>
#include <optional>

namespace dmtune::live {

struct OperationEvents {
    QList<QJsonObject> events;
    std::optional<OperationResult> result;

    // The events' names in order, fio's own "output" lines left out; with `point`, each followed by its "point"
    // (a sweep's: "point 1", "run-started 1"; 0 where an event has none).
    QStringList names(bool point = false) const
    {
        QStringList out;
        for (const QJsonObject &e : events) {
            const QString name = e.value(QLatin1String("event")).toString();
            if (name == QLatin1String("output"))
                continue;
            out << (point ? name + u' ' + QString::number(e.value(QLatin1String("point")).toInt()) : name);
        }
        return out;
    }
    int count(const QString &name) const
    {
        return int(std::count_if(events.cbegin(), events.cend(),
            [&](const QJsonObject &e) { return e.value(QLatin1String("event")).toString() == name; }));
    }
    bool has(const QString &name) const { return count(name) > 0; }
};

} // namespace dmtune::live
