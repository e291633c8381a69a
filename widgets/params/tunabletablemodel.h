#pragma once
// The parameter table of one device: a row per Tunable (readTunables), with the user's pending edit
// in "New value". Edits are checked as the planner will check them; invalid ones are refused.
#include "core/params/tunable.h"

#include <QAbstractTableModel>

namespace dmtune {

class TunableTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        AttributeColumn,
        ValueColumn,
        NewValueColumn,
        UnitColumn,
        RangeColumn,
        WritableColumn,
        NoteColumn,
        ColumnCount
    };
    enum Role {
        AttributeRole = Qt::UserRole, // QString: the catalog key ("queue/nomerges")
        TunableRole, // dmtune::Tunable
        PendingRole, // bool: the row has an edit that differs from the current value
        EditableRole, // bool: known, writable, not ignored
    };
    Q_ENUM(Role)

    explicit TunableTableModel(QObject *parent = nullptr);

    // A new device resets the table and drops its edits. The same device (a re-read) updates the
    // values in place and keeps every edit that still differs from the value now in place.
    void setTunables(const QString &device, const QList<Tunable> &tunables);
    QString device() const { return m_device; }
    const QList<Tunable> &tunables() const { return m_rows; }
    int rowOf(const QString &attribute) const;

    // The edit of one attribute; an empty value clears it. false (and editRejected) when the value
    // is not acceptable; a value equal to the current one clears the edit.
    bool setPending(const QString &attribute, const QString &value);
    void clearPending();
    bool hasPending() const;
    // The pending edits as (attribute, value), in table order.
    QList<Assignment> pendingAssignments() const;
    ChangeSet pendingChanges() const { return dmtune::pendingChanges(m_rows); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static bool isEditable(const Tunable &t) { return t.known && t.writable && !t.ignored; }
    // A read-only session (a captured system): the Writable column still says what the system allows, but
    // nothing can be edited here.
    void setReadOnly(bool readOnly) { m_readOnly = readOnly; }
    bool isReadOnly() const { return m_readOnly; }
    // "nomerges" for queue/nomerges; other keys unchanged ("device/queue_depth").
    static QString displayName(const QString &attribute);
    // Catalog description, limits, choice notes and the "ignored by current kernels" note, as rich text.
    static QString toolTipFor(const Tunable &t);

Q_SIGNALS:
    void pendingChanged();
    void editRejected(const QString &attribute, const QString &message);

private:
    bool setPendingAt(int row, const QString &value);
    static bool isPending(const Tunable &t);

    QString m_device;
    QList<Tunable> m_rows;
    bool m_readOnly = false;
};

} // namespace dmtune
