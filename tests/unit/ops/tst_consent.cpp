// The consent model (core/ops/consent.h), one table over every risk kind and every answer: a data risk is
// answered only by naming its device or map (on the host the command acts on), never by --force; an
// availability risk by --force; a fault by naming its map with --fault-on; a risk that is not confirmable by
// nothing; a command without a way says it cannot accept the risk. Then the real plans: a write-through on a
// volatile cache (tuning.apply and preset.apply) and a reload that adds a path of another LUN are data risks
// naming the device or the map, --force does not answer them; failing the last active path of a group is an
// availability risk. The JSON form keeps old plans (no "kind") readable, and a command run on another host
// names the host in --destroy-data-on.
#include "core/ops/consent.h"
#include "core/ops/operationregistry.h"
#include "core/ops/presetoperations.h"
#include "core/ops/tuningoperations.h"
#include "core/presets/presetjson.h"
#include "tests/common/fakedevicemapper.h"
#include "tests/common/fakesysfs.h"
#include "tests/common/multipathfixture.h"

#include <QJsonArray>
#include <QTest>

using namespace dmtune;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(dmtune::OperationRisk)
Q_DECLARE_METATYPE(dmtune::ConsentGiven)
Q_DECLARE_METATYPE(dmtune::ConsentWays)

namespace {

ConsentGiven naming(const QStringList &names, const QString &host = {})
{
    ConsentGiven given;
    given.destroyDataOn.append({ host, names });
    return given;
}

ConsentGiven forced()
{
    ConsentGiven given;
    given.force = true;
    return given;
}

OperationPlan planWith(const OperationRisk &risk)
{
    OperationPlan plan;
    plan.kind = u"test"_s;
    plan.id = u"plan-1"_s;
    plan.risks = { risk };
    return plan;
}

} // namespace

class TstConsent : public QObject {
    Q_OBJECT

    std::unique_ptr<FakeDeviceMapper> m_dm;
    std::unique_ptr<test::FakeSysfs> m_tree;
    OperationEnvironment m_env;

    QString attr(const QString &device, const QString &attribute) const
    {
        return m_env.sysfs.readOr(u"block/%1/%2"_s.arg(device, attribute)).trimmed();
    }

private Q_SLOTS:
    void init()
    {
        m_dm = std::make_unique<FakeDeviceMapper>();
        QVERIFY(test::addFixtureMap(*m_dm));
        m_tree = std::make_unique<test::FakeSysfs>();
        test::buildMultipathFixture(*m_tree);
        m_tree->file(m_tree->devicePath(u"sdb"_s) + u"/queue/write_cache"_s, u"write back"_s);
        m_env = OperationEnvironment();
        m_env.sysfs = SysfsRoot::scratch(m_tree->root());
        m_env.dm = m_dm.get();
    }

    void consentFor_data()
    {
        QTest::addColumn<OperationRisk>("risk");
        QTest::addColumn<ConsentGiven>("given");
        QTest::addColumn<ConsentWays>("ways");
        QTest::addColumn<bool>("answered");
        QTest::addColumn<QString>("says"); // in the refusal line

        const OperationRisk data = dataRisk(u"destroy-data:sdb"_s, u"sdb holds ext4"_s, u"sdb"_s);
        const OperationRisk availability = availabilityRisk(u"last-path"_s, u"the last active path"_s);
        const OperationRisk fault = faultRisk(u"fault:mpatha"_s, u"fail every path of mpatha"_s, u"mpatha"_s);
        const OperationRisk refused = refusedRisk(u"in-use:sdb"_s, u"sdb is mounted"_s);
        const ConsentWays all; // --destroy-data-on and --force
        ConsentWays faults;
        faults.faultOption = u"--fault-on"_s;
        const ConsentWays dataOnly { u"--destroy-data-on"_s, QString(), QString() }; // run
        const ConsentWays forceOnly { QString(), u"--force"_s, QString() }; // path, group
        ConsentGiven faultOnMap;
        faultOnMap.faultOn.append({ QString(), { u"dm-0"_s, u"mpatha"_s } });
        ConsentGiven everything = naming({ u"sdb"_s });
        everything.force = true;
        ConsentGiven onHost = naming({ u"sdb"_s }, u"db1"_s);
        onHost.host = u"db1"_s;
        ConsentGiven hostless = naming({ u"sdb"_s });
        hostless.host = u"db1"_s;

        const QString needsName = u"refused without --destroy-data-on sdb; --force does not answer a data risk"_s;
        QTest::newRow("data, nothing") << data << ConsentGiven() << all << false << needsName;
        QTest::newRow("data, --force") << data << forced() << all << false << needsName;
        QTest::newRow("data, its device") << data << naming({ u"sdb"_s }) << all << true << QString();
        QTest::newRow("data, its device by another name")
            << data << naming({ u"8:16"_s, u"sdb"_s }) << all << true << QString();
        QTest::newRow("data, another device") << data << naming({ u"sdc"_s }) << all << false << needsName;
        QTest::newRow("data, its map as a fault") << data << faultOnMap << faults << false << needsName;
        QTest::newRow("data, command without the option")
            << data << naming({ u"sdb"_s }) << forceOnly << false << u"this command cannot accept a data risk"_s;
        QTest::newRow("data, on its host, host named") << data << onHost << all << true << QString();
        QTest::newRow("data, on its host, host not named")
            << data << hostless << all << false << u"--destroy-data-on db1:sdb"_s;
        QTest::newRow("data, host named, acting here")
            << data << naming({ u"sdb"_s }, u"db1"_s) << all << false << needsName;
        QTest::newRow("availability, nothing")
            << availability << ConsentGiven() << all << false << u"the last active path (refused without --force)"_s;
        QTest::newRow("availability, --force") << availability << forced() << all << true << QString();
        QTest::newRow("availability, a device named")
            << availability << naming({ u"sdb"_s }) << all << false << u"refused without --force"_s;
        QTest::newRow("availability, command without --force")
            << availability << forced() << dataOnly << false << u"this command cannot accept it"_s;
        QTest::newRow("fault, nothing") << fault << ConsentGiven() << faults << false
                                        << u"refused without --fault-on mpatha"_s;
        QTest::newRow("fault, --force") << fault << forced() << faults << false
                                        << u"refused without --fault-on mpatha"_s;
        QTest::newRow("fault, its map") << fault << faultOnMap << faults << true << QString();
        QTest::newRow("fault, map named as data")
            << fault << naming({ u"mpatha"_s }) << faults << false << u"refused without --fault-on mpatha"_s;
        QTest::newRow("fault, command without --fault-on")
            << fault << faultOnMap << all << false << u"this command injects no faults"_s;
        QTest::newRow("refused, nothing") << refused << ConsentGiven() << all << false << u"refused whatever"_s;
        QTest::newRow("refused, everything") << refused << everything << all << false << u"refused whatever"_s;
    }
    void consentFor()
    {
        QFETCH(OperationRisk, risk);
        QFETCH(ConsentGiven, given);
        QFETCH(ConsentWays, ways);
        QFETCH(bool, answered);
        QFETCH(QString, says);
        const OperationPlan plan = planWith(risk);
        const auto consent = dmtune::consentFor(plan, given, ways);
        QCOMPARE(consent.ok(), answered);
        if (answered) {
            QCOMPARE(consent->planId, plan.id);
            QCOMPARE(consent->accepted, QStringList { risk.id });
            QVERIFY(answersProblem(plan, consent.value()).isEmpty());
        } else {
            QVERIFY2(consent.errorMessage().startsWith(risk.text), qPrintable(consent.errorMessage()));
            QVERIFY2(consent.errorMessage().contains(says), qPrintable(consent.errorMessage()));
            QCOMPARE(consent.errorMessage().count(u'\n'), 0);
        }
    }

    // Every unanswered risk is in the one line; an answered one is not.
    void unansweredRisksInOneLine()
    {
        OperationPlan plan = planWith(dataRisk(u"d"_s, u"sdb holds ext4"_s, u"sdb"_s));
        plan.risks << availabilityRisk(u"a"_s, u"queueing off"_s) << dataRisk(u"e"_s, u"sdc holds xfs"_s, u"sdc"_s);
        ConsentGiven given = naming({ u"sdb"_s });
        const auto consent = dmtune::consentFor(plan, given, ConsentWays());
        QVERIFY(!consent);
        QCOMPARE(consent.errorMessage(),
            u"queueing off (refused without --force); sdc holds xfs (refused without --destroy-data-on sdc; --force "
            "does not answer a data risk)"_s);
        given.force = true;
        given.destroyDataOn.append({ QString(), { u"sdc"_s } });
        const auto all = dmtune::consentFor(plan, given, ConsentWays());
        QVERIFY2(all, qPrintable(all.errorMessage()));
        QCOMPARE(all->accepted, (QStringList { u"d"_s, u"a"_s, u"e"_s }));
    }

    // tuning.apply and preset.apply: write through on a volatile cache is a data risk of that device.
    void writeThroughIsADataRisk()
    {
        const auto tuning = planOperation(m_env, QString::fromLatin1(TuningApplyKind),
            tuningRequest({ { u"sdb"_s, u"queue/write_cache"_s, u"write through"_s } }, false));
        QVERIFY2(tuning, qPrintable(tuning.errorMessage()));
        const auto preset = parsePreset(R"({"schema": 1, "name": "risky", "rules": [{"match": {"name": "sdb"},
            "settings": {"queue/write_cache": "write through"}}]})");
        QVERIFY2(preset, qPrintable(preset.errorMessage()));
        const auto presetPlan = planOperation(m_env, u"preset.apply"_s, presetRequest(*preset));
        QVERIFY2(presetPlan, qPrintable(presetPlan.errorMessage()));
        for (const OperationPlan &plan : { tuning.value(), presetPlan.value() }) {
            QCOMPARE(plan.risks.size(), 1);
            QCOMPARE(plan.risks.first().kind, RiskKind::Data);
            QCOMPARE(plan.risks.first().confirmDevice, u"sdb"_s);
            const auto byForce = dmtune::consentFor(plan, forced(), ConsentWays());
            QVERIFY2(!byForce && byForce.errorMessage().contains(u"refused without --destroy-data-on sdb"_s),
                qPrintable(byForce.errorMessage()));
        }
        // Named, it runs: the value is written.
        const auto named = dmtune::consentFor(presetPlan.value(), naming({ u"sdb"_s }), ConsentWays());
        QVERIFY2(named, qPrintable(named.errorMessage()));
        const OperationResult applied = runOperation(m_env, presetPlan.value(), named.value());
        QVERIFY2(applied.ok, qPrintable(applied.error));
        QCOMPARE(attr(u"sdb"_s, u"queue/write_cache"_s), u"write through"_s);
    }

    // A reload that puts a path of another LUN into the map: a data risk of the map, not answered by --force.
    void foreignLunReloadIsADataRisk()
    {
        m_tree->scsiDisk(u"sde"_s, u"8:64"_s, u"4:0:0:1"_s, u"LIO-ORG"_s, u"disk1"_s, u"naa.6001405bbbbbbbbb"_s);
        const QString params = m_dm->table(test::fixtureMap)->first().params;
        const auto plan = planOperation(m_env, u"multipath.reload"_s,
            { { u"map"_s, test::fixtureMap }, { u"table"_s, u"0 0 1 1 round-robin 0 2 1 8:0 1 8:64 1"_s } });
        QVERIFY2(plan, qPrintable(plan.errorMessage()));
        const auto foreign = std::find_if(plan->risks.cbegin(), plan->risks.cend(),
            [](const OperationRisk &r) { return r.text.contains(u"not LUN"_s); });
        QVERIFY(foreign != plan->risks.cend());
        QCOMPARE(foreign->kind, RiskKind::Data);
        QCOMPARE(foreign->confirmDevice, test::fixtureMap);
        const auto byForce = dmtune::consentFor(plan.value(), forced(), ConsentWays());
        QVERIFY2(!byForce && byForce.errorMessage().contains(u"refused without --destroy-data-on mpatha"_s),
            qPrintable(byForce.errorMessage()));
        QCOMPARE(m_dm->table(test::fixtureMap)->first().params, params);
        ConsentGiven both = naming({ u"dm-0"_s, test::fixtureMap });
        both.force = true; // the reload's availability risks, if any
        const auto named = dmtune::consentFor(plan.value(), both, ConsentWays());
        QVERIFY2(named, qPrintable(named.errorMessage()));
        QVERIFY(answersProblem(plan.value(), named.value()).isEmpty());
    }

    // Failing the last active path of a group: I/O errors, nothing lost on the device: --force answers it.
    void lastPathIsAnAvailabilityRisk()
    {
        QVERIFY(m_dm->message(test::fixtureMap, u"fail_path 8:0"_s));
        const auto plan = planOperation(
            m_env, u"multipath.fail-path"_s, { { u"map"_s, test::fixtureMap }, { u"path"_s, u"8:16"_s } });
        QVERIFY2(plan, qPrintable(plan.errorMessage()));
        QCOMPARE(plan->risks.size(), 1);
        QCOMPARE(plan->risks.first().kind, RiskKind::Availability);
        QVERIFY(dmtune::consentFor(plan.value(), forced(), ConsentWays()));
        QVERIFY(!dmtune::consentFor(plan.value(), naming({ test::fixtureMap }), ConsentWays()));
    }

    // The JSON form: the kind travels; a plan without one (older dmtune) reads a device to type as a data risk.
    void riskKindInJson_data()
    {
        QTest::addColumn<QJsonObject>("risk");
        QTest::addColumn<bool>("reads");
        QTest::addColumn<int>("kind");
        const auto r = [](const QString &device) {
            QJsonObject o { { u"id"_s, u"r1"_s }, { u"text"_s, u"t"_s }, { u"confirmable"_s, true } };
            if (!device.isEmpty())
                o.insert(u"confirm_device"_s, device);
            return o;
        };
        const auto with = [](QJsonObject o, const QString &kind) {
            o.insert(u"kind"_s, kind);
            return o;
        };
        QTest::newRow("old, device to type") << r(u"sdb"_s) << true << int(RiskKind::Data);
        QTest::newRow("old, a yes") << r({}) << true << int(RiskKind::Availability);
        QTest::newRow("data") << with(r(u"sdb"_s), u"data"_s) << true << int(RiskKind::Data);
        QTest::newRow("availability") << with(r({}), u"availability"_s) << true << int(RiskKind::Availability);
        QTest::newRow("fault") << with(r(u"mpatha"_s), u"fault"_s) << true << int(RiskKind::Fault);
        QTest::newRow("data naming nothing") << with(r({}), u"data"_s) << false << 0;
        QTest::newRow("unknown kind") << with(r(u"sdb"_s), u"maybe"_s) << false << 0;
    }
    void riskKindInJson()
    {
        QFETCH(QJsonObject, risk);
        QFETCH(bool, reads);
        QFETCH(int, kind);
        OperationPlan plan;
        plan.kind = u"test"_s;
        plan.id = planId(plan.kind, plan.request, plan.basis);
        QJsonObject json = planToJson(plan);
        json.insert(u"risks"_s, QJsonArray { risk });
        const auto back = planFromJson(json);
        QCOMPARE(back.ok(), reads);
        if (!reads)
            return;
        QCOMPARE(int(back->risks.first().kind), kind);
        const auto again = planFromJson(planToJson(back.value())); // and round-trips
        QVERIFY(again);
        QCOMPARE(int(again->risks.first().kind), kind);
        QCOMPARE(again->risks.first().confirmDevice, back->risks.first().confirmDevice);
    }

    // dmtunectl --host HOST: --destroy-data-on names HOST too; the far side gets the device alone.
    void hostNamedTooForAnotherHost_data()
    {
        QTest::addColumn<QStringList>("command");
        QTest::addColumn<QStringList>("forwarded"); // empty: refused
        const QStringList sweep { u"sweep"_s, u"sdb"_s, u"--param"_s, u"nomerges=0,2"_s };
        QTest::newRow("no consent") << sweep << sweep;
        QTest::newRow("host named") << sweep + QStringList { u"--destroy-data-on"_s, u"db1:sdb"_s }
                                    << sweep + QStringList { u"--destroy-data-on"_s, u"sdb"_s };
        QTest::newRow("host named, joined") << sweep + QStringList { u"--destroy-data-on=db1:/dev/sdb"_s }
                                            << sweep + QStringList { u"--destroy-data-on"_s, u"/dev/sdb"_s };
        QTest::newRow("host not named") << sweep + QStringList { u"--destroy-data-on"_s, u"sdb"_s } << QStringList();
        QTest::newRow("another host") << sweep + QStringList { u"--destroy-data-on"_s, u"db2:sdb"_s } << QStringList();
        QTest::newRow("no value") << sweep + QStringList { u"--destroy-data-on"_s } << QStringList();
    }
    void hostNamedTooForAnotherHost()
    {
        QFETCH(QStringList, command);
        QFETCH(QStringList, forwarded);
        const auto out = withHostConsent(command, u"db1"_s);
        QCOMPARE(out.ok(), !forwarded.isEmpty());
        if (out)
            QCOMPARE(out.value(), forwarded);
        else
            QVERIFY2(out.errorMessage().contains(u"db1:"_s), qPrintable(out.errorMessage()));
    }
};

QTEST_GUILESS_MAIN(TstConsent)
#include "tst_consent.moc"
