#pragma once
// One multipath map's state as its host reports it while it changes, for a panel that shows that map: the host's own
// reads and device-mapper events where the panel cannot read the host's device-mapper itself (a remote host's, whose
// capture is fetched only now and then). reader() answers info, table and status of the followed map as last
// reported, from any thread; changed() says a newer report is there.
#include <QObject>
#include <QString>

#include <memory>

namespace dmtune {

class DeviceMapper;

class MapStream : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    // The map to follow from now on (the one before is let go); empty: none.
    virtual void follow(const QString &map) = 0;
    virtual QString followed() const = 0;
    // The followed map as last reported (read-only: message() and reload() refuse); null before the first report.
    virtual std::shared_ptr<DeviceMapper> reader() const = 0;

Q_SIGNALS:
    void changed(const QString &map); // a report: an event of the map there, or the once-a-second read
    void failed(const QString &map, const QString &message); // a read there failed (the stream goes on)
};

} // namespace dmtune
