#pragma once
// A report over one or more recordings: host, kernel, time, configuration and its differences, charts
// aligned at the workload start, summary statistics with deltas, fio command lines and results, and the
// formulas of every metric shown. One HTML text serves both outputs: the .html file embeds its PNG charts as
// data: URIs (self-contained), the PDF is the same text laid out by QTextDocument on a QPdfWriter.
#include "recordings/comparison.h"
#include "recordings/configdiff.h"

#include <QDateTime>
#include <QImage>

#include <functional>

namespace dmtune {

struct ReportChart {
    QString id; // "iops": also the resource name chart-iops.png
    QString title;
    QImage image;
};

struct Report {
    QList<Recording> recordings;
    Comparison comparison;
    ConfigDiff configuration;
    QList<ReportChart> charts;
    QDateTime generated;
};

// Replays, compares and renders the charts (needs a QApplication: the charts are widgets).
Result<Report> buildReport(const QList<Recording> &recordings, QSize chartSize = QSize(960, 340));

// imageSource gives an <img src> for a chart. forPrint: the subset of HTML QTextDocument lays out well.
QString reportHtml(const Report &report, const std::function<QString(const ReportChart &)> &imageSource, bool forPrint);

Status writeHtmlReport(const Report &report, const QString &path);
Status writePdfReport(const Report &report, const QString &path);
// By the path's suffix: .html/.htm or .pdf.
Status writeReport(const Report &report, const QString &path);

} // namespace dmtune
