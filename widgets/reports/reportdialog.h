#pragma once
// "Export report…": a save dialog (opened, not exec'd: no nested event loop), then the report written by its
// suffix; a PDF on the paper of the filter chosen (A4 or US Letter). The dialog starts in the folder of the
// first recording with a name made from it. The outcome comes back through `done` (empty message on success).
#include "core/recordings/recording.h"

#include <functional>

class QFileDialog;
class QWidget;

namespace dmtune {

// The dialog, open; it deletes itself when closed.
QFileDialog *exportReportWithDialog(QWidget *parent, const QList<Recording> &recordings,
    const std::function<void(const QString &path, const QString &error)> &done);

} // namespace dmtune
