#pragma once
// Colours and pens shared by every chart: a device keeps its colour on every panel, a metric its line style
// within a panel, a marker kind its colour.
#include "widgets/charts/chartmarker.h"

#include <QColor>
#include <QStringList>

#include <Qt>

namespace dmtune::chartstyle {

// Colour-blind-safe qualitative palette (Tableau 10 order, darkened a little for thin lines on white); past
// its end, hues step by the golden angle.
QColor deviceColor(int index);
// Colours for a new device set that keep the colour of every device already in `previous`.
QList<QColor> assignColors(
    const QStringList &devices, const QStringList &previousDevices, const QList<QColor> &previousColors);
// Solid, dashed, dotted, dash-dotted: series 0..3 of a panel.
Qt::PenStyle seriesPenStyle(int seriesIndex);
QColor markerColor(MarkerKind kind);

} // namespace dmtune::chartstyle
