#pragma once
// Live statistics of a set of devices (a multipath map and its paths): one chart per iostat metric family in
// a scrolling two-column grid, the iostat -x table of the newest interval, and the events (markers) list.
//
// Ownership: the view owns no core object. The caller owns the SampleSource (this machine's Sampler or a remote
// host's RemoteSampler) and the SeriesStore and feeds the store itself (connect samplesAvailable to
// SeriesStore::append, once per store, whoever else reads
// it). The view plots each batch's own values as it arrives (so it does not depend on the order of the two
// connections) and reads the store only to rebuild its graphs: when the device set or the window changes,
// when the view is paused, and for the CSV export.
#include "core/stats/samplebatch.h"
#include "core/util/result.h"
#include "widgets/charts/chartmarker.h"
#include "widgets/charts/chartspec.h"
#include "widgets/charts/statsexport.h"

#include <QHash>
#include <QPointer>
#include <QSet>
#include <QStringList>
#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QPushButton;
class QScrollArea;
class QSortFilterProxyModel;
class QSplitter;
class QTableView;
class QToolButton;
class QTreeWidget;
class QTreeWidgetItem;

class QGridLayout;

namespace dmtune {

class ChartPanel;
class IostatTableModel;
class MessageBanner;
class StatsExportDialog;
class SampleSource;
class SeriesStore;

class LiveStatsView : public QWidget {
    Q_OBJECT
public:
    static constexpr int MinWindowSeconds = 60;
    static constexpr int MaxWindowSeconds = 3600;
    static constexpr int DefaultWindowSeconds = 300;

    // samples: may be null (then call onBatch yourself); its samplesAvailable is connected to onBatch, its interval
    // is the one the tab's combo sets.
    // store: may be null (no history on rebuilds, no CSV). Neither is owned; both must outlive the view.
    explicit LiveStatsView(SampleSource *samples, const SeriesStore *store, QWidget *parent = nullptr);
    ~LiveStatsView() override;

    // What to chart: kernel names ("dm-0", "sdb", ...), the map first by convention. Colours follow the list
    // and a device keeps its colour when the set changes. The graphs are rebuilt from the store.
    void setDevices(const QStringList &devices);
    QStringList devices() const { return m_devices; }
    // Legend, readout and table names: "mpatha (dm-0)". Missing devices show their kernel name.
    void setDeviceLabels(const QHash<QString, QString> &labels);
    QColor deviceColor(const QString &device) const;
    // A note above the charts on what they show (a native NVMe head that counts nothing, and which devices do),
    // with a button when actionText is given (noteActionTriggered()); an empty text hides it.
    void setNote(const QString &text, const QString &actionText = {});
    MessageBanner *noteBanner() const { return m_noteBanner; }
    QPushButton *noteActionButton() const { return m_noteAction; }
    // Before every chart's title ("root@db1: IOPS"): a remote host's window.
    void setTitlePrefix(const QString &prefix);

    // The scrolling time window, MinWindowSeconds .. MaxWindowSeconds (clamped).
    void setWindowSeconds(int seconds);
    int windowSeconds() const { return m_windowSeconds; }
    static const QList<int> &windowChoices();

    // The sampler's interval, from a combo of 0.1 s .. 60 s (the sampler's own range); restarts no series.
    static const QList<int> &intervalChoicesMs();
    // The history kept (SeriesStore retention) shown in the "Keep" combo; choosing one emits retentionChosen.
    static const QList<int> &retentionChoicesSeconds();
    void setRetentionSeconds(int seconds);
    int retentionSeconds() const;

    // Replay of a recording: no live controls (window, interval, history kept, pause), the charts stand still
    // over what the store holds and can be panned and zoomed.
    void setReplay(bool replay);
    bool isReplay() const { return m_replay; }

    // Paused: the charts and the table stand still and can be panned and zoomed over the retained hour;
    // batches are still taken in. Dragging or Ctrl+wheel-zooming a chart pauses; resuming scrolls to now.
    void setPaused(bool paused);
    bool isPaused() const { return m_paused; }

    // A dashed vertical line with its label at that time on every chart, and a row in the events list.
    // Returns the marker's id.
    int addMarker(double epochSeconds, const QString &label, MarkerKind kind = MarkerKind::Note);
    void removeMarker(int id);
    void clearMarkers();
    const QList<ChartMarker> &markers() const { return m_markers; }

    // One chart to .png, .pdf or .svg (by suffix); size 0: the chart's own size (960 x 360 when hidden).
    Status exportChart(ChartPanelKind panel, const QString &path, int width = 0, int height = 0);
    // Every chart as <id>.png, <id>.pdf and <id>.svg, plus samples.csv; returns the paths written (existing files
    // replaced).
    Result<QStringList> exportAll(const QString &directory, int width = 0, int height = 0);
    // Each chart in the chosen image formats and/or samples.csv into `directory` (statsexport::writeFiles: rendered
    // beside the targets and moved into place; with ExistingFile::Refuse nothing is written over an existing file).
    statsexport::Outcome exportFiles(
        const QString &directory, statsexport::Formats formats, ExistingFile existing, int width = 0, int height = 0);
    // The charts' ids in export order ("iops", "throughput", ...).
    QStringList chartIds() const;
    // Export… (the button): the dialog that asks for the folder and the formats (opened, not exec'd); what was
    // written is then said in exportBanner() and by exported() / exportFailed().
    StatsExportDialog *openExportDialog();
    MessageBanner *exportBanner() const { return m_exportBanner; }
    // Everything the store retains for the charted devices (all of its devices when none are charted), in
    // iostat's CSV columns (see samplecsv.h).
    Status exportCsv(const QString &path) const;

    // The newest batch's time (epoch seconds); before the first, the newest sample of the store, else 0.
    double now() const { return m_now; }
    ChartPanel *panel(ChartPanelKind kind) const { return m_panels.value(int(kind)); }
    const QList<ChartPanel *> &panels() const { return m_panels; }
    IostatTableModel *tableModel() const { return m_tableModel; }
    QSortFilterProxyModel *tableProxy() const { return m_tableProxy; }
    QTableView *tableView() const { return m_tableView; }
    // The table's column set ("Follow the load", "Writes", ...: IostatTableModel::ColumnSet).
    QComboBox *columnSetCombo() const { return m_columnCombo; }
    // Rows the table is tall enough for without scrolling (a map with up to eight paths); more scroll.
    static constexpr int MaxFittedTableRows = 9;
    QTreeWidget *eventList() const { return m_events; }
    QString statusText() const;

public Q_SLOTS:
    // Appends the batch's interval to every chart (the newest points only), trims what left the window and
    // scrolls; one queued replot per chart. Updates the table.
    void onBatch(const dmtune::SampleBatch &batch);
    // Rebuilds every graph from the store (called by setDevices, setWindowSeconds and pausing).
    void rebuild();

Q_SIGNALS:
    void pausedChanged(bool paused);
    void windowSecondsChanged(int seconds);
    // The user picked an interval (already set on the sampler) or a retention (for the owner of the store).
    void intervalChosen(int milliseconds);
    void retentionChosen(int seconds);
    void markerAdded(const dmtune::ChartMarker &marker);
    void markerRemoved(int id);
    void markersCleared();
    void noteActionTriggered();
    void exportFailed(const QString &message);
    // An export from the dialog wrote every file: the folder, the paths written, and the line that says so.
    void exported(const QString &directory, const QStringList &files, const QString &message);

protected:
    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void buildUi();
    // Two columns of charts when there is room for legends of a map and its paths, else one.
    void layOutPanels(int columns);
    // The model's shownColumns() on the table's header: moved into that order, the others hidden.
    void applyTableColumns();
    // The table's minimum height: its header, every row (up to MaxFittedTableRows) and a horizontal scroll bar.
    void fitTableHeight();
    void scrollToNow();
    void replotAll();
    void replotExposed();
    bool scrolledOut(const ChartPanel *panel) const;
    void updateStatus();
    void onUserRange(ChartPanel *source, double lower, double upper);
    void onEventActivated(QTreeWidgetItem *item);
    double currentNow() const;
    double newestInStore() const;
    double trimMargin() const;

    const SeriesStore *m_store = nullptr;
    QPointer<SampleSource> m_sampler;
    QStringList m_devices;
    QList<QColor> m_colors; // parallel to m_devices
    QHash<QString, QString> m_labels;
    int m_windowSeconds = DefaultWindowSeconds;
    bool m_paused = false;
    bool m_replotPending = false;
    bool m_haveBatch = false;
    double m_now = 0;
    double m_lastElapsed = 1;
    quint64 m_lastSequence = 0;
    std::optional<SampleBatch> m_heldBatch; // the newest batch while paused, for the table on resume
    QList<ChartMarker> m_markers;
    int m_nextMarkerId = 1;

    QComboBox *m_windowCombo = nullptr;
    QComboBox *m_intervalCombo = nullptr;
    QComboBox *m_retentionCombo = nullptr;
    QToolButton *m_pauseButton = nullptr;
    QToolButton *m_exportButton = nullptr;
    QLabel *m_status = nullptr;
    MessageBanner *m_exportBanner = nullptr; // what the last export wrote, under the controls (made on first use)
    MessageBanner *m_noteBanner = nullptr; // setNote's, under the controls
    QPushButton *m_noteAction = nullptr;
    QList<QWidget *> m_liveControls; // hidden in a replay
    bool m_replay = false;
    QSplitter *m_splitter = nullptr;
    QScrollArea *m_scroll = nullptr;
    QList<ChartPanel *> m_panels;
    QGridLayout *m_grid = nullptr;
    int m_columns = 0;
    QSet<ChartPanel *> m_stalePanels; // scrolled out of view when their data changed
    IostatTableModel *m_tableModel = nullptr;
    QSortFilterProxyModel *m_tableProxy = nullptr;
    QTableView *m_tableView = nullptr;
    QComboBox *m_columnCombo = nullptr;
    QTreeWidget *m_events = nullptr;
};

} // namespace dmtune
