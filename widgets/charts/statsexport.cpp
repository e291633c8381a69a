#include "charts/statsexport.h"

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
    return items.mid(0, items.size() - 1).join(QStringLiteral(", ")) + QStringLiteral(" and ") + items.last();
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
        out.error = QStringLiteral("no format chosen: nothing to write");
        return out;
    }
    if (!QDir().mkpath(out.directory)) {
        out.error = QStringLiteral("%1: cannot create the folder").arg(out.directory);
        return out;
    }
    if (existing == ExistingFile::Refuse) {
        const QStringList taken = existingNames(out.directory, names);
        if (!taken.isEmpty()) {
            out.error = QStringLiteral("%1 already %2 there (nothing was replaced)")
                            .arg(joinedWithAnd(taken),
                                taken.size() == 1 ? QStringLiteral("exists") : QStringLiteral("exist"));
            return out;
        }
    }
    // Every file rendered first, in a directory of our own beside the targets (same file system, nobody else's
    // names), so that a chart that cannot be drawn leaves the folder as it was.
    QTemporaryDir staging(QDir(out.directory).filePath(QStringLiteral(".dmtune-export-XXXXXX")));
    if (!staging.isValid()) {
        out.error = QStringLiteral("%1: cannot write there (%2)").arg(out.directory, staging.errorString());
        return out;
    }
    for (const QString &name : names) {
        const Status rendered = render(name, staging.filePath(name));
        if (!rendered) {
            out.error = rendered.errorMessage;
            return out;
        }
    }
    const QDir dir(out.directory);
    for (const QString &name : names) {
        QFile staged(staging.filePath(name));
        if (!staged.open(QIODevice::ReadOnly)) {
            out.error = QStringLiteral("%1: %2").arg(staged.fileName(), staged.errorString());
            return out;
        }
        const QString target = dir.filePath(name);
        const Status moved = writeFileAtomically(target, staged.readAll(), existing);
        if (!moved) {
            out.error = moved.errorMessage;
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
    QStringList parts;
    if (!images.isEmpty() && !chartIds.isEmpty())
        parts << QStringLiteral("%1 as %2").arg(chartIds.join(QStringLiteral(", ")), joinedWithAnd(images));
    if (formats.testFlag(Format::Csv))
        parts << csvFileName();
    return parts.join(QStringLiteral(", and "));
}

QString describe(const Outcome &outcome, const QStringList &chartIds, Formats formats)
{
    const qsizetype n = outcome.written.size();
    const QString files = n == 1 ? QStringLiteral("1 file") : QStringLiteral("%1 files").arg(n);
    if (outcome.ok())
        return QStringLiteral("Wrote %1 into %2: %3.").arg(files, outcome.directory, describeNames(chartIds, formats));
    QString text = QStringLiteral("Export into %1 failed: %2.").arg(outcome.directory, outcome.error);
    if (n == 0) {
        text += QStringLiteral(" Nothing was written.");
    } else {
        QStringList names;
        for (const QString &path : outcome.written)
            names << QFileInfo(path).fileName();
        text += QStringLiteral(" Written before that (%1): %2.").arg(files, names.join(QStringLiteral(", ")));
    }
    return text;
}

} // namespace dmtune::statsexport
