#pragma once
// Diagnosis over a recording (dmtunectl diagnose --recording, the Explain pane on an opened recording): the rules
// see what the recording's header remembers of the machine (its maps, each device's tunables) and the devices'
// iostat numbers over the workload, as the live diagnosis sees /sys and one sampler interval. Pure: the same
// recording always gives the same findings, on any machine.
#include "core/diagnosis/diagnosis.h"
#include "core/util/result.h"

#include <QJsonObject>

namespace dmtune {

struct Recording;

// The maps of a recording's configuration snapshot (captureConfiguration()), configuration only. A map whose
// device or paths the snapshot lacks keeps -1 / empty there, and the rules that need them stay quiet.
QList<DiagnosedMap> diagnosedMapsFromConfiguration(const QJsonObject &configuration);

struct RecordedDiagnosisInput {
    DiagnosisInput input;
    double from = 0, to = 0; // epoch seconds of the numbers' window
    QString window; // how the window was chosen: "fio's I/O window", "fio start to fio end", "the whole recording"
};

// The maps named (dm name or dm-N; empty: every map) with their numbers over fio's own I/O window when the
// recording holds fio's final report, else between its fio start and end markers, else over the whole
// recording. Fails with one line when the recording remembers no map, a name is not one of them, or it has no
// interval to measure.
Result<RecordedDiagnosisInput> recordedDiagnosisInput(const Recording &recording, const QStringList &maps);

} // namespace dmtune
