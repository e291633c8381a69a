// The Latency tab: heat maps of the selected device's (and its paths') latency from the block-layer probe, fed by
// the Statistics tab's sampler. Local windows only: a remote host's latency is dmtunectl --host H stat --histogram.
#include "mainwindow.h"

#include "charts/latencyview.h"
#include "stats/sampler.h"

#include <QTabWidget>

namespace dmtune {

void MainWindow::setupLatency()
{
    if (m_remote)
        return;
    m_latency = new LatencyView;
    m_tabs->addTab(m_latency, tr("&Latency"));
    connect(m_sampler, &Sampler::samplesAvailable, m_latency, &LatencyView::onBatch);
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
