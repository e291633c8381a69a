#pragma once
// Help > About dmtune: what it is, and the versions of Qt, QCustomPlot, libudev, libdevmapper (and
// the kernel's dm driver), fio and the kernel, in a table that can be copied into a bug report.
// fio's version arrives later: `fio --version` runs asynchronously, the row says so meanwhile.
#include "core/versions/componentversions.h"

#include <QDialog>

class QTableWidget;

namespace dmtune {

class AboutDialog : public QDialog {
    Q_OBJECT
public:
    // local: localComponentVersions() of the machine; note: one more line under the tagline
    // (the captured tree being inspected), or empty.
    explicit AboutDialog(const QList<ComponentVersion> &local, const QString &note = {}, QWidget *parent = nullptr);

    // What the table shows for a key ("qt", "qcustomplot", "fio", ...): empty while unknown.
    QString versionOf(const QString &key) const;
    // The table as text, as the Copy button puts it on the clipboard.
    QString versionsText() const { return componentVersionsToText(m_versions); }

Q_SIGNALS:
    void fioVersionShown();

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void addRow(const ComponentVersion &version);
    void setRow(int row, const ComponentVersion &version);

    QList<ComponentVersion> m_versions;
    QTableWidget *m_table = nullptr;
};

} // namespace dmtune
