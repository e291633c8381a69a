#pragma once
// Where dmtune keeps recordings by default: $XDG_DATA_HOME/dmtune/recordings (~/.local/share/dmtune/recordings).
// Earlier versions used the application data location, which Qt builds from the organisation and the
// application name, both "dmtune": ~/.local/share/dmtune/dmtune/recordings.
#include <QString>

namespace dmtune {

// The folder (not created).
QString recordingsDirectory();
// The folder of earlier versions (not created).
QString legacyRecordingsDirectory();
// Where a file dialog for recordings starts: recordingsDirectory(), created if missing; the folder of earlier
// versions instead while that one holds recordings and the new one none.
QString recordingsBrowseDirectory();

} // namespace dmtune
