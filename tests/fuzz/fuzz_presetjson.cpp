// libFuzzer target: the preset loader must never crash, must name the field of every rejection
// of a JSON object, and what it accepts must save and load back to the same preset (docs/fuzzing.md).
#include "core/presets/presetjson.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace dmtune;

namespace {
[[noreturn]] void fail(const char *what, const QByteArray &input, const QString &detail = {})
{
    std::fprintf(stderr, "fuzz_presetjson: %s %s\ninput: %s\n", what, detail.toUtf8().constData(), input.constData());
    std::abort();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
    const auto preset = parsePreset(input);
    if (!preset) {
        const QString &e = preset.errorMessage();
        if (e.isEmpty())
            fail("rejected without a message", input);
        if (!e.startsWith(QLatin1String("malformed")) && !e.startsWith(QLatin1String("field \""))
            && !e.startsWith(QLatin1String("rule ")))
            fail("an error that names no field", input, e);
        return 0;
    }
    const QByteArray saved = presetToJson(*preset);
    const auto again = parsePreset(saved);
    if (!again)
        fail("saved text does not load:", input, again.errorMessage());
    if (!(*again == *preset))
        fail("saved text loads as a different preset", input);
    if (presetToJson(*again) != saved)
        fail("saving is not stable", input);
    return 0;
}
