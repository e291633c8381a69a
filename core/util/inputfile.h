#pragma once
// Every file dmtune reads that someone else may have made (presets, job files and their includes, recordings,
// hosts files, captures, bundles) comes through here: it must be a regular file (not a device, a FIFO, /dev/zero,
// a directory) and no bigger than a cap chosen for its kind, so a wrong or hostile path costs one clear line,
// not gigabytes of memory or a read that never ends.
#include "core/util/result.h"

#include <QByteArray>
#include <QString>

namespace dmtune {

// Caps by kind of input: far above any real file of that kind, far below what hurts.
inline constexpr qint64 TextInputCap = 4 * 1024 * 1024; // presets, job files, includes, hosts files
inline constexpr qint64 RecordingInputCap = qint64(1024) * 1024 * 1024; // recordings, imported archives' text

// The whole of `path`, opened without following to a device or blocking on a FIFO (O_NONBLOCK, checked with
// fstat on the open descriptor, so a swap of the name after the check reads nothing else). Fails with one line
// naming the path: "PATH: not a regular file (a character device)", "PATH: 5.0 GiB, more than the 4 MiB a
// preset may have". `what` names the kind in that line ("a preset", "a job file").
Result<QByteArray> readInputFile(const QString &path, qint64 cap, const QString &what);

// The check alone, on an open descriptor (a file already opened elsewhere): empty when it is a regular file of at
// most `cap` bytes, else the reason without the path.
QString inputFileProblem(int fd, qint64 cap, const QString &what);

// "4 MiB", "1.5 GiB": the cap in a message.
QString byteSizeText(qint64 bytes);

} // namespace dmtune
