#pragma once
// "Export report…": a save dialog (opened, not exec'd: no nested event loop), then the report written by its
// suffix. The outcome comes back through `done` (empty message on success).
#include "recordings/recording.h"

#include <functional>

class QWidget;

namespace dmtune {

void exportReportWithDialog(QWidget *parent, const QList<Recording> &recordings,
    const std::function<void(const QString &path, const QString &error)> &done);

} // namespace dmtune
