#include "core/versions/componentversions.h"

#include "core/dm/backend/libdevmapperbackend.h"
#include "core/workloads/fiorun.h"

#include <QJsonValue>
#include <QProcess>
#include <QTimer>

namespace dmtune {

QList<ComponentVersion> localComponentVersions(const SysfsRoot &root)
{
    QList<ComponentVersion> versions;
    versions.append({ QStringLiteral("dmtune"), QStringLiteral("dmtune"), QStringLiteral(DMTUNE_VERSION), {} });
    versions.append({ QStringLiteral("qt"), QStringLiteral("Qt"), QString::fromLatin1(qVersion()),
        QStringLiteral("built with %1").arg(QStringLiteral(QT_VERSION_STR)) });
    versions.append({ QStringLiteral("libudev"), QStringLiteral("libudev"), QStringLiteral(DMTUNE_LIBUDEV_VERSION),
        QStringLiteral("package version at build time") });

    versions.append(
        { QStringLiteral("libdevmapper"), QStringLiteral("libdevmapper"), LibDevmapperBackend::libraryVersion(), {} });
    // The driver is asked only when the kernel has device-mapper (else libdevmapper, as root,
    // would create /dev/mapper/control and complain).
    ComponentVersion driver { QStringLiteral("dm_driver"), QStringLiteral("device-mapper driver"), {}, {} };
    const DmAvailability dm = checkDeviceMapper(root);
    if (dm.available)
        driver.version = LibDevmapperBackend(root).driverVersion();
    if (!dm.available)
        driver.detail = dm.reason;
    else if (driver.version.isEmpty())
        driver.detail = QStringLiteral("the kernel did not tell its version");
    versions.append(driver);

    const Result<QString> release = root.readProc(QStringLiteral("sys/kernel/osrelease"));
    ComponentVersion kernel { QStringLiteral("kernel"), QStringLiteral("Linux kernel"), {}, {} };
    if (release && !release->trimmed().isEmpty())
        kernel.version = release->trimmed();
    else
        kernel.detail
            = root.procRoot().isEmpty() ? QStringLiteral("no /proc for a captured tree") : release.errorMessage();
    versions.append(kernel);
    return versions;
}

ComponentVersion fioComponentVersion(const Result<QString> &printed)
{
    ComponentVersion fio { QStringLiteral("fio"), QStringLiteral("fio"), {}, {} };
    if (!printed) {
        fio.detail = printed.errorMessage();
        return fio;
    }
    const auto parsed = FioRun::parseFioVersion(*printed);
    if (!parsed) {
        fio.detail = parsed.errorMessage();
        return fio;
    }
    const QVersionNumber version = QVersionNumber::fromString(parsed.value());
    fio.version = version.toString();
    if (version.majorVersion() < FioRun::MinimumMajorVersion)
        fio.detail
            = QStringLiteral("too old for workloads: fio %1 or later is needed").arg(FioRun::MinimumMajorVersion);
    return fio;
}

QJsonObject componentVersionsToJson(const QList<ComponentVersion> &versions)
{
    QJsonObject object;
    for (const ComponentVersion &v : versions) {
        QJsonObject entry { { QStringLiteral("version"), v.version.isEmpty() ? QJsonValue() : QJsonValue(v.version) } };
        if (!v.detail.isEmpty())
            entry.insert(QStringLiteral("detail"), v.detail);
        object.insert(v.key, entry);
    }
    return object;
}

QString componentVersionsToText(const QList<ComponentVersion> &versions)
{
    qsizetype width = 0;
    for (const ComponentVersion &v : versions)
        width = qMax(width, v.name.size());
    QString text;
    for (const ComponentVersion &v : versions) {
        text += v.name.leftJustified(width + 2) + (v.version.isEmpty() ? QStringLiteral("unknown") : v.version);
        if (!v.detail.isEmpty())
            text += QStringLiteral("  (%1)").arg(v.detail);
        text += QLatin1Char('\n');
    }
    return text;
}

FioVersionProbe::FioVersionProbe(QObject *parent)
    : QObject(parent)
{
}

void FioVersionProbe::start(int timeoutMs)
{
    const Result<QString> program = FioRun::findFio();
    if (!program)
        return finish(Result<QString>::failure(program.errorMessage()));
    m_process = new QProcess(this);
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    connect(m_process, &QProcess::finished, this, [this](int exitCode, QProcess::ExitStatus status) {
        const QString printed = QString::fromLocal8Bit(m_process->readAll());
        if (status != QProcess::NormalExit || exitCode != 0)
            return finish(
                Result<QString>::failure(QStringLiteral("'fio --version' failed: %1").arg(printed.trimmed().left(80))));
        finish(printed);
    });
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            finish(Result<QString>::failure(m_process->errorString()));
    });
    QTimer::singleShot(timeoutMs, m_process, [this] {
        if (m_process->state() != QProcess::NotRunning) {
            finish(Result<QString>::failure(QStringLiteral("'fio --version' did not answer")));
            m_process->kill();
        }
    });
    m_process->start(*program, { QStringLiteral("--version") });
}

void FioVersionProbe::finish(const Result<QString> &printed)
{
    if (m_done)
        return;
    m_done = true;
    Q_EMIT finished(fioComponentVersion(printed));
}

} // namespace dmtune
