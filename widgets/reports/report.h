#pragma once
// A report over one or more recordings: host, kernel, time, configuration and its differences, charts
// aligned at the workload start, summary statistics with deltas, fio command lines and results, and the
// formulas of every metric shown. One HTML text serves both outputs: the .html file embeds its PNG charts as
// data: URIs (self-contained); the PDF is the same text laid out by QTextDocument on pages of A4 or US Letter,
// its charts drawn as vectors at the printable width, every part of them inside the printable area.
//
// Markers on the report's charts are numbered tags above the plot; the key under each chart names them, so
// that no label (a note can be a whole fio command line) is drawn over the data.
#include "core/experiments/sweepseries.h"
#include "core/recordings/comparison.h"
#include "core/recordings/configdiff.h"
#include "core/util/atomicfile.h"
#include "widgets/charts/chartpanel.h"
#include "widgets/reports/recordingcharts.h"

#include <QDateTime>
#include <QImage>
#include <QPageLayout>

#include <functional>
#include <optional>

namespace dmtune {

struct ReportChart {
    QString id; // "iops": also the resource name chart-iops.png
    QString title;
    QImage image; // the HTML's chart
    ChartPanelKind kind = ChartPanelKind::Iops;
};

// A latency chart of the report (recordings with latency frames): a recording's device as a heat map over its
// time, or a device slot's distributions of every recording overlaid (a comparison). The image is the HTML's; the
// PDF draws it again at its page's width.
struct ReportLatencyChart {
    ReportChart chart; // id "latency-R-D" (recording R's latencyDevices()[D]) or "latency-slot-N"
    int recording = -1; // a heat map of this recording's `device`; -1: the distributions of Report::latency[slot]
    QString device;
    int slot = -1;
};

// A sweep's part of a report (sweepreport.h): its request, results and what was restored; its charts (a metric
// against the swept value) as images for the HTML and as data the PDF draws again at its page's width.
struct ReportSweep {
    QString directory;
    SweepRequest request;
    SweepOutcome outcome;
    QList<SweepChartData> chartData;
    QList<ReportChart> charts; // id "sweep-N", parallel to chartData
};

struct Report {
    std::optional<ReportSweep> sweep; // a sweep's report: its section first, then its points' recordings
    QList<Recording> recordings;
    Comparison comparison;
    ConfigDiff configuration;
    AlignedCharts aligned; // what the charts show: the PDF draws them again at its page's width
    QList<ReportChart> charts;
    QList<LatencyComparisonRow> latency; // compareLatency(recordings): empty without latency frames
    QList<ReportLatencyChart> latencyCharts;
    QDateTime generated;
};

enum class ReportPaper : unsigned char { A4, Letter };

// A4, or US Letter where the system locale measures in US units.
ReportPaper defaultReportPaper();
QString reportPaperName(ReportPaper paper); // "A4", "Letter"
// "a4", "letter" (any case); nothing for anything else.
std::optional<ReportPaper> reportPaperFromName(const QString &name);
// Portrait, 12 mm margins all round: the printable area is the layout's paint rect.
QPageLayout reportPageLayout(ReportPaper paper);

// Replays, compares and renders the HTML's charts (needs a QApplication: the charts are widgets).
Result<Report> buildReport(const QList<Recording> &recordings, QSize chartSize = QSize(960, 360));
// A latency chart of the report drawn at `size` (logical pixels), `scale` times as many real ones.
QImage renderReportLatencyChart(const Report &report, const ReportLatencyChart &chart, QSize size, double scale);

// The key of the markers on the report's charts: their numbers, labels and times, in markersInTimeOrder().
// Plain text lines, "1  fio start  0:00"; reportHtml() prints it under every chart.
QStringList reportMarkerKey(const AlignedCharts &charts);

// imageSource gives an <img src> for a chart. forPrint: the subset of HTML QTextDocument lays out well.
QString reportHtml(const Report &report, const std::function<QString(const ReportChart &)> &imageSource, bool forPrint);

// Where the PDF put each chart, for the tests that hold its layout: the page (from 0), the chart's rect and
// its drawn parts in points from the page's top-left corner, and the ranges its axes were drawn with.
struct PrintedChart {
    QString id;
    ChartPanelKind kind = ChartPanelKind::Iops;
    int page = -1;
    QRectF rect;
    QList<ChartPanel::Part> parts; // content and clip in page points
    ChartPanel::Ranges ranges;
};

struct PrintedTable {
    QString heading; // the nearest heading above it
    int firstPage = -1;
    int lastPage = -1;
    double height = 0; // in points
};

struct PrintedHeading {
    QString text;
    int page = -1;
    double height = 0; // in points
    int lines = 0; // laid out in lines (0: not drawn at all)
};

struct PrintedReport {
    QPageLayout layout;
    int pageCount = 0;
    QList<PrintedChart> charts; // in the order drawn
    QList<PrintedTable> tables; // in document order
    QList<PrintedHeading> headings; // in document order
};

// An existing file at `path` is kept (the write fails) unless `existing` is Replace: the user asked (--replace, the
// save dialog's question). A symbolic link at the name is always refused.
Status writeHtmlReport(const Report &report, const QString &path, ExistingFile existing = ExistingFile::Refuse);
Status writePdfReport(const Report &report, const QString &path, ReportPaper paper = defaultReportPaper(),
    PrintedReport *printed = nullptr, ExistingFile existing = ExistingFile::Refuse);
// The PDF's pages as images at `dpi`, laid out and drawn by the same code as writePdfReport (each image is the
// whole page, margins included): for the tests and for a look without a PDF viewer.
QList<QImage> renderReportPages(const Report &report, ReportPaper paper, double dpi, PrintedReport *printed = nullptr);
// By the path's suffix: .html/.htm or .pdf.
Status writeReport(const Report &report, const QString &path, ReportPaper paper = defaultReportPaper(),
    ExistingFile existing = ExistingFile::Refuse);

} // namespace dmtune
