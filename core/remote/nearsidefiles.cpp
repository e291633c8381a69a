#include "core/remote/nearsidefiles.h"

#include <QSet>

#include <functional>

namespace dmtune {

namespace {

struct FileOption {
    QStringList names; // "--out", "-o"
    bool output;
};

struct CommandFiles {
    QSet<QString> valueOptions; // options that take a value (long and short spellings)
    QList<FileOption> fileOptions;
    // Positionals by their index among positionals (after a subcommand word where the command has one).
    enum Kind { None, Input, InputOrName, OutputFile, OutputDirectory };
    std::function<Kind(int position, const QStringList &positionals)> positional;
};

CommandFiles filesOf(const QString &command)
{
    CommandFiles c;
    c.valueOptions = { QStringLiteral("--sysfs-root") };
    c.positional = [](int, const QStringList &) { return CommandFiles::None; };
    if (command == QLatin1String("stat")) {
        c.valueOptions
            += { QStringLiteral("-i"), QStringLiteral("--interval"), QStringLiteral("-c"), QStringLiteral("--count") };
    } else if (command == QLatin1String("diagnose")) {
        c.valueOptions += { QStringLiteral("-i"), QStringLiteral("--interval"), QStringLiteral("--recording") };
        c.fileOptions = { { { QStringLiteral("--recording") }, false } };
    } else if (command == QLatin1String("map")) {
        c.valueOptions += { QStringLiteral("--table"), QStringLiteral("--selector"), QStringLiteral("--group"),
            QStringLiteral("--feature") };
    } else if (command == QLatin1String("capture")) {
        c.positional
            = [](int p, const QStringList &) { return p == 0 ? CommandFiles::OutputDirectory : CommandFiles::None; };
    } else if (command == QLatin1String("record")) {
        c.positional = [](int p, const QStringList &) { return p == 1 ? CommandFiles::Input : CommandFiles::None; };
    } else if (command == QLatin1String("report")) {
        // --sweep names a sweep's folder on the host that ran it (--record-dir), like sweep --open.
        c.valueOptions += { QStringLiteral("-o"), QStringLiteral("--out"), QStringLiteral("--sweep") };
        c.fileOptions = { { { QStringLiteral("-o"), QStringLiteral("--out") }, true } };
        c.positional = [](int, const QStringList &) { return CommandFiles::Input; };
    } else if (command == QLatin1String("run")) {
        for (const char *name : { "--job", "--device", "--record", "--destroy-data-on", "--runtime", "--rw", "--bs",
                 "--iodepth", "--numjobs", "--ioengine" })
            c.valueOptions.insert(QString::fromLatin1(name));
        c.fileOptions = { { { QStringLiteral("--job") }, false }, { { QStringLiteral("--record") }, true } };
    } else if (command == QLatin1String("sweep")) {
        // --record-dir names a directory on the host that runs the sweep (recordings stay there).
        for (const char *name : { "--param", "--job", "--repeat", "--runtime", "--warmup", "--settle", "--record-dir",
                 "--destroy-data-on" })
            c.valueOptions.insert(QString::fromLatin1(name));
        c.fileOptions = { { { QStringLiteral("--job") }, false } };
    } else if (command == QLatin1String("preset")) {
        c.valueOptions += { QStringLiteral("--attr"), QStringLiteral("--name"), QStringLiteral("--format"),
            QStringLiteral("-o"), QStringLiteral("--output") };
        c.positional = [](int p, const QStringList &pos) {
            const QString sub = pos.value(0);
            if (sub == QLatin1String("save"))
                return p == 1 ? CommandFiles::OutputFile : CommandFiles::None;
            if (sub == QLatin1String("apply") || sub == QLatin1String("verify") || sub == QLatin1String("export"))
                return p == 1 ? CommandFiles::InputOrName : CommandFiles::None;
            if (sub == QLatin1String("diff"))
                return p == 1 || p == 2 ? CommandFiles::InputOrName : CommandFiles::None;
            return CommandFiles::None;
        };
        // export's -o names a file (only export has -o among preset's subcommands).
        c.fileOptions = { { { QStringLiteral("-o"), QStringLiteral("--output") }, true } };
    }
    return c;
}

} // namespace

QList<NearSideFile> nearSideFiles(const QStringList &argv)
{
    QList<NearSideFile> files;
    if (argv.isEmpty())
        return files;
    const CommandFiles c = filesOf(argv.first());
    // First pass: the positionals (their indices), skipping option values.
    QList<int> positionalIndex;
    QStringList positionals;
    bool onlyPositionals = false;
    for (int i = 1; i < argv.size(); ++i) {
        const QString &a = argv.at(i);
        if (onlyPositionals || !a.startsWith(QLatin1Char('-')) || a == QLatin1String("-")) {
            positionalIndex << i;
            positionals << a;
            continue;
        }
        if (a == QLatin1String("--")) {
            onlyPositionals = true;
            continue;
        }
        const int eq = a.indexOf(QLatin1Char('='));
        const QString name = eq > 0 ? a.left(eq) : a;
        const bool takesValue = c.valueOptions.contains(name);
        QString value;
        int valueIndex = -1;
        QString prefix;
        if (takesValue && eq > 0) {
            value = a.mid(eq + 1);
            valueIndex = i;
            prefix = a.left(eq + 1);
        } else if (takesValue && i + 1 < argv.size()) {
            valueIndex = ++i;
            value = argv.at(i);
        }
        if (valueIndex < 0 || value.isEmpty() || value == QLatin1String("-"))
            continue;
        for (const FileOption &option : c.fileOptions) {
            if (option.names.contains(name))
                files << NearSideFile { valueIndex, prefix, value, option.output, false, false };
        }
    }
    // Subcommand words count as positionals for the commands that have them (preset, record).
    for (int p = 0; p < positionals.size(); ++p) {
        const auto kind = c.positional(p, positionals);
        if (kind == CommandFiles::None || positionals.at(p) == QLatin1String("-"))
            continue;
        NearSideFile file;
        file.index = positionalIndex.at(p);
        file.path = positionals.at(p);
        file.output = kind == CommandFiles::OutputFile || kind == CommandFiles::OutputDirectory;
        file.directory = kind == CommandFiles::OutputDirectory;
        file.nameOrFile = kind == CommandFiles::InputOrName;
        files << file;
    }
    return files;
}

} // namespace dmtune
