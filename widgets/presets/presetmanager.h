#pragma once
// The preset manager: built-in and user presets; new from the selected devices; a JSON editor that
// validates as you type (the loader's error names the rule and field); apply with a preview (as one
// transaction through the window's TuningSession, so markers land on the charts and Undo works);
// verify (the drift only); export to udev / tuned / multipath.conf; and the opt-in "keep applied".
#include "presets/presetmultipath.h"

#include <functional>
#include <memory>
#include "discovery/devicesnapshot.h"
#include "presets/preset.h"
#include "util/result.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTableView;

namespace dmtune {

class PresetKeeper;
class PresetPreviewModel;
class TuningSession;
struct ApplyResult;

class PresetManager : public QWidget {
    Q_OBJECT
public:
    explicit PresetManager(TuningSession *session, QWidget *parent = nullptr);

    // The newest snapshot (preview, verify, keep applied).
    void setSnapshot(const DeviceSnapshot &snapshot);
    // The devices "New from selection" saves.
    void setSelection(const QStringList &devices);
    // Re-reads the built-in and user presets; keeps the current one selected when it is still there.
    void reload();
    // Selects a listed preset by name or file base name; false when absent.
    bool selectPreset(const QString &name);
    // Loads a preset into the editor and preview without storing it (import, tests).
    void showPreset(const Preset &preset);

    // Where the per-map multipath settings are reloaded (on a worker thread, one backend per apply). Default:
    // libdevmapper, as root on the live /sys; none otherwise (then a preset with map settings is refused).
    using DeviceMapperFactory = std::function<std::unique_ptr<DeviceMapper>()>;
    void setDeviceMapperFactory(DeviceMapperFactory factory) { m_dmFactory = std::move(factory); }

    // Actions, also behind the buttons.
    bool applyCurrent(); // false when nothing to write, busy or read-only
    void verifyCurrent(); // the preview shows only the drift
    Result<QString> newFromSelection(const QString &name);
    Result<QString> saveEdited(); // stores the editor's preset in the user dir
    QString exportText(const QString &format) const;

    PresetPreviewModel *previewModel() const { return m_model; }
    QListWidget *presetList() const { return m_list; }
    QPlainTextEdit *editor() const { return m_editor; }
    QString validationText() const;
    QString statusText() const;
    PresetKeeper *keeper() const { return m_keeper; }
    bool hasPreset() const { return m_current.has_value(); }

Q_SIGNALS:
    // Something worth a line in the status bar ("kept applied: sdd appeared, 2 writes").
    void message(const QString &text);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void buildUi();
    void onCurrentRowChanged(int row);
    void onEditorChanged();
    void refreshPreview();
    void refreshExport();
    void onFinished(const ApplyResult &result);
    void applyQueueSettings(int reloadedMaps);
    void onReapply(const QStringList &devices, const QString &reason);
    void importFile();
    void exportToFile();
    void setStatus(const QString &text);
    Result<QString> storeAndSelect(const Preset &preset); // into the user dir, then listed and current

    TuningSession *m_session;
    DeviceSnapshot m_snapshot;
    QStringList m_selection;
    std::optional<Preset> m_current;
    PresetKeeper *m_keeper;
    QString m_pendingReason; // the keep-applied transaction in flight, for the status line
    bool m_ownTransaction = false;
    bool m_reloading = false; // map tables being reloaded before the queue writes
    QList<PresetMapReload> m_reloaded; // tables this apply replaced: put back if the queue writes fail
    DeviceMapperFactory m_dmFactory;
    bool m_previewStale = false;

    QListWidget *m_list = nullptr;
    QLabel *m_about = nullptr;
    QTabWidget *m_tabs = nullptr;
    PresetPreviewModel *m_model = nullptr;
    QTableView *m_table = nullptr;
    QPushButton *m_apply = nullptr;
    QCheckBox *m_driftOnly = nullptr;
    QCheckBox *m_keep = nullptr;
    QPlainTextEdit *m_editor = nullptr;
    QLabel *m_validation = nullptr;
    QComboBox *m_format = nullptr;
    QPlainTextEdit *m_exportView = nullptr;
    QLabel *m_status = nullptr;
};

} // namespace dmtune
