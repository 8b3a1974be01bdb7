// Race: every variant of one filter on one image, device, pixel format and parameter set, plus the
// CPU rows (the checking reference on one thread, our fast code on all threads) and OpenCV's baselines
// where built, ranked fastest first by kernel or end-to-end time, with the words a presenter needs
// ("12x faster than OpenCV on 2 CPU threads"). The checking reference is never "the CPU" of a sentence.
#pragma once

#include "JsonIo.h"
#include "Session.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace fwb {

enum class RaceMetric {
    EndToEnd,   // upload + kernels + download (what a user waits for; the default, for honesty)
    KernelOnly, // the kernels alone (profiling events)
};
const char *raceMetricName(RaceMetric metric); // "end_to_end", "kernel"

struct RaceEntry
{
    std::string name;      // variant name, or cpu_single / cpu_multi / opencv_cpu / opencv_tapi
    std::string title;     // "Local-memory tiles", "Reference: plain C++, 1 thread", "OpenCV on the CPU, 2 threads"
    bool baseline = false; // a CPU or OpenCV row, not one of our variants
    bool onHost = false;   // runs on the host CPU (no transfers: kernel time = end-to-end time)
    RunResult result;

    bool ok() const { return result.ok() && result.kernelMs.median > 0; }
    // cpu_single: the plain single-threaded code every result is checked against, not a contender.
    bool isCheckingReference() const { return name == "cpu_single"; }
    // Median time by the metric; -1 when the entry did not run.
    double timeMs(RaceMetric metric) const;
};

struct RaceOptions
{
    bool cpuRows = true;                // cpu_single and cpu_multi rows (the single thread is slow on big images)
    bool baselines = true;              // OpenCV rows where OpenCV has the filter
    bool measureCopyBandwidth = true;   // for the memory-limit line
    std::vector<std::string> variants;  // empty: every variant of the filter, in catalogue order
};

struct RaceResult
{
    std::string filter;
    int width = 0, height = 0;
    std::string format;
    std::vector<RaceEntry> entries; // in the order they ran
    bool cancelled = false;
    double copyGBps = 0;        // the device's copy bandwidth (0: not measured)
    double memoryFloorMs = -1;  // bytes the filter must move / copy bandwidth: no kernel can beat it
    // The CPU to beat: the fastest real CPU row of the run (OpenCV on every thread where built, else our
    // multi-threaded code), never the single-threaded checking reference. "N x faster than ..." names it.
    double cpuReferenceMs = -1;
    std::string cpuReferenceName;  // its entry name (opencv_cpu, cpu_multi)
    std::string cpuReferenceTitle; // in a sentence: "OpenCV on 2 CPU threads", "our C++ code on 2 CPU threads"
    std::string deviceName;        // the OpenCL device the variants ran on
    DeviceKind deviceKind = DeviceKind::Other;
    std::string platformName;

    // Entry indices, fastest first by the metric; entries that did not run follow in run order.
    std::vector<int> ranking(RaceMetric metric) const;
    // The fastest entry that ran (-1: none).
    int winner(RaceMetric metric) const;
    // cpuReferenceMs / the entry's time (0 when either is unknown).
    double speedup(const RaceEntry &entry, RaceMetric metric) const;
    // "12x faster than OpenCV on 2 CPU threads" for the entry; empty for the CPU to beat itself, the
    // checking reference and entries that did not run.
    std::string speedupSentence(const RaceEntry &entry, RaceMetric metric) const;
    // Empty, or sameProcessorNote() when the OpenCL device is this same processor.
    std::string sameProcessorNote() const;
    // Sets cpuReferenceMs/Name/Title from the entries so far (the fastest CPU row but the reference).
    void pickCpuToBeat();
};

// Called after each entry ends (done of total, 1-based).
using RaceProgress = std::function<void(const RaceEntry &entry, int done, int total)>;
// Called before each piece of work starts, so that a front end can say what it waits for: the copy-speed
// probe (index 0, name "copy_bandwidth"), then each entry (name, title, baseline and onHost set, no
// result yet; index 1-based, of total).
using RaceStep = std::function<void(const RaceEntry &upcoming, int index, int total)>;

// Number of entries a race will run (for a progress bar before it starts).
int raceEntryCount(const FilterSpec &filter, const FilterParams &params, const RaceOptions &options);

// Runs the race: CPU rows first (the single-threaded one is also the check's oracle, so every later
// run finds it cached), then each variant, then OpenCV. Checks `cancel` between runs; a cancelled
// race keeps the entries that finished. Never throws for a failing variant (its entry holds the error).
RaceResult runRace(Session &session, const Image &input, const RunRequest &request, const RaceOptions &options,
                   const std::atomic<bool> *cancel = nullptr, const RaceProgress &progress = {},
                   const RaceStep &step = {});

// "12x faster than <against>", "about as fast as <against>", "3.1x slower than <against>" (x is
// U+00D7); against names the CPU code compared with ("OpenCV on 2 CPU threads").
std::string speedupWords(double speedup, const std::string &against = "the CPU");

// One sentence on why an entry is as fast as it is: the variant's plain words when it has them, else
// the first sentence of its description; for CPU and OpenCV rows what they are.
std::string raceWhy(const std::string &filter, const RaceEntry &entry);

// The race as JSON: filter, image, metric, copy bandwidth, memory floor, CPU reference, and the rows
// fastest first (each a runResultJson plus rank, race_ms and speedup_vs_cpu_race).
Json raceJson(const RaceResult &race, RaceMetric metric);

} // namespace fwb
