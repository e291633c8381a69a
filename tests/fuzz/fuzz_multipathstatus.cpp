// libFuzzer target: the multipath status parser (and the message parser) must never crash, must
// explain every rejection, and the canonical status text must parse back to the same status.
#include "core/dm/grammar/multipathmessages.h"
#include "core/dm/grammar/multipathstatus.h"
#include "tests/common/multipathlines.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace dmtune;

namespace {
[[noreturn]] void fail(const char *what, const QString &input)
{
    std::fprintf(stderr, "fuzz_multipathstatus: %s\ninput: %s\n", what, input.toUtf8().constData());
    std::abort();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));

    const auto status = parseMultipathStatus(text);
    if (!status) {
        if (status.errorMessage().isEmpty())
            fail("rejected without a message", text);
    } else {
        const QString canonical = formatMultipathStatus(status.value());
        const auto again = parseMultipathStatus(canonical);
        if (!again)
            fail("canonical text does not parse", text);
        if (!(again.value() == status.value()))
            fail("canonical text parses to another status", text);
        if (formatMultipathStatus(again.value()) != canonical)
            fail("formatting is not stable", text);
        (void)status->queueIo();
        (void)status->pgInitCount();
        (void)status->activeGroup();
    }
    (void)parseMultipathStatusLine(text);

    const auto message = parseMultipathMessage(text);
    if (message) {
        const auto formatted = formatMultipathMessage(message.value());
        if (!formatted || !(parseMultipathMessage(formatted.value()).value() == message.value()))
            fail("message does not round-trip", text);
    } else if (message.errorMessage().isEmpty()) {
        fail("message rejected without a message", text);
    }
    return 0;
}
