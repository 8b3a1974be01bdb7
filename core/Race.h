// Race: every variant of one filter on one image, device, pixel format and parameter set, plus the
// CPU rows (the checking reference on one thread, our fast code on all threads) and OpenCV's baselines
// where built, with the words a presenter needs. The checking reference is never "the CPU" of a sentence.
//
// What is compared with what (issue 24: on an H100 the end-to-end ranking was decided by copy noise,
// 27.7-33.3 ms of copies around 0.16-0.68 ms kernels):
//   - the device's versions against each other by their filtering (kernel) time alone (the default,
//     RaceMetric::KernelOnly): moving the picture to the device and back costs every version the same,
//     and is said once (sharedCopyMs);
//   - the device against the CPU end to end: the fastest version's whole time, copies included, against
//     the fastest real CPU code's (endToEndSentence); CPU rows have no copies, so end to end is their time.
#pragma once

#include "JsonIo.h"
#include "Session.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace fwb {

enum class RaceMetric {
    KernelOnly, // the device's versions by their kernels alone (profiling events), CPU rows after them: the default
    EndToEnd,   // every row by upload + kernels + download (copy noise included)
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
    // A run on the OpenCL device (a variant, or OpenCV through OpenCL), not on the host CPU.
    bool onDevice() const { return !onHost; }
};

// One run end to end, in the parts a class can name: copying the picture to the device, filtering,
// copying it back, and the rest (the pinned mode's host copies into and out of page-locked memory,
// launches and waiting). The parts add up to total(), the run's end-to-end time.
struct EndToEndParts
{
    double copyInMs = 0, filterMs = 0, copyOutMs = 0, otherMs = 0;
    double total() const { return copyInMs + filterMs + copyOutMs + otherMs; }
};
// From a device run's medians (upload, kernels, download; totalMs plus stagingMs is the whole).
EndToEndParts endToEndParts(const RunResult &result);

struct RaceOptions
{
    bool cpuRows = true;                // cpu_single and cpu_multi rows (the single thread is slow on big images)
    bool baselines = true;              // OpenCV rows where OpenCV has the filter
    bool measureCopyBandwidth = true;   // for the memory-limit line
    bool pinnedAlternative = true;      // run the kernel winner once more with page-locked (pinned) copies
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
    // cpuReferenceMs is the CPU timing store's figure (CpuTimings.h), the best of this many measurements
    // of that code on this work in the process: a run's timing panel on the same settings shows the same.
    int cpuReferenceMeasurements = 0;
    std::string deviceName;        // the OpenCL device the variants ran on
    DeviceKind deviceKind = DeviceKind::Other;
    std::string platformName;
    // Moving the picture to the device and back, as every device version paid it (each run's upload plus
    // download): the median over the versions that ran, and the spread (-1: none ran).
    double sharedCopyMs = -1, sharedCopyMinMs = -1, sharedCopyMaxMs = -1;
    int sharedCopyRuns = 0;
    // The kernel winner run once more with page-locked copies (transfer "pinned"); not ok() when not run
    // (the race already ran pinned, the option was off, or no version ran).
    RunResult pinnedWinner;
    bool referenceReused = false; // the checking reference came from the session's cache, not computed again

    // Entry indices, fastest first by the metric; entries that did not run follow in run order. Kernel
    // only: the device's entries first (their kernels), then the CPU rows (their whole time).
    std::vector<int> ranking(RaceMetric metric) const;
    // The fastest entry that ran (-1: none); kernel only: the fastest on the device.
    int winner(RaceMetric metric) const;
    // The fastest device version by its kernels (-1: none ran): "the best version" of every sentence.
    int deviceWinner() const { return winner(RaceMetric::KernelOnly); }
    // The CPU row that is the CPU to beat (-1: none ran; its time may still come from a run's figures).
    int cpuToBeat() const;
    // Sets sharedCopy* from the device entries (median of their upload + download).
    void measureSharedCopy();
    // "Moving the picture to the device and back takes about 2.10 ms, the same for every version" (or
    // "between 1.8 and 2.6 ms, depending on the version" where they differ by more than a quarter).
    std::string sharedCopySentence() const;
    // The device winner's end-to-end time, copies included (-1: none).
    double bestEndToEndMs() const;
    // "End to end, copies included, the fastest version takes 27.9 ms: 13× slower than OpenCV on
    // 2 CPU threads (2.10 ms)." Empty without a device winner or a CPU to beat.
    std::string endToEndSentence() const;
    // The same with page-locked copies, from pinnedWinner ("With page-locked memory it takes 9.1 ms:
    // ..."); empty when it did not run.
    std::string pinnedSentence() const;
    // Where the versions on the device write another output than the picture (Sobel's 16-bit gx or gy,
    // RunResult::outputNote): that they write 2 bytes a pixel and the CPU rows end with the 8-bit picture,
    // so a CPU bar is not the same work to the byte. Empty otherwise.
    std::string outputSentence() const;
    // Kernel only, between device versions: "2.1× as long as the fastest"; empty for the fastest.
    std::string versusFastestWords(const RaceEntry &entry) const;
    // cpuReferenceMs / the entry's time (0 when either is unknown). Kernel only, a device entry: 0 (its
    // kernels alone are not compared with a CPU's whole time).
    double speedup(const RaceEntry &entry, RaceMetric metric) const;
    // "12x faster than OpenCV on 2 CPU threads" for the entry; empty for the CPU to beat itself, the
    // checking reference, entries that did not run, and (kernel only) device entries: those say
    // versusFastestWords().
    std::string speedupSentence(const RaceEntry &entry, RaceMetric metric) const;
    // Empty, or sameProcessorNote() when the OpenCL device is this same processor.
    std::string sameProcessorNote() const;
    // Sets cpuReferenceMs/Name/Title/Measurements from the entries so far (the fastest CPU row but the
    // reference).
    void pickCpuToBeat();
    // Reads every CPU figure again from the CPU timing store (refreshCpuFigures of each entry and of
    // pinnedWinner), then picks the CPU to beat again. True when something changed: a front end showing
    // the race shows it again (a later run or race measured the same CPU code faster).
    bool refreshCpuFigures();
};

// Called after each entry ends (done of total, 1-based).
using RaceProgress = std::function<void(const RaceEntry &entry, int done, int total)>;
// Called before each piece of work starts, so that a front end can say what it waits for: the copy-speed
// probe (index 0, name "copy_bandwidth"), then each entry (name, title, baseline and onHost set, no
// result yet; index 1-based, of total), then the pinned rerun of the winner (index 0, name
// "pinned_alternative").
using RaceStep = std::function<void(const RaceEntry &upcoming, int index, int total)>;

// Number of entries a race will run (for a progress bar before it starts), the checking reference
// included; raceRacerCount: the same without it (the runs that race).
int raceEntryCount(const FilterSpec &filter, const FilterParams &params, const RaceOptions &options);
int raceRacerCount(const FilterSpec &filter, const FilterParams &params, const RaceOptions &options);

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

// The race as JSON: filter, image, metric, copy bandwidth, memory floor, CPU reference (and how many
// measurements its figure is the best of: cpu_reference_measurements), the shared
// copies ("copies"), the end-to-end verdict ("end_to_end", with the pinned rerun), and the rows fastest
// first (each a runResultJson plus rank, race_ms, speedup_vs_cpu_race (null for device rows when kernel
// only) and times_fastest (kernel only, device rows: kernel / the fastest version's kernel)).
Json raceJson(const RaceResult &race, RaceMetric metric);

} // namespace fwb
