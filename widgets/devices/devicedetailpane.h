#pragma once
// Everything about the selected device: identity, topology, the multipath map when it is one,
// and every attribute of its request queue with its value and whether it is writable. The queue is read on a job
// (startLatest: the newest read wins, one for a device no longer shown is dropped); the pane says "reading…"
// until it arrives.
#include "core/discovery/devicesnapshot.h"
#include "core/sysfs/sysfsroot.h"
#include "widgets/devices/deviceproperties.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QSplitter;
class QTableView;
class QTableWidget;
class QTimer;

namespace dmtune {

class JobTracker;
class QueueAttributeModel;
struct QueueAttributes;

class DeviceDetailPane : public QWidget {
    Q_OBJECT
public:
    explicit DeviceDetailPane(SysfsRoot sysfs, QWidget *parent = nullptr);

    // Keeps the shown device and re-reads its queue. The queue is also re-read every two seconds
    // while visible: someone may tune it from a shell, and udev says nothing about that.
    void setSnapshot(const DeviceSnapshot &snapshot);
    // A block device, a dm map's device (dm-N) or a partition; empty shows the machine overview.
    void showDevice(const QString &name);
    QString shownDevice() const { return m_device; }
    // What the overview calls the machine (default "This machine"; a remote host's window: its name).
    void setMachineName(const QString &name); // empty: this machine

    const QueueAttributeModel *queueModel() const { return m_queueModel; }
    QString queueSummary() const;
    const QTableWidget *propertiesTable() const { return m_properties; }
    // A read of the shown queue is in flight.
    bool isReadingQueue() const { return m_readingQueue; }

Q_SIGNALS:
    // The shown device's queue attributes arrived (the table and summary show them).
    void queueRead();

private:
    void rebuild();
    void showProperties(const QList<PropertyRow> &rows);
    void showQueue(const QString &device, const QString &partition);
    void showQueueAttributes(const QueueAttributes &queue);
    void fitSplitToProperties();

    SysfsRoot m_sysfs;
    DeviceSnapshot m_snapshot;
    QString m_device;
    QString m_machineName = tr("This machine");

    QLabel *m_title = nullptr;
    QSplitter *m_splitter = nullptr;
    QTableWidget *m_properties = nullptr;
    QWidget *m_queuePanel = nullptr;
    QLabel *m_queueSummary = nullptr;
    QLineEdit *m_queueFilter = nullptr;
    QTableView *m_queueView = nullptr;
    QueueAttributeModel *m_queueModel = nullptr;
    QSortFilterProxyModel *m_queueProxy = nullptr;
    QTimer *m_fitTimer = nullptr;
    QTimer *m_queueRefresh = nullptr;
    QString m_queueDevice; // whose queue the table shows (the disk, for a partition)
    QString m_queuePartition;
    bool m_userSizedSplit = false;
    bool m_readingQueue = false;
    JobTracker *m_jobs = nullptr; // last: joins its reads before the members they report to go
};

} // namespace dmtune
