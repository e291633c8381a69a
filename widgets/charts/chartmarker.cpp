#include "widgets/charts/chartmarker.h"

#include <QCoreApplication>

#include <algorithm>

namespace dmtune {

namespace {

constexpr qsizetype noteLabelLength = 24;

} // namespace

QString ChartMarker::kindName(MarkerKind kind)
{
    switch (kind) {
    case MarkerKind::ParameterChange:
        return QCoreApplication::translate("ChartMarker", "parameter");
    case MarkerKind::WorkloadStart:
        return QCoreApplication::translate("ChartMarker", "start");
    case MarkerKind::WorkloadStop:
        return QCoreApplication::translate("ChartMarker", "stop");
    case MarkerKind::Note:
        break;
    }
    return QCoreApplication::translate("ChartMarker", "note");
}

QString ChartMarker::shortLabel() const
{
    if (kind != MarkerKind::Note)
        return label;
    // "fio command: /usr/bin/fio --name=..." -> "fio command…"
    const qsizetype colon = label.indexOf(u':');
    if (colon > 0 && colon <= noteLabelLength)
        return label.left(colon) + QChar(0x2026);
    return label.size() <= noteLabelLength ? label : label.left(noteLabelLength - 1).trimmed() + QChar(0x2026);
}

QList<ChartMarker> markersInTimeOrder(QList<ChartMarker> markers)
{
    std::stable_sort(markers.begin(), markers.end(), [](const ChartMarker &a, const ChartMarker &b) {
        return a.time < b.time || (a.time == b.time && a.id < b.id);
    });
    return markers;
}

} // namespace dmtune
