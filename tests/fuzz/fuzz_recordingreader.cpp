// libFuzzer target: the recording reader (docs/recordings.md) over arbitrary bytes, raw and behind a valid
// magic: it must never crash or allocate beyond what the bytes hold (ASan's allocation limit), must say why it
// rejects, and what it accepts must be self-consistent (docs/fuzzing.md).
#include "core/recordings/recordingformat.h"
#include "core/recordings/recordingreader.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace dmtune;

namespace {
[[noreturn]] void fail(const char *what, const QString &detail = {})
{
    std::fprintf(stderr, "fuzz_recordingreader: %s %s\n", what, detail.toUtf8().constData());
    std::abort();
}

void check(QByteArrayView bytes)
{
    const Result<Recording> rec = parseRecording(bytes);
    if (!rec) {
        if (rec.errorMessage().isEmpty())
            fail("rejected without a message");
        return;
    }
    qint64 samples = 0;
    for (const RecordedBatch &b : rec->batches) {
        samples += b.samples.size();
        for (const RecordedSample &s : b.samples) {
            if (s.device < 0 || s.device >= rec->devices.size())
                fail("a sample names a device that was not declared");
        }
    }
    if (samples != rec->deviceSamples)
        fail("device-sample count differs from the batches'", QString::number(rec->deviceSamples));
    if (rec->truncated && rec->truncation.isEmpty())
        fail("truncated without saying where");
    if (rec->fileBytes != bytes.size())
        fail("file size not the input's");
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView input(reinterpret_cast<const char *>(data), qsizetype(size));
    check(input);
    // Most inputs fail at the magic: the same bytes after a valid one reach the frame parsers.
    check(recordingformat::magic() + input.toByteArray());
    return 0;
}
