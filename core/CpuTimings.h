// CpuTimings: the one process-wide record of how long the CPU code takes, so that every screen, table and
// JSON of the process says one CPU time for one piece of work. Every CPU measurement (a race's CPU rows, a
// run's multi-threaded baseline, OpenCV's CPU code as a run's baseline or a race's row, the checking
// reference) adds its samples here, under the work it timed; every figure shown is read back from here.
//
// The statistic: each measurement (a batch of samples taken one after another) gives its median; the
// figure is the best (lowest) of those medians so far, "best of N measurements" on screen. A median keeps
// one slow sample out of a batch; the best batch is the machine at its least disturbed (a shared machine
// only ever makes the CPU slower, never faster), and it only moves down as measurements come in.
//
// The work is its key (cpuWorkKey): filter, every parameter's value, pixel format, border rule and the
// picture's size, not its content (the CPU paths take the same time on any picture of a size). Within it,
// the thread count and which code (ours multi-threaded, OpenCV, the single-threaded checking reference).
// Thread-safe; listeners hear of every change (on the thread that measured).
#pragma once

#include "Catalogue.h"

#include <cstdint>
#include <functional>
#include <iterator>
#include <mutex>
#include <string>
#include <vector>

namespace fwb {

enum class CpuCode {
    Ours,      // our fast path on several threads: cpu_multi
    OpenCv,    // OpenCV's CPU code: opencv_cpu
    Reference, // the plain single-threaded checking reference: cpu_single (never "the CPU" of a sentence)
};
const char *cpuCodeName(CpuCode code); // "ours", "opencv", "reference"

// "gaussian5x5/gray8/clamp/1920x1080/sigma=1.5": the work a CPU time is of.
std::string cpuWorkKey(const FilterSpec &filter, const FilterParams &params, int width, int height);

struct CpuTiming
{
    double ms = -1;               // the best median of one measurement so far (-1: never measured)
    double minMs = -1, maxMs = -1; // the fastest and the slowest single sample of all the measurements
    int measurements = 0;         // batches added
    int samples = 0;              // single timings in them

    bool known() const { return measurements > 0 && ms > 0; }
};

class CpuTimings
{
public:
    // Adds one measurement (its samples, each > 0; none: nothing changes) and returns the figure after it.
    CpuTiming add(const std::string &work, int threads, CpuCode code, const std::vector<double> &samples);
    CpuTiming find(const std::string &work, int threads, CpuCode code) const;
    // Bumped by every add(): a reader that kept a figure knows whether to read it again.
    std::uint64_t generation() const;
    // Called after every add() of a measurement, on the adding thread, outside the lock; the id removes it
    // (unlisten). A call already under way on another thread may still reach it once after unlisten().
    int listen(std::function<void()> listener);
    void unlisten(int id);
    void clear(); // forgets every figure (tests)

private:
    struct Entry
    {
        std::string key;
        CpuTiming timing;
    };
    mutable std::mutex m_mutex;
    std::vector<Entry> m_entries; // few: one per work, thread count and code measured in this process
    std::uint64_t m_generation = 0;
    std::vector<std::pair<int, std::function<void()>>> m_listeners;
    int m_nextListener = 1;
};

// The process's store.
CpuTimings &cpuTimings();

// "best of 3 measurements" / "one measurement": what a figure is, in plain words, for the screen.
std::string cpuTimingWords(int measurements);

} // namespace fwb
