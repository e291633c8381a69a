#include "core/workloads/fiorun.h"

#include "core/util/systemprogram.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>

namespace dmtune {

namespace {

constexpr qsizetype MaxStderrBytes = 64 * 1024;

double nowSeconds()
{
    return double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
}

QString lastLines(const QByteArray &text, int count)
{
    QStringList lines = QString::fromLocal8Bit(text).trimmed().split(u'\n', Qt::SkipEmptyParts);
    if (lines.size() > count)
        lines = lines.mid(lines.size() - count);
    return lines.join(QLatin1String("; "));
}

// The processes whose parent is `parent`, from /proc/<pid>/stat ("pid (comm) state ppid ...").
QList<pid_t> childProcesses(pid_t parent)
{
    QList<pid_t> children;
    for (const QString &entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool ok = false;
        const pid_t pid = pid_t(entry.toInt(&ok));
        if (!ok)
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray text = stat.read(512);
        const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1 && fields.at(1).toInt() == parent)
            children << pid;
    }
    return children;
}

} // namespace

Result<QString> FioRun::findFio()
{
    const auto found = findProgram(QStringLiteral("fio"));
    if (!found)
        return Result<QString>::failure(
            QStringLiteral("fio is not installed: %1 (Debian: apt install fio)").arg(found.errorMessage()));
    return found;
}

Result<QString> FioRun::parseFioVersion(const QString &text)
{
    static const QRegularExpression version(QStringLiteral("^fio-([0-9]+(\\.[0-9]+)*)"));
    const auto match = version.match(text.trimmed());
    if (!match.hasMatch())
        return Result<QString>::failure(
            QStringLiteral("'fio --version' printed '%1', not fio-X.Y").arg(text.trimmed().left(80)));
    return QVersionNumber::fromString(match.captured(1)).toString();
}

FioRun::FioRun(QObject *parent)
    : QObject(parent)
{
    m_killTimer.setSingleShot(true);
    connect(&m_killTimer, &QTimer::timeout, this, [this] {
        m_killed = true;
        signalGroup(SIGKILL);
    });
}

FioRun::~FioRun()
{
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->disconnect(this);
        signalGroup(SIGKILL);
        m_process->waitForFinished(2000); // at exit only: the group is gone at once after SIGKILL
    }
}

bool FioRun::start(const QStringList &args, const QStringList &environment)
{
    if (m_phase != Phase::Idle)
        return false;
    if (m_program.isEmpty()) {
        const auto found = findFio();
        if (!found) {
            // Asynchronous like every other outcome, so callers connect once and handle one path.
            QTimer::singleShot(0, this, [this, message = found.errorMessage()] { Q_EMIT failed(message); });
            return true;
        }
        m_program = found.value();
    }
    m_args = args;
    m_environment = environment;
    m_argv = QStringList { m_program } + args;
    m_stopRequested = m_killed = false;
    m_phase = Phase::CheckingVersion;
    delete m_process;
    m_process = new QProcess(this);
    connect(m_process, &QProcess::finished, this, &FioRun::onVersionFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            fail(QStringLiteral("cannot run %1: %2").arg(m_program, m_process->errorString()));
    });
    m_process->start(m_program, { QStringLiteral("--version") });
    return true;
}

void FioRun::onVersionFinished()
{
    const QString printed = QString::fromLocal8Bit(m_process->readAllStandardOutput());
    if (m_stopRequested)
        return fail(QStringLiteral("stopped before fio started"));
    const auto parsed = parseFioVersion(printed);
    if (!parsed)
        return fail(parsed.errorMessage());
    const QVersionNumber version = QVersionNumber::fromString(parsed.value());
    if (version.majorVersion() < MinimumMajorVersion)
        return fail(QStringLiteral("fio %1 is too old: dmtune needs fio %2 or newer (JSON status stream)")
                        .arg(version.toString())
                        .arg(MinimumMajorVersion));
    m_version = version;
    launch();
}

void FioRun::launch()
{
    m_process->deleteLater();
    m_process = new QProcess(this);
    m_phase = Phase::Running;
    m_stream = FioStreamBuffer();
    m_previous.reset();
    m_last = {};
    m_stderr.clear();
    m_outcome = FioOutcome();
    m_outcome.argv = m_argv;
    if (!m_environment.isEmpty()) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const QString &entry : std::as_const(m_environment))
            env.insert(entry.section(u'=', 0, 0), entry.section(u'=', 1));
        m_process->setProcessEnvironment(env);
    }
    // In the child, before exec: its own process group (see stop()), and death with its parent. SIGTERM, not
    // SIGKILL: fio stops its job processes on SIGTERM (each is in a session of its own: a SIGKILLed fio leaves
    // them writing, orphaned). SIGPIPE ignored: fio's handler first prints "terminating on signal" into the
    // pipe of the parent that is gone, and SIGPIPE would kill it there, before it stops its jobs. The death
    // signal comes when the thread that forked dies: QProcess forks on this (the owner's) thread. If the
    // parent died before prctl(), the child has another parent by now and must not run fio at all.
    const pid_t parent = ::getpid();
    // fio writes some files by a relative name (a verify job's state, "local-JOB-0-verify.state", on every end
    // and on SIGINT): in the caller's directory, a link planted there would turn that into root writing
    // wherever it points. fio runs in a directory of its own, made new (0700, mkdtemp) for this run, and keeps
    // its state files there (--aux-path); it is removed with the run.
    m_workDir = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/dmtune-fio-XXXXXX"));
    if (!m_workDir->isValid())
        return fail(QStringLiteral("cannot make fio's working directory: %1").arg(m_workDir->errorString()));
    m_process->setWorkingDirectory(m_workDir->path());
    m_process->setChildProcessModifier([parent] {
        ::setpgid(0, 0);
        ::signal(SIGPIPE, SIG_IGN);
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != parent)
            ::_exit(127);
    });
    connect(m_process, &QProcess::readyReadStandardOutput, this, &FioRun::onReadyRead);
    connect(m_process, &QProcess::readyReadStandardError, this, [this] {
        m_stderr += m_process->readAllStandardError();
        if (m_stderr.size() > MaxStderrBytes)
            m_stderr = m_stderr.right(MaxStderrBytes);
    });
    connect(m_process, &QProcess::finished, this, &FioRun::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            fail(QStringLiteral("cannot run %1: %2").arg(m_program, m_process->errorString()));
    });
    connect(m_process, &QProcess::started, this, [this] {
        m_outcome.startedAt = nowSeconds();
        Q_EMIT started(m_outcome.startedAt, m_argv);
    });
    m_process->start(m_program, QStringList { QStringLiteral("--aux-path=") + m_workDir->path() } + m_args);
}

void FioRun::onReadyRead()
{
    takeChunk(m_stream.append(m_process->readAllStandardOutput()));
}

void FioRun::takeChunk(const FioStreamChunk &chunk)
{
    for (const QString &line : chunk.otherLines) {
        if (line.isEmpty())
            continue;
        m_outcome.otherLines << line;
        Q_EMIT outputLine(line);
    }
    for (const QString &error : chunk.errors)
        Q_EMIT outputLine(QStringLiteral("unreadable fio output at ") + error);
    for (const QJsonObject &object : chunk.objects) {
        auto parsed = parseFioStatus(object);
        if (!parsed) {
            Q_EMIT outputLine(parsed.errorMessage());
            continue;
        }
        FioProgress p;
        p.epochSeconds = parsed->timestampMs > 0 ? double(parsed->timestampMs) / 1000.0 : nowSeconds();
        p.status = object;
        p.parsed = parsed.value();
        p.rates = fioRatesBetween(m_previous ? &*m_previous : nullptr, p.parsed);
        m_previous = p.parsed;
        m_last = object;
        Q_EMIT progress(p);
    }
}

void FioRun::onFinished(int exitCode, QProcess::ExitStatus status)
{
    m_killTimer.stop();
    m_stderr += m_process->readAllStandardError();
    takeChunk(m_stream.append(m_process->readAllStandardOutput()));
    takeChunk(m_stream.finish());
    m_phase = Phase::Idle;
    m_workDir.reset();
    m_outcome.exitCode = exitCode;
    m_outcome.stopped = m_stopRequested;
    m_outcome.killed = m_killed;
    m_outcome.endedAt = nowSeconds();
    m_outcome.final = m_last;
    if (m_previous)
        m_outcome.overall = fioRatesBetween(nullptr, *m_previous);
    // Stopped on request, fio may exit non-zero (SIGINT) or be killed: still a result, marked stopped.
    if (!m_stopRequested && (status == QProcess::CrashExit || exitCode != 0)) {
        const QString why = lastLines(m_stderr, 3);
        Q_EMIT failed(QStringLiteral("fio %1 (exit code %2)%3")
                          .arg(status == QProcess::CrashExit ? QStringLiteral("crashed") : QStringLiteral("failed"))
                          .arg(exitCode)
                          .arg(why.isEmpty() ? QString() : QStringLiteral(": ") + why));
        return;
    }
    if (m_last.isEmpty() && !m_stopRequested) {
        Q_EMIT failed(QStringLiteral("fio printed no JSON result%1")
                          .arg(m_stderr.isEmpty() ? QString() : QStringLiteral(": ") + lastLines(m_stderr, 3)));
        return;
    }
    Q_EMIT finished(m_outcome);
}

void FioRun::stop()
{
    if (m_phase == Phase::Idle || m_stopRequested)
        return;
    m_stopRequested = true;
    if (m_phase == Phase::CheckingVersion) {
        m_process->kill(); // fio --version: onVersionFinished reports the stop
        return;
    }
    signalGroup(SIGINT);
    m_killTimer.start(m_graceMs);
}

void FioRun::signalGroup(int signal)
{
    const qint64 pid = m_process ? m_process->processId() : 0;
    if (pid <= 0)
        return;
    // fio puts each job process in a session of its own: the group is fio alone. fio passes SIGINT and SIGTERM
    // on to its jobs itself; SIGKILL it cannot, so the jobs get it directly, found before fio is gone.
    const QList<pid_t> jobs = signal == SIGKILL ? childProcesses(pid_t(pid)) : QList<pid_t>();
    ::kill(-pid_t(pid), signal); // fio leads its own group (setpgid in the child)
    for (const pid_t job : jobs)
        ::kill(job, SIGKILL);
}

void FioRun::fail(const QString &message)
{
    if (m_phase == Phase::Idle)
        return;
    m_phase = Phase::Idle;
    m_killTimer.stop();
    m_workDir.reset();
    Q_EMIT failed(message);
}

} // namespace dmtune
