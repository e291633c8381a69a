#pragma once
// The catalog of tunables dmtune knows: the allow list of everything it will ever write.
#include "params/tunabledef.h"

#include <QList>

namespace dmtune {

// A knob that lives outside sysfs (a dm table argument) but lies in the same way as an
// ignored attribute: for editors that would otherwise offer it.
struct IgnoredKnob {
    QString name;
    QString note;
};

namespace catalog {

const QList<TunableDef> &all();
// The entry for an attribute key, or null when it is not in the catalog (then it is never written).
const TunableDef *find(const QString &attribute);
// Attribute keys of one scheduler's iosched/ tunables.
QStringList schedulerAttributes(const QString &scheduler);
const QList<IgnoredKnob> &ignoredTableKnobs();

} // namespace catalog
} // namespace dmtune
