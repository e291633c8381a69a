#pragma once
// The Explain pane (docs/diagnosis.md): what the diagnosis rules say about the selected multipath map (or native
// NVMe head), over its configuration and the last seconds the main window's sampler measured, refreshed while the
// pane is shown; or about a recording (File > Explain recording). Each finding's experiment is a link that hands a
// ready sweep to the Experiment tab. The rules and the reading run as jobs: nothing here reads a device.
#include "core/diagnosis/diagnosis.h"
#include "core/discovery/devicesnapshot.h"
#include "core/stats/samplebatch.h"
#include "core/sysfs/sysfsroot.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTextBrowser;
class QTimer;

namespace dmtune {

class JobTracker;

class ExplainPane : public QWidget {
    Q_OBJECT
public:
    // The seconds of sampled numbers the rules see (the newest batches that fit).
    static constexpr double WindowSeconds = 5;

    explicit ExplainPane(const SysfsRoot &root, QWidget *parent = nullptr);
    ~ExplainPane() override;

    void setSnapshot(const DeviceSnapshot &snapshot);
    // The device the tree selected: a map, one of its paths, or an NVMe head (or path); anything else explains
    // nothing. Explains it at once.
    void setDevice(const QString &name);
    // A sampler batch of the main window (the selected map and its paths while the Statistics tab charts them).
    void addBatch(const SampleBatch &batch);
    // The live diagnosis again now (also every WindowSeconds while the pane is visible); while hidden, when shown.
    void explainNow();
    // The rules over a recording instead; false (and statusText() says why) when it cannot be read.
    void explainRecording(const QString &file);

    QString map() const { return m_map; }
    const QList<Finding> &findings() const { return m_findings; }
    QString statusText() const;
    QString plainText() const;
    bool isBusy() const { return m_busy; }

Q_SIGNALS:
    // The user asked to set up a finding's experiment.
    void experimentProposed(const dmtune::ProposedSweep &sweep);
    // A diagnosis (live or recorded) was shown.
    void explained();

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    struct Shown {
        DiagnosisInput input;
        QList<Finding> findings;
        QString source; // "over the last 5.0 s", "recording X: fio's I/O window"
        QString error;
    };
    void present(const Shown &shown);
    QString resolveMap(const QString &device) const;
    QHash<QString, IostatMetrics> windowMetrics(double *seconds) const;

    SysfsRoot m_root;
    DeviceSnapshot m_snapshot;
    QString m_device, m_map;
    QList<SampleBatch> m_batches; // newest last, at most WindowSeconds of them
    QList<Finding> m_findings;
    bool m_busy = false;
    bool m_showingRecording = false;
    bool m_shownWithoutNumbers = false; // the live diagnosis shown had no sampled numbers yet
    bool m_stale = false; // asked while hidden: explained when shown
    QLabel *m_title = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_live = nullptr;
    QTextBrowser *m_text = nullptr;
    QTimer *m_refresh = nullptr;
    JobTracker *m_jobs = nullptr; // last: joined first
};

} // namespace dmtune
