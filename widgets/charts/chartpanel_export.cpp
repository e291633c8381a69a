#include "widgets/charts/chartpanel.h"

#include "widgets/charts/chartpanel_p.h"
#include "widgets/charts/chartstyle.h"
#include "widgets/charts/qcp_p.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QPicture>
#include <QSvgGenerator>

#include <algorithm>

namespace dmtune {

namespace {

constexpr int fallbackExportWidth = 960;
constexpr int fallbackExportHeight = 360;

} // namespace

void ChartPanel::exportWithDialog(const QString &suffix)
{
    auto *dialog = new QFileDialog(this, tr("Export %1 chart").arg(spec().title));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(suffix);
    dialog->setNameFilter(QStringLiteral("%1 (*.%2)").arg(suffix.toUpper(), suffix));
    dialog->selectFile(spec().id + u'.' + suffix);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        const Status status = exportTo(path);
        if (!status)
            Q_EMIT exportFailed(status.errorMessage());
    });
    dialog->open();
}

// ---- geometry

namespace {

// Where QCustomPlot's axis painter puts an axis's tick labels and title (QCPAxisPainterPrivate::draw): the
// labels beyond the ticks and their padding, the title beyond the widest label, centred along the plot.
void axisParts(QList<ChartPanel::Part> &parts, const QCPAxis *axis, const QString &side, const QRectF &plot,
    const QRectF &viewport)
{
    if (!axis->visible())
        return;
    const QCPAxis::AxisType type = axis->axisType();
    const bool vertical = type == QCPAxis::atLeft || type == QCPAxis::atRight;
    double distance = axis->offset();
    if (axis->ticks() && axis->tickLabelSide() == QCPAxis::lsOutside)
        distance += std::max(0, std::max(axis->tickLengthOut(), axis->subTickLengthOut()));
    distance += axis->tickLabelPadding();
    double labelsExtent = 0;
    if (axis->tickLabels()) {
        const QVector<double> ticks = axis->tickVector();
        const QVector<QString> labels = axis->tickVectorLabels();
        for (int i = 0; i < ticks.size() && i < labels.size(); ++i) {
            if (!axis->range().contains(ticks[i]))
                continue;
            const QSizeF size = chartpanel::textSize(axis->tickLabelFont(), labels[i]);
            const double at = axis->coordToPixel(ticks[i]);
            QRectF r;
            switch (type) {
            case QCPAxis::atBottom:
                r = QRectF(at - size.width() / 2, plot.bottom() + distance, size.width(), size.height());
                break;
            case QCPAxis::atTop:
                r = QRectF(at - size.width() / 2, plot.top() - distance - size.height(), size.width(), size.height());
                break;
            case QCPAxis::atLeft:
                r = QRectF(plot.left() - distance - size.width(), at - size.height() / 2, size.width(), size.height());
                break;
            case QCPAxis::atRight:
                r = QRectF(plot.right() + distance, at - size.height() / 2, size.width(), size.height());
                break;
            }
            labelsExtent = std::max(labelsExtent, vertical ? size.width() : size.height());
            parts.append({ QStringLiteral("%1 axis tick %2").arg(side, labels[i]), r, viewport });
        }
    }
    if (axis->label().isEmpty())
        return;
    distance += labelsExtent + axis->labelPadding();
    const QSizeF size = chartpanel::textSize(axis->labelFont(), axis->label()); // along the axis: width; across: height
    QRectF r;
    QRectF along; // the title runs along the plot's side, within it
    switch (type) {
    case QCPAxis::atBottom:
        r = QRectF(plot.center().x() - size.width() / 2, plot.bottom() + distance, size.width(), size.height());
        along = QRectF(plot.left(), viewport.top(), plot.width(), viewport.height());
        break;
    case QCPAxis::atTop:
        r = QRectF(
            plot.center().x() - size.width() / 2, plot.top() - distance - size.height(), size.width(), size.height());
        along = QRectF(plot.left(), viewport.top(), plot.width(), viewport.height());
        break;
    case QCPAxis::atLeft:
        r = QRectF(
            plot.left() - distance - size.height(), plot.center().y() - size.width() / 2, size.height(), size.width());
        along = QRectF(viewport.left(), plot.top(), viewport.width(), plot.height());
        break;
    case QCPAxis::atRight:
        r = QRectF(plot.right() + distance, plot.center().y() - size.width() / 2, size.height(), size.width());
        along = QRectF(viewport.left(), plot.top(), viewport.width(), plot.height());
        break;
    }
    parts.append({ side + QStringLiteral(" axis title"), r, along & viewport });
}

QList<ChartPanel::Part> partsOf(const QCustomPlot *plot, const QCPTextElement *title, const QRect &viewportRect)
{
    QList<ChartPanel::Part> parts;
    const QRectF viewport(viewportRect);
    if (title && title->visible()) {
        const QSizeF size = chartpanel::textSize(title->font(), title->text());
        const QRectF room(title->rect());
        parts.append({ QStringLiteral("title"),
            QRectF(room.center().x() - size.width() / 2, room.center().y() - size.height() / 2, size.width(),
                size.height()),
            viewport });
    }
    // A legend entry is clipped to the cell it got; it needs its minimum size there.
    const QCPLegend *legend = plot->legend;
    if (legend && legend->visible()) {
        for (int i = 0; i < legend->itemCount(); ++i) {
            const QCPAbstractLegendItem *item = legend->item(i);
            if (!item)
                continue;
            QString name = QStringLiteral("legend");
            if (const auto *p = qobject_cast<const QCPPlottableLegendItem *>(item))
                name += QStringLiteral(": ") + const_cast<QCPPlottableLegendItem *>(p)->plottable()->name();
            const QRectF cell(item->outerRect());
            parts.append({ name, QRectF(cell.topLeft(), QSizeF(item->minimumOuterSizeHint())), cell & viewport });
        }
    }
    const QRectF area(plot->axisRect()->rect());
    axisParts(parts, plot->xAxis, QStringLiteral("bottom"), area, viewport);
    axisParts(parts, plot->yAxis, QStringLiteral("left"), area, viewport);
    axisParts(parts, plot->yAxis2, QStringLiteral("right"), area, viewport);
    return parts;
}

} // namespace

QRect ChartPanel::viewportRect() const
{
    return m_plot->viewport();
}

QList<ChartPanel::Part> ChartPanel::drawnParts() const
{
    return partsIn(m_plot->viewport());
}

QList<ChartPanel::Part> ChartPanel::partsIn(const QRect &viewportRect) const
{
    QList<Part> parts = partsOf(m_plot, m_title, viewportRect);
    const QRectF viewport(viewportRect);
    const QRectF area(m_plot->axisRect()->rect());
    for (const MarkerItems &m : std::as_const(m_markers)) {
        if (!m.text->visible())
            continue;
        const QRectF box(m.text->topLeft->pixelPosition(), m.text->bottomRight->pixelPosition());
        parts.append({ QStringLiteral("marker: ") + m.text->text(), box,
            (m.text->clipToAxisRect() ? area : viewport) & viewport });
    }
    if (m_readout && m_readout->visible())
        parts.append({ QStringLiteral("readout"), QRectF(readoutRect()), viewport });
    return parts;
}

ChartPanel::Ranges ChartPanel::ranges() const
{
    Ranges r;
    r.xLower = m_plot->xAxis->range().lower;
    r.xUpper = m_plot->xAxis->range().upper;
    r.leftLower = m_plot->yAxis->range().lower;
    r.leftUpper = m_plot->yAxis->range().upper;
    r.hasRight = m_plot->yAxis2->visible();
    r.rightLower = m_plot->yAxis2->range().lower;
    r.rightUpper = m_plot->yAxis2->range().upper;
    return r;
}

QPicture ChartPanel::renderPicture(QSize size, QList<Part> *parts, Ranges *ranges)
{
    hideReadout();
    QPicture picture;
    QCPPainter painter(&picture);
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    painter.setMode(QCPPainter::pmNonCosmetic); // hairlines would print one printer dot wide
    m_plot->toPainter(&painter, size.width(), size.height()); // lays out for `size`, draws, keeps the widget's
    painter.end();
    // The layout is still the one drawn at `size` (the widget's comes back with its next replot).
    if (parts)
        *parts = partsIn(QRect(QPoint(0, 0), size));
    if (ranges)
        *ranges = this->ranges();
    return picture;
}

// ---- export

QSize ChartPanel::exportSize(int width, int height) const
{
    if (width <= 0)
        width = m_plot->width() >= 400 && m_plot->isVisible() ? m_plot->width() : fallbackExportWidth;
    if (height <= 0)
        height = m_plot->height() >= MinimumHeight && m_plot->isVisible() ? m_plot->height() : fallbackExportHeight;
    return { width, height };
}

void ChartPanel::setElapsedTimeAxis(const QString &label)
{
    QSharedPointer<QCPAxisTickerTime> ticker(new QCPAxisTickerTime);
    ticker->setTimeFormat(QStringLiteral("%m:%s"));
    ticker->setTickCount(6);
    m_plot->xAxis->setTicker(ticker);
    m_xLabel = label;
    m_plot->xAxis->setLabel(label);
    m_elapsedAxis = true;
}

Status ChartPanel::exportTo(const QString &path, int width, int height)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == u"png")
        return savePng(path, width, height);
    if (suffix == u"pdf")
        return savePdf(path, width, height);
    if (suffix == u"svg")
        return saveSvg(path, width, height);
    return Status::failure(tr("%1: unknown image format (use .png, .pdf or .svg)").arg(path));
}

Status ChartPanel::savePng(const QString &path, int width, int height)
{
    hideReadout();
    const QSize size = exportSize(width, height);
    if (!m_plot->savePng(path, size.width(), size.height()))
        return Status::failure(tr("%1: could not write the PNG").arg(path));
    return Status::success();
}

Status ChartPanel::savePdf(const QString &path, int width, int height)
{
    hideReadout();
    const QSize size = exportSize(width, height);
    // Cosmetic 1-px pens would print as hairlines: give them a real width on paper.
    if (!m_plot->savePdf(path, size.width(), size.height(), QCP::epNoCosmetic, QStringLiteral("dmtune"), spec().title))
        return Status::failure(tr("%1: could not write the PDF").arg(path));
    return Status::success();
}

Status ChartPanel::saveSvg(const QString &path, int width, int height)
{
    hideReadout();
    const QSize size = exportSize(width, height);
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(spec().title);
    generator.setDescription(QStringLiteral("dmtune live statistics: ") + spec().title);
    QCPPainter painter;
    if (!painter.begin(&generator))
        return Status::failure(tr("%1: could not write the SVG").arg(path));
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    m_plot->toPainter(&painter, size.width(), size.height());
    painter.end();
    if (QFileInfo(path).size() <= 0)
        return Status::failure(tr("%1: could not write the SVG").arg(path));
    return Status::success();
}

QString ChartPanel::qcustomplotVersion()
{
    return QStringLiteral(QCUSTOMPLOT_VERSION_STR);
}

} // namespace dmtune
