#pragma once
// One recording opened again: its batches replayed into its own SeriesStore and shown by a LiveStatsView
// (paused, over the whole recording), with its markers and notes, a line on where and what it is, and
// "Export report…". A recording with latency frames gets a Latency tab beside: a heat map per device over the
// recording's time and the percentile table over its workload window.
#include "core/recordings/recording.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QSlider;
class QTabWidget;
class QTableWidget;

namespace dmtune {

class LatencyHeatMap;
class LiveStatsView;
class MessageBanner;
class SeriesStore;

class RecordingView : public QWidget {
    Q_OBJECT
public:
    explicit RecordingView(Recording recording, QWidget *parent = nullptr);
    ~RecordingView() override;

    const Recording &recording() const { return m_recording; }
    LiveStatsView *statsView() const { return m_view; }
    QString summaryText() const;
    // Only for a recording with latency (else null / empty): the tabs, the table, the heat maps by device.
    QTabWidget *tabs() const { return m_tabs; }
    QTableWidget *latencyTable() const { return m_latencyTable; }
    // The time slider: a window of the chosen width (the whole recording by default) moved along its span.
    QSlider *timeSlider() const { return m_timeSlider; }
    QComboBox *timeWidthCombo() const { return m_timeWidth; }
    LatencyHeatMap *latencyHeatMap(const QString &device) const;

Q_SIGNALS:
    void reportExported(const QString &path, const QString &error);

private:
    QLayout *makeTimeSlider();
    void showTimeWindow();
    Recording m_recording;
    std::unique_ptr<SeriesStore> m_store; // declared before the view: destroyed after it
    LiveStatsView *m_view = nullptr;
    QLabel *m_summary = nullptr;
    MessageBanner *m_exportMessage = nullptr; // what became of the last export
    QTabWidget *m_tabs = nullptr;
    QTableWidget *m_latencyTable = nullptr;
    QList<LatencyHeatMap *> m_heatMaps;
    QSlider *m_timeSlider = nullptr;
    QComboBox *m_timeWidth = nullptr;
    QLabel *m_timeLabel = nullptr;

    QWidget *makeLatencyPage();
};

} // namespace dmtune
