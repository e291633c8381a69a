#include "widgets/reports/report.h"

#include "core/recordings/recordingreplay.h"
#include "core/util/atomicfile.h"
#include "widgets/charts/chartspec.h"
#include "widgets/experiments/sweepchart.h"
#include "widgets/reports/recordingcharts.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSet>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextObjectInterface>
#include <QTextTable>
#include <QUrl>

#include <cmath>

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

// The document is laid out in pixels of 1/96 inch (CSS pixels, Qt's default resolution), drawn 1:1 on a
// PDF writer of that resolution: fonts, tables and charts all in one unit.
constexpr double documentDpi = 96;
constexpr int chartObjectType = QTextFormat::UserObject + 1;
constexpr int chartIndexProperty = QTextFormat::UserProperty + 1;

} // namespace

// The charts in the PDF: an inline object as wide as the page's printable width, drawn from a vector picture of
// the chart laid out at exactly that size. Records where each was drawn.
class ReportChartObject : public QObject, public QTextObjectInterface {
    Q_OBJECT
    Q_INTERFACES(QTextObjectInterface)
public:
    struct Chart {
        ChartPanelKind kind;
        QString id;
        QPicture picture;
        QList<ChartPanel::Part> parts; // in the chart's own pixels
        ChartPanel::Ranges ranges;
    };
    struct Drawn {
        int chart = -1;
        int page = -1;
        QRectF rect; // in document pixels from the page's printable top-left corner
    };

    QSizeF size;
    QList<Chart> charts;
    QList<Drawn> drawn;
    int page = 0; // the page being drawn
    double pageHeight = 0;

    QSizeF intrinsicSize(QTextDocument *, int, const QTextFormat &) override { return size; }

    void drawObject(QPainter *painter, const QRectF &rect, QTextDocument *, int, const QTextFormat &format) override
    {
        const int index = format.property(chartIndexProperty).toInt();
        if (index < 0 || index >= charts.size())
            return;
        painter->drawPicture(rect.topLeft(), charts[index].picture);
        drawn.append({ index, page, rect.translated(0, -page * pageHeight) });
    }
};

namespace {

// The report as printed: the HTML laid out on pages of the printable area's size (no margins of its own: the
// page layout's are the only ones), the charts as ReportChartObject, small tables and headings kept with what
// follows them.
class PrintedDocument {
public:
    PrintedDocument(const Report &report, ReportPaper paper)
        : m_layout(reportPageLayout(paper))
    {
        // Fonts and layout at 96 dpi whatever the screen says: the page in the same unit as the charts.
        m_dpiDevice = QImage(1, 1, QImage::Format_RGB32);
        m_dpiDevice.setDotsPerMeterX(int(std::lround(documentDpi / 0.0254)));
        m_dpiDevice.setDotsPerMeterY(int(std::lround(documentDpi / 0.0254)));
        m_doc.documentLayout()->setPaintDevice(&m_dpiDevice);
        QFont font = m_doc.defaultFont();
        font.setPointSizeF(8);
        m_doc.setDefaultFont(font);
        m_doc.setDocumentMargin(0);
        m_doc.setDefaultStyleSheet(QStringLiteral("th { background-color: #eeeeee; } pre { font-size: 7pt; }"));
        const QRectF printable = m_layout.paintRect(QPageLayout::Point);
        m_page = QSizeF(printable.width() * documentDpi / 72, printable.height() * documentDpi / 72);

        // Charts as wide as the page (a pixel less: a line exactly as wide as the page may wrap).
        const QSize chartSize(int(std::floor(m_page.width())) - 1, int(std::lround(m_page.width() * 0.36)));
        m_charts.size = chartSize;
        for (const ReportChart &c : report.charts) {
            ReportChartObject::Chart chart { c.kind, c.id, QPicture(), {}, {} };
            chart.picture = renderAlignedPicture(c.kind, report.aligned, chartSize, &chart.parts, &chart.ranges);
            m_charts.charts.append(chart);
        }
        // A sweep's charts: images drawn again at this width (at twice the pixels, sharp in print and on zoom).
        if (report.sweep) {
            for (qsizetype i = 0; i < report.sweep->charts.size(); ++i) {
                m_doc.addResource(QTextDocument::ImageResource, QUrl(resourceName(report.sweep->charts.at(i))),
                    renderSweepChart(
                        report.sweep->chartData.value(i), chartSize, 2.0, report.sweep->charts.at(i).title));
            }
        }
        // Latency charts: images drawn again at this width, at twice the pixels, as the sweep's.
        for (const ReportLatencyChart &c : report.latencyCharts)
            m_doc.addResource(QTextDocument::ImageResource, QUrl(resourceName(c.chart)),
                renderReportLatencyChart(report, c, chartSize, 2.0));
        m_doc.documentLayout()->registerHandler(chartObjectType, &m_charts);
        m_doc.setHtml(reportHtml(report, resourceName, true));
        m_doc.setPageSize(m_page);
        m_charts.pageHeight = m_page.height();
        replaceChartImages(report);
        repeatTableHeaders();
        keepTogether();
        relayout();
    }

    int pageCount() const { return m_doc.pageCount(); }
    const QPageLayout &pageLayout() const { return m_layout; }
    QString title() const { return m_doc.metaInformation(QTextDocument::DocumentTitle); }

    // Draws page `index` with the painter's origin at the printable area's top-left corner, in document pixels.
    void drawPage(QPainter &painter, int index)
    {
        painter.save();
        painter.translate(0, -index * m_page.height());
        const QRectF view(0, index * m_page.height(), m_page.width(), m_page.height());
        painter.setClipRect(view);
        QAbstractTextDocumentLayout::PaintContext context;
        context.clip = view;
        context.palette.setColor(QPalette::Text, Qt::black);
        m_charts.page = index;
        m_doc.documentLayout()->draw(&painter, context);
        painter.restore();
    }

    // Where the charts were drawn, in points from the page's top-left corner (after drawing every page).
    PrintedReport printed()
    {
        PrintedReport out;
        out.layout = m_layout;
        out.pageCount = pageCount();
        const QRectF printable = m_layout.paintRect(QPageLayout::Point);
        const double scale = 72 / documentDpi;
        const auto toPoints = [&](const QRectF &r, const QPointF &origin) {
            return QRectF(printable.topLeft() + (origin + r.topLeft()) * scale, r.size() * scale);
        };
        for (const ReportChartObject::Drawn &d : m_charts.drawn) {
            const ReportChartObject::Chart &c = m_charts.charts[d.chart];
            PrintedChart p;
            p.id = c.id;
            p.kind = c.kind;
            p.page = d.page;
            p.rect = toPoints(QRectF(QPointF(0, 0), d.rect.size()), d.rect.topLeft());
            for (const ChartPanel::Part &part : c.parts)
                p.parts.append(
                    { part.name, toPoints(part.content, d.rect.topLeft()), toPoints(part.clip, d.rect.topLeft()) });
            p.ranges = c.ranges;
            out.charts.append(p);
        }
        QString heading;
        for (const Item &item : items()) {
            if (!item.table) {
                if (item.block.blockFormat().headingLevel() > 0) {
                    heading = item.block.text();
                    out.headings.append({ heading, pageOf(item.rect.top() + 0.5), item.rect.height() * scale,
                        item.block.layout()->lineCount() });
                }
                continue;
            }
            out.tables.append({ heading, pageOf(item.rect.top() + 0.5), pageOf(item.rect.bottom() - 0.5),
                item.rect.height() * scale });
        }
        return out;
    }

private:
    // reportHtml() names each chart by an <img>: each becomes a chart object in its place.
    void replaceChartImages(const Report &report)
    {
        QList<QPair<int, int>> found; // document position, chart index
        for (QTextBlock block = m_doc.begin(); block.isValid(); block = block.next()) {
            for (auto it = block.begin(); !it.atEnd(); ++it) {
                const QTextFragment fragment = it.fragment();
                if (!fragment.isValid() || !fragment.charFormat().isImageFormat())
                    continue;
                const QString name = fragment.charFormat().toImageFormat().name();
                for (int i = 0; i < report.charts.size(); ++i) {
                    if (name == resourceName(report.charts[i]))
                        found.append({ fragment.position(), i });
                }
            }
        }
        for (auto it = found.crbegin(); it != found.crend(); ++it) {
            QTextCursor cursor(&m_doc);
            cursor.setPosition(it->first);
            cursor.setPosition(it->first + 1, QTextCursor::KeepAnchor);
            QTextCharFormat format;
            format.setObjectType(chartObjectType);
            format.setProperty(chartIndexProperty, it->second);
            cursor.insertText(QString(QChar::ObjectReplacementCharacter), format);
        }
    }

    void repeatTableHeaders()
    {
        for (QTextFrame *frame : m_doc.rootFrame()->childFrames()) {
            if (auto *table = qobject_cast<QTextTable *>(frame)) {
                QTextTableFormat format = table->format();
                format.setHeaderRowCount(1);
                table->setFormat(format);
            }
        }
    }

    struct Item {
        QTextBlock block; // or
        QTextTable *table = nullptr;
        QRectF rect;
        bool keepWithNext = false;
        bool chart = false; // a block holding a chart: never split (the layout does not move such a line)
    };

    // A whole new layout, finished. QTextDocumentLayout lays a long document out lazily (the rest on a timer);
    // a change made meanwhile lays out only the changed blocks and then takes the layout for done, leaving the
    // blocks it never reached without lines: after every change the document is laid out again, whole.
    void relayout()
    {
        m_doc.setPageSize(m_page);
        (void)m_doc.documentLayout()->documentSize();
    }

    QList<Item> items()
    {
        relayout();
        QList<Item> out;
        QAbstractTextDocumentLayout *layout = m_doc.documentLayout();
        for (auto it = m_doc.rootFrame()->begin(); !it.atEnd(); ++it) {
            if (auto *table = qobject_cast<QTextTable *>(it.currentFrame())) {
                out.append({ {}, table, layout->frameBoundingRect(table), false });
                continue;
            }
            const QTextBlock block = it.currentBlock();
            if (!block.isValid())
                continue;
            Item item { block, nullptr, layout->blockBoundingRect(block), false, false };
            // Headings and the paragraph of a chart (its key follows) stay with what follows.
            item.chart = block.text().contains(QChar::ObjectReplacementCharacter);
            item.keepWithNext = block.blockFormat().headingLevel() > 0 || item.chart;
            out.append(item);
        }
        // So do a table's lead-in and a heading's first paragraph.
        const auto isHeading = [](const Item &i) { return !i.table && i.block.blockFormat().headingLevel() > 0; };
        for (qsizetype i = 0; i + 1 < out.size(); ++i) {
            if (out[i].table)
                continue;
            if (out[i + 1].table || (i > 0 && isHeading(out[i - 1])))
                out[i].keepWithNext = true;
        }
        return out;
    }

    int pageOf(double y) const { return int(std::floor(y / m_page.height())); }

    // Breaks before whatever would be split badly: a chart running over a page end (QTextDocument's layout moves
    // a line of text to the next page, not a line holding a tall object), a table that fits on one page but runs
    // over a page end, a table that starts with less than a fifth of a page left, a heading (or a chart, or a
    // table's lead-in) left at the bottom of a page without what follows it. The break goes before the first of a
    // chain of items kept together, unless that one starts a page already (then the chain stays as it is).
    void keepTogether()
    {
        const double h = m_page.height();
        QSet<int> settled; // document positions of items a break cannot help
        const auto positionOf
            = [](const Item &it) { return it.table ? it.table->firstPosition() : it.block.position(); };
        for (int round = 0; round < 200; ++round) {
            const QList<Item> list = items();
            qsizetype breakAt = -1;
            for (qsizetype i = 0; i < list.size() && breakAt < 0; ++i) {
                const Item &it = list[i];
                if (settled.contains(positionOf(it)))
                    continue;
                const int first = pageOf(it.rect.top() + 0.5);
                const int last = pageOf(it.rect.bottom() - 0.5);
                bool split = false;
                if (it.chart && first != last) {
                    split = true;
                } else if (it.table && first != last) {
                    const double onFirst = (first + 1) * h - it.rect.top();
                    split = it.rect.height() <= h - 2 || onFirst < h / 5;
                } else if (it.keepWithNext && i + 1 < list.size()) {
                    split = pageOf(list[i + 1].rect.top() + 0.5) > last;
                }
                if (!split)
                    continue;
                qsizetype chainStart = i;
                while (chainStart > 0 && list[chainStart - 1].keepWithNext)
                    --chainStart;
                const Item &start = list[chainStart];
                const double fromTop = start.rect.top() - pageOf(start.rect.top() + 0.5) * h;
                if (fromTop < 1) {
                    settled.insert(positionOf(it)); // the chain is longer than a page: leave it
                    continue;
                }
                breakAt = chainStart;
            }
            if (breakAt < 0)
                return;
            const Item &it = list[breakAt];
            settled.insert(positionOf(it));
            if (it.table) {
                QTextTableFormat format = it.table->format();
                format.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
                it.table->setFormat(format);
            } else {
                QTextCursor cursor(it.block);
                QTextBlockFormat format = it.block.blockFormat();
                format.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
                cursor.setBlockFormat(format);
            }
        }
    }

    QPageLayout m_layout;
    QImage m_dpiDevice;
    QSizeF m_page; // the printable area in document pixels
    ReportChartObject m_charts;
    QTextDocument m_doc; // declared last: destroyed first, while the handler it holds is alive
};

} // namespace

ReportPaper defaultReportPaper()
{
    return QLocale::system().measurementSystem() == QLocale::ImperialUSSystem ? ReportPaper::Letter : ReportPaper::A4;
}

QString reportPaperName(ReportPaper paper)
{
    return paper == ReportPaper::Letter ? QStringLiteral("Letter") : QStringLiteral("A4");
}

std::optional<ReportPaper> reportPaperFromName(const QString &name)
{
    if (name.compare(QLatin1String("a4"), Qt::CaseInsensitive) == 0)
        return ReportPaper::A4;
    if (name.compare(QLatin1String("letter"), Qt::CaseInsensitive) == 0)
        return ReportPaper::Letter;
    return std::nullopt;
}

QPageLayout reportPageLayout(ReportPaper paper)
{
    return QPageLayout(QPageSize(paper == ReportPaper::Letter ? QPageSize::Letter : QPageSize::A4),
        QPageLayout::Portrait, QMarginsF(12, 12, 12, 12), QPageLayout::Millimeter);
}

Result<Report> buildReport(const QList<Recording> &recordings, QSize chartSize)
{
    if (recordings.isEmpty())
        return Result<Report>::failure(QCoreApplication::translate("Report", "no recording to report on"));
    Report report;
    report.recordings = recordings;
    report.generated = QDateTime::currentDateTimeUtc();
    QList<QHash<QString, QList<TimedMetrics>>> histories;
    for (const Recording &r : recordings)
        histories.append(replayHistories(r));
    report.comparison = compareRecordings(recordings, histories);
    report.configuration = configurationDiff(recordings);
    report.aligned = alignRecordings(recordings, histories);
    for (ChartPanelKind kind : ChartPanelSpec::kinds()) {
        const ChartPanelSpec &spec = ChartPanelSpec::of(kind);
        Result<QImage> image = renderAlignedChart(kind, report.aligned, chartSize);
        if (!image)
            return Result<Report>::failure(image.errorMessage());
        report.charts.append({ spec.id, spec.title, image.value(), kind });
    }
    report.latency = compareLatency(recordings);
    if (report.latency.isEmpty())
        return report;
    const bool several = recordings.size() > 1;
    if (several) {
        for (qsizetype i = 0; i < report.latency.size(); ++i) {
            ReportLatencyChart c {
                { QStringLiteral("latency-slot-%1").arg(i + 1),
                    QCoreApplication::translate("Report", "Latency distributions of %1").arg(report.latency[i].slot),
                    {}, ChartPanelKind::Iops },
                -1, {}, int(i)
            };
            c.chart.image = renderReportLatencyChart(report, c, chartSize, 1.0);
            report.latencyCharts.append(c);
        }
    }
    for (qsizetype r = 0; r < recordings.size(); ++r) {
        const QStringList devices = latencyDevices(recordings[r]);
        for (qsizetype d = 0; d < devices.size(); ++d) {
            const QString who = several ? QStringLiteral("#%1 %2").arg(r + 1).arg(devices[d]) : devices[d];
            ReportLatencyChart c { { QStringLiteral("latency-%1-%2").arg(r + 1).arg(d + 1),
                                       QCoreApplication::translate("Report", "Latency of %1 over time").arg(who), {},
                                       ChartPanelKind::Iops },
                int(r), devices[d], -1 };
            c.chart.image = renderReportLatencyChart(report, c, chartSize, 1.0);
            report.latencyCharts.append(c);
        }
    }
    return report;
}

QImage renderReportLatencyChart(const Report &report, const ReportLatencyChart &chart, QSize size, double scale)
{
    if (chart.recording >= 0 && chart.recording < report.recordings.size()) {
        const QString title = report.recordings.size() > 1
            ? QStringLiteral("#%1 %2").arg(chart.recording + 1).arg(chart.device)
            : chart.device;
        return renderRecordedLatency(report.recordings[chart.recording], chart.device, size, scale, title);
    }
    if (chart.slot >= 0 && chart.slot < report.latency.size())
        return renderLatencyDistribution(report.latency[chart.slot], size, scale);
    return {};
}

Status writeHtmlReport(const Report &report, const QString &path, ExistingFile existing)
{
    const QString html = reportHtml(
        report,
        [](const ReportChart &c) {
            return QStringLiteral("data:image/png;base64,") + QString::fromLatin1(pngBytes(c.image).toBase64());
        },
        false);
    return writeFileAtomically(path, html.toUtf8(), existing);
}

Status writePdfReport(
    const Report &report, const QString &path, ReportPaper paper, PrintedReport *printed, ExistingFile existing)
{
    PrintedDocument doc(report, paper);
    // Into memory, then written whole beside the name and renamed (never through a symlink at the name).
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter pdf(&buffer);
        pdf.setTitle(doc.title());
        pdf.setCreator(QStringLiteral("dmtune " DMTUNE_VERSION));
        pdf.setResolution(int(documentDpi));
        pdf.setPageLayout(doc.pageLayout());
        QPainter painter(&pdf);
        for (int i = 0; i < doc.pageCount(); ++i) {
            if (i > 0)
                pdf.newPage();
            doc.drawPage(painter, i);
        }
    } // the writer finishes the PDF when it goes
    buffer.close();
    if (bytes.isEmpty())
        return Status::failure(QCoreApplication::translate("Report", "cannot write %1: no PDF was produced").arg(path));
    if (printed)
        *printed = doc.printed();
    return writeFileAtomically(path, bytes, existing);
}

QList<QImage> renderReportPages(const Report &report, ReportPaper paper, double dpi, PrintedReport *printed)
{
    PrintedDocument doc(report, paper);
    const QPageLayout &layout = doc.pageLayout();
    const QSizeF page = layout.fullRect(QPageLayout::Inch).size() * dpi;
    const QPointF origin = layout.paintRect(QPageLayout::Inch).topLeft() * dpi;
    QList<QImage> pages;
    for (int i = 0; i < doc.pageCount(); ++i) {
        QImage image(QSize(int(std::lround(page.width())), int(std::lround(page.height()))), QImage::Format_RGB32);
        // Fonts at the document's resolution, scaled by the painter: the page as the PDF has it.
        image.setDotsPerMeterX(int(std::lround(documentDpi / 0.0254)));
        image.setDotsPerMeterY(int(std::lround(documentDpi / 0.0254)));
        image.fill(Qt::white);
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        painter.translate(origin);
        painter.scale(dpi / documentDpi, dpi / documentDpi);
        doc.drawPage(painter, i);
        painter.end();
        pages.append(image);
    }
    if (printed)
        *printed = doc.printed();
    return pages;
}

Status writeReport(const Report &report, const QString &path, ReportPaper paper, ExistingFile existing)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("pdf"))
        return writePdfReport(report, path, paper, nullptr, existing);
    if (suffix == QLatin1String("html") || suffix == QLatin1String("htm"))
        return writeHtmlReport(report, path, existing);
    return Status::failure(
        QCoreApplication::translate("Report", "%1: the report is written as .html or .pdf").arg(path));
}

} // namespace dmtune

#include "report.moc"
