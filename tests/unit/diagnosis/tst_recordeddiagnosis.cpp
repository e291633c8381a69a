// Diagnosis over recordings (core/diagnosis/recordeddiagnosis.h, dmtunectl diagnose --recording): recordings made
// in the lab VM (Debian's 6.1, mpatha over 4 scsi_debug paths in 2 groups of 2) read back into the rules' input:
// the configuration their header remembers, the numbers over fio's I/O window, and what the rules then say.
#include "core/diagnosis/recordeddiagnosis.h"
#include "core/recordings/recordingreader.h"
#include "tests/common/testpaths.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace dmtune;
using namespace Qt::StringLiterals;

namespace {

QString fixture(const QString &name)
{
    return DMTUNE_SOURCE_PATH(DMTUNE_FIXTURES "/") + name;
}

QStringList codes(const QList<Finding> &findings)
{
    QStringList out;
    for (const Finding &f : findings)
        out << f.code;
    return out;
}

} // namespace

class TstRecordedDiagnosis : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void recordings_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<qint64>("queueDepth"); // every path's, as the header remembers it
        QTest::addColumn<int>("groupInUse"); // as the header's status said (0: no I/O yet)
        QTest::addColumn<double>("mergedPercent"); // the map's, over fio's I/O window
        QTest::addColumn<double>("requestKb");
        QTest::addColumn<QStringList>("expected");
        // tests/vm/experiments: seed 002's writes (8 jobs of 4K sequential writes) at three queue_depths.
        QTest::newRow("queue_depth 2, merging")
            << u"lab-qd2-seq-write.dmrec"_s << 2LL << 1 << 78.0 << 18.2 << QStringList { u"merges-on-map-only"_s };
        // tst_vm_sweep's recording at the paths' original queue_depth: seed 002's situation, read back from a file.
        QTest::newRow("queue_depth 192, not merging")
            << u"lab-qd192-seq-write.dmrec"_s << 192LL << 1 << 0.0 << 4.0 << QStringList { u"map-not-merging"_s };
        QTest::newRow("queue_depth 32, merging less")
            << u"lab-qd32-seq-write.dmrec"_s << 32LL << 1 << 22.6 << 5.2 << QStringList { u"merges-on-map-only"_s };
        // tests/vm/recordings: the header was read before any I/O, so no group was active yet; the group that
        // carried the I/O is the one in use, and its two paths share it evenly (no unequal-path-load over the
        // idle group's paths). The paths ran mq-deadline.
        QTest::newRow("2x2, no group active in the header")
            << u"lab-2x2-no-active-group.dmrec"_s << 192LL << 0 << 93.8 << 64.0
            << QStringList { u"scheduler-on-paths"_s, u"merges-on-map-only"_s };
    }
    void recordings()
    {
        QFETCH(QString, file);
        QFETCH(qint64, queueDepth);
        QFETCH(int, groupInUse);
        QFETCH(double, mergedPercent);
        QFETCH(double, requestKb);
        QFETCH(QStringList, expected);

        const Result<Recording> recording = readRecording(fixture(file));
        QVERIFY2(recording, qPrintable(recording.errorMessage()));
        const Result<RecordedDiagnosisInput> recorded = recordedDiagnosisInput(*recording, {});
        QVERIFY2(recorded, qPrintable(recorded.errorMessage()));
        QCOMPARE(recorded->window, u"fio's I/O window"_s);
        // fio's runtime=4 (ramp_time left out): the numbers are over the seconds fio measured.
        QCOMPARE(qRound(recorded->input.seconds), 4);
        QCOMPARE(qRound(recorded->to - recorded->from), 4);
        const DiagnosisInput &input = recorded->input;
        QCOMPARE(input.maps.size(), 1);
        const DiagnosedMap &map = input.maps.first();
        QCOMPARE(map.name, u"mpatha"_s);
        QCOMPARE(map.device, u"dm-0"_s);
        QVERIFY(map.requestBased);
        QCOMPARE(map.nrRequests, 256);
        QCOMPARE(map.maxSectorsKb, 512);
        QCOMPARE(map.scheduler, u"mq-deadline"_s);
        QCOMPARE(map.groupInUse, groupInUse);
        QCOMPARE(map.selector, u"round-robin"_s);
        QVERIFY(!map.queueIfNoPath);
        QCOMPARE(map.paths.size(), 4);
        for (const DiagnosedPath &p : map.paths) {
            QCOMPARE(p.queueDepth, queueDepth);
            QVERIFY(p.group == 1 || p.group == 2);
            QCOMPARE(p.dmState, u"A"_s);
            QVERIFY(p.metrics);
        }
        QVERIFY(map.metrics);
        QCOMPARE(qRound(mergePercentOf(*map.metrics) * 10), qRound(mergedPercent * 10));
        QCOMPARE(qRound(requestSizeKbOf(*map.metrics) * 10), qRound(requestKb * 10));
        QVERIFY(!input.cpus); // a recording has no /proc/softirqs: the softirq rule stays quiet
        QCOMPARE(codes(diagnose(input)), expected);
    }

    // The same recording, only the map named; a name it does not hold is one line that names its maps.
    void choosingMaps()
    {
        const Result<Recording> recording = readRecording(fixture(u"lab-qd2-seq-write.dmrec"_s));
        QVERIFY(recording);
        for (const QString &name : { u"mpatha"_s, u"dm-0"_s }) {
            const auto byName = recordedDiagnosisInput(*recording, { name });
            QVERIFY2(byName, qPrintable(byName.errorMessage()));
            QCOMPARE(byName->input.maps.size(), 1);
        }
        const auto unknown = recordedDiagnosisInput(*recording, { u"mpathq"_s });
        QVERIFY(!unknown);
        QCOMPARE(unknown.errorMessage(), u"'mpathq' is not a map of lab-qd2-seq-write.dmrec (its maps: mpatha)"_s);
    }

    // A recording of a plain disk remembers no map: said in one line, with what it did record.
    void recordingWithoutMap()
    {
        const Result<Recording> recording = readRecording(
            DMTUNE_SOURCE_PATH(DMTUNE_FIXTURES "/../../../fuzz/corpus/recordingreader/two-batches.dmrec"));
        QVERIFY2(recording, qPrintable(recording.errorMessage()));
        const auto none = recordedDiagnosisInput(*recording, {});
        QVERIFY(!none);
        QCOMPARE(none.errorMessage(), u"two-batches.dmrec remembers no multipath map (it recorded sda)"_s);
    }

    // The configuration snapshot alone, as a hand-written JSON of the edge cases: a bio-based map (its queue offers
    // no scheduler), queue_if_no_path, a failed path, a path the snapshot has no entry for, a map without groups.
    void configurationEdges()
    {
        const QJsonObject configuration = QJsonDocument::fromJson(R"({
            "devices": [
                {"name": "dm-1", "schedulers": ["none"], "tunables": {"queue/max_sectors_kb": "1280"}},
                {"name": "sdx", "tunables": {"device/queue_depth": "64", "queue/scheduler": "none"}}
            ],
            "maps": [
                {"name": "mpathb", "device": "dm-1", "features": ["queue_if_no_path"], "groups_known": true,
                 "next_group": 2,
                 "groups": [
                    {"index": 1, "state": "E", "selector": "round-robin 0", "paths": [{"name": "sdx", "state": "F"}]},
                    {"index": 2, "state": "E", "selector": "service-time 0", "paths": [{"name": "sdy", "state": "A"}]}
                 ]},
                {"name": "mpathc", "device": "dm-2", "groups_known": false, "slaves": ["sdz"]},
                {"name": "", "device": "dm-3"}
            ]})")
                                              .object();
        const QList<DiagnosedMap> maps = diagnosedMapsFromConfiguration(configuration);
        QCOMPARE(maps.size(), 2);
        const DiagnosedMap &b = maps.at(0);
        QVERIFY(!b.requestBased);
        QVERIFY(b.queueIfNoPath);
        QCOMPARE(b.maxSectorsKb, 1280);
        QCOMPARE(b.nrRequests, -1);
        QCOMPARE(b.groupInUse, 0);
        QCOMPARE(b.selector, u"service-time"_s); // the group dm uses first (next_group)
        QCOMPARE(b.paths.size(), 2);
        QCOMPARE(b.paths.at(0).queueDepth, 64);
        QCOMPARE(b.paths.at(0).dmState, u"F"_s);
        QCOMPARE(b.paths.at(1).queueDepth, -1); // not in the snapshot: unknown, not 0
        QCOMPARE(b.paths.at(1).group, 2);
        const DiagnosedMap &c = maps.at(1);
        QVERIFY(c.requestBased); // its device not in the snapshot: the common case assumed
        QCOMPARE(c.paths.size(), 1);
        QCOMPARE(c.paths.first().group, 0);
    }
};

QTEST_GUILESS_MAIN(TstRecordedDiagnosis)
#include "tst_recordeddiagnosis.moc"
