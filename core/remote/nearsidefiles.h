#pragma once
// `dmtunectl --host H COMMAND ...` runs COMMAND on H, but the files its command line names are the near side's:
// a preset or job file is read here and sent, a report, recording or capture is written here. This finds them
// in a command line, by each command's own options (cmd_*.cpp), so that the client can send and fetch them and
// the agent can put its own paths in their place.
#include <QList>
#include <QString>
#include <QStringList>

namespace dmtune {

struct NearSideFile {
    int index = 0; // in the command's argv (argv[0] is the command's name)
    QString prefix; // the text before the path in that argument ("--out=" for --out=FILE; else empty)
    QString path; // as written
    bool output = false; // written by the command (fetched back); else read (sent)
    bool directory = false; // an output that is a new directory (capture)
    // An input that may also be a stored preset's name: sent only when a file of that path exists here.
    bool nameOrFile = false;
};

// The files of `argv` (argv[0]: list, stat, preset, run, ...). "-" (stdout) is no file.
QList<NearSideFile> nearSideFiles(const QStringList &argv);

} // namespace dmtune
