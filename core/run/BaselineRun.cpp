// CPU baselines: the checking reference (cached per image and parameters) and OpenCV's rows.
#include "runtime/SessionImpl.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
#include <new>
#include <set>
#include <thread>

namespace fwb {

using namespace runtime;

namespace {

// Copies the pixels within `margin` of an edge from `from` into `to` (same size and format).
void copyBorder(const Image &from, Image &to, int margin)
{
    const std::size_t ch = std::size_t(from.channels());
    for (int y = 0; y < from.height(); ++y) {
        const bool edgeRow = y < margin || y >= from.height() - margin;
        for (int x = 0; x < from.width(); ++x)
            if (edgeRow || x < margin || x >= from.width() - margin)
                std::memcpy(to.row(y) + std::size_t(x) * ch, from.row(y) + std::size_t(x) * ch, ch);
    }
}

// The image a CPU path of `filter` writes into: the input's size (transposed for a transpose), or a copy of
// the input for the filters that leave its edges.
Image blankOutput(const FilterSpec &filter, const Image &src)
{
    if (filter.copySourceToDst)
        return src;
    return filter.transposesOutput ? Image(src.height(), src.width(), src.format())
                                   : Image(src.width(), src.height(), src.format());
}

} // namespace

void deliverFirstOutput(Session &session, int cpuThreads, const Image &src, Image &out, const std::uint8_t *downloaded,
                        const FilterSpec &filter, const RunRequest &request, const RunResult &sofar,
                        const Session::FirstOutput &firstOutput)
{
    if (downloaded != out.data()) // pinned staging: the last repeat's copy is the one timed (stagingMs)
        std::memcpy(out.data(), downloaded, out.sizeBytes());
    RunResult r = sofar;
    Image reference;
    if (request.check) {
        // The oracle's bytes on every thread (checkReference()): the multi-threaded reference where it is
        // bit-identical to the single-threaded oracle (tst_cpureference), which run() computes anyway (as
        // the speed-up's CPU time); cached, so the timings after the repeats are the ones it measured here.
        // Else the family's exact path (cpuExact), cached too.
        const int threads = cpuThreads > 0 ? cpuThreads : int(std::max(1u, std::thread::hardware_concurrency()));
        reference = session.checkReference(src, filter, request.params, threads);
        r.checked = true;
        r.maxAbsDiff = maxAbsDiff(out, reference, &r.meanAbsDiff);
        r.matches = r.maxAbsDiff >= 0 && r.maxAbsDiff <= filter.tolerance;
    }
    firstOutput(out, reference, r);
}

Image Session::cpuReference(const Image &input, const FilterSpec &filter, const FilterParams &params, int threads,
                            double *ms)
{
    // The multi-threaded CPU code is the speed-ups' baseline, so it is timed as the rows are: its first
    // call (which also faults in the output's pages and wakes the pool's threads) is a warm-up, and the
    // time is the median of up to five calls after it, into a scratch image (fewer when they take over a
    // quarter second together; at least two). One cold call read up to 2.5x slow on 16 threads at 1920x1080.
    // Each such measurement goes into the process's CPU timing store, and every time handed out is the
    // store's figure for the work (the best median so far: CpuTimings.h), whichever session measured it.
    // The single-threaded reference's one call is its measurement (the oracle, timed as it is computed).
    const std::string work = cpuWorkKey(filter, params, input.width(), input.height());
    const CpuCode code = threads > 1 ? CpuCode::Ours : CpuCode::Reference;
    auto timeCpuSteadily = [&](Impl::CpuEntry &entry, const Image &src) { // src in params.format
        Image scratch = filter.copySourceToDst ? src : entry.output;
        std::vector<double> times;
        double spent = 0;
        while (times.size() < 5 && (times.size() < 2 || spent < 250.0)) {
            const auto start = Clock::now();
            filter.cpuReference(src, scratch, params, threads);
            times.push_back(msBetween(start, Clock::now()));
            spent += times.back();
        }
        entry.ms = Stats::of(times).median;
        entry.steady = true;
        cpuTimings().add(work, threads, code, times);
    };
    auto storeFigure = [&](const Impl::CpuEntry &entry) {
        const CpuTiming t = cpuTimings().find(work, threads, code);
        return t.known() ? t.ms : entry.ms;
    };
    const std::string key = Impl::cpuKey(input, filter, params, threads);
    if (auto it = d->cpuCache.find(key); it != d->cpuCache.end()) {
        if (ms && threads > 1 && !it->second.steady)
            timeCpuSteadily(it->second, input.format() == params.format ? input : input.convertedTo(params.format));
        if (ms)
            *ms = storeFigure(it->second);
        return it->second.output;
    }
    Image src = input.format() == params.format ? input : input.convertedTo(params.format);
    Image dst = blankOutput(filter, src);
    const auto start = Clock::now();
    filter.cpuReference(src, dst, params, threads);
    Impl::CpuEntry &entry = d->storeCpu(input.contentHash(), key, {dst, msBetween(start, Clock::now()), false});
    countCpuReferenceComputation(threads);
    if (threads == 1)
        cpuTimings().add(work, 1, CpuCode::Reference, {entry.ms});
    else if (ms) // a speed baseline: timed like the rows it is compared with
        timeCpuSteadily(entry, src);
    if (ms)
        *ms = storeFigure(entry);
    return dst;
}

Image Session::checkReference(const Image &input, const FilterSpec &filter, const FilterParams &params, int threads)
{
    if (!filter.cpuExact || threads <= 1) // the single-threaded reference is the oracle itself
        return cpuReference(input, filter, params, threads, nullptr);
    const std::string key = Impl::cpuKey(input, filter, params, threads) + "/exact";
    if (auto it = d->cpuCache.find(key); it != d->cpuCache.end())
        return it->second.output;
    const Image src = input.format() == params.format ? input : input.convertedTo(params.format);
    Image dst = blankOutput(filter, src);
    filter.oracleBytes(src, dst, params, threads);
    d->storeCpu(input.contentHash(), key, {dst, 0.0, false});
    return dst;
}

void setCpuBest(RunResult &r, double openCvCpuMs)
{
    const std::string threads = std::to_string(r.cpuThreads) + (r.cpuThreads == 1 ? " thread" : " threads");
    r.cpuBestMs = r.cpuMultiMs;
    r.cpuBestLabel = "ours, " + threads;
    if (openCvCpuMs > 0) {
        r.openCvCpuMs = openCvCpuMs;
        if (r.cpuBestMs <= 0 || openCvCpuMs < r.cpuBestMs) {
            r.cpuBestMs = openCvCpuMs;
            r.cpuBestLabel = openCvVersion() + ", " + threads;
        }
    }
    r.speedupVsCpu = r.kernelMs.median > 0 && r.cpuBestMs > 0 ? r.cpuBestMs / r.kernelMs.median : 0;
    r.speedupTotalVsCpu = r.totalMs > 0 && r.cpuBestMs > 0 ? r.cpuBestMs / r.totalMs : 0;
}

std::optional<std::pair<CpuCode, int>> cpuRowCode(const RunResult &r)
{
    if (r.deviceSpec == "cpu-multi") // the window's CPU engines (ComputeWorker::executeOnCpu)
        return std::pair{CpuCode::Ours, r.cpuThreads};
    if (r.deviceSpec == "cpu-single")
        return std::pair{CpuCode::Reference, 1};
    if (!r.baseline)
        return std::nullopt;
    if (r.variant == "cpu_single")
        return std::pair{CpuCode::Reference, 1};
    if (r.variant == "cpu_multi")
        return std::pair{CpuCode::Ours, r.cpuThreads};
    if (r.variant == baselineName(Baseline::OpenCvCpu))
        return std::pair{CpuCode::OpenCv, r.cpuThreads};
    return std::nullopt;
}

CpuTiming cpuRowTiming(const RunResult &r)
{
    const auto code = cpuRowCode(r);
    return code && !r.cpuWork.empty() ? cpuTimings().find(r.cpuWork, code->second, code->first) : CpuTiming{};
}

bool refreshCpuFigures(RunResult &r)
{
    if (r.cpuWork.empty())
        return false;
    const double multi = r.cpuMultiMs, single = r.cpuSingleMs, openCv = r.openCvCpuMs, own = r.kernelMs.median;
    const int measurements = r.cpuMeasurements;
    const CpuTimings &store = cpuTimings();
    const CpuTiming ours = store.find(r.cpuWork, r.cpuThreads, CpuCode::Ours);
    const CpuTiming ocv = store.find(r.cpuWork, r.cpuThreads, CpuCode::OpenCv);
    const CpuTiming reference = store.find(r.cpuWork, 1, CpuCode::Reference);
    if (r.cpuMultiMs > 0 && ours.known())
        r.cpuMultiMs = ours.ms;
    if (r.cpuSingleMs > 0 && reference.known())
        r.cpuSingleMs = reference.ms;
    if (r.openCvCpuMs > 0 && ocv.known())
        r.openCvCpuMs = ocv.ms;
    // A host CPU row's own time is its code's figure: the median the best, the spread over every sample.
    if (const CpuTiming row = cpuRowTiming(r); row.known() && r.ok()) {
        const double before = r.kernelMs.median;
        r.kernelMs = Stats{row.minMs, row.ms, row.maxMs};
        r.totalMs = std::max(0.0, r.uploadMs) + row.ms + std::max(0.0, r.downloadMs);
        if (before > 0) { // the same pixels and bytes in another time
            r.mpixPerS *= before / row.ms;
            r.gbps *= before / row.ms;
        }
    }
    if (r.cpuBestMs > 0 || !cpuRowCode(r)) // a race's CPU rows have no "fastest CPU" of their own
        setCpuBest(r, r.openCvCpuMs);
    r.cpuMeasurements = r.cpuBestMs <= 0                                       ? 0
                        : r.openCvCpuMs > 0 && r.cpuBestMs == r.openCvCpuMs ? ocv.measurements
                                                                            : ours.measurements;
    return multi != r.cpuMultiMs || single != r.cpuSingleMs || openCv != r.openCvCpuMs || own != r.kernelMs.median
           || measurements != r.cpuMeasurements;
}

RunResult Session::runBaseline(const Image &input, const RunRequest &request, Baseline baseline,
                               const std::atomic<bool> *cancel)
{
    RunResult r;
    r.filter = request.filter;
    r.variant = baselineName(baseline);
    r.baseline = true;
    r.deviceSpec = d->info.spec();
    r.local = LocalSize::driverChoice();
    r.localSource = LocalSource::Driver;
    r.transfer = baseline == Baseline::OpenCvCpu ? "none" : "pageable";
    const FilterSpec *filter = findFilter(request.filter);
    if (!filter) {
        r.error = "unknown filter '" + request.filter + "'";
        return r;
    }
    r.tolerance = std::max(filter->openCv.tolerance, filter->tolerance); // the family states OpenCV's rounding
    for (const ParamSpec &p : filter->params)
        r.params[p.key] = filter->param(request.params, p.key);
    r.format = formatName(request.params.format);
    if (filter->hasBorder)
        r.border = borderModeName(request.params.border);
    const int threads = d->options.cpuThreads > 0 ? d->options.cpuThreads
                                                  : int(std::max(1u, std::thread::hardware_concurrency()));
    r.device = baseline == Baseline::OpenCvCpu ? "CPU, " + std::to_string(threads) + " threads" : d->info.name;
    if (input.isNull()) {
        r.error = "no input image";
        return r;
    }
    if (cancel && cancel->load(std::memory_order_relaxed)) {
        r.cancelled = true;
        r.error = "run cancelled";
        return r;
    }
    try {
        const Image src = input.format() == request.params.format ? input : input.convertedTo(request.params.format);
        OpenCvRun run;
        if (baseline == Baseline::OpenCvCpu) {
            run = runOpenCvCpu(src, *filter, request.params, threads, request.repeat, request.warmup);
        } else if (baseline == Baseline::Npp) {
            run = runNpp(src, *filter, request.params, d->nppTarget(), request.repeat, request.warmup, request.flushCache);
            if (!run.deviceName.empty())
                r.device = run.deviceName;
        } else {
            ClHandles handles;
            cl_platform_id platform = nullptr; // plain C: CLHPP versions disagree on getInfo's type here
            clGetDeviceInfo(d->device(), CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr);
            handles.platform = platform;
            handles.context = d->context();
            handles.device = d->device();
            handles.platformName = d->info.platformName;
            run = runOpenCvTapi(src, *filter, request.params, handles, d->openCvTapi, request.repeat, request.warmup);
            if (!run.deviceName.empty())
                r.device = run.deviceName;
        }
        r.baselineCall = run.call;
        if (!run.error.empty()) {
            r.unavailable = run.unavailable;
            r.error = run.error;
            return r;
        }
        r.kernelMs = Stats::of(run.opMs);
        if (baseline == Baseline::OpenCvCpu) // a CPU measurement: into the store (fillCpuBest reads it back)
            cpuTimings().add(cpuWorkKey(*filter, request.params, src.width(), src.height()), threads, CpuCode::OpenCv,
                             run.opMs);
        r.uploadMs = run.uploadMs;
        r.downloadMs = run.downloadMs;
        r.totalMs = run.uploadMs + r.kernelMs.median + run.downloadMs;
        const std::size_t pixelBytes = src.sizeBytes();
        r.bytesMoved = double(pixelBytes) * (1.0 + double(run.outputBytesPerValue)); // NPP's Sobel writes 16-bit
        if (r.kernelMs.median > 0) {
            r.mpixPerS = double(src.width()) * double(src.height()) / (r.kernelMs.median * 1e-3) / 1e6;
            r.gbps = r.bytesMoved / (r.kernelMs.median * 1e-3) / 1e9;
        }
        r.cpuThreads = threads;
        double cpuMs = 0;
        cpuReference(src, *filter, request.params, threads, &cpuMs); // the speed baseline (cached)
        r.cpuMultiMs = cpuMs;
        d->fillCpuBest(r, src, *filter, request, threads);
        if (request.check) {
            // checkReference: `multi` itself (cached) where it is bit-identical to the oracle.
            const Image oracle = request.cpuSingle ? cpuReference(src, *filter, request.params, 1, &cpuMs)
                                                   : checkReference(src, *filter, request.params, threads);
            if (request.cpuSingle)
                r.cpuSingleMs = cpuMs;
            r.checked = true;
            if (run.interiorMargin > 0) // the library filters the interior only: compare that
                copyBorder(oracle, run.output, run.interiorMargin);
            r.maxAbsDiff = maxAbsDiff(run.output, oracle, &r.meanAbsDiff);
            r.matches = r.maxAbsDiff >= 0 && r.maxAbsDiff <= r.tolerance;
        }
        if (request.keepOutput)
            r.output = std::move(run.output);
    } catch (...) {
        recordCurrentException(r);
    }
    return r;
}

} // namespace fwb
