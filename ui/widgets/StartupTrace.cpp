#include "StartupTrace.h"

#include <QByteArray>

#include <chrono>
#include <cstdio>
#include <mutex>
#include <set>
#include <string>

namespace fwb {

void traceStartup(const char *event)
{
    static const QByteArray target = qgetenv("FWB_TRACE");
    if (target.isEmpty())
        return;
    static std::mutex mutex;
    static std::set<std::string> seen; // milestones: the first occurrence is the one that counts
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    const double ms = std::chrono::duration<double, std::milli>(now).count();
    const std::lock_guard lock(mutex);
    if (!seen.insert(event).second)
        return;
    std::FILE *out = target == "-" ? stderr : std::fopen(target.constData(), "a");
    if (!out)
        return;
    std::fprintf(out, "%.1f %s\n", ms, event);
    if (out == stderr)
        std::fflush(out);
    else
        std::fclose(out);
}

} // namespace fwb
