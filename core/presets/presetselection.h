#pragma once
// Which attributes "New from selection" keeps by default: those changed through dmtune in this
// session (the tuning history) and those whose value differs from the one dmtune first saw on the device. The
// first-seen values are kept per stable identity (WWID, DM UUID, else MAJ:MIN), so a device renamed between two
// snapshots keeps its record. Pure logic; the reads are the caller's (a job).
#include "core/discovery/blockdevice.h"
#include "core/params/applyresult.h"
#include "core/params/tunable.h"

#include <QHash>
#include <QList>
#include <QString>

#include <optional>

namespace dmtune {

// The identity a device keeps for the session: its WWID, else its DM UUID, else "devnum:MAJ:MIN".
QString firstSeenKey(const BlockDevice &device);

// The values of each device's writable tunables as dmtune first read them; a later read never overwrites one.
class FirstSeenValues {
public:
    // Records the tunables' values not recorded yet for this device.
    void record(const BlockDevice &device, const QList<Tunable> &tunables);
    // One value (a transaction's old value: what was there before dmtune wrote), unless one is recorded already.
    void record(const BlockDevice &device, const QString &attribute, const QString &value);
    bool contains(const BlockDevice &device) const { return m_values.contains(firstSeenKey(device)); }
    // attribute -> first-seen value (empty when the device was never read).
    QHash<QString, QString> values(const BlockDevice &device) const { return m_values.value(firstSeenKey(device)); }

private:
    QHash<QString, QHash<QString, QString>> m_values;
};

// What "save everything" keeps of a device (presetFromDevices without --attr): a known, readable, writable
// per-device tunable (module parameters are global and never saved).
bool isSavableTunable(const Tunable &tunable);

struct AttributeChoice {
    QString device;
    QString attribute; // catalog key
    QString value; // now
    bool checked = false; // by default
    QString reason; // why checked: "changed in dmtune: 0 -> 2 -> 0", "first seen 128"; empty when not
};

// The savable attributes of `device` (in the tunables' order), checked when a transaction of `history` changed it
// on this device (its value before and after differ; side effects such as nr_requests reset by a scheduler change
// count) or its value now differs from `firstSeen` (attribute -> value; an attribute without one is not compared).
QList<AttributeChoice> defaultAttributeChoices(const QString &device, const QList<Tunable> &tunables,
    const QList<ApplyResult> &history, const QHash<QString, QString> &firstSeen);

} // namespace dmtune
