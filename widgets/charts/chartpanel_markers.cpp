#include "widgets/charts/chartpanel.h"

#include "widgets/charts/chartpanel_p.h"
#include "widgets/charts/chartstyle.h"
#include "widgets/charts/qcp_p.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace dmtune {

// ---- markers

void ChartPanel::addMarker(const ChartMarker &marker)
{
    removeMarker(marker.id);
    const QColor color = chartstyle::markerColor(marker.kind);
    MarkerItems items;
    items.marker = marker;
    items.line = new QCPItemStraightLine(m_plot);
    items.line->setLayer(chartpanel::markersLayer);
    items.line->setPen(QPen(color, 1, Qt::DashLine));
    items.line->point1->setCoords(marker.time, 0);
    items.line->point2->setCoords(marker.time, 1);
    items.line->setSelectable(false);

    items.text = new QCPItemText(m_plot);
    items.text->setLayer(chartpanel::markerLabelsLayer);
    items.text->setSelectable(false);
    // Placed in pixels by updateMarkerLabels() after every layout, when the plot's rect is known.
    items.text->position->setType(QCPItemPosition::ptAbsolute);
    items.text->setText(marker.shortLabel());
    items.text->setFont(chartpanel::sized(font(), 7.5));
    items.text->setColor(color.darker(115));
    items.text->setBrush(QColor(255, 255, 255, 220));
    items.text->setPadding(chartpanel::markerPadding);
    items.text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    items.text->setVisible(false);
    m_markers.append(items);
}

void ChartPanel::setMarkerLabels(MarkerLabels mode)
{
    if (mode == m_markerLabels)
        return;
    m_markerLabels = mode;
    applyMinimumMargins();
}

void ChartPanel::applyMinimumMargins()
{
    // Numbered: a row above the plot for the tags. Without a right axis, room on the right for half of the last
    // time label, which is centred on its tick at the plot's right edge.
    const int tagRow
        = m_markerLabels == MarkerLabels::Numbered ? QFontMetrics(chartpanel::sized(font(), 7.5)).height() + 4 : 0;
    const int halfTimeLabel
        = int(std::ceil(chartpanel::textSize(m_plot->xAxis->tickLabelFont(), QStringLiteral("00:00:00")).width() / 2))
        + 2;
    m_plot->axisRect()->setMinimumMargins(QMargins(0, tagRow, halfTimeLabel, 0));
}

void ChartPanel::removeMarker(int id)
{
    for (qsizetype i = 0; i < m_markers.size(); ++i) {
        if (m_markers[i].marker.id == id) {
            m_plot->removeItem(m_markers[i].line);
            m_plot->removeItem(m_markers[i].text);
            m_markers.removeAt(i);
            return;
        }
    }
}

void ChartPanel::clearMarkers()
{
    for (const MarkerItems &m : std::as_const(m_markers)) {
        m_plot->removeItem(m.line);
        m_plot->removeItem(m.text);
    }
    m_markers.clear();
}

void ChartPanel::updateMarkerLabels()
{
    const QRect plot = m_plot->axisRect()->rect();
    if (m_markerLabels == MarkerLabels::Numbered) {
        placeNumberedTags(plot);
        return;
    }
    // Each label beside its line: right of it, else left of it, else moved along until it fits; wider than the
    // plot, it is cut with an ellipsis. A marker whose line is out of view has no label (the events list has
    // it). Labels that would overlap take the next of three rows; with all three taken the label is hidden (the
    // line stays, the readout and the events list name it).
    struct Extent {
        qsizetype index;
        double left;
        double width;
        QString text;
    };
    QList<Extent> extents;
    extents.reserve(m_markers.size());
    const double gap = 2;
    for (qsizetype i = 0; i < m_markers.size(); ++i) {
        const MarkerItems &m = m_markers[i];
        const double x = m_plot->xAxis->coordToPixel(m.marker.time);
        if (!(x >= plot.left() - 0.5 && x <= plot.right() + 0.5)) {
            m.text->setVisible(false);
            continue;
        }
        const QFont font = m.text->font();
        const double room
            = plot.width() - 2 * gap - chartpanel::markerPadding.left() - chartpanel::markerPadding.right();
        QString text = m.marker.shortLabel();
        if (chartpanel::textSize(font, text).width() > room)
            text = QFontMetricsF(font).elidedText(text, Qt::ElideRight, room - 2);
        const double width = chartpanel::textSize(font, text).width() + chartpanel::markerPadding.left()
            + chartpanel::markerPadding.right();
        double left = x + gap;
        if (left + width > plot.right() - gap)
            left = x - gap - width;
        if (left < plot.left() + gap)
            left = std::clamp(x - width / 2, plot.left() + gap, plot.right() - gap - width);
        extents.append({ i, left, width, text });
    }
    std::sort(extents.begin(), extents.end(), [](const Extent &a, const Extent &b) { return a.left < b.left; });
    constexpr int rows = 3;
    std::array<double, rows> rowEnd;
    rowEnd.fill(-std::numeric_limits<double>::infinity());
    for (const Extent &e : std::as_const(extents)) {
        int row = 0;
        while (row < rows && rowEnd[std::size_t(row)] + 3 > e.left)
            ++row;
        QCPItemText *text = m_markers[e.index].text;
        text->setVisible(row < rows);
        if (row == rows)
            continue;
        rowEnd[std::size_t(row)] = e.left + e.width;
        const double rowHeight = chartpanel::textSize(text->font(), QStringLiteral("Ag")).height()
            + chartpanel::markerPadding.top() + chartpanel::markerPadding.bottom() + 1;
        text->setText(e.text);
        text->setClipToAxisRect(true);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        text->position->setCoords(e.left, plot.top() + gap + row * rowHeight);
    }
}

void ChartPanel::placeNumberedTags(const QRect &plot)
{
    // One tag per place above the plot: markers within a few pixels of each other share it ("1,2").
    QHash<int, int> numbers; // marker id -> its number
    const QList<ChartMarker> ordered = markersInTimeOrder([this] {
        QList<ChartMarker> all;
        for (const MarkerItems &m : std::as_const(m_markers))
            all.append(m.marker);
        return all;
    }());
    for (qsizetype i = 0; i < ordered.size(); ++i)
        numbers.insert(ordered[i].id, int(i + 1));
    struct Group {
        double x = 0;
        QList<qsizetype> markers;
    };
    QList<QPair<double, qsizetype>> visible;
    for (qsizetype i = 0; i < m_markers.size(); ++i) {
        m_markers[i].text->setVisible(false);
        const double x = m_plot->xAxis->coordToPixel(m_markers[i].marker.time);
        if (x >= plot.left() - 0.5 && x <= plot.right() + 0.5)
            visible.append({ x, i });
    }
    std::sort(visible.begin(), visible.end(), [&](const auto &a, const auto &b) {
        return a.first < b.first
            || (a.first == b.first
                && numbers.value(m_markers[a.second].marker.id) < numbers.value(m_markers[b.second].marker.id));
    });
    QList<Group> groups;
    for (const auto &[x, index] : std::as_const(visible)) {
        if (!groups.isEmpty() && x - groups.last().x <= 4)
            groups.last().markers.append(index);
        else
            groups.append(Group { x, QList<qsizetype> { index } });
    }
    const QRect viewport = m_plot->viewport();
    double previousRight = viewport.left();
    for (const Group &g : std::as_const(groups)) {
        QStringList tag;
        bool sameKind = true;
        for (qsizetype index : g.markers) {
            tag.append(QString::number(numbers.value(m_markers[index].marker.id)));
            sameKind = sameKind && m_markers[index].marker.kind == m_markers[g.markers.first()].marker.kind;
        }
        QCPItemText *text = m_markers[g.markers.first()].text;
        const QString label = tag.join(u',');
        const double width = chartpanel::textSize(text->font(), label).width() + chartpanel::markerPadding.left()
            + chartpanel::markerPadding.right();
        double left = std::clamp(g.x - width / 2, double(viewport.left()) + 1, viewport.right() - 1 - width);
        left = std::max(left, previousRight + 2);
        if (left + width > viewport.right() - 1)
            continue; // no room left: the key under the chart still names it
        previousRight = left + width;
        const MarkerKind kind = m_markers[g.markers.first()].marker.kind;
        text->setText(label);
        text->setColor(sameKind ? chartstyle::markerColor(kind).darker(115) : QColor(0x30, 0x30, 0x30));
        text->setClipToAxisRect(false);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        text->position->setCoords(left, plot.top() - 1);
        text->setVisible(true);
    }
}

} // namespace dmtune
