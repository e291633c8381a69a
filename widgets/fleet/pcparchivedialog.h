#pragma once
// File > Open PCP archive…: which archive, which span of it (PCP's -S/-T syntax) and whether to interpolate.
// The answers only: the archive is read on a job by the caller (importPcpArchive).
#include "core/metrics/pcpsource.h"

#include <QDialog>

class QLineEdit;
class QDoubleSpinBox;
class QCheckBox;

namespace dmtune {

class PcpArchiveDialog : public QDialog {
    Q_OBJECT
public:
    explicit PcpArchiveDialog(QWidget *parent = nullptr);

    QString archivePath() const;
    PcpArchiveWindow window() const;

private:
    void browse();

    QLineEdit *m_path = nullptr;
    QLineEdit *m_start = nullptr;
    QLineEdit *m_finish = nullptr;
    QCheckBox *m_interpolate = nullptr;
    QDoubleSpinBox *m_interval = nullptr;
};

// The archive's span as a recording in the recordings folder (a new name each time), for the recording view:
// runs on a job thread. The recording's path, or the one-line error.
Result<QString> importPcpArchive(const QString &archive, const PcpArchiveWindow &window);

} // namespace dmtune
