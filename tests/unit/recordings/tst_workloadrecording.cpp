// A workload's recording is finalised however the run ends: WorkloadSession with a stand-in for fio (a shell
// script that replays a real status stream) writes to NAME.XXXXXX.part while fio runs, and the recording
// appears whole at NAME (end frame, "fio end" marker or the failure note) when the run is stopped or fails.
#include "core/recordings/recordingreader.h"
#include "core/workloads/workloadsession.h"
#include "tests/common/testpaths.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace dmtune;

class TestWorkloadRecording : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void stoppedRunIsFinalised();
    void failedRunIsFinalised();

private:
    QString script(const QString &body);
    QStringList partFiles() const { return QDir(m_dir.path()).entryList({ QStringLiteral("*.part") }, QDir::Files); }
    QTemporaryDir m_dir;
    int m_scripts = 0;
};

QString TestWorkloadRecording::script(const QString &body)
{
    const QString path = m_dir.filePath(QStringLiteral("fio%1").arg(++m_scripts));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write("#!/bin/sh\n[ \"$1\" = --version ] && { echo fio-3.33; exit 0; }\n");
    file.write(body.toUtf8());
    file.close();
    file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

void TestWorkloadRecording::stoppedRunIsFinalised()
{
    const QString fio
        = script(QStringLiteral("cat '%1'\nsleep 60 &\nwait\n")
                     .arg(DMTUNE_SOURCE_PATH(DMTUNE_FIXTURES "/../../workloads/fixtures/seqread8k-plus.json")));
    WorkloadSession session(nullptr);
    session.setFioProgram(fio);
    session.setGraceMs(300);
    QSignalSpy progress(&session, &WorkloadSession::progress);
    QSignalSpy finished(&session, &WorkloadSession::finished);
    const QString path = m_dir.filePath(QStringLiteral("stopped.dmrec"));
    const Status started = session.start(FioJob {}, QStringLiteral("/dev/null"), path);
    QVERIFY2(started, qPrintable(started.errorMessage()));
    QTRY_VERIFY_WITH_TIMEOUT(progress.count() >= 1, 10000);
    QVERIFY(!QFile::exists(path)); // not yet: the frames go to the temp file
    QCOMPARE(partFiles().size(), 1);
    session.stop();
    QVERIFY(finished.wait(5000));
    const Result<Recording> rec = readRecording(path);
    QVERIFY2(rec, qPrintable(rec.errorMessage()));
    QVERIFY(rec->complete);
    QVERIFY(!rec->fioProgress.isEmpty());
    QCOMPARE(rec->markers.last().text, RecordingWriter::fioEndLabel());
    QCOMPARE(partFiles(), QStringList());
}

void TestWorkloadRecording::failedRunIsFinalised()
{
    WorkloadSession session(nullptr);
    session.setFioProgram(script(QStringLiteral("echo 'fio: no such option' >&2\nexit 1\n")));
    QSignalSpy failed(&session, &WorkloadSession::failed);
    const QString path = m_dir.filePath(QStringLiteral("failed.dmrec"));
    QVERIFY(session.start(FioJob {}, QStringLiteral("/dev/null"), path));
    QVERIFY(failed.wait(5000));
    const Result<Recording> rec = readRecording(path);
    QVERIFY2(rec, qPrintable(rec.errorMessage()));
    QVERIFY(rec->complete);
    QVERIFY(!rec->notes.isEmpty());
    QVERIFY2(rec->notes.last().text.startsWith(QStringLiteral("fio failed")), qPrintable(rec->notes.last().text));
    QCOMPARE(partFiles(), QStringList());
}

QTEST_GUILESS_MAIN(TestWorkloadRecording)
#include "tst_workloadrecording.moc"
