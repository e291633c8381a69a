#include "filedialogs.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace dmtune::filedialogs {

namespace {

QString settingsKey(const QString &purpose)
{
    return QStringLiteral("fileDialogs/") + purpose;
}

} // namespace

QString startFolder(const QString &purpose, const QString &fallback)
{
    if (purpose.isEmpty())
        return fallback;
    const QString last = QSettings().value(settingsKey(purpose)).toString();
    if (!last.isEmpty() && QFileInfo(last).isDir())
        return last;
    return fallback;
}

void remember(const QString &purpose, const QString &path)
{
    if (purpose.isEmpty() || path.isEmpty())
        return;
    const QFileInfo info(path);
    QSettings().setValue(settingsKey(purpose), info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

QFileDialog *open(QWidget *parent, const Spec &spec, const std::function<void(const QStringList &)> &chosen)
{
    // A fallback that names a file (a suggested export name) keeps its name in the remembered folder.
    QString start = spec.fallbackFolder;
    const QString remembered = startFolder(spec.purpose, QString());
    if (!remembered.isEmpty()) {
        const QFileInfo fallback(spec.fallbackFolder);
        start = spec.accept == QFileDialog::AcceptSave && !spec.fallbackFolder.isEmpty() && !fallback.isDir()
            ? QDir(remembered).filePath(fallback.fileName())
            : remembered;
    }
    auto *dialog = new QFileDialog(parent, spec.title, start, spec.filter);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(spec.mode);
    dialog->setAcceptMode(spec.accept);
    if (spec.mode == QFileDialog::Directory)
        dialog->setOption(QFileDialog::ShowDirsOnly);
    const QString purpose = spec.purpose;
    QObject::connect(dialog, &QFileDialog::filesSelected, dialog, [purpose, chosen](const QStringList &files) {
        if (files.isEmpty())
            return;
        remember(purpose, files.constFirst());
        chosen(files);
    });
    dialog->open();
    return dialog;
}

} // namespace dmtune::filedialogs
