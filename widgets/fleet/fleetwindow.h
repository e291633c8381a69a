#pragma once
// The fleet window: every host's headline figures in one sortable, filterable tree (FleetModel over a FleetPoller),
// the interval, and below it the selected device's charts fed by its host's frames (a map and its paths side by side
// where the source gives the paths; otherwise the device alone).
#include "core/fleet/fleethosts.h"
#include "core/fleet/fleetpoller.h"
#include "core/jobs/jobtracker.h"
#include "core/metrics/metricssource.h"

#include <QWidget>

#include <functional>
#include <memory>
#include <utility>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QSpinBox;
class QSplitter;
class QTreeView;

namespace dmtune {

class FleetModel;
class LiveStatsView;
class SeriesStore;

class FleetWindow : public QWidget {
    Q_OBJECT
public:
    explicit FleetWindow(QWidget *parent = nullptr);
    ~FleetWindow() override;

    // A window of its own (Qt::Window, deleted on close) over the hosts file at `path`, shown; null, with the
    // message, when the file cannot be read or parsed. `parent` only ties its lifetime to the opener's.
    static FleetWindow *openWindow(const QString &path, QWidget *parent, QString *errorMessage);

    // Replaces the fleet and starts polling it at the interval shown; prometheus-targets entries are first
    // replaced by their servers' instances, on a job.
    void setHosts(const QList<FleetHost> &hosts);
    // Reads a hosts file (parseFleetHosts); false, with the message, when it cannot be read or parsed.
    bool openHostsFile(const QString &path, QString *errorMessage);

    FleetPoller *poller() const { return m_poller; }
    FleetModel *model() const { return m_model; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QTreeView *view() const { return m_view; }
    QLineEdit *filterEdit() const { return m_filter; }
    QSpinBox *intervalSpin() const { return m_interval; }
    LiveStatsView *charts() const { return m_charts; } // null until a device is chosen
    QStringList chartedDevices() const { return m_chartDevices; }
    int chartedHost() const { return m_chartHost; }
    // Charts the device of a host (its paths beside it where the source names them).
    void showDevice(int host, const QString &device);

    // Where the host also runs dmtune's agent (ssh): its window, with tuning, presets and drift checks, one
    // click away (the tree's context menu). The opener gets the host's name as ssh would take it.
    using AgentOpener = std::function<void(const QString &hostName)>;
    void setAgentOpener(AgentOpener opener) { m_agentOpener = std::move(opener); }
    // The name ssh takes for a host: PCP's HOST (no port), a Prometheus instance's host; empty for `local`.
    static QString agentHostName(const FleetHost &host);

private:
    void onFrames(int host, const CounterFrame &prev, const CounterFrame &cur);
    void onCurrentChanged(const QModelIndex &current);
    void updateStatus();
    void showContextMenu(const QPoint &at);
    void showHosts(const QList<FleetHost> &hosts);

    QLineEdit *m_filter = nullptr;
    QSpinBox *m_interval = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_chartsHint = nullptr;
    QSplitter *m_splitter = nullptr;
    QTreeView *m_view = nullptr;
    FleetModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    LiveStatsView *m_charts = nullptr;
    std::unique_ptr<SeriesStore> m_store; // the charted devices' history, from the moment they were chosen
    QList<std::pair<CounterFrame, CounterFrame>> m_lastFrames; // per host: the newest interval
    int m_chartHost = -1;
    QStringList m_chartDevices;
    quint64 m_chartSequence = 0;
    AgentOpener m_agentOpener;
    FleetPoller *m_poller = nullptr; // a child: its jobs join when the window goes
    JobTracker m_jobs { this }; // listing the Prometheus servers' instances; last: joins first
};

} // namespace dmtune
