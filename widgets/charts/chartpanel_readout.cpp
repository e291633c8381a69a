#include "widgets/charts/chartpanel.h"

#include "widgets/charts/chartpanel_p.h"
#include "widgets/charts/chartstyle.h"
#include "widgets/charts/qcp_p.h"

#include <QHelpEvent>
#include <QMenu>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace dmtune {

namespace {

QString formatValue(double v)
{
    return QString::number(v, 'f', 2);
}

// "[-]m:ss.s" for the elapsed-time axis of aligned recordings.
QString elapsedText(double seconds)
{
    const double a = std::abs(seconds);
    const int minutes = int(a / 60);
    return QStringLiteral("%1%2:%3")
        .arg(seconds < 0 ? QStringLiteral("-") : QString())
        .arg(minutes)
        .arg(a - minutes * 60.0, 4, 'f', 1, QLatin1Char('0'));
}

} // namespace

// ---- hover readout and tooltips

QString ChartPanel::showReadoutAt(double time)
{
    const QCPRange v = m_plot->yAxis->range();
    const QPointF pixel(m_plot->xAxis->coordToPixel(time), m_plot->yAxis->coordToPixel(v.center()));
    return showReadoutAtPixel(pixel, true);
}

QString ChartPanel::showReadoutAtPixel(const QPointF &pixel, bool replotLayer)
{
    m_hoverPixel = pixel;
    m_hovering = true;
    const double key = m_plot->xAxis->pixelToCoord(pixel.x());
    if (!m_cursor) {
        m_cursor = new QCPItemStraightLine(m_plot);
        m_cursor->setLayer(m_hoverLayer);
        m_cursor->setSelectable(false);
        m_cursor->setPen(QPen(QColor(0, 0, 0, 110), 1));
        m_readout = new QCPItemText(m_plot);
        m_readout->setLayer(m_hoverLayer);
        m_readout->setSelectable(false);
        m_readout->setClipToAxisRect(false);
        m_readout->position->setType(QCPItemPosition::ptAbsolute);
        QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
        mono.setPointSizeF(7.5);
        m_readout->setFont(mono);
        m_readout->setTextAlignment(Qt::AlignLeft);
        m_readout->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        m_readout->setBrush(QColor(255, 255, 255, 235));
        m_readout->setPen(QPen(QColor(0, 0, 0, 90)));
        m_readout->setPadding(QMargins(5, 3, 5, 3));
    }
    if (m_tracers.size() != m_graphs.size())
        m_tracers.resize(m_graphs.size(), nullptr);

    // Every device and every series at that time, as a table: a row per device, a column per series, so that
    // lines drawn on top of each other are all read out ("—": no sample of that device there).
    const ChartPanelSpec &s = spec();
    const int n = int(s.series.size());
    QList<QStringList> cells(m_devices.size(), QStringList(n));
    bool any = false;
    double snapped = std::numeric_limits<double>::quiet_NaN();
    for (int k = 0; k < m_graphs.size(); ++k) {
        QCPGraph *g = m_graphs[k];
        const auto data = g->data();
        QCPItemTracer *&tracer = m_tracers[k];
        bool shown = false;
        QString value = QStringLiteral("—");
        if (!data->isEmpty()) {
            // The nearest point, if the cursor is within one interval of the graph's data.
            auto it = data->findBegin(key, false);
            auto best = data->constEnd();
            if (it != data->constEnd())
                best = it;
            if (it != data->constBegin()) {
                auto before = it - 1;
                if (best == data->constEnd() || std::abs(before->key - key) < std::abs(best->key - key))
                    best = before;
            }
            const double span = data->size() > 1
                ? ((data->constEnd() - 1)->key - data->constBegin()->key) / double(data->size() - 1)
                : 1.0;
            if (best != data->constEnd() && std::abs(best->key - key) <= std::max(span, 0.5) * 1.5
                && !std::isnan(best->value)) {
                if (!tracer) {
                    tracer = new QCPItemTracer(m_plot);
                    tracer->setLayer(m_hoverLayer);
                    tracer->setSelectable(false);
                    tracer->setStyle(QCPItemTracer::tsCircle);
                    tracer->setSize(5);
                    tracer->setBrush(Qt::white);
                    tracer->position->setType(QCPItemPosition::ptAbsolute);
                }
                // On the line as drawn, offset included.
                tracer->position->setCoords(g->keyAxis()->coordToPixel(best->key),
                    g->valueAxis()->coordToPixel(best->value) - lineOffset(k / n));
                tracer->setPen(QPen(m_devices[k / n].color, 1.2));
                tracer->setVisible(true);
                shown = true;
                any = true;
                if (std::isnan(snapped))
                    snapped = best->key;
                value = formatValue(best->value);
            }
        }
        cells[k / n][k % n] = value;
        if (!shown && tracer)
            tracer->setVisible(false);
    }

    // Markers within a few pixels of the cursor, whole: their labels may be short, cut or hidden.
    QStringList markerLines;
    for (const MarkerItems &m : std::as_const(m_markers)) {
        if (std::abs(m_plot->xAxis->coordToPixel(m.marker.time) - pixel.x()) <= 4)
            markerLines.append(QStringLiteral("| ") + m.marker.label);
    }

    const QRect rect = m_plot->axisRect()->rect();
    const bool inside = rect.contains(pixel.toPoint());
    QString text;
    if ((any || !markerLines.isEmpty()) && inside) {
        if (std::isnan(snapped))
            snapped = key;
        const QString at = m_elapsedAxis ? elapsedText(snapped)
                                         : QDateTime::fromMSecsSinceEpoch(qint64(std::llround(snapped * 1000)))
                                               .toString(QStringLiteral("hh:mm:ss.zzz"));
        QStringList lines = markerLines;
        if (any) {
            int nameWidth = int(at.size());
            for (const ChartDevice &d : std::as_const(m_devices))
                nameWidth = std::max(nameWidth, int(d.displayName().size()));
            QStringList headers;
            QList<int> widths;
            for (int i = 0; i < n; ++i) {
                const QString unit = s.series[i].unit();
                const bool implied = unit == QLatin1String("1/s") || unit == QLatin1String("%")
                    || unit == QLatin1String("requests") || s.series[i].name.contains(unit);
                headers.append(implied ? s.series[i].name : s.series[i].name + u' ' + unit);
                int w = int(headers.last().size());
                for (const QStringList &row : std::as_const(cells))
                    w = std::max(w, int(row[i].size()));
                widths.append(w);
            }
            QString header = at.leftJustified(nameWidth);
            for (int i = 0; i < n; ++i)
                header += QStringLiteral("  ") + headers[i].rightJustified(widths[i]);
            lines.append(header);
            for (int d = 0; d < m_devices.size(); ++d) {
                QString row = m_devices[d].displayName().leftJustified(nameWidth);
                for (int i = 0; i < n; ++i)
                    row += QStringLiteral("  ") + cells[d][i].rightJustified(widths[i]);
                lines.append(row);
            }
        } else {
            lines.prepend(at);
        }
        text = lines.join(u'\n');
        m_readout->setText(text);
        // Beside the cursor, on the side with more room, and always whole inside the chart.
        const QMargins pad = m_readout->padding();
        const QSizeF size = chartpanel::textSize(m_readout->font(), text)
            + QSizeF(pad.left() + pad.right(), pad.top() + pad.bottom());
        const QRect viewport = m_plot->viewport();
        const bool leftSide = pixel.x() > rect.center().x();
        const bool above = pixel.y() > rect.center().y();
        double x = leftSide ? pixel.x() - 12 - size.width() : pixel.x() + 12;
        double y = above ? pixel.y() - 8 - size.height() : pixel.y() + 8;
        x = std::clamp(x, viewport.left() + 1.0, std::max(viewport.left() + 1.0, viewport.right() - size.width()));
        y = std::clamp(y, viewport.top() + 1.0, std::max(viewport.top() + 1.0, viewport.bottom() - size.height()));
        m_readout->position->setCoords(x, y);
        m_readout->setVisible(true);
        m_cursor->point1->setCoords(snapped, 0);
        m_cursor->point2->setCoords(snapped, 1);
        m_cursor->setVisible(true);
    } else {
        m_readout->setVisible(false);
        m_cursor->setVisible(false);
        for (QCPItemTracer *t : std::as_const(m_tracers)) {
            if (t)
                t->setVisible(false);
        }
    }
    if (replotLayer)
        m_hoverLayer->replot();
    return text;
}

QRect ChartPanel::readoutRect() const
{
    if (!m_readout || !m_readout->visible())
        return {};
    return QRectF(m_readout->topLeft->pixelPosition(), m_readout->bottomRight->pixelPosition()).toAlignedRect();
}

void ChartPanel::hideReadout()
{
    m_hovering = false;
    if (!m_cursor)
        return;
    m_cursor->setVisible(false);
    m_readout->setVisible(false);
    for (QCPItemTracer *t : std::as_const(m_tracers)) {
        if (t)
            t->setVisible(false);
    }
    m_hoverLayer->replot();
}

void ChartPanel::onMouseMove(QMouseEvent *event)
{
    if (event->buttons() != Qt::NoButton) { // dragging: the range moves, the readout would lag behind
        hideReadout();
        return;
    }
    if (m_plot->axisRect()->rect().contains(event->pos()))
        showReadoutAtPixel(event->position(), true);
    else if (m_hovering)
        hideReadout();
}

QString ChartPanel::toolTipAt(const QPoint &pos) const
{
    const ChartPanelSpec &s = spec();
    if (auto *item = qobject_cast<QCPPlottableLegendItem *>(m_plot->layoutElementAt(pos))) {
        const qsizetype i = m_legendPlottables.indexOf(item->plottable());
        if (i >= 0)
            return m_legendToolTips[i];
    }
    const QRect rect = m_plot->axisRect()->rect();
    auto axisTip = [&s](bool right) {
        QStringList parts;
        for (const ChartSeriesSpec &series : s.series) {
            if (series.rightAxis == right)
                parts.append(series.tooltip());
        }
        return parts.join(QStringLiteral("\n\n"));
    };
    if (pos.y() >= rect.top() && pos.y() <= rect.bottom()) {
        if (pos.x() < rect.left())
            return axisTip(false);
        if (pos.x() > rect.right())
            return s.rightLabel.isEmpty() ? QString() : axisTip(true);
        return {}; // the readout speaks there
    }
    if (pos.y() > rect.bottom())
        return tr("Time at the end of each sampling interval.\nDrag to pan, Ctrl+wheel to zoom: "
                  "either pauses the live view (the samples keep coming).");
    return s.tooltip();
}

bool ChartPanel::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_plot) {
        switch (event->type()) {
        case QEvent::ToolTip: {
            auto *help = static_cast<QHelpEvent *>(event);
            const QString tip = toolTipAt(help->pos());
            if (tip.isEmpty())
                QToolTip::hideText();
            else
                QToolTip::showText(help->globalPos(), tip, m_plot);
            return true;
        }
        case QEvent::Leave:
            hideReadout();
            break;
        case QEvent::Wheel:
            // In a scrolling page the wheel scrolls; Ctrl+wheel zooms the time axis. Ignored and filtered,
            // the event goes on to the parents.
            if (!(static_cast<QWheelEvent *>(event)->modifiers() & Qt::ControlModifier)) {
                event->ignore();
                return true;
            }
            break;
        default:
            break;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void ChartPanel::showContextMenu(const QPoint &pos)
{
    auto *menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->addAction(tr("Resume live view"), this, &ChartPanel::resumeRequested);
    menu->addSeparator();
    for (const QString &suffix : { QStringLiteral("png"), QStringLiteral("pdf"), QStringLiteral("svg") }) {
        menu->addAction(
            tr("Export chart as %1…").arg(suffix.toUpper()), this, [this, suffix] { exportWithDialog(suffix); });
    }
    menu->popup(m_plot->mapToGlobal(pos));
}

} // namespace dmtune
