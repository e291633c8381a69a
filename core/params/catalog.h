#pragma once
// The catalog of tunables dmtune knows: the allow list of everything it will ever write.
#include "core/params/tunabledef.h"
#include "core/util/result.h"

#include <QList>
#include <QStringList>

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
// An attribute as a user types it (dmtunectl set/get, --attr, a preset file): the catalog key itself or any last
// part of it that names one entry alone ("nr_requests", "iosched/read_expire", "queue_depth" for
// device/queue_depth). Fails with why: a read-only attribute the kernel only reports ("queue/logical_block_size
// is read-only ..."), a part several keys share (naming them), or an unknown name.
Result<QString> resolve(const QString &name);
// The keys among `keys` that `name` names: the one equal to it, else those it is the last part of (after a '/'),
// where one device attribute among module parameters wins ("iopolicy": nvme/iopolicy, not module/nvme_core/...).
QStringList matching(const QStringList &keys, const QString &name);
// Attributes of a device directory that the kernel reports and never lets anyone write (queue/logical_block_size,
// queue/max_hw_sectors_kb, ...): never in the catalog, known so that a write to one is called read-only.
const QStringList &readOnlyAttributes();
// Attribute keys of one scheduler's iosched/ tunables.
QStringList schedulerAttributes(const QString &scheduler);
const QList<IgnoredKnob> &ignoredTableKnobs();

} // namespace catalog
} // namespace dmtune
