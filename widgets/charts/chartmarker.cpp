#include "charts/chartmarker.h"

namespace dmtune {

QString ChartMarker::kindName(MarkerKind kind)
{
    switch (kind) {
    case MarkerKind::ParameterChange:
        return QStringLiteral("parameter");
    case MarkerKind::WorkloadStart:
        return QStringLiteral("start");
    case MarkerKind::WorkloadStop:
        return QStringLiteral("stop");
    case MarkerKind::Note:
        break;
    }
    return QStringLiteral("note");
}

} // namespace dmtune
