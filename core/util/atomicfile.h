#pragma once
// A file that appears whole at its name or not at all, and never through a symbolic link: the bytes go to a
// temp file beside the target (NAME.XXXXXX.part, created O_CREAT|O_EXCL|O_NOFOLLOW), which commit() fsyncs and
// renames it into place, then fsyncs the directory. An existing file is kept (renameat2 RENAME_NOREPLACE) unless the
// user asked to replace it (--replace, a question in the GUI): then rename(2) replaces the name, never a link's
// target. A target that is a symbolic link (dangling or not), or not a regular file, is always refused.
// Without commit() (an error, a destructor) the temp file is removed, unless keepOnDiscard() was asked for.
#include "core/util/result.h"

#include <QByteArrayView>
#include <QString>

namespace dmtune {

enum class ExistingFile {
    Refuse, // the default: the commit fails when the target exists, even if it appeared since open()
    Replace, // only when the user asked for it: an existing regular file at the target is replaced
};

class AtomicFile {
public:
    explicit AtomicFile(QString path, ExistingFile existing = ExistingFile::Refuse);
    ~AtomicFile();
    AtomicFile(const AtomicFile &) = delete;
    AtomicFile &operator=(const AtomicFile &) = delete;

    // Checks the target (no symlink, a regular file or nothing; with Refuse: nothing) and creates the temp file.
    Status open();
    // Writes all of `bytes` (retrying short writes and EINTR).
    Status write(QByteArrayView bytes);
    // fsync, rename over the target (or link without replacing), fsync of the directory. Closes the file.
    Status commit();
    // Removes the temp file (also what the destructor does without a commit).
    void discard();
    // A half-written file worth keeping (a recording cut by an error): the destructor leaves the temp file.
    void keepOnDiscard() { m_keep = true; }

    bool isOpen() const { return m_fd >= 0; }
    QString path() const { return m_path; }
    QString tempPath() const { return m_tempPath; }

private:
    QString m_path;
    QString m_tempPath;
    ExistingFile m_existing;
    int m_fd = -1;
    bool m_keep = false;
};

// open(), write(bytes), commit() in one call; errors name the target.
Status writeFileAtomically(const QString &path, QByteArrayView bytes, ExistingFile existing = ExistingFile::Refuse);

// Why `path` cannot be a target: a symbolic link, a directory, a device...; empty when it is a regular file or
// does not exist (lstat, never following the last component).
QString unsafeTargetReason(const QString &path);

// Why an output file cannot go to `path` before anything is done (a command's early check; open() checks again):
// unsafeTargetReason's, or "PATH exists" when a file is there and `existing` is Refuse. Empty: it can.
QString outputFileProblem(const QString &path, ExistingFile existing);
// True when outputFileProblem's reason is only that the file exists (what --replace or the GUI's question answers).
bool outputFileOnlyExists(const QString &path);

// The name to propose after `used` was written (or is being written): NAME-2.EXT, NAME-3.EXT, ... (a "-N" that
// `used` already ends in counts on; N of 1 to 4 digits, no leading zero), the first that is not `used` and where
// nothing is (lstat: a link counts). Empty when none of a thousand is free.
QString nextFreshFilePath(const QString &used);

// An output directory (capture, a sweep's recordings): not a symbolic link, and made new (its parents as needed)
// or already there and empty. Empty Status: it is there, a real directory, empty.
Status makeOutputDirectory(const QString &path);
// Why `path` cannot be an output directory (a link, not a directory, not empty); empty when it can (or is absent).
QString outputDirectoryProblem(const QString &path);

} // namespace dmtune
