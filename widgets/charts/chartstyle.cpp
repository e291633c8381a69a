#include "widgets/charts/chartstyle.h"

#include <array>

namespace dmtune::chartstyle {

QColor deviceColor(int index)
{
    static constexpr std::array<QRgb, 10> palette {
        0x1f77b4, // blue
        0xd62728, // red
        0x2ca02c, // green
        0xff7f0e, // orange
        0x9467bd, // purple
        0x8c564b, // brown
        0xe377c2, // pink
        0x17becf, // cyan
        0xbcbd22, // olive
        0x7f7f7f, // grey
    };
    if (index >= 0 && index < int(palette.size()))
        return QColor::fromRgb(palette[std::size_t(index)]);
    const int hue = int((index - int(palette.size())) * 137.508 + 15) % 360;
    return QColor::fromHsv(hue, 200, 190);
}

QList<QColor> assignColors(
    const QStringList &devices, const QStringList &previousDevices, const QList<QColor> &previousColors)
{
    QList<QColor> colors(devices.size());
    QList<bool> taken(devices.size(), false);
    QList<QRgb> used;
    for (qsizetype i = 0; i < devices.size(); ++i) {
        const qsizetype p = previousDevices.indexOf(devices[i]);
        if (p >= 0 && p < previousColors.size()) {
            colors[i] = previousColors[p];
            taken[i] = true;
            used.append(colors[i].rgb());
        }
    }
    int next = 0;
    for (qsizetype i = 0; i < devices.size(); ++i) {
        if (taken[i])
            continue;
        while (used.contains(deviceColor(next).rgb()))
            ++next;
        colors[i] = deviceColor(next);
        used.append(colors[i].rgb());
        ++next;
    }
    return colors;
}

Qt::PenStyle seriesPenStyle(int seriesIndex)
{
    static constexpr std::array<Qt::PenStyle, 4> styles { Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine };
    return styles[std::size_t(seriesIndex) % styles.size()];
}

QColor markerColor(MarkerKind kind)
{
    switch (kind) {
    case MarkerKind::ParameterChange:
        return QColor(0x6a, 0x1b, 0x9a); // deep purple
    case MarkerKind::WorkloadStart:
        return QColor(0x1b, 0x7a, 0x2e); // dark green
    case MarkerKind::WorkloadStop:
        return QColor(0xb7, 0x1c, 0x1c); // dark red
    case MarkerKind::Note:
        break;
    }
    return QColor(0x45, 0x5a, 0x64); // blue grey
}

} // namespace dmtune::chartstyle
