// Race: every variant of a filter plus the CPU and OpenCV rows on one image, ranked (see Race.h).
#include "Race.h"

#include "CpuReference.h"
#include "NppBaseline.h"
#include "ResultJson.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <thread>

namespace fwb {

const char *raceMetricName(RaceMetric metric)
{
    return metric == RaceMetric::KernelOnly ? "kernel" : "end_to_end";
}

double RaceEntry::timeMs(RaceMetric metric) const
{
    if (!ok())
        return -1;
    if (metric == RaceMetric::KernelOnly || onHost || result.totalMs <= 0)
        return result.kernelMs.median;
    return result.totalMs;
}

EndToEndParts endToEndParts(const RunResult &r)
{
    EndToEndParts p;
    if (!r.ok())
        return p;
    p.copyInMs = std::max(0.0, r.uploadMs);
    p.filterMs = std::max(0.0, r.kernelMs.median);
    p.copyOutMs = std::max(0.0, r.downloadMs);
    const double whole = r.totalMs + (r.transfer == "pinned" ? r.stagingMs : 0.0);
    p.otherMs = std::max(0.0, whole - p.copyInMs - p.filterMs - p.copyOutMs);
    return p;
}

std::vector<int> RaceResult::ranking(RaceMetric metric) const
{
    std::vector<int> order(entries.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = int(i);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const double ta = entries[a].timeMs(metric), tb = entries[b].timeMs(metric);
        if ((ta > 0) != (tb > 0))
            return ta > 0;
        if (ta <= 0)
            return false;
        // Kernel only: the device's versions race each other; the CPU rows (whole times) come after.
        if (metric == RaceMetric::KernelOnly && entries[a].onDevice() != entries[b].onDevice())
            return entries[a].onDevice();
        return ta < tb;
    });
    return order;
}

int RaceResult::winner(RaceMetric metric) const
{
    for (int i : ranking(metric)) // the checking reference is not in the race
        if (entries[i].timeMs(metric) > 0 && !entries[i].isCheckingReference()
            && (metric == RaceMetric::EndToEnd || entries[i].onDevice()))
            return i;
    return -1;
}

int RaceResult::cpuToBeat() const
{
    for (std::size_t i = 0; i < entries.size(); ++i)
        if (entries[i].name == cpuReferenceName && entries[i].onHost && entries[i].ok())
            return int(i);
    return -1;
}

double RaceResult::speedup(const RaceEntry &entry, RaceMetric metric) const
{
    if (metric == RaceMetric::KernelOnly && entry.onDevice())
        return 0;
    const double t = entry.timeMs(metric);
    return t > 0 && cpuReferenceMs > 0 ? cpuReferenceMs / t : 0;
}

std::string RaceResult::speedupSentence(const RaceEntry &entry, RaceMetric metric) const
{
    if (entry.isCheckingReference() || entry.name == cpuReferenceName || cpuReferenceTitle.empty())
        return {};
    return speedupWords(speedup(entry, metric), cpuReferenceTitle);
}

std::string RaceResult::versusFastestWords(const RaceEntry &entry) const
{
    const int best = deviceWinner();
    if (best < 0 || !entry.onDevice() || &entry == &entries[best])
        return {};
    const double t = entry.timeMs(RaceMetric::KernelOnly), fastest = entries[best].timeMs(RaceMetric::KernelOnly);
    if (t <= 0 || fastest <= 0)
        return {};
    const double ratio = t / fastest;
    char text[64];
    if (ratio < 1.05)
        std::snprintf(text, sizeof text, "about as fast as the fastest");
    else
        std::snprintf(text, sizeof text, ratio >= 10 ? "%.0f\u00d7 as long as the fastest" : "%.1f\u00d7 as long as the fastest",
                      ratio);
    return text;
}

void RaceResult::measureSharedCopy()
{
    std::vector<double> copies;
    for (const RaceEntry &e : entries)
        if (e.onDevice() && !e.baseline && e.ok() && e.result.totalMs > 0) {
            const EndToEndParts p = endToEndParts(e.result); // the copy commands themselves (profiling events)
            copies.push_back(p.copyInMs + p.copyOutMs);
        }
    sharedCopyRuns = int(copies.size());
    if (copies.empty()) {
        sharedCopyMs = sharedCopyMinMs = sharedCopyMaxMs = -1;
        return;
    }
    std::sort(copies.begin(), copies.end());
    const std::size_t n = copies.size();
    sharedCopyMs = n % 2 ? copies[n / 2] : 0.5 * (copies[n / 2 - 1] + copies[n / 2]);
    sharedCopyMinMs = copies.front();
    sharedCopyMaxMs = copies.back();
}

namespace {

// "2.10 ms", "27.9 ms", "0.164 ms": three significant figures, as the charts print them.
std::string msWords(double ms)
{
    if (ms < 0.0005) // "0.000 ms" reads as nothing at all
        return "under 0.001 ms";
    // Under a millisecond three significant digits, not three decimals: a reader divides the times in the
    // sentence by each other, and 0.004 for 0.0043 ms made "44x" read as 47x.
    char text[32];
    std::snprintf(text, sizeof text, ms >= 100 ? "%.0f ms" : ms >= 10 ? "%.1f ms" : ms >= 1 ? "%.2f ms" : "%.3g ms", ms);
    return text;
}

// The copies differ by more than a quarter (and a twentieth of a millisecond) between the versions.
bool copiesDiffer(const RaceResult &race)
{
    return race.sharedCopyMaxMs > 1.25 * race.sharedCopyMinMs && race.sharedCopyMaxMs - race.sharedCopyMinMs > 0.05;
}

} // namespace

std::string RaceResult::sharedCopySentence() const
{
    if (sharedCopyMs < 0)
        return {};
    if (sharedCopyRuns > 1 && copiesDiffer(*this))
        return "Moving the picture to the device and back takes between " + msWords(sharedCopyMinMs) + " and "
               + msWords(sharedCopyMaxMs) + ", depending on the version (" + msWords(sharedCopyMs) + " in the middle)";
    return "Moving the picture to the device and back takes " + std::string(sharedCopyMs < 0.0005 ? "" : "about ")
           + msWords(sharedCopyMs)
           + (sharedCopyRuns > 1 ? ", the same for every version" : "");
}

double RaceResult::bestEndToEndMs() const
{
    const int best = deviceWinner();
    return best >= 0 ? endToEndParts(entries[best].result).total() : -1;
}

namespace {

std::string verdictAgainstCpu(const RaceResult &race, double ms)
{
    if (ms <= 0 || race.cpuReferenceMs <= 0 || race.cpuReferenceTitle.empty())
        return {};
    return speedupWords(race.cpuReferenceMs / ms, race.cpuReferenceTitle + " (" + msWords(race.cpuReferenceMs) + ")");
}

} // namespace

std::string RaceResult::endToEndSentence() const
{
    const double ms = bestEndToEndMs();
    const std::string against = verdictAgainstCpu(*this, ms);
    if (against.empty())
        return {};
    return "End to end, copies included, the fastest version takes " + msWords(ms) + ": " + against + ".";
}

std::string RaceResult::pinnedSentence() const
{
    if (!pinnedWinner.ok())
        return {};
    const double ms = endToEndParts(pinnedWinner).total();
    const std::string against = verdictAgainstCpu(*this, ms);
    if (against.empty())
        return {};
    return "With page-locked memory it takes " + msWords(ms) + ": " + against + ".";
}

std::string RaceResult::outputSentence() const
{
    for (const RaceEntry &e : entries)
        if (e.onDevice() && !e.baseline && !e.result.outputNote.empty())
            return "The versions on the device write 16-bit numbers, 2 bytes a pixel (what NPP and OpenCV give); "
                   "the CPU rows end with the 8-bit picture, 1 byte a pixel, the picture every row shows";
    return {};
}

std::string RaceResult::sameProcessorNote() const
{
    return fwb::sameProcessorNote(deviceKind, platformName);
}

namespace {

std::string cpuThreadsWords(int threads)
{
    return std::to_string(threads) + (threads == 1 ? " CPU thread" : " CPU threads");
}

} // namespace

void RaceResult::pickCpuToBeat()
{
    cpuReferenceMs = -1;
    cpuReferenceName.clear();
    cpuReferenceTitle.clear();
    const RaceEntry *best = nullptr;
    for (const RaceEntry &e : entries)
        if (e.onHost && !e.isCheckingReference() && e.ok()
            && (!best || e.result.kernelMs.median < best->result.kernelMs.median))
            best = &e;
    cpuReferenceMeasurements = 0;
    if (best) {
        cpuReferenceMs = best->result.kernelMs.median;
        cpuReferenceMeasurements = cpuRowTiming(best->result).measurements;
        cpuReferenceName = best->name;
        cpuReferenceTitle = (best->name == "opencv_cpu" ? "OpenCV on " : "our C++ code on ")
                            + cpuThreadsWords(std::max(1, best->result.cpuThreads));
        return;
    }
    for (const RaceEntry &e : entries) // no CPU row ran: the runs' own fastest-CPU figure (never cpu_single)
        if (e.result.cpuBestMs > 0) {
            cpuReferenceMs = e.result.cpuBestMs;
            cpuReferenceMeasurements = e.result.cpuMeasurements;
            cpuReferenceName = e.result.cpuBestLabel;
            const bool openCv = e.result.cpuBestLabel.rfind("OpenCV", 0) == 0;
            cpuReferenceTitle = (openCv ? "OpenCV on " : "our C++ code on ")
                                + cpuThreadsWords(std::max(1, e.result.cpuThreads));
            return;
        }
}

bool RaceResult::refreshCpuFigures()
{
    bool changed = false;
    for (RaceEntry &e : entries)
        changed = fwb::refreshCpuFigures(e.result) || changed;
    changed = fwb::refreshCpuFigures(pinnedWinner) || changed;
    const double ms = cpuReferenceMs;
    const std::string name = cpuReferenceName;
    const int measurements = cpuReferenceMeasurements;
    pickCpuToBeat();
    return changed || ms != cpuReferenceMs || name != cpuReferenceName || measurements != cpuReferenceMeasurements;
}

namespace {

bool cancelled(const std::atomic<bool> *cancel)
{
    return cancel && cancel->load(std::memory_order_relaxed);
}

bool openCvHas(const FilterSpec &filter, const FilterParams &params)
{
    // Same rule as filter-bench run: rows for every filter OpenCV has an equivalent of (an unsupported
    // format or border still gets its row, saying why).
    return openCvUnsupportedReason(filter, params).find("no equivalent") == std::string::npos;
}

std::string threadWord(int threads)
{
    return std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

// The single thread is the checking reference, named for what it is (issue 24: it was shown as
// "CPU, 1 thread", as if it were the processor's speed on one core).
std::string cpuTitle(int threads)
{
    return threads == 1 ? "Reference: plain C++, 1 thread" : "Our C++ code, " + threadWord(threads);
}

// A CPU row: our plain reference on one thread, or our fast path on every thread.
RaceEntry cpuEntry(Session &session, const Image &src, const FilterSpec &filter, const RunRequest &request,
                   int threads, bool *cached = nullptr)
{
    RaceEntry e;
    e.name = threads == 1 ? "cpu_single" : "cpu_multi";
    e.title = cpuTitle(threads);
    e.baseline = true;
    e.onHost = true;
    RunResult &r = e.result;
    r.filter = filter.name;
    r.variant = e.name;
    r.device = e.title;
    r.deviceSpec = "cpu";
    r.baseline = true;
    r.baselineCall = threads == 1 ? "the plain C++ reference (the check's oracle), one thread"
                                  : "the fast C++ path on every thread";
    r.format = formatName(request.params.format);
    if (filter.hasBorder)
        r.border = borderModeName(request.params.border);
    for (const ParamSpec &p : filter.params)
        r.params[p.key] = filter.param(request.params, p.key);
    r.cpuThreads = threads;
    try {
        double ms = 0;
        const int before = cpuReferenceComputations(threads);
        Image out = session.cpuReference(src, filter, request.params, threads, &ms);
        if (cached)
            *cached = cpuReferenceComputations(threads) == before;
        if (request.keepOutput) // the window shows it, and diffs every other row against cpu_single's
            r.output = std::move(out);
        r.kernelMs = Stats{ms, ms, ms};
        r.totalMs = ms;
        (threads == 1 ? r.cpuSingleMs : r.cpuMultiMs) = ms;
        r.bytesMoved = 2.0 * double(src.sizeBytes());
        if (ms > 0) {
            r.mpixPerS = double(src.width()) * double(src.height()) / (ms * 1e-3) / 1e6;
            r.gbps = r.bytesMoved / (ms * 1e-3) / 1e9;
        }
        r.cpuWork = cpuWorkKey(filter, request.params, src.width(), src.height());
        refreshCpuFigures(r); // its time over the spread of every measurement of it (CpuTimings.h)
        r.checked = true; // the reference itself, or checked against it by the test suites
        r.matches = true;
        r.maxAbsDiff = 0;
    } catch (const std::exception &ex) {
        r.error = ex.what();
    }
    return e;
}

} // namespace

int raceEntryCount(const FilterSpec &filter, const FilterParams &params, const RaceOptions &options)
{
    return raceRacerCount(filter, params, options) + (options.cpuRows ? 1 : 0);
}

int raceRacerCount(const FilterSpec &filter, const FilterParams &params, const RaceOptions &options)
{
    int n = options.variants.empty() ? int(filter.variants.size()) : int(options.variants.size());
    if (options.cpuRows)
        n += 1; // cpu_multi; cpu_single is the checking reference, not a racer
    if (options.baselines && openCvHas(filter, params))
        n += 2;
    return n;
}

RaceResult runRace(Session &session, const Image &input, const RunRequest &base, const RaceOptions &options,
                   const std::atomic<bool> *cancel, const RaceProgress &progress, const RaceStep &step)
{
    RaceResult race;
    race.filter = base.filter;
    race.width = input.width();
    race.height = input.height();
    race.format = formatName(base.params.format);
    race.deviceName = session.device().name;
    race.deviceKind = session.device().kind;
    race.platformName = session.device().platformName;
    const FilterSpec *filter = findFilter(base.filter);
    if (!filter || input.isNull())
        return race;
    const int total = raceEntryCount(*filter, base.params, options);
    auto add = [&](RaceEntry entry) {
        race.entries.push_back(std::move(entry));
        if (progress)
            progress(race.entries.back(), int(race.entries.size()), total);
    };
    auto starting = [&](const std::string &name, const std::string &title, bool baseline, bool onHost) {
        if (!step)
            return;
        RaceEntry upcoming;
        upcoming.name = name;
        upcoming.title = title;
        upcoming.baseline = baseline;
        upcoming.onHost = onHost;
        const bool apart = name == "copy_bandwidth" || name == "pinned_alternative";
        step(upcoming, apart ? 0 : int(race.entries.size()) + 1, total);
    };
    const Image src = input.format() == base.params.format ? input : input.convertedTo(base.params.format);

    if (options.measureCopyBandwidth && !cancelled(cancel)) {
        starting("copy_bandwidth", "the device's copy speed", false, false);
        try {
            race.copyGBps = session.copyBandwidthGBps();
        } catch (const std::exception &) {
            race.copyGBps = 0;
        }
    }
    if (options.cpuRows) {
        const int threads = int(std::max(1u, std::thread::hardware_concurrency()));
        for (int t : {1, threads}) {
            if (cancelled(cancel))
                break;
            // The checking reference is computed once per picture and parameters in a session: a second
            // race reuses it (Session::cpuReference's cache; raceJson's reference_reused).
            starting(t == 1 ? "cpu_single" : "cpu_multi", cpuTitle(t), true, true);
            bool cached = false;
            add(cpuEntry(session, src, *filter, base, t, &cached));
            if (t == 1)
                race.referenceReused = cached;
        }
    }
    std::vector<std::string> names = options.variants;
    if (names.empty())
        for (const VariantSpec &v : filter->variants)
            names.push_back(v.name);
    // Page-locked copies start from a picture that lives in page-locked memory, copied there once before
    // the race (as the window's pinned runs and apply's decoders do): each version's end to end is then
    // its DMA copies and kernels, not a staging memcpy of the picture repeated per version. Where the
    // device gives no page-locked memory, the versions stage as before.
    const auto pinnedCopy = [&] {
        try {
            Image copy = session.pinnedImage(input.width(), input.height(), base.params.format);
            input.convertInto(copy);
            return copy;
        } catch (const std::exception &) {
            return Image();
        }
    };
    Image pinnedInput = base.transfer == TransferMode::Pinned ? pinnedCopy() : Image();
    const Image &deviceInput = pinnedInput.isNull() ? input : pinnedInput;
    for (const std::string &name : names) {
        if (cancelled(cancel))
            break;
        RunRequest request = base;
        request.variant = name;
        // End to end is end to end: every version pays its own upload (the window keeps its picture on
        // the device between runs, reuseUpload; a race run so skipped every upload after the first).
        request.reuseUpload = false;
        RaceEntry e;
        e.name = name;
        const VariantSpec *variant = filter->variant(name);
        e.title = variant ? variant->title : name;
        starting(e.name, e.title, false, false);
        e.result = session.run(deviceInput, request, cancel);
        if (e.result.cancelled)
            break;
        add(std::move(e));
    }
    if (options.baselines && openCvHas(*filter, base.params)) {
        std::vector<Baseline> baselines{Baseline::OpenCvCpu, Baseline::OpenCvTapi};
        if (!nppVersion().empty() && nppUnsupportedReason(*filter, base.params).empty())
            baselines.push_back(Baseline::Npp); // NVIDIA's own library, where built in and applicable
        for (Baseline b : baselines) {
            if (cancelled(cancel))
                break;
            RaceEntry e;
            e.name = baselineName(b);
            e.title = b == Baseline::OpenCvCpu    ? "OpenCV on the CPU"
                      : b == Baseline::OpenCvTapi ? "OpenCV through OpenCL"
                                                  : "NVIDIA's NPP library";
            e.baseline = true;
            e.onHost = b == Baseline::OpenCvCpu;
            starting(e.name, e.title, true, e.onHost);
            e.result = session.runBaseline(input, base, b, cancel);
            e.result.baseline = true;
            if (b == Baseline::OpenCvCpu && e.result.cpuThreads > 0)
                e.title += ", " + threadWord(e.result.cpuThreads);
            if (e.result.cancelled)
                break;
            add(std::move(e));
        }
    }
    race.cancelled = cancelled(cancel);

    // The end-to-end story's other half: the kernel winner once more with page-locked copies (seed 004:
    // the copies decide), unless the race ran pinned already.
    const int best = race.deviceWinner();
    if (options.pinnedAlternative && !race.cancelled && best >= 0 && base.transfer == TransferMode::Pageable
        && !race.entries[best].baseline) {
        starting("pinned_alternative", race.entries[best].title + " with page-locked memory", false, false);
        RunRequest pinned = base;
        pinned.variant = race.entries[best].name;
        pinned.transfer = TransferMode::Pinned;
        pinned.keepOutput = false;
        pinned.reuseUpload = false;
        const Image copy = pinnedCopy(); // the picture in page-locked memory, as in a pinned race
        race.pinnedWinner = session.run(copy.isNull() ? input : copy, pinned, cancel);
        if (race.pinnedWinner.cancelled)
            race.cancelled = true;
    }

    // The CPU rows ran first; the runs and OpenCV's row after them may have measured the same CPU code
    // again: every figure as the store has it now, one CPU time in every row and sentence.
    race.refreshCpuFigures();
    race.measureSharedCopy();
    for (const RaceEntry &e : race.entries) {
        if (race.memoryFloorMs < 0 && !e.onHost && e.ok() && e.result.bytesMoved > 0 && race.copyGBps > 0)
            race.memoryFloorMs = e.result.bytesMoved / (race.copyGBps * 1e9) * 1e3;
    }
    return race;
}

std::string speedupWords(double speedup, const std::string &against)
{
    if (speedup <= 0)
        return {};
    char text[64];
    if (speedup >= 1.15) {
        std::snprintf(text, sizeof text, speedup >= 10 ? "%.0f\u00d7 faster than " : "%.1f\u00d7 faster than ", speedup);
    } else if (speedup > 1 / 1.15) {
        std::snprintf(text, sizeof text, "about as fast as ");
    } else {
        const double slower = 1 / speedup;
        std::snprintf(text, sizeof text, slower >= 10 ? "%.0f\u00d7 slower than " : "%.1f\u00d7 slower than ", slower);
    }
    return text + against;
}

std::string raceWhy(const std::string &filterName, const RaceEntry &entry)
{
    if (entry.name == "cpu_single")
        return "Plain C++ on one core, written to be obviously right, not fast: every other result is checked "
               "against it. It is not in the race.";
    if (entry.name == "cpu_multi")
        return "Our own C++ code on the main processor, every core sharing the picture.";
    if (entry.name == "opencv_cpu")
        return "OpenCV, the standard image library, on every core of the main processor.";
    if (entry.name == "opencv_tapi")
        return "OpenCV, the standard image library, running its own graphics-processor code.";
    const FilterSpec *filter = findFilter(filterName);
    const VariantSpec *variant = filter ? filter->variant(entry.name) : nullptr;
    if (!variant)
        return {};
    if (!variant->plainWords.empty())
        return variant->plainWords;
    const std::string &d = variant->description;
    std::size_t end = d.find(". ");
    return end == std::string::npos ? d : d.substr(0, end + 1);
}

Json raceJson(const RaceResult &race, RaceMetric metric)
{
    Json j = Json::object();
    j["filter"] = race.filter;
    j["image"] = Json::object({{"width", race.width}, {"height", race.height}, {"format", race.format}});
    j["metric"] = raceMetricName(metric);
    j["cancelled"] = race.cancelled;
    j["copy_gbps"] = jsonNumber(race.copyGBps);
    j["memory_floor_ms"] = race.memoryFloorMs > 0 ? jsonNumber(race.memoryFloorMs) : Json();
    j["cpu_reference_ms"] = race.cpuReferenceMs > 0 ? jsonNumber(race.cpuReferenceMs) : Json();
    j["cpu_reference"] = race.cpuReferenceName;
    j["cpu_reference_title"] = race.cpuReferenceTitle;
    j["cpu_reference_measurements"] = race.cpuReferenceMeasurements;
    j["device"] = race.deviceName;
    if (const std::string note = race.sameProcessorNote(); !note.empty())
        j["same_processor_note"] = note;
    const int win = race.winner(metric);
    j["winner"] = win >= 0 ? Json(race.entries[win].name) : Json();
    j["reference_reused"] = race.referenceReused;
    Json copies = Json::object();
    copies["median_ms"] = race.sharedCopyMs > 0 ? jsonNumber(race.sharedCopyMs) : Json();
    copies["min_ms"] = race.sharedCopyMinMs > 0 ? jsonNumber(race.sharedCopyMinMs) : Json();
    copies["max_ms"] = race.sharedCopyMaxMs > 0 ? jsonNumber(race.sharedCopyMaxMs) : Json();
    copies["versions"] = race.sharedCopyRuns;
    copies["sentence"] = race.sharedCopySentence();
    j["copies"] = std::move(copies);
    if (const std::string output = race.outputSentence(); !output.empty())
        j["output_sentence"] = output;
    auto partsJson = [](const RunResult &r) {
        const EndToEndParts p = endToEndParts(r);
        return Json::object({{"variant", r.variant},
                             {"transfer", r.transfer},
                             {"ms", jsonNumber(p.total())},
                             {"copy_in_ms", jsonNumber(p.copyInMs)},
                             {"filter_ms", jsonNumber(p.filterMs)},
                             {"copy_out_ms", jsonNumber(p.copyOutMs)},
                             {"other_ms", jsonNumber(p.otherMs)}});
    };
    Json verdict = Json::object();
    const int best = race.deviceWinner();
    if (best >= 0) {
        verdict = partsJson(race.entries[best].result);
        verdict["cpu_ms"] = race.cpuReferenceMs > 0 ? jsonNumber(race.cpuReferenceMs) : Json();
        verdict["cpu"] = race.cpuReferenceTitle;
        verdict["speedup_vs_cpu"] = race.cpuReferenceMs > 0 ? jsonNumber(race.cpuReferenceMs / race.bestEndToEndMs()) : Json();
        verdict["sentence"] = race.endToEndSentence();
        if (race.pinnedWinner.ok()) {
            Json pinned = partsJson(race.pinnedWinner);
            const double ms = endToEndParts(race.pinnedWinner).total();
            pinned["speedup_vs_cpu"] = race.cpuReferenceMs > 0 ? jsonNumber(race.cpuReferenceMs / ms) : Json();
            pinned["sentence"] = race.pinnedSentence();
            verdict["pinned"] = std::move(pinned);
        }
    }
    j["end_to_end"] = best >= 0 ? verdict : Json();
    Json &rows = j["results"] = Json::array();
    int rank = 0;
    for (int i : race.ranking(metric)) {
        const RaceEntry &e = race.entries[i];
        Json row = runResultJson(e.result);
        const double t = e.timeMs(metric);
        row["rank"] = t > 0 ? Json(++rank) : Json();
        row["title"] = e.title;
        row["baseline"] = e.baseline;
        row["race_ms"] = t > 0 ? jsonNumber(t) : Json();
        row["speedup_vs_cpu_race"] = race.speedup(e, metric) > 0 ? jsonNumber(race.speedup(e, metric)) : Json();
        if (metric == RaceMetric::KernelOnly && e.onDevice() && t > 0 && race.deviceWinner() >= 0)
            row["times_fastest"] = jsonNumber(t / race.entries[race.deviceWinner()].timeMs(metric));
        row["why"] = raceWhy(race.filter, e);
        rows.push_back(std::move(row));
    }
    return j;
}

} // namespace fwb
