#pragma once
// One recording opened again: its batches replayed into its own SeriesStore and shown by a LiveStatsView
// (paused, over the whole recording), with its markers and notes, a line on where and what it is, and
// "Export report…".
#include "recordings/recording.h"

#include <QWidget>

#include <memory>

class QLabel;

namespace dmtune {

class LiveStatsView;
class SeriesStore;

class RecordingView : public QWidget {
    Q_OBJECT
public:
    explicit RecordingView(Recording recording, QWidget *parent = nullptr);
    ~RecordingView() override;

    const Recording &recording() const { return m_recording; }
    LiveStatsView *statsView() const { return m_view; }
    QString summaryText() const;

Q_SIGNALS:
    void reportExported(const QString &path, const QString &error);

private:
    Recording m_recording;
    std::unique_ptr<SeriesStore> m_store; // declared before the view: destroyed after it
    LiveStatsView *m_view = nullptr;
    QLabel *m_summary = nullptr;
};

} // namespace dmtune
