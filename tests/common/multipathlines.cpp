#include "multipathlines.h"

#include "core/dm/grammar/dmtargetline.h"

namespace dmtune {

Result<MultipathTable> parseMultipathTableLine(QStringView line)
{
    auto parsed = parseTargetLine(line);
    if (!parsed)
        return Result<MultipathTable>::failure(parsed.errorMessage());
    return multipathTableOf({ parsed.value() });
}

Result<MultipathStatus> parseMultipathStatusLine(QStringView line)
{
    auto parsed = parseTargetLine(line);
    if (!parsed)
        return Result<MultipathStatus>::failure(parsed.errorMessage());
    return multipathStatusOf({ parsed.value() });
}

} // namespace dmtune
