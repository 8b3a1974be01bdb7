// The time now as the kept files (the tuning database, the prepared-programs record) write it:
// ISO 8601 in UTC, "2026-11-26T14:03:59Z".
#pragma once

#include <ctime>
#include <string>

namespace fwb {

inline std::string utcNow()
{
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

} // namespace fwb
