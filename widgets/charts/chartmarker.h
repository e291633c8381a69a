#pragma once
// A labelled moment on every chart: a parameter change ("sdb nomerges 0 -> 2"), a workload start or stop.
#include <QList>
#include <QMetaType>
#include <QString>

namespace dmtune {

enum class MarkerKind : unsigned char {
    ParameterChange,
    WorkloadStart,
    WorkloadStop,
    Note,
};

struct ChartMarker {
    int id = 0; // unique within one LiveStatsView, from 1
    double time = 0; // seconds since the epoch, as MetricSeries::times
    QString label;
    MarkerKind kind = MarkerKind::Note;

    // "parameter", "start", "stop", "note"
    static QString kindName(MarkerKind kind);
};

} // namespace dmtune

Q_DECLARE_METATYPE(dmtune::ChartMarker)
