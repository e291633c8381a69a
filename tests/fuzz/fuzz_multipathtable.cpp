// libFuzzer target: the multipath table parser must never crash, must explain every rejection,
// and its canonical text must parse back to the same table (docs/fuzzing.md).
#include "core/dm/grammar/multipathstatus.h"
#include "core/dm/grammar/multipathtable.h"
#include "tests/common/multipathlines.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace dmtune;

namespace {
[[noreturn]] void fail(const char *what, const QString &input)
{
    std::fprintf(stderr, "fuzz_multipathtable: %s\ninput: %s\n", what, input.toUtf8().constData());
    std::abort();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));

    const auto table = parseMultipathTable(text);
    if (!table) {
        if (table.errorMessage().isEmpty())
            fail("rejected without a message", text);
    } else {
        const QString canonical = formatMultipathTable(table.value());
        const auto again = parseMultipathTable(canonical);
        if (!again)
            fail("canonical text does not parse", text);
        if (!(again.value() == table.value()))
            fail("canonical text parses to another table", text);
        if (formatMultipathTable(again.value()) != canonical)
            fail("formatting is not stable", text);
        if (!checkMultipathTable(table.value()))
            fail("checkMultipathTable rejects a parsed table", text);
        // What the kernel would report for this table must itself be a valid status.
        const QString status = formatMultipathStatus(initialMultipathStatus(table.value()));
        if (!parseMultipathStatus(status))
            fail("the initial status of a valid table does not parse", text);
    }

    // The whole-line entry points see the same bytes as "start length type params".
    (void)parseMultipathTableLine(text);
    (void)parseTargetLines(text);
    return 0;
}
