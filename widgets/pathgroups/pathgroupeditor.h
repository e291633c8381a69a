#pragma once
// The path-group editor of one multipath map: its priority groups side by side, each with its selector
// and its paths (live state, fail count, the selector's live info, the per-path table arguments); paths
// are dragged between groups or onto "New group"; the features and the hardware handler above. Below, the
// table line the draft makes and its difference from the live one; Apply plans multipath.reload (core
// operation: risks, what multipathd may do), asks with a PlanDialog and runs the answered plan. The rules
// are PathGroupDraft's; this widget shows a draft and forwards edits to it.
#include "core/dm/grammar/pathgroupdraft.h"
#include "core/ops/operation.h"
#include "widgets/ops/plandialog.h" // planOpened(PlanDialog *): a complete type for the meta-type
#include "widgets/pathgroups/multipathconfirm.h"
#include "widgets/pathgroups/pathgroupmodel.h"

#include "core/dm/grammar/multipathstatus.h"
#include "core/dm/multipathchange.h"
#include "core/dm/multipathd/multipathdview.h"

#include <QHash>
#include <QPointer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QMessageBox;
class QPlainTextEdit;
class QPushButton;
class QScrollArea;
class QSpinBox;

namespace dmtune {

class OperationService;
class PathGroupColumn;
class PlanDialog;
class NewGroupDropZone;

class PathGroupEditor : public QWidget {
    Q_OBJECT
public:
    explicit PathGroupEditor(QWidget *parent = nullptr);
    ~PathGroupEditor() override;

    // Apply plans and runs multipath.reload through this runner (not owned); without one the editor only shows.
    void setRunner(OperationService *runner);

    // A map's live table and status. While the live table is the one the edits started from, only the
    // live values change; a table that changed underneath keeps the edits, now compared with it (the
    // banner says so); a table that equals the edits (they were applied) starts a clean draft.
    void setMap(const QString &map, const MultipathTable &table, const MultipathStatus &status,
        const QHash<QString, QString> &deviceNames = {});
    // Nothing to edit: the map's groups are unknown (why, e.g. no device-mapper) or no map is chosen.
    // `paths` are shown read-only (e.g. the map's slaves from sysfs).
    void setUnavailable(const QString &map, const QString &reason, const QStringList &paths = {});
    // multipathd's view of the shown map (priorities, checker states), or none: it does not run or does not
    // manage the map. Shown beside the kernel's states until the next call.
    void setMultipathdView(const std::optional<MultipathdMapView> &view);
    // What the map's UUID and the machine's disks report about their LUN (from the discovery snapshot, no
    // I/O here): a disk added to the draft is checked against it (identityRisks), and so is Apply.
    void setIdentity(const MapIdentity &identity);
    const MapIdentity &identity() const { return m_identity; }

    QString map() const { return m_map; }
    bool isEditable() const { return m_editable; }
    bool isApplying() const { return m_applying; }
    const PathGroupDraft &draft() const { return m_draft; }
    const MultipathStatus &liveStatus() const { return m_status; }

    // The edits the widgets make (drag and drop, the combo boxes, the cells); tests call them too.
    // False when the draft refuses (the banner says why).
    bool movePath(const QString &device, int group, int row = -1);
    bool movePathToNewGroup(const QString &device);
    bool moveGroup(int from, int to);
    // Adds a disk the map does not have (dropped from the device tree; `device` "8:64" or its name) to a
    // group (groupColumnCount(): a new group). A disk that does not report the map's LUN is not added at
    // once: an asynchronous confirmation naming both LUNs opens (pendingConfirmation()), and the disk is
    // added when it is accepted and the draft is still the one it was asked about. True when added now.
    bool addPath(const QString &device, int group, int row = -1);
    QMessageBox *pendingConfirmation() const; // open while the user is asked, else null
    const Confirmation &pendingAddConfirmation() const { return m_pendingAdd.confirmation; }
    bool setSelector(int group, const QString &selector);
    bool setSelectorArgs(int group, const QStringList &args);
    bool setPathArg(const QString &device, int index, const QString &value);
    bool setInitialGroup(int group);
    void setFeatures(const MultipathFeatures &features);
    void setHwHandler(const QStringList &words);
    // Back to the live table.
    void resetDraft();

    // What the lower half shows: the new table line, its difference from the live one (empty when
    // equal), why Apply is off (empty when the draft is valid), the advice.
    QString previewText() const;
    QString diffText() const;
    QString problemText() const;
    QStringList notes() const;
    QString bannerText() const;
    bool canApply() const;

    int groupColumnCount() const;
    // Tall enough for the group cards whole (a scroll area alone asks for nothing): the panel's splitter
    // gives the editor this height before the chart gets any.
    QSize sizeHint() const override;
    PathGroupModel *groupModel(int group) const;

    // Plans the reload (off the UI thread), then opens a PlanDialog; its answer runs the plan, which the core
    // re-validates (a map changed meanwhile is refused as stale; the draft stays). False when there is nothing
    // valid to apply, no runner, or a plan is already pending.
    bool apply();
    // The reload's PlanDialog while it is open, else null.
    PlanDialog *pendingPlan() const;
    bool isPlanning() const { return m_planning; }

Q_SIGNALS:
    // The confirmation for a disk of another LUN was opened (for tests and the status bar).
    void confirmationOpened(const dmtune::Confirmation &confirmation);
    void planOpened(dmtune::PlanDialog *dialog);
    void applyStarted(const QString &map);
    // The result of this editor's reload (also a stale or refused plan).
    void applyFinished(const dmtune::OperationResult &result);

private:
    void buildUi();
    void onPlanned(const OperationPlan &plan);
    void onRunFinished(const OperationResult &result);
    QString devnumOf(const QString &device) const;
    QStringList addRisks(const QString &devnum, int group, int row) const;
    void addAccepted();
    void refresh();
    void refreshFeatures();
    void refreshGroups();
    void refreshResult();
    void setBanner(const QString &text, bool error);
    void featuresEdited();
    QHash<QString, LivePath> livePaths() const;
    QStringList failedDevices() const;
    PathGroupColumn *columnAt(int index);

    QString m_map;
    PathGroupDraft m_draft;
    MultipathStatus m_status;
    std::optional<MultipathdMapView> m_multipathd;
    QHash<QString, QString> m_names;
    bool m_editable = false;
    bool m_applying = false;
    bool m_rebased = false;
    QString m_banner;
    bool m_bannerError = false;
    bool m_planning = false;
    QPointer<OperationService> m_runner;
    QPointer<PlanDialog> m_planDialog;
    MapIdentity m_identity;
    // The disk being asked about, and what it was asked against: re-checked when the user accepts.
    struct PendingAdd {
        QString map;
        QString devnum;
        int group = -1;
        int row = -1;
        MultipathTable draft;
        QStringList risks;
        Confirmation confirmation;
    } m_pendingAdd;
    QPointer<QObject> m_pendingBox; // the QMessageBox; a QObject pointer keeps QMessageBox out of this header
    bool m_updatingWidgets = false;

    QLabel *m_title = nullptr;
    QLabel *m_bannerLabel = nullptr;
    QWidget *m_featureRow = nullptr;
    QCheckBox *m_queueIfNoPath = nullptr;
    QCheckBox *m_pgInitRetriesOn = nullptr;
    QSpinBox *m_pgInitRetries = nullptr;
    QCheckBox *m_pgInitDelayOn = nullptr;
    QSpinBox *m_pgInitDelay = nullptr;
    QCheckBox *m_retainHwHandler = nullptr;
    QComboBox *m_hwHandler = nullptr;
    QLineEdit *m_hwHandlerArgs = nullptr;
    QSpinBox *m_initialGroup = nullptr;
    QScrollArea *m_groupScroll = nullptr;
    QHBoxLayout *m_groupLayout = nullptr;
    QList<PathGroupColumn *> m_columns; // reused, never deleted while shown: a drag may be running from one
    NewGroupDropZone *m_newGroup = nullptr;
    QLabel *m_unknownPaths = nullptr;
    QWidget *m_resultArea = nullptr;
    QPlainTextEdit *m_preview = nullptr;
    QPlainTextEdit *m_diff = nullptr;
    QLabel *m_problem = nullptr;
    QLabel *m_notes = nullptr;
    QPushButton *m_reset = nullptr;
    QPushButton *m_apply = nullptr;
};

} // namespace dmtune
