// The Statistics tab over native NVMe multipath, in a window over the lab VM's capture (6.1, both
// ports optimized, the head's queue/iostats 0): the head is charted beside its two hidden paths, labelled with
// what it counts and each path's controller and ANA state; the note above the charts says why the head reads zero
// and which devices count; on a read-only tree it offers nothing, on a writable one its button puts iostats=1 in
// the Tune tab as a pending edit, which applies like any change, and the note goes once the head counts.
#include "app/dmtune/mainwindow.h"
#include "core/discovery/sysfscapture.h"
#include "core/params/applyresult.h"
#include "core/sysfs/sysfsroot.h"
#include "tests/common/nvmecaptures.h"
#include "widgets/charts/livestatsview.h"
#include "widgets/messagebanner.h"
#include "widgets/params/parametereditor.h"
#include "widgets/params/tunabletablemodel.h"

#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace dmtune;
using namespace Qt::StringLiterals;

namespace {

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll().trimmed() : QByteArray();
}

} // namespace

class TestNvmeCharts : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void headBesideItsPaths()
    {
        QTemporaryDir dir;
        const QString capture = test::unpackNvmeCapture(dir, u"nvme-6.1-native-optimized"_s);
        QVERIFY(!capture.isEmpty());
        const QString iostats = capture + u"/sys/devices/virtual/nvme-subsystem/nvme-subsys0/nvme0n1/queue/iostats"_s;
        QCOMPARE(readFile(iostats), QByteArray("0"));

        MainWindow window(sysfsRootForDirectory(capture));
        QSignalSpy shown(&window, &MainWindow::snapshotShown);
        window.resize(1280, 720);
        window.show();
        window.start();
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, 10000);
        QVERIFY(window.selectDevice(u"nvme0c1n1"_s)); // a path charts with its head, like a dm path with its map
        LiveStatsView *stats = window.statsView();
        QCOMPARE(stats->devices(), (QStringList { u"nvme0n1"_s, u"nvme0c0n1"_s, u"nvme0c1n1"_s }));
        QCOMPARE(stats->deviceColor(u"nvme0n1"_s).isValid(), true);

        // The note says why the head reads zero; a captured tree is read-only: nothing offered.
        MessageBanner *note = stats->noteBanner();
        QVERIFY(!note->isHidden());
        QVERIFY2(note->text().startsWith(u"nvme0n1 counts no I/O (its queue/iostats is 0"_s), qPrintable(note->text()));
        QVERIFY2(note->text().contains(u"its paths nvme0c0n1 nvme0c1n1 do"_s), qPrintable(note->text()));
        QVERIFY(stats->noteActionButton()->isHidden());

        // The capture's kernel is 6.1: iostats=1 would count nothing there (tst_vm_nvme), so it is not offered.
        QVERIFY2(note->text().endsWith(u"this kernel has no statistics for a head (they came with Linux 6.2)"_s),
            qPrintable(note->text()));
    }

    // The same tree as a scratch root this test may write: the offer leads to a pending edit in the Tune tab,
    // which applies like any change.
    void offerAppliesLikeAnyChange()
    {
        QTemporaryDir dir;
        const QString capture = test::unpackNvmeCapture(dir, u"nvme-6.1-native-optimized"_s);
        QVERIFY(!capture.isEmpty());
        const QString iostats = capture + u"/sys/devices/virtual/nvme-subsystem/nvme-subsys0/nvme0n1/queue/iostats"_s;
        // As a kernel with head statistics (6.2+) has it; the head's layout is the same.
        QFile release(capture + u"/proc/sys/kernel/osrelease"_s);
        QVERIFY(release.open(QIODevice::WriteOnly | QIODevice::Truncate) && release.write("6.12.48+deb13-amd64\n") > 0);
        release.close();
        MainWindow window(SysfsRoot::scratch(capture + u"/sys"_s, capture + u"/proc"_s));
        QSignalSpy shown(&window, &MainWindow::snapshotShown);
        window.resize(1280, 720);
        window.show();
        window.start();
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, 10000);
        window.setTreeWritable(true);
        QVERIFY(window.selectDevice(u"nvme0n1"_s));
        LiveStatsView *stats = window.statsView();
        MessageBanner *note = stats->noteBanner();
        QVERIFY(!note->isHidden());
        QVERIFY(!stats->noteActionButton()->isHidden());
        stats->noteActionButton()->click();
        QCOMPARE(window.currentTabName(), u"tune"_s);
        ParameterEditor *editor = window.parameterEditor();
        QTRY_VERIFY_WITH_TIMEOUT(!editor->model()->pendingAssignments().isEmpty(), 10000);
        QCOMPARE(editor->shownDevice(), u"nvme0n1"_s);
        const QList<Assignment> pending = editor->model()->pendingAssignments();
        QCOMPARE(pending.size(), 1);
        QCOMPARE(pending.first().attribute, u"queue/iostats"_s);
        QCOMPARE(pending.first().value, u"1"_s);
        QCOMPARE(readFile(iostats), QByteArray("0")); // offered, not written
        QTRY_VERIFY_WITH_TIMEOUT(!editor->isReading(), 10000);
        QSignalSpy applied(editor, &ParameterEditor::applyFinished);
        QVERIFY(editor->apply());
        QTRY_VERIFY_WITH_TIMEOUT(applied.count() == 1, 10000);
        const auto result = applied.first().first().value<ApplyResult>();
        QVERIFY2(result.ok() && result.anyWritten(), qPrintable(result.errorMessage() + editor->problemText()));
        QTRY_COMPARE_WITH_TIMEOUT(readFile(iostats), QByteArray("1"), 10000);
        // The rescan finds a head that counts: no note, and its label says no more than "head".
        QTRY_VERIFY_WITH_TIMEOUT(note->isHidden(), 10000);
    }
};

QTEST_MAIN(TestNvmeCharts)
#include "tst_nvmecharts.moc"
