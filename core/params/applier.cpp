#include "applier.h"

#include "params/helperprotocol.h"
#include "params/transaction.h"

#include <QJsonDocument>
#include <QMetaObject>

#include <unistd.h>

#ifndef DMTUNE_HELPER_PATH
#define DMTUNE_HELPER_PATH "/usr/libexec/dmtune/dmtune-helper"
#endif

namespace dmtune {

namespace {
ApplyResult helperFailure(const QString &message, bool dryRun)
{
    ApplyResult r;
    r.executor = QStringLiteral("helper");
    r.dryRun = dryRun;
    r.errors << ApplyError { ApplyError::Stage::Helper, {}, {}, {}, message };
    return r;
}
} // namespace

Applier::Applier(SysfsRoot sysfs, QObject *parent)
    : QObject(parent)
    , m_sysfs(std::move(sysfs))
    , m_helperProgram(QStringLiteral("pkexec"))
    , m_helperArguments { defaultHelperPath() }
{
    qRegisterMetaType<dmtune::ApplyResult>();
    m_pool.setMaxThreadCount(1);
    qRegisterMetaType<dmtune::ChangeSet>();
}

Applier::~Applier()
{
    m_pool.waitForDone();
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(1000);
    }
}

QString Applier::defaultHelperPath()
{
    return QStringLiteral(DMTUNE_HELPER_PATH);
}

bool Applier::usesHelper() const
{
    switch (m_mode) {
    case Mode::InProcess:
        return false;
    case Mode::Helper:
        return true;
    case Mode::Auto:
        return m_sysfs.isLive() && ::geteuid() != 0;
    }
    return false;
}

void Applier::setHelperCommand(const QString &program, const QStringList &arguments)
{
    m_helperProgram = program;
    m_helperArguments = arguments;
}

bool Applier::apply(const ChangeSet &changes, bool dryRun)
{
    if (m_busy)
        return false;
    m_busy = true;
    m_dryRun = dryRun;
    if (usesHelper())
        startHelper(changes, dryRun);
    else
        // Queued, so finished() never arrives inside apply() (the caller may not be ready for it).
        QMetaObject::invokeMethod(
            this, [this, changes, dryRun] { runInProcess(changes, dryRun); }, Qt::QueuedConnection);
    return true;
}

void Applier::runInProcess(const ChangeSet &changes, bool dryRun)
{
    // sysfs writes can stall (a scheduler switch drains the queue): never on the caller's thread.
    const SysfsRoot sysfs = m_sysfs;
    m_pool.start([this, sysfs, changes, dryRun] {
        ApplyResult result = applyChanges(sysfs, changes, dryRun);
        QMetaObject::invokeMethod(
            this, [this, result] { finish(result); }, Qt::QueuedConnection);
    });
}

void Applier::startHelper(const ChangeSet &changes, bool dryRun)
{
    auto *process = new QProcess(this);
    m_process = process;
    connect(process, &QProcess::finished, this, &Applier::onHelperFinished);
    connect(process, &QProcess::errorOccurred, this, &Applier::onHelperError);
    process->start(m_helperProgram, m_helperArguments);
    process->write(helperRequestJson(changes, dryRun));
    process->closeWriteChannel();
}

void Applier::onHelperError(QProcess::ProcessError error)
{
    // Crashes and exits end in finished(); only a program that never started ends here.
    if (error != QProcess::FailedToStart || !m_process)
        return;
    const QString message = QStringLiteral("cannot start %1: %2").arg(m_helperProgram, m_process->errorString());
    m_process->deleteLater();
    finish(helperFailure(message, m_dryRun));
}

void Applier::onHelperFinished(int exitCode, QProcess::ExitStatus status)
{
    if (!m_process)
        return;
    const QByteArray out = m_process->readAllStandardOutput();
    const QString err = QString::fromLocal8Bit(m_process->readAllStandardError()).trimmed();
    m_process->deleteLater();
    const QJsonDocument doc = QJsonDocument::fromJson(out);
    if (status == QProcess::NormalExit && doc.isObject()) {
        if (auto parsed = applyResultFromJson(doc.object())) {
            finish(*parsed);
            return;
        }
    }
    // pkexec: 126 the user dismissed the dialog, 127 not authorized (or the helper is missing).
    QString message;
    if (status != QProcess::NormalExit)
        message = QStringLiteral("the helper crashed");
    else if (exitCode == 126)
        message = QStringLiteral("authentication dismissed; nothing was changed");
    else if (exitCode == 127)
        message = QStringLiteral("not authorized to change queue parameters; nothing was changed");
    else
        message = QStringLiteral("the helper exited with %1 without a result").arg(exitCode);
    if (!err.isEmpty())
        message += QStringLiteral(" (%1)").arg(err);
    finish(helperFailure(message, m_dryRun));
}

void Applier::finish(const ApplyResult &result)
{
    m_busy = false;
    m_process = nullptr;
    Q_EMIT finished(result);
}

} // namespace dmtune
