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
    // What a chart writes beside the line: the label; a note's first words only (its text can be a whole fio
    // command line, and the events list, the hover readout and the report's key give it whole).
    QString shortLabel() const;
};

// Markers in time order (ties by id): the report's charts number them 1, 2, ... in this order, and its key
// under each chart lists them the same way.
QList<ChartMarker> markersInTimeOrder(QList<ChartMarker> markers);

} // namespace dmtune

Q_DECLARE_METATYPE(dmtune::ChartMarker)
