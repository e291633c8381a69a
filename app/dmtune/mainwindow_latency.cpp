// The Latency tab: heat maps of the selected device's (and its paths') latency from the block-layer probe, fed by
// the Statistics tab's sampler: this machine's probe, or in a remote host's window the probe of its agent, read at
// each tick of the host's stream.
#include "mainwindow.h"

#include "core/stats/samplesource.h"
#include "widgets/charts/latencyview.h"
#include "widgets/charts/livestatsview.h"

#include <QTabWidget>

namespace dmtune {

void MainWindow::setupLatency()
{
    m_latency = new LatencyView;
    m_latency->setHost(m_hostSession); // this process's probe, or a remote host's agent's
    m_tabs->addTab(m_latency, tr("&Latency"));
    connect(m_samples, &SampleSource::samplesAvailable, m_latency, &LatencyView::onBatch);
    // Parameter changes and workload starts and stops, as the Statistics tab marks them.
    connect(m_stats, &LiveStatsView::markerAdded, m_latency, &LatencyView::addMarker);
    connect(m_stats, &LiveStatsView::markerRemoved, m_latency, &LatencyView::removeMarker);
    connect(m_stats, &LiveStatsView::markersCleared, m_latency, &LatencyView::clearMarkers);
}

void MainWindow::showLatencyOf(const QStringList &devices, const QHash<QString, QString> &labels)
{
    if (!m_latency)
        return;
    QList<LatencyView::Device> shown;
    for (const QString &d : devices)
        shown.append({ d, labels.value(d, d) });
    m_latency->setDevices(shown);
}

} // namespace dmtune
