#pragma once
// Reads a recording file (recordingformat.h) into a Recording value. Pure over the bytes: a file cut short
// inside a frame is read up to the last whole frame and marked truncated; anything else malformed fails with
// the frame's number and byte offset.
#include "recording.h"

#include <QByteArrayView>

namespace dmtune {

Result<Recording> parseRecording(QByteArrayView bytes);
// Reads the file and parses it; Recording::path is set.
Result<Recording> readRecording(const QString &path);

} // namespace dmtune
