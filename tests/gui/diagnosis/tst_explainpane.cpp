// The Explain pane (widgets/diagnosis/explainpane.h): the diagnosis rules shown for a recording made in the lab VM
// and for the standard machine's map (its configuration, then numbers fed as the main window's sampler feeds
// them), and a finding's experiment link handing on the sweep the Experiment tab then gets.
#include "core/discovery/discovery.h"
#include "core/experiments/sweep.h"
#include "core/recordings/recordingwriter.h"
#include "tests/common/fakesysfs.h"
#include "tests/common/standardmachine.h"
#include "tests/common/testpaths.h"
#include "tests/unit/recordings/syntheticbatches.h"
#include "widgets/diagnosis/explainpane.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

using namespace dmtune;
using namespace Qt::StringLiterals;

namespace {

QStringList codes(const QList<Finding> &findings)
{
    QStringList out;
    for (const Finding &f : findings)
        out << f.code;
    return out;
}

bool waitExplained(ExplainPane &pane)
{
    QSignalSpy spy(&pane, &ExplainPane::explained);
    return spy.wait(10000);
}

} // namespace

class TestExplainPane : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // tst_vm_sweep's recording at the paths' queue_depth 192: seed 002's situation, and its sweep one click away.
    void explainsRecording()
    {
        ExplainPane pane(SysfsRoot(QStringLiteral("/nonexistent")));
        pane.resize(420, 700);
        pane.show();
        pane.explainRecording(DMTUNE_SOURCE_PATH(DMTUNE_DIAGNOSIS_FIXTURES "/lab-qd192-seq-write.dmrec"));
        QVERIFY(waitExplained(pane));
        QCOMPARE(codes(pane.findings()), QStringList { u"map-not-merging"_s });
        QVERIFY2(pane.statusText().contains(u"recorded in lab-qd192-seq-write.dmrec (host klab"_s),
            qPrintable(pane.statusText()));
        QVERIFY(pane.statusText().contains(u"fio's I/O window"_s));
        const QString text = pane.plainText();
        QVERIFY2(text.contains(u"mpatha (dm-0), request-based: 17,122.1 requests/s, 0.0 % merged, areq-sz 4.0 kB"_s)
                || text.contains(u"mpatha (dm-0), request-based: 17122.1 requests/s"_s),
            qPrintable(text));
        QVERIFY(text.contains(u"nr_requests 256 <= 2 path(s) in use x queue_depth 192 = 384"_s));
        QVERIFY(text.contains(u"dmtunectl sweep mpatha --param device/queue_depth=2,8,32,192 --with-paths"_s));

        // The link: the finding's sweep, as a request the Experiment tab's form takes.
        QSignalSpy proposed(&pane, &ExplainPane::experimentProposed);
        auto *browser = pane.findChild<QTextBrowser *>();
        QVERIFY(browser);
        Q_EMIT browser->anchorClicked(QUrl(u"experiment:0"_s));
        QCOMPARE(proposed.size(), 1);
        const auto sweep = proposed.first().first().value<ProposedSweep>();
        QCOMPARE(sweep.attribute, u"device/queue_depth"_s);
        QVERIFY(sweep.withPaths);
        const SweepRequest request = sweepRequestFor(sweep);
        QCOMPARE(request.device, u"mpatha"_s);
        QCOMPARE(request.parameters.size(), 1);
        QCOMPARE(request.parameters.first().values, (QStringList { u"2"_s, u"8"_s, u"32"_s, u"192"_s }));
        QCOMPARE(request.workloads.size(), 1);
        QCOMPARE(request.workloads.first().id, sweep.workload);
        QVERIFY(validateSweepRequest(request));
        // A link that names no finding does nothing.
        Q_EMIT browser->anchorClicked(QUrl(u"experiment:7"_s));
        Q_EMIT browser->anchorClicked(QUrl(u"https://example.org/"_s));
        QCOMPARE(proposed.size(), 1);
    }

    // A file that is no recording: one line, the findings shown before kept.
    void refusesWhatIsNoRecording()
    {
        ExplainPane pane(SysfsRoot(QStringLiteral("/nonexistent")));
        pane.explainRecording(DMTUNE_SOURCE_PATH(DMTUNE_DIAGNOSIS_FIXTURES "/lab-qd2-seq-write.dmrec"));
        QVERIFY(waitExplained(pane));
        QCOMPARE(codes(pane.findings()), QStringList { u"merges-on-map-only"_s });
        pane.explainRecording(QStringLiteral("/proc/version"));
        QVERIFY(waitExplained(pane));
        QCOMPARE(pane.statusText(), u"/proc/version: not a dmtune recording (no DMTREC magic)"_s);
        QCOMPARE(codes(pane.findings()), QStringList { u"merges-on-map-only"_s });
    }

    // A recording is someone else's file: its host and map names are shown as text, never as markup.
    void showsRecordedNamesAsText()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"crafted.dmrec"_s);
        RecordingMeta meta;
        meta.host = u"<a href=\"file:///etc/shadow\">host</a>"_s;
        meta.kernel = u"6.1"_s;
        meta.devices = { u"dm-0"_s, u"sda"_s };
        meta.configuration = QJsonObject { { u"maps"_s,
            QJsonArray { QJsonObject { { u"name"_s, u"<img src=\"/etc/passwd\">"_s }, { u"device"_s, u"dm-0"_s },
                { u"slaves"_s, QJsonArray { u"sda"_s } } } } } };
        {
            auto writer = RecordingWriter::create(path, meta);
            QVERIFY2(writer, qPrintable(writer.errorMessage()));
            test::SyntheticBatches batches;
            const auto step
                = [](const QString &, DiskCounters &c) { c.fields[std::size_t(DiskField::WriteIos)] += 100; };
            for (int i = 0; i < 3; ++i)
                QVERIFY(writer.value()->addBatch(batches.next({ u"dm-0"_s, u"sda"_s }, step)));
            QVERIFY(writer.value()->finish());
        }
        ExplainPane pane(SysfsRoot(QStringLiteral("/nonexistent")));
        pane.explainRecording(path);
        QVERIFY(waitExplained(pane));
        QVERIFY2(pane.plainText().startsWith(u"<img src=\"/etc/passwd\"> (dm-0)"_s), qPrintable(pane.plainText()));
        QVERIFY2(pane.statusText().contains(u"host <a href="_s), qPrintable(pane.statusText()));
        for (QLabel *label : pane.findChildren<QLabel *>()) {
            QVERIFY(!label->text().contains(u"<img"_s) || label->text().contains(u"&lt;img"_s));
            QVERIFY(!label->text().contains(u"<a href"_s) || label->textFormat() == Qt::PlainText);
        }
    }

    // The standard machine's mpatha chosen through one of its paths: its configuration at once, then the numbers
    // of the batches the pane was fed, over the seconds they cover.
    void explainsSelectedMapLive()
    {
        test::FakeSysfs fake;
        test::buildStandardMachine(fake);
        // Seed 002's arithmetic: 4 paths x queue_depth 64 = 256 = the map's nr_requests.
        for (const QString &path : { u"sdak"_s, u"sdu"_s, u"sdm"_s, u"sdac"_s })
            fake.file(u"block/%1/device/queue_depth"_s.arg(path), u"64"_s);
        const SysfsRoot root(fake.root(), QString());
        ExplainPane pane(root);
        pane.setSnapshot(Discovery::scan(root));
        pane.setDevice(u"sdu"_s);
        QCOMPARE(pane.map(), u"mpatha"_s);
        // Hidden (the dock closed), it reads nothing; shown, it explains what is selected then.
        QSignalSpy early(&pane, &ExplainPane::explained);
        QVERIFY(!early.wait(300));
        QVERIFY(pane.isHidden() && !pane.isBusy());
        pane.show();
        QVERIFY(waitExplained(pane));
        QCOMPARE(pane.statusText(), u"configuration only: no numbers sampled yet"_s);
        QVERIFY(pane.plainText().startsWith(u"mpatha (dm-0)"_s));
        const QStringList configurationOnly = codes(pane.findings());

        // 4K writes, none merged, 4,000/s on the map, spread over its paths: 3 intervals of 1 s, then 4 more (the
        // window keeps the last 5 s).
        test::SyntheticBatches batches;
        const QStringList devices { u"dm-0"_s, u"sdak"_s, u"sdu"_s, u"sdm"_s, u"sdac"_s };
        const auto step = [](const QString &name, DiskCounters &c) {
            const quint64 writes = name == u"dm-0"_s ? 4000 : 1000;
            c.fields[std::size_t(DiskField::WriteIos)] += writes;
            c.fields[std::size_t(DiskField::WriteSectors)] += writes * 8;
            c.fields[std::size_t(DiskField::WriteTicks)] += writes / 2;
            c.fields[std::size_t(DiskField::IoTicks)] += 900;
            c.fields[std::size_t(DiskField::TimeInQueue)] += writes / 2;
        };
        for (int i = 0; i < 7; ++i)
            pane.addBatch(batches.next(devices, step));
        pane.explainNow();
        QVERIFY(waitExplained(pane));
        QCOMPARE(pane.statusText(), u"over the last 5.0 s"_s);
        QVERIFY2(pane.plainText().contains(u"4,000.0 requests/s, 0.0 % merged, areq-sz 4.0 kB, await 0.50 ms"_s)
                || pane.plainText().contains(u"4000.0 requests/s, 0.0 % merged, areq-sz 4.0 kB, await 0.50 ms"_s),
            qPrintable(pane.plainText()));
        // The rule that needs numbers speaks only once there are some.
        QVERIFY2(!configurationOnly.contains(u"map-not-merging"_s), qPrintable(configurationOnly.join(u' ')));
        QVERIFY2(codes(pane.findings()).contains(u"map-not-merging"_s), qPrintable(codes(pane.findings()).join(u' ')));
        QVERIFY(pane.plainText().contains(u"Set up this sweep in the Experiment tab"_s));
        // A device that is no map's: nothing to explain, and nothing left from before.
        pane.setDevice(u"vda"_s);
        QVERIFY(pane.map().isEmpty());
        QVERIFY(pane.findings().isEmpty());
        QVERIFY(pane.statusText().startsWith(u"Select a multipath map"_s));
    }
};

QTEST_MAIN(TestExplainPane)
#include "tst_explainpane.moc"
