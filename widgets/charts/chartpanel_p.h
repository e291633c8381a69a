#pragma once
// What the parts of ChartPanel (chartpanel.cpp: data and axes; chartpanel_markers.cpp; chartpanel_readout.cpp;
// chartpanel_export.cpp) share: the layers they draw on and text measured as QCustomPlot measures it.
#include <QFont>
#include <QFontMetrics>
#include <QMargins>
#include <QString>

namespace dmtune::chartpanel {

inline const QString markersLayer = QStringLiteral("markers");
// Marker labels above every marker line: a line added later never crosses an earlier label.
inline const QString markerLabelsLayer = QStringLiteral("markerLabels");
inline const QString hoverLayer = QStringLiteral("hover");
constexpr QMargins markerPadding(3, 1, 3, 1);

inline QFont sized(QFont font, qreal points, bool bold = false)
{
    font.setPointSizeF(points);
    font.setBold(bold);
    return font;
}

// The size QCustomPlot gives a text: QFontMetrics::boundingRect with the flags its painters use.
inline QSizeF textSize(const QFont &font, const QString &text)
{
    return QFontMetrics(font).boundingRect(0, 0, 0, 0, Qt::TextDontClip | Qt::AlignLeft, text).size();
}

} // namespace dmtune::chartpanel
