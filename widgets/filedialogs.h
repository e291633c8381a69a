#pragma once
// File dialogs that start where the user last was: each purpose ("recordings", "presets", "reports"...) remembers
// the folder of the last file chosen for it (QSettings, fileDialogs/PURPOSE), and a dialog for it starts there, or
// in a fallback folder the first time. The dialogs are non-modal (open(), no nested event loop) and delete
// themselves when closed.
#include <QFileDialog>
#include <QString>

#include <functional>

namespace dmtune::filedialogs {

// Where a dialog for `purpose` starts: the folder last remembered for it while that folder exists, else `fallback`.
QString startFolder(const QString &purpose, const QString &fallback);
// Remembers the folder of `path` (a file, or a folder when `path` is one) for `purpose`.
void remember(const QString &purpose, const QString &path);

struct Spec {
    QString purpose;
    QString title;
    QString fallbackFolder; // the first time; a file name here preselects that file in its folder
    QString filter; // "Presets (*.json)"; empty for none
    QFileDialog::FileMode mode = QFileDialog::ExistingFile;
    QFileDialog::AcceptMode accept = QFileDialog::AcceptOpen;
};

// Opens a non-modal dialog over `parent` and hands what is chosen to `chosen` (one entry unless the mode is
// ExistingFiles), after remembering its folder. Returns the dialog (already open) for its object name or options.
QFileDialog *open(QWidget *parent, const Spec &spec, const std::function<void(const QStringList &)> &chosen);

} // namespace dmtune::filedialogs
