#pragma once
// The path-group editor's own widgets (PathGroupEditor makes and owns them): one column per priority group and the
// strip where a dropped path makes a new group; and the small helpers the editor shares with them.
#include <QFont>
#include <QFrame>
#include <QHash>
#include <QString>
#include <QStringList>

class QComboBox;
class QDragEnterEvent;
class QDragLeaveEvent;
class QDropEvent;
class QLabel;
class QLineEdit;
class QPoint;
class QResizeEvent;
class QTableView;
class QToolButton;

namespace dmtune {

class PathGroupEditor;
class PathGroupModel;
struct LivePath;
struct PathGroupSpec;

namespace pathgroupcolumns {

QStringList words(const QString &text);
QFont smaller(QFont font);

} // namespace pathgroupcolumns

// One priority group: title, move buttons, selector, its arguments, and the table of paths.
class PathGroupColumn : public QFrame {
public:
    explicit PathGroupColumn(PathGroupEditor *editor);

    void update(const QString &map, int group, const PathGroupSpec &spec, const QString &title, const QString &subtitle,
        bool active, int groupCount, const QHash<QString, LivePath> &live, const QHash<QString, QString> &names,
        bool editable);

    PathGroupModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void fitView();
    void fitViewHeight();
    void showMenu(const QPoint &pos);

    PathGroupEditor *m_editor;
    int m_group = -1;
    int m_groupCount = 0;
    bool m_updating = false;
    QLabel *m_title = nullptr;
    QLabel *m_subtitle = nullptr;
    QToolButton *m_left = nullptr;
    QToolButton *m_right = nullptr;
    QComboBox *m_selector = nullptr;
    QLabel *m_argsLabel = nullptr;
    QLineEdit *m_selectorArgs = nullptr;
    QLabel *m_description = nullptr;
    QTableView *m_view = nullptr;
    PathGroupModel *m_model = nullptr;
};

// Where a path is dropped to make a group of its own.
class NewGroupDropZone : public QFrame {
public:
    explicit NewGroupDropZone(PathGroupEditor *editor);

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dragLeaveEvent(QDragLeaveEvent *) override;
    void dropEvent(QDropEvent *event) override;

private:
    static QString idleStyle();

    PathGroupEditor *m_editor;
};

} // namespace dmtune
