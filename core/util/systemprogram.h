#pragma once
// Finding the programs dmtune runs (fio) by absolute path. As root there is no PATH lookup: a PATH entry
// that someone else can write to (".", a user's ~/bin, a CI's tool cache) would run their program as root.
// Root looks only in the system directories and takes only a file that root owns and that neither the
// file's group nor others may change (nor its directory).
#include "core/util/result.h"

#include <QStringList>

namespace dmtune {

// /usr/local/sbin, /usr/local/bin, /usr/sbin, /usr/bin, /sbin, /bin: root's PATH on Debian, in its order.
const QStringList &systemProgramDirectories();

// The absolute path of `name`. asRoot: only systemProgramDirectories(), trusted files only (see above);
// else `searchPath` (empty: $PATH), then the system directories.
Result<QString> findProgram(const QString &name, bool asRoot, const QStringList &searchPath = {});
// findProgram() as this process is (root when the effective uid is 0).
Result<QString> findProgram(const QString &name);

} // namespace dmtune
