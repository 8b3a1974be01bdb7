// CpuTimings: the process's one record of CPU times (see CpuTimings.h).
#include "CpuTimings.h"

#include "Session.h" // Stats::of: the median, min and max every timing in the project uses

#include <algorithm>
#include <cstdio>

namespace fwb {

const char *cpuCodeName(CpuCode code)
{
    switch (code) {
    case CpuCode::Ours: return "ours";
    case CpuCode::OpenCv: return "opencv";
    default: return "reference";
    }
}

std::string cpuWorkKey(const FilterSpec &filter, const FilterParams &params, int width, int height)
{
    std::string key = filter.name + "/" + formatName(params.format) + "/" + borderModeName(params.border) + "/"
                      + std::to_string(width) + "x" + std::to_string(height);
    for (const ParamSpec &p : filter.params) {
        char value[80];
        std::snprintf(value, sizeof value, "/%s=%.17g", p.key.c_str(), filter.param(params, p.key));
        key += value;
    }
    return key;
}

namespace {

std::string fullKey(const std::string &work, int threads, CpuCode code)
{
    return work + "|" + std::to_string(threads) + "|" + cpuCodeName(code);
}

} // namespace

CpuTiming CpuTimings::add(const std::string &work, int threads, CpuCode code, const std::vector<double> &samples)
{
    std::vector<double> valid;
    for (double s : samples)
        if (s > 0)
            valid.push_back(s);
    const std::string key = fullKey(work, threads, code);
    CpuTiming after;
    std::vector<std::function<void()>> listeners;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        auto it = std::find_if(m_entries.begin(), m_entries.end(), [&](const Entry &e) { return e.key == key; });
        if (valid.empty())
            return it == m_entries.end() ? CpuTiming{} : it->timing;
        if (it == m_entries.end()) {
            m_entries.push_back({key, {}});
            it = std::prev(m_entries.end());
        }
        CpuTiming &t = it->timing;
        const Stats batch = Stats::of(valid);
        t.ms = t.ms > 0 ? std::min(t.ms, batch.median) : batch.median;
        t.minMs = t.minMs > 0 ? std::min(t.minMs, batch.min) : batch.min;
        t.maxMs = std::max(t.maxMs, batch.max);
        ++t.measurements;
        t.samples += int(valid.size());
        ++m_generation;
        after = t;
        for (const auto &l : m_listeners)
            listeners.push_back(l.second);
    }
    for (const auto &l : listeners)
        l();
    return after;
}

CpuTiming CpuTimings::find(const std::string &work, int threads, CpuCode code) const
{
    const std::string key = fullKey(work, threads, code);
    std::lock_guard<std::mutex> lock(m_mutex);
    for (const Entry &e : m_entries)
        if (e.key == key)
            return e.timing;
    return {};
}

std::uint64_t CpuTimings::generation() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_generation;
}

int CpuTimings::listen(std::function<void()> listener)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    m_listeners.emplace_back(m_nextListener, std::move(listener));
    return m_nextListener++;
}

void CpuTimings::unlisten(int id)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    std::erase_if(m_listeners, [id](const auto &l) { return l.first == id; });
}

void CpuTimings::clear()
{
    std::lock_guard<std::mutex> lock(m_mutex);
    m_entries.clear();
    ++m_generation;
}

CpuTimings &cpuTimings()
{
    static CpuTimings store; // function-local: made on first use, thread-safe
    return store;
}

std::string cpuTimingWords(int measurements)
{
    if (measurements <= 1)
        return "one measurement";
    return "best of " + std::to_string(measurements) + " measurements";
}

} // namespace fwb
