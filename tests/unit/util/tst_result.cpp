// Result and Status: a failure holds no value (reading it stops the program rather than pass on a default) and
// carries its code; a Status is a failure whatever its message; the codes' names are stable and distinct.
#include "core/util/result.h"

#include <QProcess>
#include <QSet>
#include <QTest>

using namespace dmtune;

namespace {

// A type that says whether one was ever made: a failure must not make one.
struct Counted {
    static inline int made = 0;
    Counted() { ++made; }
    explicit Counted(int v)
        : value(v)
    {
        ++made;
    }
    int value = 0;
};

} // namespace

class TestResult : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aValueIsASuccess()
    {
        const Result<QString> r(QStringLiteral("sda"));
        QVERIFY(r);
        QVERIFY(r.hasValue());
        QCOMPARE(r.errorCode(), ErrorCode::None);
        QCOMPARE(*r, QStringLiteral("sda"));
        QVERIFY(r.errorMessage().isEmpty());
    }
    void aFailureHoldsNoValue()
    {
        Counted::made = 0;
        const auto r = Result<Counted>::failure(QStringLiteral("no such map: mpathz"), ErrorCode::NotFound);
        QVERIFY(!r);
        QVERIFY(!r.hasValue());
        QCOMPARE(Counted::made, 0); // nothing default-made to hand out
        QCOMPARE(r.errorCode(), ErrorCode::NotFound);
        QCOMPARE(r.errorMessage(), QStringLiteral("no such map: mpathz"));
        QCOMPARE(r.valueOr(Counted(7)).value, 7);
        // A failure without a code is still one; a "failure" with the success code is made a failure.
        QCOMPARE(Result<int>::failure(QStringLiteral("x")).errorCode(), ErrorCode::Failed);
        QCOMPARE(Result<int>::failure(QStringLiteral("x"), ErrorCode::None).errorCode(), ErrorCode::Failed);
        const Result<int> notYet;
        QVERIFY(!notYet);
        QCOMPARE(notYet.errorCode(), ErrorCode::Failed);
    }
    void aStatusFailsWhateverItsMessage()
    {
        QVERIFY(Status::success());
        QVERIFY(Status());
        const Status empty = Status::failure(QString());
        QVERIFY(!empty); // an empty message is no success
        QCOMPARE(empty.errorCode(), ErrorCode::Failed);
        const Status lost = Status::failure(QStringLiteral("the connection to db1 ended"), ErrorCode::ConnectionLost);
        QVERIFY(!lost);
        QCOMPARE(lost.errorCode(), ErrorCode::ConnectionLost);
        const Status of = Status::failureOf(Result<int>::failure(QStringLiteral("busy"), ErrorCode::Refused));
        QCOMPARE(of.errorCode(), ErrorCode::Refused);
        QCOMPARE(of.errorMessage(), QStringLiteral("busy"));
    }
    void codesHaveStableDistinctNames()
    {
        QSet<QByteArray> names;
        const ErrorCode last = ErrorCode::Ambiguous;
        for (int c = 0; c <= int(last); ++c)
            names.insert(QByteArray(errorCodeName(ErrorCode(c))));
        QCOMPARE(names.size(), int(last) + 1);
        // What the CLI's --json and the agent say: never renamed.
        QCOMPARE(QByteArray(errorCodeName(ErrorCode::NotFound)), QByteArray("not-found"));
        QCOMPARE(QByteArray(errorCodeName(ErrorCode::NeedsPassword)), QByteArray("needs-password"));
        QCOMPARE(QByteArray(errorCodeName(ErrorCode::HostUnreachable)), QByteArray("host-unreachable"));
    }
    // Reading a failure's value is a bug: the program stops with the failure's message (a child of this test
    // reads one), it does not go on with a made-up value.
    void readingAFailuresValueStops()
    {
        QProcess child;
        child.setProgram(QCoreApplication::applicationFilePath());
        child.setArguments({ QStringLiteral("readTheValueOfAFailure") });
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DMTUNE_TEST_READ_A_FAILURE"), QStringLiteral("1"));
        child.setProcessEnvironment(env);
        child.setProcessChannelMode(QProcess::MergedChannels); // Qt Test logs the fatal message on stdout
        child.start();
        QVERIFY(child.waitForFinished(30000));
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);
        const QByteArray said = child.readAll();
        QVERIFY2(said.contains("the value of a failed result was read (its error: no such map)"), said.constData());
    }
    void readTheValueOfAFailure()
    {
        if (qEnvironmentVariableIsEmpty("DMTUNE_TEST_READ_A_FAILURE"))
            QSKIP("the child of readingAFailuresValueStops");
        const auto r = Result<int>::failure(QStringLiteral("no such map"), ErrorCode::NotFound);
        QCOMPARE(r.value(), 0); // never returns
    }
};

QTEST_GUILESS_MAIN(TestResult)
#include "tst_result.moc"
