#include "reports/report.h"

#include "charts/chartspec.h"
#include "recordings/recordingreplay.h"
#include "reports/recordingcharts.h"
#include "util/atomicfile.h"

#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QTextDocument>
#include <QUrl>

namespace dmtune {

namespace {

QByteArray pngBytes(const QImage &image)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

QString resourceName(const ReportChart &chart)
{
    return QStringLiteral("chart-%1.png").arg(chart.id);
}

} // namespace

Result<Report> buildReport(const QList<Recording> &recordings, QSize chartSize)
{
    if (recordings.isEmpty())
        return Result<Report>::failure(QStringLiteral("no recording to report on"));
    Report report;
    report.recordings = recordings;
    report.generated = QDateTime::currentDateTimeUtc();
    QList<QHash<QString, QList<TimedMetrics>>> histories;
    for (const Recording &r : recordings)
        histories.append(replayHistories(r));
    report.comparison = compareRecordings(recordings, histories);
    report.configuration = configurationDiff(recordings);
    const AlignedCharts aligned = alignRecordings(recordings, histories);
    for (ChartPanelKind kind : ChartPanelSpec::kinds()) {
        const ChartPanelSpec &spec = ChartPanelSpec::of(kind);
        Result<QImage> image = renderAlignedChart(kind, aligned, chartSize);
        if (!image)
            return Result<Report>::failure(image.errorMessage());
        report.charts.append({ spec.id, spec.title, image.value() });
    }
    return report;
}

Status writeHtmlReport(const Report &report, const QString &path)
{
    const QString html = reportHtml(
        report,
        [](const ReportChart &c) {
            return QStringLiteral("data:image/png;base64,") + QString::fromLatin1(pngBytes(c.image).toBase64());
        },
        false);
    return writeFileAtomically(path, html.toUtf8());
}

Status writePdfReport(const Report &report, const QString &path)
{
    QTextDocument doc;
    // The charts as the document's own resources: QTextDocument does not decode data: URIs.
    for (const ReportChart &c : report.charts)
        doc.addResource(QTextDocument::ImageResource, QUrl(resourceName(c)), c.image);
    QFont font = doc.defaultFont();
    font.setPointSizeF(8);
    doc.setDefaultFont(font);
    doc.setDefaultStyleSheet(QStringLiteral("th { background-color: #eeeeee; } pre { font-size: 7pt; }"));
    doc.setHtml(reportHtml(report, resourceName, true));
    // Into memory, then written whole beside the name and renamed (never through a symlink at the name).
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter pdf(&buffer);
        pdf.setTitle(doc.metaInformation(QTextDocument::DocumentTitle));
        pdf.setCreator(QStringLiteral("dmtune " DMTUNE_VERSION));
        pdf.setPageLayout(QPageLayout(
            QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(12, 12, 12, 12), QPageLayout::Millimeter));
        doc.print(&pdf);
    } // the writer finishes the PDF when it goes
    buffer.close();
    if (bytes.isEmpty())
        return Status::failure(QStringLiteral("cannot write %1: no PDF was produced").arg(path));
    return writeFileAtomically(path, bytes);
}

Status writeReport(const Report &report, const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("pdf"))
        return writePdfReport(report, path);
    if (suffix == QLatin1String("html") || suffix == QLatin1String("htm"))
        return writeHtmlReport(report, path);
    return Status::failure(QStringLiteral("%1: the report is written as .html or .pdf").arg(path));
}

} // namespace dmtune
