// The Tune tab against the live /sys (root): a loop device the test creates over a temp file.
// nomerges and read_ahead_kb are edited, previewed, applied in-process, read back (the kernel
// rounds read_ahead_kb to whole pages: shown as clamped), then undone. Every queue value the test
// may have changed is put back before the device is detached (loop devices keep their queue
// settings after losetup -d). Skips when not root or losetup is missing.
#include "tests/live/scratchloop.h"

#include "core/params/tuningsession.h"
#include "widgets/params/applyresulttext.h"
#include "widgets/params/changehistorypanel.h"
#include "widgets/params/changepreviewmodel.h"
#include "widgets/params/parametereditor.h"
#include "widgets/params/tunabletablemodel.h"

#include "core/discovery/discovery.h"

#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace dmtune;

namespace {

// Writes back the values it saw at construction, whatever the test did.
class QueueRestorer {
public:
    QueueRestorer(QString device, const QStringList &attributes)
        : m_device(std::move(device))
    {
        for (const QString &a : attributes)
            m_saved.append({ a, m_root.readOr(path(a)) });
    }
    ~QueueRestorer()
    {
        for (const auto &[attribute, value] : m_saved) {
            if (!value.isEmpty() && m_root.readOr(path(attribute)) != value) {
                if (const Status restored = m_root.write(path(attribute), value); !restored)
                    qWarning("%s not put back: %s", qPrintable(path(attribute)), qPrintable(restored.errorMessage()));
            }
        }
    }
    QString value(const QString &attribute) const { return m_root.readOr(path(attribute)); }

private:
    QString path(const QString &attribute) const
    {
        return QStringLiteral("block/%1/queue/%2").arg(m_device, attribute);
    }

    SysfsRoot m_root;
    QString m_device;
    QList<std::pair<QString, QString>> m_saved;
};

} // namespace

class TestLiveParamEditor : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void editApplyUndoOnALoopDevice()
    {
        const QString why = live::ScratchLoop::unavailableReason({ QStringLiteral("losetup") });
        if (!why.isEmpty())
            QSKIP(qPrintable(why));
        live::ScratchLoop loop;
        QVERIFY2(loop.create(64 << 20), qPrintable(loop.error()));
        const QString dev = loop.name();
        QueueRestorer restore(dev, { QStringLiteral("nomerges"), QStringLiteral("read_ahead_kb") });
        const QString nomergesBefore = restore.value(QStringLiteral("nomerges"));
        const QString readAheadBefore = restore.value(QStringLiteral("read_ahead_kb"));
        const QString nomergesWant = nomergesBefore == QLatin1String("2") ? QStringLiteral("1") : QStringLiteral("2");
        const QString readAheadAsk
            = readAheadBefore == QLatin1String("1000") ? QStringLiteral("2001") : QStringLiteral("1001");
        const QString readAheadKept
            = readAheadAsk == QLatin1String("1001") ? QStringLiteral("1000") : QStringLiteral("2000");

        const SysfsRoot sysfs;
        TuningSession session(sysfs); // Auto: root applies in-process
        QVERIFY(!session.applier()->usesHelper());
        QCOMPARE(session.executorText(), QStringLiteral("tuning: in-process (root)"));
        ParameterEditor editor(&session);
        ChangeHistoryPanel history(&session);
        editor.setSnapshot(Discovery::scan(sysfs));
        editor.showDevice(dev);
        QTRY_VERIFY(!editor.isReading()); // read and planned on jobs
        QCOMPARE(editor.shownDevice(), dev);
        QVERIFY(editor.model()->rowOf(QStringLiteral("queue/nomerges")) >= 0);

        QVERIFY(editor.model()->setPending(QStringLiteral("queue/nomerges"), nomergesWant));
        QVERIFY(editor.model()->setPending(QStringLiteral("queue/read_ahead_kb"), readAheadAsk));
        editor.updatePreview();
        QTRY_VERIFY(!editor.isReading()); // read and planned on jobs
        QVERIFY(editor.previewModel()->lines().contains(
            QStringLiteral("%1 nomerges %2 -> %3").arg(dev, nomergesBefore, nomergesWant)));
        QVERIFY(editor.previewModel()->lines().contains(
            QStringLiteral("%1 read_ahead_kb %2 -> %3").arg(dev, readAheadBefore, readAheadAsk)));

        QSignalSpy finished(&editor, &ParameterEditor::applyFinished);
        QVERIFY(editor.apply());
        QVERIFY(finished.wait(10000));
        const auto result = finished.first().first().value<ApplyResult>();
        QVERIFY2(result.ok(), qPrintable(result.errorMessage()));
        QCOMPARE(restore.value(QStringLiteral("nomerges")), nomergesWant);
        QCOMPARE(restore.value(QStringLiteral("read_ahead_kb")), readAheadKept);
        const QString text = editor.resultText();
        QVERIFY2(text.contains(QStringLiteral("asked %1, the kernel kept %2").arg(readAheadAsk, readAheadKept)),
            qPrintable(text));
        QVERIFY(!editor.model()->hasPending());
        QCOMPARE(session.history()->entries().size(), 1);

        const auto undo = session.plan(session.undoChanges());
        QVERIFY2(undo, qPrintable(undo.errorMessage()));
        QVERIFY(session.runUndo(undo.value(), acceptAll(undo.value())));
        QTRY_COMPARE_WITH_TIMEOUT(session.history()->entries().size(), 0, 10000);
        QCOMPARE(restore.value(QStringLiteral("nomerges")), nomergesBefore);
        QCOMPARE(restore.value(QStringLiteral("read_ahead_kb")), readAheadBefore);
    }
};

QTEST_MAIN(TestLiveParamEditor)
#include "tst_live_parameditor.moc"
