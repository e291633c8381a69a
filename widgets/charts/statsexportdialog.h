#pragma once
// Statistics > Export…: where to (a folder, a fresh one by default), which formats (each chart as PNG, PDF, SVG; the
// samples as CSV), and before anything is written the list of files it will write there and which of them exist
// already (those are replaced only when "Replace" is ticked; Export stays off until then). Opened with open(); the
// caller writes on exportRequested() and reports what was written.
#include "widgets/charts/statsexport.h"

#include <QDialog>
#include <QHash>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace dmtune {

class MessageBanner;

class StatsExportDialog : public QDialog {
    Q_OBJECT
public:
    // chartIds / chartTitles: the charts in export order ("iops" / "IOPS"); devices: what they show, for the text.
    StatsExportDialog(const QStringList &chartIds, const QStringList &chartTitles, const QString &devices,
        const QString &directory, statsexport::Formats formats, QWidget *parent = nullptr);

    QString directory() const;
    void setDirectory(const QString &directory);
    statsexport::Formats formats() const;
    // The names the export will write into directory(), and those of them already there.
    QStringList plannedNames() const;
    QStringList existingNames() const;
    bool replaceExisting() const;

    QLineEdit *directoryEdit() const { return m_directory; }
    QCheckBox *formatBox(statsexport::Format format) const { return m_formats.value(int(format)); }
    QCheckBox *replaceBox() const { return m_replace; }
    QPushButton *exportButton() const { return m_export; }
    QString summaryText() const;
    MessageBanner *conflictBanner() const { return m_conflict; }

    // A folder that does not exist yet, under `parent`: "<parent>/dmtune-statistics-20260314-101502".
    static QString freshDirectory(const QString &parent);

Q_SIGNALS:
    // The user pressed Export: write these formats into this folder; existing files replaced only with Replace.
    void exportRequested(const QString &directory, dmtune::statsexport::Formats formats, dmtune::ExistingFile existing);

private:
    void refresh();
    void browse();

    QStringList m_chartIds;
    QLineEdit *m_directory = nullptr;
    QHash<int, QCheckBox *> m_formats;
    QLabel *m_summary = nullptr;
    MessageBanner *m_conflict = nullptr;
    QCheckBox *m_replace = nullptr;
    QPushButton *m_export = nullptr;
    QStringList m_taken; // the names found taken at the last look: Replace is asked again when they change
};

} // namespace dmtune
