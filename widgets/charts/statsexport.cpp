#include "widgets/charts/statsexport.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

namespace dmtune::statsexport {

namespace {

QString joinedWithAnd(const QStringList &items)
{
    if (items.size() <= 1)
        return items.value(0);
    return QCoreApplication::translate("StatsExport", "%1 and %2")
        .arg(items.mid(0, items.size() - 1).join(QStringLiteral(", ")), items.last());
}

} // namespace

Formats everyFormat()
{
    Formats all;
    for (Format f : allFormats)
        all |= f;
    return all;
}

QString csvFileName()
{
    return QStringLiteral("samples.csv");
}

QString suffix(Format format)
{
    switch (format) {
    case Format::Png:
        return QStringLiteral("png");
    case Format::Pdf:
        return QStringLiteral("pdf");
    case Format::Svg:
        return QStringLiteral("svg");
    case Format::Csv:
        break;
    }
    return QStringLiteral("csv");
}

QString formatName(Format format)
{
    return suffix(format).toUpper();
}

QStringList fileNames(const QStringList &chartIds, Formats formats)
{
    QStringList names;
    for (const QString &id : chartIds) {
        for (Format f : { Format::Png, Format::Pdf, Format::Svg }) {
            if (formats.testFlag(f))
                names << id + u'.' + suffix(f);
        }
    }
    if (formats.testFlag(Format::Csv))
        names << csvFileName();
    return names;
}

QStringList existingNames(const QString &directory, const QStringList &names)
{
    QStringList taken;
    const QDir dir(directory);
    for (const QString &name : names) {
        const QFileInfo info(dir.filePath(name));
        if (info.exists() || info.isSymLink())
            taken << name;
    }
    return taken;
}

Outcome writeFiles(const QString &directory, const QStringList &names, ExistingFile existing,
    const std::function<Status(const QString &name, const QString &path)> &render)
{
    Outcome out;
    out.directory = QDir(directory).absolutePath();
    if (names.isEmpty()) {
        out.status = Status::failure(QCoreApplication::translate("StatsExport", "no format chosen: nothing to write"));
        return out;
    }
    if (!QDir().mkpath(out.directory)) {
        out.status = Status::failure(
            QCoreApplication::translate("StatsExport", "%1: cannot create the folder").arg(out.directory));
        return out;
    }
    if (existing == ExistingFile::Refuse) {
        const QStringList taken = existingNames(out.directory, names);
        if (!taken.isEmpty()) {
            out.status = Status::failure((taken.size() == 1
                    ? QCoreApplication::translate("StatsExport", "%1 already exists there (nothing was replaced)")
                    : QCoreApplication::translate("StatsExport", "%1 already exist there (nothing was replaced)"))
                                             .arg(joinedWithAnd(taken)));
            return out;
        }
    }
    // Every file rendered first, in a directory of our own beside the targets (same file system, nobody else's
    // names), so that a chart that cannot be drawn leaves the folder as it was.
    QTemporaryDir staging(QDir(out.directory).filePath(QStringLiteral(".dmtune-export-XXXXXX")));
    if (!staging.isValid()) {
        out.status = Status::failure(QCoreApplication::translate("StatsExport", "%1: cannot write there (%2)")
                                         .arg(out.directory, staging.errorString()));
        return out;
    }
    for (const QString &name : names) {
        const Status rendered = render(name, staging.filePath(name));
        if (!rendered) {
            out.status = rendered;
            return out;
        }
    }
    const QDir dir(out.directory);
    for (const QString &name : names) {
        QFile staged(staging.filePath(name));
        if (!staged.open(QIODevice::ReadOnly)) {
            out.status = Status::failure(QStringLiteral("%1: %2").arg(staged.fileName(), staged.errorString()));
            return out;
        }
        const QString target = dir.filePath(name);
        const Status moved = writeFileAtomically(target, staged.readAll(), existing);
        if (!moved) {
            out.status = moved;
            return out;
        }
        out.written << target;
    }
    return out;
}

QString describeNames(const QStringList &chartIds, Formats formats)
{
    QStringList images;
    for (Format f : { Format::Png, Format::Pdf, Format::Svg }) {
        if (formats.testFlag(f))
            images << u'.' + suffix(f);
    }
    QString charts;
    if (!images.isEmpty() && !chartIds.isEmpty())
        charts = QCoreApplication::translate("StatsExport", "%1 as %2")
                     .arg(chartIds.join(QStringLiteral(", ")), joinedWithAnd(images));
    if (!formats.testFlag(Format::Csv))
        return charts;
    if (charts.isEmpty())
        return csvFileName();
    return QCoreApplication::translate("StatsExport", "%1, and %2").arg(charts, csvFileName());
}

QString describe(const Outcome &outcome, const QStringList &chartIds, Formats formats)
{
    const qsizetype n = outcome.written.size();
    const QString files = n == 1 ? QCoreApplication::translate("StatsExport", "1 file")
                                 : QCoreApplication::translate("StatsExport", "%1 files").arg(n);
    if (outcome.ok())
        return QCoreApplication::translate("StatsExport", "Wrote %1 into %2: %3.")
            .arg(files, outcome.directory, describeNames(chartIds, formats));
    QString text = QCoreApplication::translate("StatsExport", "Export into %1 failed: %2.")
                       .arg(outcome.directory, outcome.status.errorMessage());
    if (n == 0) {
        text += u' ' + QCoreApplication::translate("StatsExport", "Nothing was written.");
    } else {
        QStringList names;
        for (const QString &path : outcome.written)
            names << QFileInfo(path).fileName();
        text += u' '
            + QCoreApplication::translate("StatsExport", "Written before that (%1): %2.")
                  .arg(files, names.join(QStringLiteral(", ")));
    }
    return text;
}

} // namespace dmtune::statsexport
