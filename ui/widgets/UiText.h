// Small text helpers shared by the window's pages.
#pragma once

#include <QString>

#include <string>

namespace fwb {

inline QString q(const std::string &s) { return QString::fromStdString(s); }

// A time for people: "123 ms", "4.56 ms", "0.789 ms" (three significant figures or so).
inline QString msText(double ms)
{
    return ms >= 100 ? QStringLiteral("%1 ms").arg(ms, 0, 'f', 0)
           : ms >= 1 ? QStringLiteral("%1 ms").arg(ms, 0, 'f', 2)
                     : QStringLiteral("%1 ms").arg(ms, 0, 'f', 3);
}

} // namespace fwb
