#pragma once
// The fleet as a tree: a row per host with its headline figures (the highest of its devices), under it a row per
// device. Sort through a QSortFilterProxyModel on SortRole (numbers; unknown figures sort first).
#include "core/fleet/fleethosts.h"
#include "core/fleet/fleetsummary.h"

#include <QAbstractItemModel>

#include <optional>

namespace dmtune {

class FleetModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        UtilColumn,
        AwaitColumn,
        MergedColumn,
        QueueColumn,
        ReadsColumn,
        WritesColumn,
        DevicesColumn,
        FailedPathsColumn,
        NoRedundancyColumn,
        StatusColumn,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int DeviceRole = Qt::UserRole + 2; // a device row's kernel name; empty on host rows

    explicit FleetModel(QObject *parent = nullptr);

    void setHosts(const QList<FleetHost> &hosts);
    const QList<FleetHost> &hosts() const { return m_hosts; }
    void setSummary(int host, const FleetHostSummary &summary);
    void setError(int host, const QString &message);
    void setDescription(int host, const QString &description, const QStringList &limits);
    const std::optional<FleetHostSummary> &summary(int host) const { return m_rows[host].summary; }
    bool hasError(int host) const { return !m_rows[host].error.isEmpty(); }

    // The host a row of this model is (or is under): -1 for an invalid index.
    static int hostOf(const QModelIndex &index);
    QModelIndex hostIndex(int host, int column = 0) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct HostRow {
        std::optional<FleetHostSummary> summary;
        QString error; // the newest failure; cleared by the next summary
        QString description;
        QStringList limits;
    };
    QVariant hostData(int host, int column, int role) const;
    QVariant deviceData(const FleetDeviceFigures &device, int column, int role) const;

    QList<FleetHost> m_hosts;
    QList<HostRow> m_rows; // parallel to m_hosts
};

} // namespace dmtune
