// Core operations: plan -> answers -> run -> result over FakeDeviceMapper. Answers are bound to their
// plan, a risk needs its answer, a plan whose basis changed is refused as stale, JSON round-trips and
// refuses other versions and edited plans.
#include "core/ops/operationregistry.h"
#include "tests/common/fakedevicemapper.h"
#include "tests/common/fakesysfs.h"
#include "tests/common/multipathfixture.h"

#include <QJsonArray>
#include <QTest>

using namespace dmtune;
using namespace Qt::StringLiterals;

namespace {
// tests/common's fixture: 2 groups of 2 paths (sda sdb | sdc sdd), no queueing, so failing both paths of a
// group leaves it without an active path.
const QString mapName = test::fixtureMap;
} // namespace

class TstOperations : public QObject {
    Q_OBJECT

    std::unique_ptr<FakeDeviceMapper> m_dm;
    std::unique_ptr<test::FakeSysfs> m_sysfs;

    OperationEnvironment env() const
    {
        OperationEnvironment e;
        e.sysfs = SysfsRoot(m_sysfs->root(), QString());
        e.dm = m_dm.get();
        return e;
    }
    QString pathStates() const { return multipathBasisOf().value(QLatin1String("paths")).toString(); }
    QJsonObject multipathBasisOf() const
    {
        const auto plan = planOperation(env(), QStringLiteral("multipath.switch-group"),
            { { QStringLiteral("map"), mapName }, { QStringLiteral("group"), 1 } });
        return plan ? plan->basis : QJsonObject();
    }

private Q_SLOTS:
    void init()
    {
        m_dm = std::make_unique<FakeDeviceMapper>();
        QVERIFY(test::addFixtureMap(*m_dm));
        m_sysfs = std::make_unique<test::FakeSysfs>();
        test::buildMultipathFixture(*m_sysfs);
    }

    void kindsAreRegistered()
    {
        registerBuiltinOperations();
        const QStringList kinds = operationKinds();
        for (const char *kind : { "multipath.fail-path", "multipath.reinstate-path", "multipath.switch-group",
                 "multipath.enable-group", "multipath.disable-group", "multipath.queueing", "multipath.reload" })
            QVERIFY2(kinds.contains(QLatin1String(kind)), kind);
    }

    void badRequests_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QJsonObject>("request");
        QTest::addColumn<QString>("error");
        QTest::newRow("unknown kind") << QStringLiteral("multipath.explode") << QJsonObject { { u"map"_s, mapName } }
                                      << QStringLiteral("no operation \"multipath.explode\"");
        QTest::newRow("no map") << QStringLiteral("multipath.fail-path") << QJsonObject { { u"path"_s, u"sdb"_s } }
                                << QStringLiteral("multipath.fail-path needs \"map\"");
        QTest::newRow("no path") << QStringLiteral("multipath.fail-path") << QJsonObject { { u"map"_s, mapName } }
                                 << QStringLiteral("multipath.fail-path needs \"path\"");
        QTest::newRow("foreign path") << QStringLiteral("multipath.fail-path")
                                      << QJsonObject { { u"map"_s, mapName }, { u"path"_s, u"8:64"_s } }
                                      << QStringLiteral("8:64 is not a path of this map");
        QTest::newRow("group 0") << QStringLiteral("multipath.switch-group")
                                 << QJsonObject { { u"map"_s, mapName }, { u"group"_s, 0 } }
                                 << QStringLiteral("needs \"group\": a group number from 1");
        QTest::newRow("group 3 of 2") << QStringLiteral("multipath.switch-group")
                                      << QJsonObject { { u"map"_s, mapName }, { u"group"_s, 3 } }
                                      << QStringLiteral("3");
        QTest::newRow("queueing not bool") << QStringLiteral("multipath.queueing")
                                           << QJsonObject { { u"map"_s, mapName }, { u"queue_if_no_path"_s, u"yes"_s } }
                                           << QStringLiteral("true or false");
        QTest::newRow("no such map") << QStringLiteral("multipath.switch-group")
                                     << QJsonObject { { u"map"_s, u"mpathz"_s }, { u"group"_s, 1 } }
                                     << QStringLiteral("mpathz: no such map");
        QTest::newRow("bad table") << QStringLiteral("multipath.reload")
                                   << QJsonObject { { u"map"_s, mapName }, { u"table"_s, u"0 0 1"_s } }
                                   << QStringLiteral("the new table");
    }
    void badRequests()
    {
        QFETCH(QString, kind);
        QFETCH(QJsonObject, request);
        QFETCH(QString, error);
        const QString before = m_dm->table(mapName)->first().params + m_dm->status(mapName)->first().params;
        const auto plan = planOperation(env(), kind, request);
        QVERIFY(!plan);
        QVERIFY2(plan.errorMessage().contains(error), qPrintable(plan.errorMessage()));
        QCOMPARE(m_dm->table(mapName)->first().params + m_dm->status(mapName)->first().params, before);
        QVERIFY(m_dm->receivedMessages(mapName).isEmpty());
    }

    void planRunResult()
    {
        const auto plan = planOperation(env(), QStringLiteral("multipath.fail-path"),
            { { QStringLiteral("map"), mapName }, { QStringLiteral("path"), QStringLiteral("sdb") } });
        QVERIFY2(plan, qPrintable(plan.errorMessage()));
        QCOMPARE(plan->target, mapName);
        QVERIFY(plan->risks.isEmpty());
        QVERIFY(plan->runnable());
        QVERIFY2(plan->summary.contains(QStringLiteral("fail_path 8:16")), qPrintable(plan->summary));
        QCOMPARE(plan->basis.value(QLatin1String("paths")).toString(), QStringLiteral("8:0=A 8:16=A 8:32=A 8:48=A"));
        QVERIFY(m_dm->receivedMessages(mapName).isEmpty()); // planning changes nothing
        const OperationResult result = runOperation(env(), plan.value(), acceptAll(plan.value()));
        QVERIFY2(result.ok, qPrintable(result.error));
        QCOMPARE(result.planId, plan->id);
        QCOMPARE(m_dm->receivedMessages(mapName), QStringList { QStringLiteral("fail_path 8:16") });
        QCOMPARE(pathStates(), QStringLiteral("8:0=A 8:16=F 8:32=A 8:48=A"));
        QVERIFY2(
            result.changes.join(QLatin1Char(' ')).contains(QStringLiteral("fail_path 8:16 done via device-mapper")),
            qPrintable(result.changes.join(QLatin1Char('\n'))));
    }

    void answersBoundToPlan()
    {
        const QJsonObject request { { QStringLiteral("map"), mapName }, { QStringLiteral("group"), 2 } };
        const auto plan = planOperation(env(), QStringLiteral("multipath.disable-group"), request);
        QVERIFY(plan);
        OperationAnswers answers = acceptAll(plan.value());
        answers.planId = QStringLiteral("0123456789abcdef");
        const OperationResult result = runOperation(env(), plan.value(), answers);
        QVERIFY(!result.ok);
        QVERIFY2(result.error.contains(QStringLiteral("another plan")), qPrintable(result.error));
        QVERIFY(m_dm->receivedMessages(mapName).isEmpty());
    }

    void riskNeedsItsAnswer()
    {
        // the last active path of group 1 after 8:0 failed: leaves the group without one
        QVERIFY(m_dm->message(mapName, QStringLiteral("fail_path 8:0")));
        const auto plan = planOperation(env(), QStringLiteral("multipath.fail-path"),
            { { QStringLiteral("map"), mapName }, { QStringLiteral("path"), QStringLiteral("8:16") } });
        QVERIFY(plan);
        QCOMPARE(plan->risks.size(), 1);
        QVERIFY(plan->risks.first().confirmable);
        OperationAnswers none;
        none.planId = plan->id;
        const OperationResult refused = runOperation(env(), plan.value(), none);
        QVERIFY(!refused.ok);
        QVERIFY2(refused.error.startsWith(QStringLiteral("not confirmed: ")), qPrintable(refused.error));
        QCOMPARE(m_dm->receivedMessages(mapName).size(), 1);
        const OperationResult done = runOperation(env(), plan.value(), acceptAll(plan.value()));
        QVERIFY2(done.ok, qPrintable(done.error));
        QCOMPARE(done.warnings.first(), plan->risks.first().text);
    }

    // The state changes between the plan and its answers: refused as stale, nothing sent.
    void stalePlanRefused()
    {
        const auto plan = planOperation(env(), QStringLiteral("multipath.reload"),
            { { QStringLiteral("map"), mapName },
                { QStringLiteral("table"), QStringLiteral("0 0 1 1 round-robin 0 4 1 8:0 1 8:16 1 8:32 1 8:48 1") } });
        QVERIFY2(plan, qPrintable(plan.errorMessage()));
        QVERIFY(!plan->preview.isEmpty());
        QVERIFY(m_dm->message(mapName, QStringLiteral("fail_path 8:32"))); // behind the plan's back
        const QString tableBefore = m_dm->table(mapName)->first().params;
        const OperationResult result = runOperation(env(), plan.value(), acceptAll(plan.value()));
        QVERIFY(!result.ok);
        QVERIFY(result.stale);
        QVERIFY2(result.error.contains(QStringLiteral("changed since the plan was made")), qPrintable(result.error));
        QVERIFY2(result.error.contains(QStringLiteral("8:32=A")) && result.error.contains(QStringLiteral("8:32=F")),
            qPrintable(result.error));
        QCOMPARE(m_dm->table(mapName)->first().params, tableBefore);
    }

    void dryRunChangesNothing()
    {
        const auto plan = planOperation(env(), QStringLiteral("multipath.queueing"),
            { { QStringLiteral("map"), mapName }, { QStringLiteral("queue_if_no_path"), true } });
        QVERIFY(plan);
        OperationAnswers answers = acceptAll(plan.value());
        answers.dryRun = true;
        const OperationResult result = runOperation(env(), plan.value(), answers);
        QVERIFY2(result.ok, qPrintable(result.error));
        QVERIFY(result.dryRun);
        QVERIFY(m_dm->receivedMessages(mapName).isEmpty());
    }

    // A plan travels as JSON (to a remote agent and back) and runs the same; a plan edited on the
    // way, or of another schema version, is refused.
    void jsonRoundTrip()
    {
        const auto plan = planOperation(env(), QStringLiteral("multipath.switch-group"),
            { { QStringLiteral("map"), mapName }, { QStringLiteral("group"), 2 } });
        QVERIFY(plan);
        const QJsonObject json = planToJson(plan.value());
        QCOMPARE(json.value(QLatin1String("schema")).toString(), QStringLiteral("dmtune.operation.plan"));
        QCOMPARE(json.value(QLatin1String("version")).toInt(), 1);
        const auto back = planFromJson(json);
        QVERIFY2(back, qPrintable(back.errorMessage()));
        QCOMPARE(back->id, plan->id);
        QCOMPARE(back->steps, plan->steps);
        QVERIFY(!back->prepared);
        const auto answers = answersFromJson(answersToJson(acceptAll(back.value())));
        QVERIFY(answers);
        const OperationResult result = runOperation(env(), back.value(), answers.value());
        QVERIFY2(result.ok, qPrintable(result.error));
        const auto resultBack = resultFromJson(resultToJson(result));
        QVERIFY(resultBack);
        QCOMPARE(resultBack->changes, result.changes);
        QCOMPARE(resultBack->planId, plan->id);

        QJsonObject edited = json;
        edited.insert(QStringLiteral("request"), QJsonObject { { u"map"_s, mapName }, { u"group"_s, 1 } });
        const auto editedBack = planFromJson(edited);
        QVERIFY(!editedBack);
        QVERIFY2(editedBack.errorMessage().contains(QStringLiteral("does not match its own content")),
            qPrintable(editedBack.errorMessage()));
        QJsonObject future = json;
        future.insert(QStringLiteral("version"), 2);
        QVERIFY2(planFromJson(future).errorMessage().contains(QStringLiteral("version 2 is not known")),
            qPrintable(planFromJson(future).errorMessage()));
    }
};

QTEST_GUILESS_MAIN(TstOperations)
#include "tst_operations.moc"
