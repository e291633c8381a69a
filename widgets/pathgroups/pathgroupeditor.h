#pragma once
// The path-group editor of one multipath map: its priority groups side by side, each with its selector
// and its paths (live state, fail count, the selector's live info, the per-path table arguments); paths
// are dragged between groups or onto "New group"; the features and the hardware handler above. Below, the
// table line the draft makes and its difference from the live one; Apply asks (the map by name, the
// reload's risks, what multipathd may do) and hands the table to MultipathControl::reload. The rules
// are PathGroupDraft's; this widget shows a draft and forwards edits to it.
#include "multipathconfirm.h"
#include "pathgroupdraft.h"
#include "pathgroupmodel.h"

#include "dm/multipathdview.h"
#include "dm/multipathoperation.h"
#include "dm/multipathstatus.h"

#include <QHash>
#include <QPointer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QScrollArea;
class QSpinBox;

namespace dmtune {

class MultipathControl;
class PathGroupColumn;
class NewGroupDropZone;

class PathGroupEditor : public QWidget
{
    Q_OBJECT
public:
    explicit PathGroupEditor(QWidget *parent = nullptr);
    ~PathGroupEditor() override;

    // Apply goes through this control (not owned); without one the editor only shows.
    void setControl(MultipathControl *control);
    // Who asks before Apply (default: askConfirmation).
    void setConfirmer(Confirmer confirmer);

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
    QWidget *groupColumn(int group) const;

    // Asks, then reloads; false when there is nothing valid to apply, no control, or the user said no.
    bool apply();
    const Confirmation &lastConfirmation() const { return m_lastConfirmation; }

Q_SIGNALS:
    void draftChanged();
    void applyStarted(const QString &map);
    // The control's answer to this editor's reload.
    void applyFinished(const dmtune::MultipathOperationResult &result);

private:
    void buildUi();
    void onControlFinished(const MultipathOperationResult &result);
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
    QPointer<MultipathControl> m_control;
    Confirmer m_confirmer;
    Confirmation m_lastConfirmation;
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
