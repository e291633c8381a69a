#pragma once
// errno as the text the C library gives it, in the user's locale (strerror's encoding).
#include <QString>

#include <cstring>

namespace dmtune {

inline QString errnoText(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

} // namespace dmtune
