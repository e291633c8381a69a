#pragma once
// "Keep applied" (opt-in): when a device the preset matches appears, or a path of a matched map is
// reinstated, the preset's settings are applied to it again. A new sd path comes up with the
// kernel's defaults, so without this a path that returns after a fabric outage silently loses its
// tuning. The decision is a pure function over two snapshots; the QObject only remembers the last
// snapshot and asks its owner to run the transaction (which then lands in the undo history).
#include "core/discovery/devicesnapshot.h"
#include "core/params/changeset.h"
#include "core/presets/preset.h"

#include <QObject>

namespace dmtune {

struct ReapplyReason {
    QString device;
    QString why; // "appeared", "path reinstated in mpatha"
};

// Devices of `after` the preset has settings for that are new since `before` (by name and devnum)
// or are paths whose state went from failed to active.
QList<ReapplyReason> devicesToReapply(const DeviceSnapshot &before, const DeviceSnapshot &after, const Preset &preset);

class PresetKeeper : public QObject {
    Q_OBJECT
public:
    explicit PresetKeeper(QObject *parent = nullptr);
    // Starts keeping `preset` applied from `current` on (devices present now are not re-applied).
    void keep(const Preset &preset, const DeviceSnapshot &current);
    void stop();
    bool isActive() const { return m_active; }
    const Preset &preset() const { return m_preset; }

public Q_SLOTS:
    void onSnapshot(const dmtune::DeviceSnapshot &snapshot);

Q_SIGNALS:
    // The devices to re-apply the preset to, and why ("sdf appeared; sdc path reinstated in mpatha").
    void reapplyRequested(const QStringList &devices, const QString &reason);

private:
    Preset m_preset;
    DeviceSnapshot m_last;
    bool m_active = false;
};

} // namespace dmtune
