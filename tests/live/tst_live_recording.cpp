// Live (root): a real fio run on a scratch loop device (mq-deadline, batched 4K sequential writes) recorded with
// the core Sampler into a RecordingWriter; a second run after nomerges=2; both reopened and compared (merges in
// the first, none in the second, the nomerges difference in the configuration diff), then reported to HTML and
// PDF with dmtunectl, the PDF's first page rasterised with pdftoppm and checked for ink.
#include "core/discovery/snapshotbuilder.h"
#include "core/recordings/comparison.h"
#include "core/recordings/configdiff.h"
#include "core/recordings/recordingreader.h"
#include "core/stats/sampler.h"
#include "scratchloop.h"
#include "tests/common/mustsucceed.h"
#include "tests/common/testpaths.h"

#include <QDateTime>
#include <QDir>
#include <QImage>
#include <QJsonDocument>
#include <QSysInfo>
#include <QTest>

using namespace dmtune;
using namespace dmtune::live;

class TestLiveRecording : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void recordTwoRuns();
    void reopenAndCompare();
    void reportToHtmlAndPdf();

private:
    QString record(const QString &file, const QString &title);
    static double now() { return double(QDateTime::currentMSecsSinceEpoch()) / 1000.0; }

    ScratchLoop m_loop;
    SysfsRoot m_root;
    QTemporaryDir m_dir;
    QString m_first, m_second;
};

void TestLiveRecording::initTestCase()
{
    const QString reason = ScratchLoop::unavailableReason({ QStringLiteral("losetup"), QStringLiteral("fio") });
    if (!reason.isEmpty())
        QSKIP(qPrintable(reason));
    if (const QString why = m_loop.createWithMqDeadline(m_root, 256LL << 20); !why.isEmpty())
        QSKIP(qPrintable(why));
    // Remember nomerges now, so that release() restores it whatever the test does later.
    QVERIFY(m_loop.setQueue(m_root, QStringLiteral("nomerges"), QStringLiteral("0")));
}

void TestLiveRecording::cleanupTestCase()
{
    m_loop.release();
}

// One recording: 1 s idle, fio for 4 s between "fio start" and "fio end" markers, 1 s idle; fio's JSON result.
QString TestLiveRecording::record(const QString &file, const QString &title)
{
    const QString path = m_dir.filePath(file);
    const DeviceSnapshot snapshot = buildSnapshot(m_root, enumerateBlockDirectory(m_root), nullptr, {});
    RecordingMeta meta;
    meta.title = title;
    meta.host = QSysInfo::machineHostName();
    meta.kernel = QSysInfo::kernelVersion();
    meta.started = QDateTime::currentDateTimeUtc();
    meta.intervalSeconds = 0.5;
    meta.devices = { m_loop.name() };
    meta.configuration = captureConfiguration(m_root, snapshot, meta.devices);
    auto writer = RecordingWriter::create(path, meta);
    if (!writer) {
        qWarning("%s", qPrintable(writer.errorMessage()));
        return {};
    }
    RecordingWriter &w = *writer.value();
    Sampler sampler(m_root);
    sampler.setWatched(meta.devices);
    sampler.setInterval(500);
    QStringList errors;
    int recorded = 0;
    connect(&sampler, &Sampler::samplesAvailable, this, [&](const SampleBatch &batch) {
        ++recorded;
        if (const Status s = w.addBatch(batch); !s)
            errors.append(s.errorMessage());
    });
    sampler.start();
    // 1 s idle: until the sampler has recorded two intervals of 0.5 s before fio starts.
    if (!QTest::qWaitFor([&] { return recorded >= 2; }, 10000)) {
        qWarning("the sampler recorded %d intervals in 10 s", recorded);
        return {};
    }

    QStringList argv = batchedWriteJob(m_loop.devicePath(), 4);
    argv.removeAll(QStringLiteral("--output=/dev/null"));
    argv.append(QStringLiteral("--output-format=json"));
    QProcess fio;
    test::mustSucceed(w.addMarker(now(), RecordingWriter::fioStartLabel()));
    fio.start(QStringLiteral("fio"), argv);
    // Until fio has finished; the sampler keeps ticking meanwhile.
    if (fio.waitForStarted(10000) && !QTest::qWaitFor([&] { return fio.state() == QProcess::NotRunning; }, 40000))
        qWarning("fio still runs after 40 s");
    test::mustSucceed(w.addMarker(now(), RecordingWriter::fioEndLabel()));
    // 1 s idle after fio: until two more intervals are recorded.
    const int atFioEnd = recorded;
    if (!QTest::qWaitFor([&] { return recorded >= atFioEnd + 2; }, 10000))
        qWarning("the sampler recorded %d intervals after fio in 10 s", recorded - atFioEnd);
    sampler.stop();
    const QByteArray out = fio.readAllStandardOutput();
    const QJsonDocument result = QJsonDocument::fromJson(out.mid(out.indexOf('{')));
    if (fio.exitCode() != 0 || !result.isObject())
        qWarning("fio failed: %s", fio.readAllStandardError().constData());
    test::mustSucceed(w.addFioResult(result.object(), QStringList { QStringLiteral("fio") } + argv));
    test::mustSucceed(w.finish());
    if (!errors.isEmpty())
        qWarning("%s", qPrintable(errors.join(QLatin1Char('\n'))));
    return errors.isEmpty() && result.isObject() ? path : QString();
}

void TestLiveRecording::recordTwoRuns()
{
    m_first = record(QStringLiteral("merging.dmrec"), QStringLiteral("mq-deadline, nomerges=0"));
    QVERIFY(!m_first.isEmpty());
    QVERIFY(m_loop.setQueue(m_root, QStringLiteral("nomerges"), QStringLiteral("2")));
    m_second = record(QStringLiteral("nomerges.dmrec"), QStringLiteral("mq-deadline, nomerges=2"));
    QVERIFY(!m_second.isEmpty());
}

void TestLiveRecording::reopenAndCompare()
{
    if (m_first.isEmpty() || m_second.isEmpty())
        QSKIP("no recordings");
    const Result<Recording> a = readRecording(m_first);
    const Result<Recording> b = readRecording(m_second);
    QVERIFY2(a, qPrintable(a.errorMessage()));
    QVERIFY2(b, qPrintable(b.errorMessage()));
    for (const Recording *r : { &a.value(), &b.value() }) {
        QVERIFY(r->complete);
        QVERIFY(!r->truncated);
        QCOMPARE(r->deviceNames(), QStringList { m_loop.name() });
        QVERIFY2(r->batches.size() >= 10, qPrintable(QString::number(r->batches.size())));
        QCOMPARE(r->fioResults.size(), 1);
        QVERIFY(r->alignSeconds() > r->startSeconds());
        qInfo(
            "%s: %lld bytes, %lld device-samples, %.1f bytes per device-sample in sample frames (%.1f with the header)",
            qPrintable(r->displayName()), r->fileBytes, r->deviceSamples, r->sampleBytesPerDeviceSample(),
            r->bytesPerDeviceSample());
        QVERIFY(r->sampleBytesPerDeviceSample() <= 64);
    }
    const Comparison c = compareRecordings({ a.value(), b.value() });
    const ComparisonRow *merges = c.find(m_loop.name(), Metric::WriteMergesPerSec);
    const ComparisonRow *writes = c.find(m_loop.name(), Metric::WritesPerSec);
    QVERIFY(merges && writes);
    QVERIFY(merges->stats[0] && merges->stats[1] && writes->stats[0] && writes->stats[1]);
    qInfo("wrqm/s mean %.0f -> %.0f, w/s mean %.0f -> %.0f", merges->stats[0]->mean, merges->stats[1]->mean,
        writes->stats[0]->mean, writes->stats[1]->mean);
    QVERIFY(merges->stats[0]->mean > 0);
    QCOMPARE(merges->stats[1]->mean, 0.0);
    QVERIFY(writes->stats[0]->mean > 0 && writes->stats[1]->mean > 0);

    const ConfigDiff diff = configurationDiff({ a.value(), b.value() });
    const QString key = m_loop.name() + QStringLiteral(" / tunable queue/nomerges");
    const auto row
        = std::find_if(diff.rows.begin(), diff.rows.end(), [&](const ConfigDiffRow &r) { return r.key == key; });
    QVERIFY2(row != diff.rows.end(),
        qPrintable(diff.rows.isEmpty() ? QStringLiteral("no differences") : diff.rows.first().key));
    QCOMPARE(row->values, QStringList({ QStringLiteral("0"), QStringLiteral("2") }));
}

void TestLiveRecording::reportToHtmlAndPdf()
{
    if (m_first.isEmpty() || m_second.isEmpty())
        QSKIP("no recordings");
    const QString dmtunectl = DMTUNE_BINARY_PATH("/app/dmtunectl/dmtunectl");
    if (!QFileInfo::exists(dmtunectl))
        QSKIP("dmtunectl not built");
    // DMTUNE_KEEP_REPORT=DIR keeps the outputs for a look.
    const QString outDir
        = qEnvironmentVariableIsSet("DMTUNE_KEEP_REPORT") ? qEnvironmentVariable("DMTUNE_KEEP_REPORT") : m_dir.path();
    QDir().mkpath(outDir);
    if (outDir != m_dir.path()) {
        for (const QString &rec : { m_first, m_second })
            QFile::copy(rec, outDir + QLatin1Char('/') + QFileInfo(rec).fileName());
    }
    for (const QString &suffix : { QStringLiteral("html"), QStringLiteral("pdf") }) {
        QProcess cli;
        const QString out = outDir + QStringLiteral("/report.") + suffix;
        cli.start(dmtunectl, { QStringLiteral("report"), m_first, m_second, QStringLiteral("--out"), out });
        QVERIFY(cli.waitForFinished(120000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        QVERIFY(QFileInfo(out).size() > 10000);
    }
    QFile html(outDir + QStringLiteral("/report.html"));
    QVERIFY(html.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(html.readAll());
    QCOMPARE(text.count(QStringLiteral("src=\"data:image/png;base64,")), 7); // one chart per panel, embedded
    QVERIFY(!text.contains(QStringLiteral("src=\"http")) && !text.contains(QStringLiteral("src=\"file")));
    for (const QString &needle : { QStringLiteral("wrqm/s"), QStringLiteral("tunable queue/nomerges"),
             QStringLiteral("--iodepth_batch_submit=16"), QStringLiteral("Metric formulas"), m_loop.name() })
        QVERIFY2(text.contains(needle), qPrintable(needle));

    if (ScratchLoop::unavailableReason({ QStringLiteral("pdftoppm") }).size())
        QSKIP("pdftoppm (poppler-utils) not installed");
    QProcess toPng;
    toPng.start(QStringLiteral("pdftoppm"),
        { QStringLiteral("-png"), QStringLiteral("-r"), QStringLiteral("80"), QStringLiteral("-f"), QStringLiteral("1"),
            QStringLiteral("-l"), QStringLiteral("2"), outDir + QStringLiteral("/report.pdf"),
            outDir + QStringLiteral("/report-page") });
    QVERIFY(toPng.waitForFinished(60000));
    QCOMPARE(toPng.exitCode(), 0);
    const QStringList pages = QDir(outDir).entryList({ QStringLiteral("report-page*.png") }, QDir::Files, QDir::Name);
    QCOMPARE(pages.size(), 2);
    for (const QString &page : pages) {
        const QImage image(outDir + QLatin1Char('/') + page);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() > 500 && image.height() > 700);
        qsizetype ink = 0;
        for (int y = 0; y < image.height(); y += 2) {
            for (int x = 0; x < image.width(); x += 2)
                ink += qGray(image.pixel(x, y)) < 200;
        }
        const double inked = double(ink) / (double(image.width()) * image.height() / 4);
        qInfo("%s: %dx%d, %.1f %% ink", qPrintable(page), image.width(), image.height(), inked * 100);
        QVERIFY2(inked > 0.01, qPrintable(page)); // text, tables and charts, not a blank page
    }
}

QTEST_MAIN(TestLiveRecording)
#include "tst_live_recording.moc"
