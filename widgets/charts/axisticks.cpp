#include "widgets/charts/axisticks.h"

#include "widgets/charts/qcp_p.h"

#include <QFontMetrics>

#include <algorithm>
#include <cmath>

namespace dmtune::axisticks {

namespace {

class SiTicker : public QCPAxisTicker {
public:
    void generate(const QCPRange &range, const QLocale &locale, QChar formatChar, int precision, QVector<double> &ticks,
        QVector<double> *subTicks, QVector<QString> *tickLabels) override
    {
        m_magnitude = std::max(std::abs(range.lower), std::abs(range.upper));
        QCPAxisTicker::generate(range, locale, formatChar, precision, ticks, subTicks, tickLabels);
    }

protected:
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override
    {
        if (tick == 0)
            return QStringLiteral("0");
        if (m_magnitude >= 1e9)
            return QString::number(tick / 1e9, 'g', 4) + u'G';
        if (m_magnitude >= 1e6)
            return QString::number(tick / 1e6, 'g', 4) + u'M';
        if (m_magnitude >= 1e4)
            return QString::number(tick / 1e3, 'g', 4) + u'k';
        return QCPAxisTicker::getTickLabel(tick, locale, formatChar, precision);
    }

private:
    double m_magnitude = 0;
};

// Between two labels: as much again as a vertical label's height, a few characters' width on a horizontal axis.
constexpr double labelGapPx = 8;
const char *const lengthProperty = "dmtuneTickLength";

} // namespace

QSharedPointer<QCPAxisTicker> siTicker()
{
    return QSharedPointer<QCPAxisTicker>(new SiTicker);
}

int tickCountFor(double lengthPx, double labelExtentPx)
{
    const double perLabel = std::max(1.0, labelExtentPx + labelGapPx);
    return std::max(1, int(std::floor(lengthPx / (1.5 * perLabel))));
}

void keepReadable(QCustomPlot *plot)
{
    QObject::connect(plot, &QCustomPlot::afterLayout, plot, [plot] {
        bool changed = false;
        for (QCPAxisRect *rect : plot->axisRects()) {
            for (QCPAxis *axis : rect->axes()) {
                QCPAxisTicker *ticker = axis->ticker().data();
                if (!axis->visible() || !axis->tickLabels() || !ticker || dynamic_cast<QCPAxisTickerText *>(ticker))
                    continue;
                const bool horizontal = axis->orientation() == Qt::Horizontal;
                const int length = horizontal ? rect->width() : rect->height();
                if (length <= 0)
                    continue;
                const QFontMetrics metrics(axis->tickLabelFont());
                double extent = metrics.height();
                if (horizontal) {
                    extent = metrics.horizontalAdvance(QStringLiteral("000"));
                    for (const QString &label : axis->tickVectorLabels())
                        extent = std::max<double>(extent, metrics.boundingRect(label).width());
                }
                const int count = tickCountFor(length, extent);
                // At the same length the count only goes down: fewer ticks can give narrower labels ("20" for
                // "12.5"), and a count that went up again would swing back and forth.
                const bool sameLength = axis->property(lengthProperty).toInt() == length;
                if (count < ticker->tickCount() || (!sameLength && count != ticker->tickCount())) {
                    ticker->setTickCount(count);
                    changed = true;
                }
                axis->setProperty(lengthProperty, length);
            }
        }
        if (changed)
            plot->replot(QCustomPlot::rpQueuedReplot);
    });
}

} // namespace dmtune::axisticks
