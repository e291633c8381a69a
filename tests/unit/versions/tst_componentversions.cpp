// Component versions: fio's answer parsed (real `fio --version` lines of Debian's fio packages),
// the local versions over temp sysfs/proc trees, the JSON and text forms, and the asynchronous
// probe against the real fio.
#include "core/versions/componentversions.h"

#include <QDir>
#include <QJsonArray>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace dmtune;

namespace {

bool writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(content) == content.size();
}

const ComponentVersion *find(const QList<ComponentVersion> &versions, const QString &key)
{
    for (const ComponentVersion &v : versions) {
        if (v.key == key)
            return &v;
    }
    return nullptr;
}

} // namespace

class TestComponentVersions : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fioVersion_data();
    void fioVersion();
    void localVersionsWithoutDeviceMapper();
    void capturedTreeHasNoKernel();
    void jsonAndText();
    void probeRunsRealFio();
};

void TestComponentVersions::fioVersion_data()
{
    QTest::addColumn<bool>("ran");
    QTest::addColumn<QString>("printed");
    QTest::addColumn<QString>("version");
    QTest::addColumn<QString>("detailContains");
    // Debian 12's fio 3.33 and Debian 11's 3.25 print exactly this.
    QTest::newRow("fio 3.33") << true << QStringLiteral("fio-3.33\n") << QStringLiteral("3.33") << QString();
    QTest::newRow("fio 3.25") << true << QStringLiteral("fio-3.25\n") << QStringLiteral("3.25") << QString();
    QTest::newRow("git build") << true << QStringLiteral("fio-3.36-12-g1234abcd\n") << QStringLiteral("3.36")
                               << QString();
    QTest::newRow("too old") << true << QStringLiteral("fio-2.2.10\n") << QStringLiteral("2.2.10")
                             << QStringLiteral("too old");
    QTest::newRow("not fio") << true << QStringLiteral("Usage: foo\n") << QString() << QStringLiteral("not fio-X.Y");
    QTest::newRow("not installed") << false << QStringLiteral("fio is not installed (Debian: apt install fio)")
                                   << QString() << QStringLiteral("apt install fio");
}

void TestComponentVersions::fioVersion()
{
    QFETCH(bool, ran);
    QFETCH(QString, printed);
    QFETCH(QString, version);
    QFETCH(QString, detailContains);
    const ComponentVersion fio
        = fioComponentVersion(ran ? Result<QString>(printed) : Result<QString>::failure(printed));
    QCOMPARE(fio.key, QStringLiteral("fio"));
    QCOMPARE(fio.version, version);
    if (detailContains.isEmpty())
        QVERIFY2(fio.detail.isEmpty(), qPrintable(fio.detail));
    else
        QVERIFY2(fio.detail.contains(detailContains), qPrintable(fio.detail));
}

void TestComponentVersions::localVersionsWithoutDeviceMapper()
{
    // This machine's kernel as it is: no dm_mod, no device-mapper in /proc/misc.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString sys = dir.filePath(QStringLiteral("sys")), proc = dir.filePath(QStringLiteral("proc"));
    QVERIFY(QDir().mkpath(sys + QStringLiteral("/module/loop")));
    QVERIFY(writeFile(proc + QStringLiteral("/misc"), "237 loop-control\n229 fuse\n"));
    QVERIFY(writeFile(proc + QStringLiteral("/sys/kernel/osrelease"), "6.1.0-27-amd64\n"));

    const QList<ComponentVersion> versions = localComponentVersions(SysfsRoot(sys, proc));
    QStringList keys;
    for (const ComponentVersion &v : versions)
        keys << v.key;
    QCOMPARE(keys,
        (QStringList { QStringLiteral("dmtune"), QStringLiteral("qt"), QStringLiteral("libudev"),
            QStringLiteral("libdevmapper"), QStringLiteral("dm_driver"), QStringLiteral("kernel") }));
    QCOMPARE(find(versions, QStringLiteral("dmtune"))->version, QStringLiteral(DMTUNE_VERSION));
    QCOMPARE(find(versions, QStringLiteral("qt"))->version, QString::fromLatin1(qVersion()));
    QCOMPARE(find(versions, QStringLiteral("qt"))->detail, QStringLiteral("built with " QT_VERSION_STR));
    // Debian 12: systemd's libudev 252, LVM's libdevmapper 1.02.185.
    QVERIFY(QRegularExpression(QStringLiteral("^[0-9]{3}"))
                .match(find(versions, QStringLiteral("libudev"))->version)
                .hasMatch());
    QVERIFY(QRegularExpression(QStringLiteral("^1\\.02\\.[0-9]+"))
                .match(find(versions, QStringLiteral("libdevmapper"))->version)
                .hasMatch());
    const ComponentVersion *driver = find(versions, QStringLiteral("dm_driver"));
    QVERIFY(driver->version.isEmpty());
    QVERIFY2(driver->detail.contains(QStringLiteral("no device-mapper")), qPrintable(driver->detail));
    QCOMPARE(find(versions, QStringLiteral("kernel"))->version, QStringLiteral("6.1.0-27-amd64"));
}

void TestComponentVersions::capturedTreeHasNoKernel()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QList<ComponentVersion> versions = localComponentVersions(SysfsRoot(dir.path(), QString()));
    const ComponentVersion *kernel = find(versions, QStringLiteral("kernel"));
    QVERIFY(kernel->version.isEmpty());
    QVERIFY2(kernel->detail.contains(QStringLiteral("captured")), qPrintable(kernel->detail));
}

void TestComponentVersions::jsonAndText()
{
    const QList<ComponentVersion> versions {
        { QStringLiteral("qt"), QStringLiteral("Qt"), QStringLiteral("6.4.2"), QStringLiteral("built with 6.4.2") },
        { QStringLiteral("dm_driver"), QStringLiteral("device-mapper driver"), QString(), QStringLiteral("no dm_mod") },
    };
    const QJsonObject json = componentVersionsToJson(versions);
    QCOMPARE(json.value(QStringLiteral("qt")).toObject().value(QStringLiteral("version")).toString(),
        QStringLiteral("6.4.2"));
    QVERIFY(json.value(QStringLiteral("dm_driver")).toObject().value(QStringLiteral("version")).isNull());
    QCOMPARE(json.value(QStringLiteral("dm_driver")).toObject().value(QStringLiteral("detail")).toString(),
        QStringLiteral("no dm_mod"));
    QCOMPARE(componentVersionsToText(versions),
        QStringLiteral("Qt                    6.4.2  (built with 6.4.2)\n"
                       "device-mapper driver  unknown  (no dm_mod)\n"));
}

void TestComponentVersions::probeRunsRealFio()
{
    const QString fio = QStandardPaths::findExecutable(QStringLiteral("fio"));
    if (fio.isEmpty())
        QSKIP("fio is not installed");
    QProcess direct;
    direct.start(fio, { QStringLiteral("--version") });
    QVERIFY(direct.waitForFinished(10000));
    const QString expected = QString::fromLatin1(direct.readAll()).trimmed().mid(4); // "fio-3.33" -> "3.33"

    FioVersionProbe probe;
    QSignalSpy finished(&probe, &FioVersionProbe::finished);
    probe.start();
    QCOMPARE(finished.count(), 0); // asynchronous: nothing before the event loop runs
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.first().first().value<ComponentVersion>().version, expected);
}

QTEST_GUILESS_MAIN(TestComponentVersions)
#include "tst_componentversions.moc"
