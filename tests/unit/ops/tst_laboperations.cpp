// lab.create and lab.remove refusals (no privilege, no device touched): no LabDevices in the environment, a
// captured tree, sizes and base directories the plan refuses, and removal of a device that is not one of this
// process's lab devices. What needs root and loop devices (the run, the stale basis, a device in use) is in
// tests/live/workloads/tst_live_labops.cpp.
#include "core/ops/laboperations.h"
#include "core/workloads/labdevices.h"

#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QTest>

#include <unistd.h>

using namespace dmtune;
using namespace Qt::StringLiterals;

namespace {

bool anyContains(const QStringList &lines, const QString &part)
{
    return std::any_of(lines.cbegin(), lines.cend(), [&part](const QString &l) { return l.contains(part); });
}

} // namespace

class TstLabOperations : public QObject {
    Q_OBJECT

    LabDevices m_labs; // never asked to create: these plans are all refused

    OperationEnvironment env(LabDevices *labs) const
    {
        OperationEnvironment e;
        e.labs = labs;
        return e;
    }

private Q_SLOTS:
    void kindsAreRegistered()
    {
        registerBuiltinOperations();
        QVERIFY(operationKinds().contains(QLatin1String(LabCreateKind)));
        QVERIFY(operationKinds().contains(QLatin1String(LabRemoveKind)));
    }

    void withoutLabDevicesBothRefuse()
    {
        for (const auto &[kind, request] :
            { std::pair { QString::fromLatin1(LabCreateKind), labCreateRequest(1 << 30) },
                std::pair { QString::fromLatin1(LabRemoveKind), labRemoveRequest(u"loop0"_s) } }) {
            const auto plan = planOperation(env(nullptr), kind, request);
            QVERIFY2(plan, qPrintable(plan.errorMessage()));
            QVERIFY(!plan->runnable());
            QVERIFY2(plan->refusals.value(0).startsWith(u"no lab devices here"_s), qPrintable(plan->refusals.value(0)));
            const OperationResult run = runOperation(env(nullptr), plan.value(), acceptAll(plan.value()));
            QVERIFY(!run.ok);
            QCOMPARE(run.error, plan->refusals.first());
        }
    }

    void aCapturedTreeRefuses()
    {
        QTemporaryDir captured;
        OperationEnvironment e = env(&m_labs);
        e.sysfs = SysfsRoot(captured.path(), QString());
        const auto create = planOperation(e, QString::fromLatin1(LabCreateKind), labCreateRequest(1 << 30));
        QVERIFY(create && anyContains(create->refusals, u"is not this machine's live /sys"_s));
        const auto remove = planOperation(e, QString::fromLatin1(LabRemoveKind), labRemoveRequest(u"loop0"_s));
        QVERIFY(remove && anyContains(remove->refusals, u"is not this machine's live /sys"_s));
    }

    void badSizesAreRefused_data()
    {
        QTest::addColumn<QJsonValue>("bytes");
        QTest::addColumn<QString>("refusal");
        QTest::newRow("zero") << QJsonValue(0) << u"at least 1 MiB (0 bytes asked)"_s;
        QTest::newRow("below 1 MiB") << QJsonValue(1048575) << u"at least 1 MiB (1048575 bytes asked)"_s;
        QTest::newRow("negative") << QJsonValue(-4096) << u"\"bytes\" must be a whole number of bytes"_s;
        QTest::newRow("fraction") << QJsonValue(1048576.5) << u"\"bytes\" must be a whole number of bytes"_s;
        QTest::newRow("text") << QJsonValue(u"1G"_s) << u"\"bytes\" must be a whole number of bytes"_s;
        QTest::newRow("not whole sectors") << QJsonValue(1048577) << u"whole 512-byte sectors (1048577 bytes"_s;
        QTest::newRow("above 16 TiB") << QJsonValue(double(qint64(32) << 40)) << u"at most 16 TiB"_s;
    }

    void badSizesAreRefused()
    {
        QFETCH(QJsonValue, bytes);
        QFETCH(QString, refusal);
        const QJsonObject request { { u"bytes"_s, bytes } };
        const auto plan = planOperation(env(&m_labs), QString::fromLatin1(LabCreateKind), request);
        QVERIFY2(plan, qPrintable(plan.errorMessage()));
        QVERIFY2(anyContains(plan->refusals, refusal), qPrintable(plan->refusals.join(u" | ")));
        QVERIFY(!plan->runnable());
        const OperationResult run = runOperation(env(&m_labs), plan.value(), acceptAll(plan.value()));
        QVERIFY(!run.ok);
        QVERIFY(m_labs.list().isEmpty());
    }

    void unusableBaseDirectoriesAreRefused_data()
    {
        QTest::addColumn<QString>("baseDir");
        QTest::addColumn<QString>("refusal");
        QTest::newRow("relative") << u"var/tmp"_s << u"must be an absolute path, not \"var/tmp\""_s;
        QTest::newRow("missing") << u"/nonexistent-dmtune-base"_s
                                 << u"cannot use /nonexistent-dmtune-base: No such file or directory"_s;
        QTest::newRow("a file") << u"FILE"_s << u"is not a directory"_s;
    }

    void unusableBaseDirectoriesAreRefused()
    {
        QFETCH(QString, baseDir);
        QFETCH(QString, refusal);
        QTemporaryFile file;
        QVERIFY(file.open());
        if (baseDir == QLatin1String("FILE"))
            baseDir = file.fileName();
        const auto plan = planOperation(
            env(&m_labs), QString::fromLatin1(LabCreateKind), labCreateRequest(qint64(64) << 20, baseDir));
        QVERIFY2(plan, qPrintable(plan.errorMessage()));
        QVERIFY2(anyContains(plan->refusals, refusal), qPrintable(plan->refusals.join(u" | ")));
        QVERIFY(!plan->basis.contains(u"base_dir_id"_s));
    }

    // What the plan says before anything is made: the steps, the preview, the base directory's identity.
    void thePlanSaysWhatItWillDo()
    {
        QTemporaryDir base;
        const auto plan = planOperation(
            env(&m_labs), QString::fromLatin1(LabCreateKind), labCreateRequest(qint64(64) << 20, base.path()));
        QVERIFY(plan);
        QCOMPARE(plan->target, base.path());
        QVERIFY(plan->summary.contains(u"64 MiB"_s));
        QVERIFY(anyContains(plan->steps, u"direct I/O"_s));
        QVERIFY(anyContains(plan->steps, u"mq-deadline"_s));
        QVERIFY(plan->preview.contains(u"losetup --find --show --direct-io=on "_s + base.path()));
        QVERIFY(plan->basis.value(u"base_dir_id"_s).toString().contains(u':'));
        if (::geteuid() != 0)
            QVERIFY(anyContains(plan->refusals, u"needs root"_s));
        // The same request on the same state: the same plan id.
        const auto again = planOperation(
            env(&m_labs), QString::fromLatin1(LabCreateKind), labCreateRequest(qint64(64) << 20, base.path()));
        QCOMPARE(again->id, plan->id);
    }

    // Only this process's own lab devices: nothing about another device is read, let alone written.
    void removeRefusesADeviceThatIsNotOurs_data()
    {
        QTest::addColumn<QString>("device");
        QTest::addColumn<QString>("name");
        QTest::newRow("vda") << u"vda"_s << u"vda"_s;
        QTest::newRow("/dev/vda") << u"/dev/vda"_s << u"vda"_s;
        QTest::newRow("a loop device") << u"loop0"_s << u"loop0"_s;
        QTest::newRow("a path") << u"../vda"_s << u"../vda"_s;
    }

    void removeRefusesADeviceThatIsNotOurs()
    {
        QFETCH(QString, device);
        QFETCH(QString, name);
        const auto plan = planOperation(env(&m_labs), QString::fromLatin1(LabRemoveKind), labRemoveRequest(device));
        QVERIFY2(plan, qPrintable(plan.errorMessage()));
        QCOMPARE(plan->refusals,
            QStringList { name
                + u" is not a lab device of this dmtune: only the loop devices it made itself are "
                  "removed here"_s });
        QVERIFY(plan->basis.isEmpty());
        QCOMPARE(plan->target, name);
        const OperationResult run = runOperation(env(&m_labs), plan.value(), acceptAll(plan.value()));
        QVERIFY(!run.ok);
        QCOMPARE(run.error, plan->refusals.first());
    }

    void removeNeedsADevice()
    {
        const auto plan = planOperation(env(&m_labs), QString::fromLatin1(LabRemoveKind), QJsonObject());
        QVERIFY(!plan);
        QCOMPARE(plan.errorMessage(), u"lab.remove needs \"device\""_s);
    }
};

QTEST_GUILESS_MAIN(TstLabOperations)
#include "tst_laboperations.moc"
