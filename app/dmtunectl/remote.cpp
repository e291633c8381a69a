// dmtunectl --host [user@]host[:port] COMMAND ...: the command runs on that host under its agent (ssh, docs/remote.md)
// and prints here what it prints there, with its exit status; the files on the command line are this side's.
#include "cli.h"
#include "core/remote/agentclient.h"
#include "core/remote/nearsidefiles.h"
#include "core/remote/remotehost.h"
#include "core/util/inputfile.h"
#include "core/util/printable.h"
#include "signalguard.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>

#include <cstdio>
#include <sys/stat.h>

namespace dmtune::cli {

namespace {

struct RemoteOptions {
    HostAddress address;
    SshSettings ssh;
    bool sudoPasswordStdin = false;
    QStringList command;
};

// The options before COMMAND: --host H (or --host=H), --ssh-config F, --remote-dmtunectl P, --sudo-password-stdin.
Result<RemoteOptions> parseRemoteOptions(const QStringList &args)
{
    RemoteOptions options;
    const QString envProgram = qEnvironmentVariable("DMTUNE_REMOTE_DMTUNECTL");
    if (!envProgram.isEmpty())
        options.ssh.remoteDmtunectl = envProgram;
    options.ssh.configFile = qEnvironmentVariable("DMTUNE_SSH_CONFIG");
    QString host;
    int i = 0;
    for (; i < args.size(); ++i) {
        const QString &a = args.at(i);
        const auto value = [&](const QString &name, QString *out) {
            if (a.startsWith(name + QLatin1Char('='))) {
                *out = a.mid(name.size() + 1);
                return true;
            }
            if (a == name && i + 1 < args.size()) {
                *out = args.at(++i);
                return true;
            }
            return false;
        };
        if (value(QStringLiteral("--host"), &host) || value(QStringLiteral("--ssh-config"), &options.ssh.configFile)
            || value(QStringLiteral("--remote-dmtunectl"), &options.ssh.remoteDmtunectl))
            continue;
        if (a == QLatin1String("--sudo-password-stdin")) {
            options.sudoPasswordStdin = true;
            continue;
        }
        // The last word: the option's value is missing, not the option unknown.
        if (a == QLatin1String("--host"))
            return Result<RemoteOptions>::failure(QStringLiteral("--host needs [user@]host[:port]"));
        if (a == QLatin1String("--ssh-config") || a == QLatin1String("--remote-dmtunectl"))
            return Result<RemoteOptions>::failure(QStringLiteral("%1 needs a value").arg(a));
        if (a.startsWith(QLatin1String("--")))
            return Result<RemoteOptions>::failure(QStringLiteral("unknown option '%1' before the command").arg(a));
        break;
    }
    if (host.isEmpty())
        return Result<RemoteOptions>::failure(QStringLiteral("--host needs [user@]host[:port]"));
    const Result<HostAddress> address = parseHostAddress(host);
    if (!address)
        return Result<RemoteOptions>::failure(address.errorMessage());
    options.address = *address;
    options.command = args.mid(i);
    if (options.command.isEmpty())
        return Result<RemoteOptions>::failure(QStringLiteral("--host %1: give a command").arg(host));
    return options;
}

// This side's output files follow the same policy as the command run here (util/atomicfile.h): a new file renamed
// into place, an existing one replaced only with --replace, never a write through a link.
bool writeFileBytes(const QString &path, const QByteArray &data, ExistingFile existing, QString *error)
{
    if (const Status written = writeFileAtomically(path, data, existing); !written) {
        *error = written.errorMessage();
        return false;
    }
    return true;
}

// Where an output file the agent sent goes here: for a command line of ours, where it named the file (by the
// argument's index, never a path the far side chose); for a job attached later, the name it had, in the current
// directory, and never over an existing file.
Result<QString> localPathOf(const QJsonObject &file, const QHash<int, QString> &ours, bool attached)
{
    if (!attached)
        return ours.value(file.value(QLatin1String("index")).toInt()); // empty: not a file we named; dropped
    const QString name = QFileInfo(file.value(QLatin1String("local")).toString()).fileName();
    if (name.isEmpty() || name == QLatin1String(".."))
        return QString();
    const QString local = QDir::current().filePath(name);
    // lstat, not exists(): a dangling link is there too (and would be written through).
    if (!outputFileProblem(local, ExistingFile::Refuse).isEmpty())
        return Result<QString>::failure(QStringLiteral("%1 exists here: attach in another directory").arg(local));
    return local;
}

// Writes the files a command made there (a recording, a report, a capture) here.
// An attached job's files are always new here; a command line's replace existing files only with its --replace.
bool writeFetchedFiles(
    const QJsonArray &files, const QHash<int, QString> &ours, bool attached, bool replace, QString *error)
{
    for (const QJsonValue &value : files) {
        const QJsonObject file = value.toObject();
        const Result<QString> where = localPathOf(file, ours, attached);
        if (!where) {
            *error = where.errorMessage();
            return false;
        }
        const QString &local = *where;
        if (local.isEmpty())
            continue;
        if (file.contains(QLatin1String("data"))) {
            if (!writeFileBytes(local, QByteArray::fromBase64(file.value(QLatin1String("data")).toString().toLatin1()),
                    existingFileFor(replace && !attached), error))
                return false;
        } else if (file.contains(QLatin1String("entries"))) {
            if (const Status made = makeOutputDirectory(local); !made) {
                *error = made.errorMessage();
                return false;
            }
            QFile::setPermissions(local, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
            // Files, directories and the tree's links, each made new and none written through a link.
            if (const Status written = writeFetchedDirectory(local, file.value(QLatin1String("entries")).toArray());
                !written) {
                *error = written.errorMessage();
                return false;
            }
        }
    }
    return true;
}

// "preset save", "run": what the command's own messages start with.
QString commandName(const QStringList &command)
{
    if (command.first() == QLatin1String("preset") || command.first() == QLatin1String("record"))
        return command.mid(0, 2).join(u' ');
    return command.first();
}

// The `cli` request of a command line: its near-side inputs read and sent, its outputs named for the fetch.
Result<QJsonObject> cliRequest(const QStringList &command)
{
    QJsonArray files;
    const bool replace = command.contains(QLatin1String("--replace"));
    for (const NearSideFile &file : nearSideFiles(command)) {
        QJsonObject entry { { QLatin1String("index"), file.index }, { QLatin1String("prefix"), file.prefix },
            { QLatin1String("path"), file.path }, { QLatin1String("output"), file.output },
            { QLatin1String("directory"), file.directory },
            { QLatin1String("local"), QFileInfo(file.path).absoluteFilePath() } };
        if (file.output) {
            // Refused here before the command runs there, as the command itself refuses here (cli.cpp): a link
            // (dangling or not) is never written through, an existing file is replaced only with --replace.
            if (file.directory) {
                struct stat st { };
                if (::lstat(QFile::encodeName(file.path).constData(), &st) == 0)
                    return Result<QJsonObject>::failure(
                        QStringLiteral("%1: %2 exists (give a new directory)").arg(command.first(), file.path));
            } else if (const QString refused = outputFileRefusal(file.path, replace); !refused.isEmpty()) {
                return Result<QJsonObject>::failure(QStringLiteral("%1: %2").arg(commandName(command), refused));
            }
        } else {
            if (file.nameOrFile && !QFileInfo(file.path).isFile())
                continue; // a stored or built-in preset's name: the far side resolves it
            // Sent whole to the far side: a regular file (a recording is the largest kind), never a device or FIFO.
            const auto bytes = readInputFile(file.path, RecordingInputCap, QStringLiteral("an input file"));
            if (!bytes)
                return Result<QJsonObject>::failure(bytes.errorMessage());
            entry.insert(QLatin1String("data"), QString::fromLatin1(bytes.value().toBase64()));
        }
        files.append(entry);
    }
    return QJsonObject { { QLatin1String("argv"), QJsonArray::fromStringList(command) },
        { QLatin1String("files"), files } };
}

class RemoteSession {
public:
    RemoteSession(const RemoteOptions &options, Streams io)
        : m_options(options)
        , m_io(io)
        , m_client(options.address, options.ssh)
    {
    }

    int run()
    {
        QByteArray password;
        if (m_options.sudoPasswordStdin) {
            char line[1024] = {};
            if (!std::fgets(line, sizeof line, stdin))
                return fail(m_io, QStringLiteral("--sudo-password-stdin: no password on stdin"));
            password = QByteArray(line).trimmed();
        }
        const QStringList &command = m_options.command;
        const bool jobCommand = command.first() == QLatin1String("job");
        if (jobCommand) {
            const QString sub = command.value(1);
            if (!(sub == QLatin1String("list") && command.size() == 2)
                && !((sub == QLatin1String("attach") || sub == QLatin1String("stop")) && command.size() == 3))
                return usageError(m_io, QStringLiteral("job list | job attach JOB | job stop JOB"));
        } else {
            const Result<QJsonObject> request = cliRequest(command);
            if (!request)
                return fail(m_io, request.errorMessage());
            m_request = *request;
            for (const QJsonValue &v : m_request.value(QLatin1String("files")).toArray()) {
                const QJsonObject file = v.toObject();
                if (file.value(QLatin1String("output")).toBool())
                    m_outputs.insert(
                        file.value(QLatin1String("index")).toInt(), file.value(QLatin1String("local")).toString());
            }
        }
        SignalGuard guard;
        guard.onSignal(&m_client, [this] { interrupt(); });
        QObject::connect(&m_client, &AgentClient::ready, &m_client, [this] { sendRequest(); });
        QObject::connect(&m_client, &AgentClient::message, &m_client, [this](const QJsonObject &m) { handle(m); });
        QObject::connect(
            &m_client, &AgentClient::disconnected, &m_client, [this](const QString &problem, bool) { lost(problem); });
        m_client.connectToHost(password);
        password.fill('\0');
        QCoreApplication::exec();
        return m_exit;
    }

private:
    void finish(int code)
    {
        m_exit = code;
        m_done = true;
        QCoreApplication::exit(code);
    }

    void sendRequest()
    {
        const QStringList &command = m_options.command;
        if (command.first() != QLatin1String("job")) {
            m_requestId = m_client.request(QStringLiteral("cli"), m_request);
        } else if (command.at(1) == QLatin1String("list")) {
            m_requestId = m_client.request(QStringLiteral("jobs"));
        } else if (command.at(1) == QLatin1String("attach")) {
            m_requestId = m_client.request(QStringLiteral("attach"), { { QLatin1String("job"), command.at(2) } });
        } else {
            m_requestId = m_client.request(QStringLiteral("signal"),
                { { QLatin1String("job"), command.at(2) }, { QLatin1String("signal"), QStringLiteral("INT") } });
        }
    }

    void handle(const QJsonObject &m)
    {
        const QString type = m.value(QLatin1String("type")).toString();
        if (m.value(QLatin1String("id")).toInteger() != m_requestId) {
            if (type == QLatin1String("error") && m.value(QLatin1String("id")).toInteger() == 0) {
                fail(m_io,
                    QStringLiteral("%1: %2").arg(
                        m_options.address.display(), m.value(QLatin1String("error")).toString()));
                finish(ExitFailure);
            }
            return;
        }
        if (type == QLatin1String("output")) {
            QTextStream &s = m.value(QLatin1String("stream")).toString() == QLatin1String("err") ? m_io.err : m_io.out;
            // The agent's output is the far side's text: escaped again here, so that an agent (or what it printed)
            // never reaches this terminal raw; lines and tabs stay, JSON has no raw control characters to lose.
            s << printableLines(m.value(QLatin1String("data")).toString());
            s.flush();
        } else if (type == QLatin1String("job")) {
            m_job = m.value(QLatin1String("job")).toString();
        } else if (type == QLatin1String("exit")) {
            QString error;
            int status = m.value(QLatin1String("status")).toInt();
            if (!writeFetchedFiles(m.value(QLatin1String("files")).toArray(), m_outputs,
                    m_options.command.first() == QLatin1String("job"),
                    m_options.command.contains(QLatin1String("--replace")), &error)) {
                fail(m_io, error);
                status = ExitFailure;
            } else if (!m_job.isEmpty()) {
                m_client.request(QStringLiteral("forget"), { { QLatin1String("job"), m_job } });
            }
            finish(status);
        } else if (type == QLatin1String("response")) {
            if (m.contains(QLatin1String("jobs")))
                printJobs(m.value(QLatin1String("jobs")).toArray());
            else if (m_options.command.first() == QLatin1String("job"))
                m_io.out << "stopping job " << printable(m_options.command.at(2)) << " on "
                         << printable(m_options.address.display()) << '\n';
            finish(ExitOk);
        } else if (type == QLatin1String("error")) {
            fail(m_io,
                QStringLiteral("%1: %2").arg(m_options.address.display(), m.value(QLatin1String("error")).toString()));
            finish(ExitFailure);
        }
    }

    void printJobs(const QJsonArray &jobs)
    {
        m_io.out << QStringLiteral("%1 %2 %3 %4\n")
                        .arg(QStringLiteral("JOB"), -20)
                        .arg(QStringLiteral("STATE"), -10)
                        .arg(QStringLiteral("STARTED"), -21)
                        .arg(QStringLiteral("COMMAND"));
        for (const QJsonValue &v : jobs) {
            const QJsonObject j = v.toObject();
            QString state = j.value(QLatin1String("state")).toString();
            if (state == QLatin1String("ended"))
                state += QStringLiteral(" %1").arg(j.value(QLatin1String("status")).toInt());
            m_io.out << QStringLiteral("%1 %2 %3 %4\n")
                            .arg(printable(j.value(QLatin1String("job")).toString()), -20)
                            .arg(printable(state), -10)
                            .arg(printable(j.value(QLatin1String("started")).toString()), -21)
                            .arg(printable(j.value(QLatin1String("command")).toString()));
        }
    }

    void interrupt()
    {
        if (m_interrupted || !m_client.isReady()) {
            finish(130);
            return;
        }
        m_interrupted = true;
        // Like Ctrl-C here: the command there stops cleanly (stat ends, run stops fio and closes its recording).
        if (!m_job.isEmpty())
            m_client.request(QStringLiteral("signal"),
                { { QLatin1String("job"), m_job }, { QLatin1String("signal"), QStringLiteral("INT") } });
        else
            m_client.request(QStringLiteral("signal"),
                { { QLatin1String("target"), m_requestId }, { QLatin1String("signal"), QStringLiteral("INT") } });
    }

    void lost(const QString &problem)
    {
        if (m_done)
            return;
        if (!m_job.isEmpty())
            fail(m_io,
                QStringLiteral("%1; the workload goes on there as job %2: dmtunectl --host %3 job attach %2")
                    .arg(problem, m_job, m_options.address.display()));
        else
            fail(m_io, problem);
        finish(ExitFailure);
    }

    RemoteOptions m_options;
    Streams m_io;
    AgentClient m_client;
    QJsonObject m_request;
    QHash<int, QString> m_outputs; // our command line's output files: argument index -> where they go here
    qint64 m_requestId = -1;
    QString m_job;
    bool m_interrupted = false;
    bool m_done = false;
    int m_exit = ExitFailure;
};

} // namespace

int runRemote(const QStringList &args, Streams io)
{
    Result<RemoteOptions> options = parseRemoteOptions(args);
    if (!options)
        return usageError(io, options.errorMessage());
    // Consent that destroys data there names the host too (ops/consent.h); the far side gets the device alone.
    const auto command = withHostConsent(options->command, options->address.host);
    if (!command)
        return fail(io, command.errorMessage());
    options.value().command = command.value();
    RemoteSession session(*options, io);
    return session.run();
}

} // namespace dmtune::cli
