#pragma once
// What the catalog knows about one tunable, independent of any device: type, unit, static
// range, what it does. Dynamic limits (max_hw_sectors_kb, can_queue, ...) come later from the device.
#include <QString>
#include <QStringList>

#include <limits>

namespace dmtune {

enum class TunableType { Int, Bool, Enum, String };

// Where the attribute lives, which decides how its path is built from the device name.
enum class TunableLocation {
    Queue, // block/NAME/queue/...
    IoScheduler, // block/NAME/queue/iosched/..., only for the scheduler that owns it
    ScsiDevice, // block/NAME/device/... (SCSI disks)
    DeviceMapper, // block/NAME/dm/...
    Module, // module/MOD/parameters/... (global: one value for every device)
    NvmeSubsystem, // class/nvme-subsystem/SUBSYS/... (shared by the namespaces of a subsystem)
};

// Module booleans read back as Y/N, queue booleans as 0/1: writes use the attribute's own style.
enum class BoolStyle { Digits, YesNo };

// Limits the kernel reports per device, which narrow the static range.
enum class DynamicLimit {
    None,
    MaxHwSectors, // max_sectors_kb <= queue/max_hw_sectors_kb, >= page size
    NrRequests, // nr_requests <= mq/0/nr_tags without a scheduler, 2048 with one
    CanQueue, // SCSI queue_depth <= the host's can_queue
    DiscardMax, // discard_max_bytes <= discard_max_hw_bytes, a multiple of discard_granularity
    SchedulerList, // choices from the bracketed queue/scheduler list
    NvmeIopolicies, // numa and round-robin; queue-depth from Linux 6.11
};

struct TunableDef {
    QString attribute; // key used everywhere: "queue/nr_requests", "device/queue_depth", "module/dm_mod/swap_bios"
    TunableLocation location = TunableLocation::Queue;
    TunableType type = TunableType::Int;
    QString unit; // "requests", "KiB", "ms", ...; empty for none
    qint64 minimum = std::numeric_limits<qint64>::min();
    qint64 maximum = std::numeric_limits<qint64>::max();
    QStringList choices; // Enum: accepted values
    QStringList choiceNotes; // Enum: one short text per choice
    BoolStyle boolStyle = BoolStyle::Digits;
    DynamicLimit limit = DynamicLimit::None;
    QString scheduler; // IoScheduler: the scheduler that owns the attribute
    QString module; // Module: kernel module name
    QString description; // what it does and when to change it
    QString limitNote; // what the kernel does at the edges ("0-3 become 4")
    // Values whose write puts data at risk: planned like any other, written only with the user's explicit
    // consent (planner.h: RiskConsent). riskNote says what can be lost, for the confirmation and the preview.
    QStringList riskyValues;
    QString riskNote;
    bool ignored = false; // accepted by current kernels but does nothing
    QString ignoredNote; // why, shown instead of offering the knob

    // The file name under its directory ("nr_requests", "read_expire").
    QString fileName() const { return attribute.section(QLatin1Char('/'), -1); }
};

QString tunableTypeName(TunableType type); // "int", "bool", "enum", "string"

} // namespace dmtune
