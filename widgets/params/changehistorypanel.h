#pragma once
// The History dock: every transaction applied in this session, newest first, and Undo for the newest.
#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace dmtune {

class ChangeHistoryModel;
class TuningSession;
struct ApplyResult;

class ChangeHistoryPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChangeHistoryPanel(TuningSession *session, QWidget *parent = nullptr);

    ChangeHistoryModel *model() const { return m_model; }
    QPushButton *undoButton() const { return m_undo; }
    QString messageText() const;

private:
    void updateActions();
    void onFinished(const ApplyResult &result, bool wasUndo);

    TuningSession *m_session;
    ChangeHistoryModel *m_model = nullptr;
    QTableView *m_view = nullptr;
    QPushButton *m_undo = nullptr;
    QLabel *m_message = nullptr;
};

} // namespace dmtune
