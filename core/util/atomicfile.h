#pragma once
// A file that appears whole at its name or not at all, and never through a symbolic link: the bytes go to a
// temp file beside the target (NAME.XXXXXX.part, created O_CREAT|O_EXCL|O_NOFOLLOW), which commit() fsyncs and
// renames over the target (rename(2) replaces a link planted at the name, it never writes through it), then
// fsyncs the directory. A target that is a symbolic link, or not a regular file, is refused with one line.
// Without commit() (an error, a destructor) the temp file is removed, unless keepOnDiscard() was asked for.
#include "util/result.h"

#include <QByteArrayView>
#include <QString>

namespace dmtune {

enum class ExistingFile {
    Replace, // an existing regular file at the target is replaced (reports, exports, recordings)
    Refuse, // the commit fails when the target exists, even if it appeared since open() (saved presets)
};

class AtomicFile {
public:
    explicit AtomicFile(QString path, ExistingFile existing = ExistingFile::Replace);
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
Status writeFileAtomically(const QString &path, QByteArrayView bytes, ExistingFile existing = ExistingFile::Replace);

// Why `path` cannot be a target: a symbolic link, a directory, a device...; empty when it is a regular file or
// does not exist (lstat, never following the last component).
QString unsafeTargetReason(const QString &path);

} // namespace dmtune
