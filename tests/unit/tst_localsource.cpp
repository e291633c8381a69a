// LocalMetricsSource: this machine's counters as a metrics engine's, on the tests' multipath fixture (mpatha =
// dm-0 over sda..sdd) in a scratch tree read through per-device stat files: the map's name and paths, the
// counters as the stat files say them, the in-flight split where something is in flight, and the rates
// between two frames through the same batchBetween the engines use.
#include "core/metrics/localsource.h"
#include "tests/common/fakesysfs.h"
#include "tests/common/multipathfixture.h"

#include <QDateTime>
#include <QTest>

using namespace dmtune;
using namespace Qt::StringLiterals;

class TestLocalSource : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void mapNamesPathsAndCounters();
};

void TestLocalSource::mapNamesPathsAndCounters()
{
    test::FakeSysfs tree;
    test::buildMultipathFixture(tree);
    const QString sdaStat = tree.devicePath(u"sda"_s) + u"/stat"_s;
    tree.file(sdaStat, u"100 5 800 40 0 0 0 0 0 30 40 0 0 0 0 0 0"_s, false);
    LocalMetricsSource source(SysfsRoot::scratch(tree.root()));
    QVERIFY(source.description().contains(tree.root()));
    QVERIFY(source.limits().isEmpty());

    const auto first = source.fetch();
    QVERIFY2(first, qPrintable(first.errorMessage()));
    QCOMPARE(first->dmNames.value(u"dm-0"_s), test::fixtureMap);
    QStringList paths = first->pathsOf.value(u"dm-0"_s);
    paths.sort();
    QCOMPARE(paths, test::fixturePaths());
    const DiskCounters *sda = first->find(u"sda"_s);
    QVERIFY(sda);
    QCOMPARE((*sda)[DiskField::ReadIos], quint64(100));
    QCOMPARE((*sda)[DiskField::ReadSectors], quint64(800));
    QCOMPARE(first->inflight.value(u"sda"_s), (std::array<quint32, 2> { 0, 0 }));
    for (const bool has : first->hasField)
        QVERIFY(has);

    // Two reads in flight now, 50 more completed.
    tree.file(sdaStat, u"150 5 1200 60 0 0 0 0 2 50 70 0 0 0 0 0 0"_s, false);
    tree.file(tree.devicePath(u"sda"_s) + u"/inflight"_s, u"       2        0"_s, false);
    // A later wall-clock time (the frames are stamped in milliseconds): wait until the clock has moved on.
    QTRY_VERIFY(QDateTime::currentMSecsSinceEpoch() * 1'000'000 > first->timeNs);
    const auto second = source.fetch();
    QVERIFY(second);
    QCOMPARE(second->inflight.value(u"sda"_s), (std::array<quint32, 2> { 2, 0 }));
    const SampleBatch batch = batchBetween(first.value(), second.value(), { u"sda"_s });
    QCOMPARE(batch.devices.size(), 1);
    QVERIFY(batch.elapsedSeconds > 0);
    QCOMPARE(batch.devices.first().deltas[DiskField::ReadIos], quint64(50));
    QCOMPARE(batch.devices.first().metrics(batch.elapsedSeconds)[Metric::ReadAwait], 20.0 / 50.0);
}

QTEST_GUILESS_MAIN(TestLocalSource)
#include "tst_localsource.moc"
