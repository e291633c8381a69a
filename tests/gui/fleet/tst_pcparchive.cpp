// File > Open PCP archive…: the dialog's answers, the archive's span written as a recording in the recordings
// folder (importPcpArchive, on a job in the window), and that recording in the recording view. The archive is
// the real one tst_vm_pcp recorded (tests/unit/fixtures/pcp/lab: fio on mpatha over sda..sdd).
#include "core/recordings/recordingreader.h"
#include "tests/common/testpaths.h"
#include "widgets/charts/chartpanel.h"
#include "widgets/charts/livestatsview.h"
#include "widgets/fleet/pcparchivedialog.h"
#include "widgets/reports/recordingview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSlider>
#include <QTemporaryDir>
#include <QTest>

using namespace dmtune;
using namespace Qt::StringLiterals;

namespace {
const QString Archive = DMTUNE_SOURCE_PATH(DMTUNE_SOURCE_FIXTURES "/pcp/lab");
}

class TestPcpArchive : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void dialogAnswers();
    void archiveBecomesRecording();
    void badArchiveIsOneLine();

private:
    QTemporaryDir m_data;
};

void TestPcpArchive::initTestCase()
{
    QVERIFY(m_data.isValid());
    qputenv("XDG_DATA_HOME", QFile::encodeName(m_data.path())); // the recordings folder: the test's own
    qputenv("TZ", "UTC");
    qputenv("PCP_DERIVED_CONFIG", "");
}

void TestPcpArchive::dialogAnswers()
{
    PcpArchiveDialog dialog;
    dialog.findChild<QLineEdit *>(u"archivePath"_s)->setText(u"  "_s + Archive + u" "_s);
    dialog.findChild<QLineEdit *>(u"archiveStart"_s)->setText(u"+5s"_s);
    QCOMPARE(dialog.archivePath(), Archive);
    QCOMPARE(dialog.window().start, u"+5s"_s);
    QCOMPARE(dialog.window().finish, QString());
    QCOMPARE(dialog.window().interpolateMs, 0); // the archive's own samples unless asked
    dialog.findChild<QCheckBox *>()->setChecked(true);
    dialog.findChild<QDoubleSpinBox *>()->setValue(2.5);
    QCOMPARE(dialog.window().interpolateMs, 2500);
}

void TestPcpArchive::archiveBecomesRecording()
{
    const auto first = importPcpArchive(Archive + u".meta"_s, { u"+5s"_s, {}, 0 });
    QVERIFY2(first, qPrintable(first.errorMessage()));
    QVERIFY2(first->startsWith(m_data.path()), qPrintable(first.value()));
    QVERIFY(first->endsWith(u"pcp-klab-lab.dmrec"_s));
    const auto second = importPcpArchive(Archive, {}); // the same archive again: a new name, not overwritten
    QVERIFY(second);
    QVERIFY(second->endsWith(u"pcp-klab-lab-2.dmrec"_s));

    const auto span = readRecording(first.value());
    const auto whole = readRecording(second.value());
    QVERIFY(span && whole);
    QCOMPARE(whole->batches.size(), 18); // 19 records
    QVERIFY(span->batches.size() < whole->batches.size());
    QVERIFY(span->startSeconds() >= whole->startSeconds() + 5);
    QCOMPARE(whole->deviceNames(), (QStringList { u"sdc"_s, u"sdb"_s, u"sda"_s, u"sdd"_s, u"dm-0"_s }));

    RecordingView view(whole.value());
    view.resize(1280, 720);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const QString summary = view.summaryText();
    QVERIFY2(summary.contains(u"klab"_s), qPrintable(summary));

    // The time slider: the whole span first; a 10 s window moved along the archive's 18 s.
    ChartPanel *panel = view.statsView()->panels().first();
    QVERIFY(!view.timeSlider()->isEnabled());
    QVERIFY(panel->visibleLower() < whole->startSeconds() && panel->visibleUpper() > whole->endSeconds());
    QCOMPARE(view.timeWidthCombo()->count(), 2); // the whole recording, 10 s (1 min is longer than it)
    view.timeWidthCombo()->setCurrentIndex(1);
    QVERIFY(view.timeSlider()->isEnabled());
    QCOMPARE(panel->visibleLower(), whole->startSeconds());
    QCOMPARE(panel->visibleUpper(), whole->startSeconds() + 10);
    view.timeSlider()->setValue(view.timeSlider()->maximum());
    QCOMPARE(panel->visibleUpper(), whole->endSeconds()); // the last position ends where the recording ends
    QCOMPARE(panel->visibleLower(), whole->endSeconds() - 10);
    view.timeSlider()->setValue(3);
    QCOMPARE(panel->visibleLower(), whole->startSeconds() + 3); // a step is a tenth of the window
    // DMTUNE_PCP_SCREENSHOT=FILE.png (under Xvfb): the view over the archive, as docs/fleet.md shows it.
    if (const QString shot = qEnvironmentVariable("DMTUNE_PCP_SCREENSHOT"); !shot.isEmpty()) {
        // The slider's last move queued a replot of every chart: wait for each to have drawn it.
        const QList<ChartPanel *> &panels = view.statsView()->panels();
        QList<int> replots;
        for (const ChartPanel *p : panels)
            replots.append(p->replotCount());
        const auto replotted = [&panels, &replots] {
            for (qsizetype i = 0; i < panels.size(); ++i) {
                if (panels[i]->replotCount() <= replots[i])
                    return false;
            }
            return true;
        };
        QTRY_VERIFY_WITH_TIMEOUT(replotted(), 10000);
        QVERIFY(view.grab().save(shot));
    }
}

void TestPcpArchive::badArchiveIsOneLine()
{
    const auto missing = importPcpArchive(m_data.filePath(u"nosuch"_s), {});
    QVERIFY(!missing);
    QVERIFY2(missing.errorMessage().startsWith(u"pcp archive "_s), qPrintable(missing.errorMessage()));
    QVERIFY(!missing.errorMessage().contains(u'\n'));
    const auto badWindow = importPcpArchive(Archive, { u"not a time"_s, {}, 0 });
    QVERIFY(!badWindow);
    QVERIFY2(badWindow.errorMessage().contains(u"--start/--finish"_s), qPrintable(badWindow.errorMessage()));
}

QTEST_MAIN(TestPcpArchive)
#include "tst_pcparchive.moc"
