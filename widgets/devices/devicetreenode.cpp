#include "widgets/devices/devicetreenode.h"

namespace dmtune {

DeviceTreeNode *DeviceTreeNode::addChild(std::unique_ptr<DeviceTreeNode> child)
{
    child->parent = this;
    child->row = int(children.size());
    children.push_back(std::move(child));
    return children.back().get();
}

void DeviceTreeNode::renumber()
{
    for (size_t i = 0; i < children.size(); ++i) {
        children[i]->row = int(i);
        children[i]->parent = this;
    }
}

bool DeviceTreeNode::sameContent(const DeviceTreeNode &other) const
{
    return type == other.type && deviceName == other.deviceName && text == other.text && toolTip == other.toolTip
        && attention == other.attention && spansRow == other.spansRow;
}

void DeviceTreeNode::copyContent(const DeviceTreeNode &other)
{
    type = other.type;
    deviceName = other.deviceName;
    text = other.text;
    toolTip = other.toolTip;
    attention = other.attention;
    spansRow = other.spansRow;
}

} // namespace dmtune
