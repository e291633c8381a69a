#pragma once
// Reads a recording file (recordingformat.h) into a Recording value. Pure over the bytes: a file cut short
// inside a frame is read up to the last whole frame and marked truncated; anything else malformed fails with
// the frame's number and byte offset.
#include "core/recordings/recording.h"

#include <QByteArrayView>

namespace dmtune {

// The largest file readRecording() reads (256 MiB): at ~20 bytes per device-sample that is ~13 million
// device-samples, a map and 4 paths at 1 s for a month. A larger file is refused before it is read.
inline constexpr qint64 MaxRecordingFileBytes = qint64(256) << 20;

Result<Recording> parseRecording(QByteArrayView bytes);
// Reads the file and parses it; Recording::path is set.
Result<Recording> readRecording(const QString &path);

} // namespace dmtune
