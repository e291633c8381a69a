#pragma once
// One row of the device tree, as plain data: the builder makes a tree of these from a snapshot,
// the model keeps one and patches it from the next.
#include <QString>

#include <array>
#include <memory>
#include <vector>

namespace dmtune {

enum class DeviceRowType {
    Section, // "Multipath maps", "Other devices"
    Map,
    PathGroup, // a dm path group, or the stand-in row when groups are unknown
    Path,
    PathHardware, // the SCSI device or NVMe controller under a path
    Device,
    Partition,
    Holder, // whatever is stacked on a device (dm, md, ...)
};

enum DeviceTreeColumn : int {
    NameColumn,
    KindColumn,
    SizeColumn,
    IdentityColumn,
    StateColumn,
    SchedulerColumn,
    DeviceTreeColumnCount,
};

struct DeviceTreeNode {
    DeviceRowType type = DeviceRowType::Section;
    // Unique in the tree and stable across snapshots ("map/mpatha", "device/sda/part/sda1"):
    // what keeps rows, expansion and selection in place when a new snapshot arrives.
    QString key;
    // The block device the detail pane shows for this row (empty for sections).
    QString deviceName;
    std::array<QString, DeviceTreeColumnCount> text;
    QString toolTip;
    bool attention = false; // a failed path or a device in trouble: drawn in the error colour
    bool spansRow = false; // one sentence across all columns (why path groups are unknown)

    DeviceTreeNode *parent = nullptr;
    int row = 0; // index in parent->children, kept current by renumber()
    std::vector<std::unique_ptr<DeviceTreeNode>> children;

    DeviceTreeNode *addChild(std::unique_ptr<DeviceTreeNode> child);
    void renumber();
    // Same row content (not children).
    bool sameContent(const DeviceTreeNode &other) const;
    void copyContent(const DeviceTreeNode &other);
};

} // namespace dmtune
