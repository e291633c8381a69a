#pragma once
// Statistics > Export: which files an export of the live charts writes (each chart as PNG, PDF and/or SVG, the
// samples as CSV), which of them already exist, the files written beside their targets and moved into place (never
// through a link, never over an existing file unless the user chose to replace it), and the one line that says what
// was written. LiveStatsView::exportFiles() renders; StatsExportDialog asks.
#include "core/util/atomicfile.h"
#include "core/util/result.h"

#include <QFlags>
#include <QString>
#include <QStringList>

#include <functional>

namespace dmtune::statsexport {

enum class Format {
    Png = 0x1, // each chart as a picture at its size on screen
    Pdf = 0x2, // each chart as vector graphics, for documents
    Svg = 0x4, // each chart as vector graphics, for editing and the web
    Csv = 0x8, // samples.csv: every interval kept of the charted devices, iostat's columns
};
Q_DECLARE_FLAGS(Formats, Format)
inline constexpr Format allFormats[] = { Format::Png, Format::Pdf, Format::Svg, Format::Csv };
Formats everyFormat();

QString csvFileName(); // "samples.csv"
// "png", "pdf", "svg", "csv" and "PNG", ...
QString suffix(Format format);
QString formatName(Format format);

// The names an export writes, in order: each chart id with each chosen image suffix ("iops.png", "iops.pdf", ...),
// then samples.csv.
QStringList fileNames(const QStringList &chartIds, Formats formats);
// Those of `names` that are taken in `directory` (any kind of file, a dangling link too), in order.
QStringList existingNames(const QString &directory, const QStringList &names);

struct Outcome {
    QString directory;
    QStringList written; // absolute paths, in the order written (also when an error stopped the export)
    Status status; // ok when every file was written
    bool ok() const { return status.ok(); }
};

// Creates `directory` if needed; with ExistingFile::Refuse writes nothing when one of `names` is taken there. Each
// file is rendered by `render(name, path)` into a private directory made beside the targets, then moved into place
// by writeFileAtomically (never through a link at the name; with Refuse, never over a file that appeared since the
// check). Stops at the first failure: what was written until then is in the outcome.
Outcome writeFiles(const QString &directory, const QStringList &names, ExistingFile existing,
    const std::function<Status(const QString &name, const QString &path)> &render);

// For the user, from the outcome: "Wrote 22 files into /home/u/stats: iops, throughput, … as .png, .pdf and .svg,
// and samples.csv." or "Export into … failed: …" with what was written before.
QString describe(const Outcome &outcome, const QStringList &chartIds, Formats formats);
// "iops, throughput, … as .png, .pdf and .svg, and samples.csv" (what fileNames() lists, grouped).
QString describeNames(const QStringList &chartIds, Formats formats);

} // namespace dmtune::statsexport

Q_DECLARE_OPERATORS_FOR_FLAGS(dmtune::statsexport::Formats)
