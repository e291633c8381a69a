// The fleet poller's job discipline over fake sources: one job in flight per host, a replaced fleet's answers
// dropped, failures reported per host and retried, a summary once two frames are in.
#include "core/fleet/fleetpoller.h"

#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>

#include <atomic>

using namespace dmtune;
using namespace Qt::StringLiterals;

namespace {

// A host whose vda reads 100 requests a second; fetch() waits for a permit when `gate` is set.
class FakeSource final : public MetricsSource {
public:
    explicit FakeSource(QSemaphore *gate, std::atomic<int> *fetches)
        : m_gate(gate)
        , m_fetches(fetches)
    {
    }
    QString description() const override { return u"fake"_s; }
    QStringList limits() const override { return { u"no paths"_s }; }
    Result<CounterFrame> fetch() override
    {
        ++*m_fetches;
        if (m_gate)
            m_gate->acquire();
        ++m_tick;
        CounterFrame frame;
        frame.timeNs = m_tick * 1'000'000'000LL;
        frame.hasField.fill(true);
        DiskCounters vda;
        vda.name = u"vda"_s;
        vda[DiskField::ReadIos] = quint64(m_tick) * 100;
        vda[DiskField::ReadTicks] = quint64(m_tick) * 50;
        vda[DiskField::IoTicks] = quint64(m_tick) * 250;
        frame.devices.append(vda);
        return frame;
    }

private:
    QSemaphore *m_gate;
    std::atomic<int> *m_fetches;
    qint64 m_tick = 0;
};

FleetHost host(const QString &name)
{
    return { FleetHost::Kind::Pcp, name, {}, {} };
}

} // namespace

class TestFleetPoller : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void summaryAfterTwoFrames()
    {
        std::atomic<int> fetches = 0;
        FleetPoller poller;
        poller.setSourceOpener([&fetches](const FleetHost &) -> Result<std::shared_ptr<MetricsSource>> {
            return std::shared_ptr<MetricsSource>(std::make_shared<FakeSource>(nullptr, &fetches));
        });
        QSignalSpy opened(&poller, &FleetPoller::hostOpened);
        QSignalSpy summaries(&poller, &FleetPoller::summaryReady);
        QSignalSpy frames(&poller, &FleetPoller::framesFetched);
        poller.setHosts({ host(u"a"_s), host(u"b"_s) });
        QTRY_COMPARE(frames.size(), 2);
        QCOMPARE(opened.size(), 2);
        QCOMPARE(poller.description(0), u"fake"_s);
        QCOMPARE(summaries.size(), 0); // one frame is no interval
        poller.pollNow();
        QTRY_COMPARE(summaries.size(), 2);
        const auto summary = summaries[0][1].value<FleetHostSummary>();
        QCOMPARE(summary.devices.size(), 1);
        QCOMPARE(summary.devices[0].readsPerSec, 100.0);
        QCOMPARE(summary.devices[0].awaitMs, 0.5);
        QCOMPARE(summary.maxUtilPercent, 25.0);
    }

    void oneJobInFlightPerHost()
    {
        std::atomic<int> fetches = 0;
        QSemaphore gate;
        {
            FleetPoller poller;
            poller.setSourceOpener([&](const FleetHost &) -> Result<std::shared_ptr<MetricsSource>> {
                return std::shared_ptr<MetricsSource>(std::make_shared<FakeSource>(&gate, &fetches));
            });
            QSignalSpy frames(&poller, &FleetPoller::framesFetched);
            poller.setHosts({ host(u"slow"_s) });
            QTRY_COMPARE(fetches.load(), 1);
            poller.pollNow();
            poller.pollNow();
            QTest::qWait(100); // deliberately time-based: gives a second job time to (not) start
            QCOMPARE(fetches.load(), 1); // the slow host got no second job
            gate.release();
            QTRY_COMPARE(frames.size(), 1);
            poller.pollNow();
            QTRY_COMPARE(fetches.load(), 2);
            gate.release(); // lets the poller's destructor join its job
        }
    }

    void replacedFleetIsDropped()
    {
        std::atomic<int> fetches = 0;
        QSemaphore gate;
        FleetPoller poller;
        poller.setSourceOpener([&](const FleetHost &h) -> Result<std::shared_ptr<MetricsSource>> {
            return std::shared_ptr<MetricsSource>(
                std::make_shared<FakeSource>(h.address == "old"_L1 ? &gate : nullptr, &fetches));
        });
        QSignalSpy frames(&poller, &FleetPoller::framesFetched);
        poller.setHosts({ host(u"old"_s) });
        QTRY_COMPARE(fetches.load(), 1);
        poller.setHosts({ host(u"new"_s) });
        QTRY_COMPARE(frames.size(), 1); // the new host's
        gate.release(); // the old host's answer comes now, for a fleet that is gone
        QTest::qWait(200); // deliberately time-based: gives the dropped answer time to (not) arrive
        QCOMPARE(frames.size(), 1);
        QCOMPARE(poller.hosts(), QList<FleetHost> { host(u"new"_s) });
    }

    void failuresAreRetried()
    {
        int opens = 0;
        FleetPoller poller;
        poller.setSourceOpener([&opens](const FleetHost &) -> Result<std::shared_ptr<MetricsSource>> {
            ++opens;
            return Result<std::shared_ptr<MetricsSource>>::failure(u"Connection refused"_s);
        });
        QSignalSpy failed(&poller, &FleetPoller::hostFailed);
        poller.setHosts({ host(u"down"_s) });
        QTRY_COMPARE(failed.size(), 1);
        QCOMPARE(failed[0][0].toInt(), 0);
        QCOMPARE(failed[0][1].toString(), u"Connection refused"_s);
        poller.pollNow(); // the next interval tries again
        QTRY_COMPARE(failed.size(), 2);
        QCOMPARE(opens, 2);
    }

    void intervalIsClamped()
    {
        FleetPoller poller;
        poller.setIntervalSeconds(0);
        QCOMPARE(poller.intervalSeconds(), 1);
        poller.setIntervalSeconds(1000);
        QCOMPARE(poller.intervalSeconds(), 300);
        poller.setIntervalSeconds(10);
        QCOMPARE(poller.intervalSeconds(), 10);
    }
};

QTEST_GUILESS_MAIN(TestFleetPoller)
#include "tst_fleetpoller.moc"
