// The CPU timing store (core/CpuTimings): its key is the work (filter, every parameter's value, format,
// border, size: defaults filled in, the picture's content not in it), the thread count and the code; its
// figure is the best median of the measurements added (with the spread of every sample and the counts);
// adds from many threads at once lose none and the listeners hear each; refreshCpuFigures reads a run's
// and a CPU row's figures back from it (the fastest real CPU code, never the checking reference).
#include "Check.h"
#include "CpuTimings.h"
#include "Session.h"

#include <atomic>
#include <cmath>
#include <thread>
#include <vector>

using namespace fwb;

namespace {

void keying()
{
    const FilterSpec *g = findFilter("gaussian");
    const FilterSpec *m = findFilter("median3x3");
    CHECK(g && m);
    FilterParams p;
    const std::string base = cpuWorkKey(*g, p, 640, 480);
    FilterParams explicitDefault = p;
    explicitDefault.values["sigma"] = g->param(p, "sigma"); // a default named is the same work
    CHECK(cpuWorkKey(*g, explicitDefault, 640, 480) == base);
    FilterParams other = p;
    other.values["sigma"] = 3.5;
    CHECK(cpuWorkKey(*g, other, 640, 480) != base);
    CHECK(cpuWorkKey(*g, p, 480, 640) != base);
    CHECK(cpuWorkKey(*g, p, 640, 481) != base);
    FilterParams rgba = p;
    rgba.format = PixelFormat::Rgba8888;
    CHECK(cpuWorkKey(*g, rgba, 640, 480) != base);
    FilterParams border = p;
    border.border = BorderMode::Constant;
    CHECK(cpuWorkKey(*g, border, 640, 480) != base);
    CHECK(cpuWorkKey(*m, p, 640, 480) != base);

    CpuTimings store;
    store.add(base, 4, CpuCode::Ours, {2.0});
    CHECK(store.find(base, 4, CpuCode::Ours).known());
    CHECK(!store.find(base, 2, CpuCode::Ours).known());       // another thread count
    CHECK(!store.find(base, 4, CpuCode::OpenCv).known());     // another code
    CHECK(!store.find(base, 1, CpuCode::Reference).known());  // the checking reference apart
    CHECK(!store.find(cpuWorkKey(*g, other, 640, 480), 4, CpuCode::Ours).known());
}

void statistic()
{
    CpuTimings store;
    const std::string work = "w";
    CHECK(!store.find(work, 2, CpuCode::Ours).known());
    CHECK_EQ(store.find(work, 2, CpuCode::Ours).ms, -1.0);
    const std::uint64_t g0 = store.generation();
    CpuTiming t = store.add(work, 2, CpuCode::Ours, {3.0, 1.0, 2.0}); // median 2
    CHECK_EQ(t.ms, 2.0);
    CHECK_EQ(t.minMs, 1.0);
    CHECK_EQ(t.maxMs, 3.0);
    CHECK_EQ(t.measurements, 1);
    CHECK_EQ(t.samples, 3);
    CHECK(store.generation() > g0);
    t = store.add(work, 2, CpuCode::Ours, {5.0, 6.0}); // a slower measurement: the best median stays
    CHECK_EQ(t.ms, 2.0);
    CHECK_EQ(t.maxMs, 6.0);
    CHECK_EQ(t.measurements, 2);
    CHECK_EQ(t.samples, 5);
    t = store.add(work, 2, CpuCode::Ours, {1.5, 1.7, 9.0}); // median 1.7: the new best
    CHECK_EQ(t.ms, 1.7);
    CHECK_EQ(t.minMs, 1.0);
    CHECK_EQ(t.measurements, 3);
    // Nothing measured (no sample, or none above zero): nothing changes.
    const std::uint64_t g1 = store.generation();
    t = store.add(work, 2, CpuCode::Ours, {});
    t = store.add(work, 2, CpuCode::Ours, {0.0, -1.0});
    CHECK_EQ(t.measurements, 3);
    CHECK_EQ(store.generation(), g1);
    CHECK_EQ(store.find(work, 2, CpuCode::Ours).ms, 1.7);
    store.clear();
    CHECK(!store.find(work, 2, CpuCode::Ours).known());
    CHECK(cpuTimingWords(1) == "one measurement");
    CHECK(cpuTimingWords(3) == "best of 3 measurements");
}

void manyThreads()
{
    CpuTimings store;
    std::atomic<int> heard{0};
    const int id = store.listen([&] { ++heard; });
    constexpr int kThreads = 8, kAdds = 500;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&store, t] {
            for (int i = 0; i < kAdds; ++i) {
                store.add("shared", 4, CpuCode::Ours, {1.0 + (i % 7), 2.0 + t});
                store.add("own" + std::to_string(t), 4, CpuCode::OpenCv, {double(1 + i)});
                (void)store.find("shared", 4, CpuCode::Ours);
            }
        });
    for (std::thread &t : threads)
        t.join();
    const CpuTiming shared = store.find("shared", 4, CpuCode::Ours);
    CHECK_EQ(shared.measurements, kThreads * kAdds);
    CHECK_EQ(shared.samples, 2 * kThreads * kAdds);
    CHECK_EQ(shared.ms, 1.5); // median of {1, 2}: thread 0's first add
    CHECK_EQ(shared.minMs, 1.0);
    for (int t = 0; t < kThreads; ++t) {
        const CpuTiming own = store.find("own" + std::to_string(t), 4, CpuCode::OpenCv);
        CHECK_EQ(own.measurements, kAdds);
        CHECK_EQ(own.ms, 1.0);
        CHECK_EQ(own.maxMs, double(kAdds));
    }
    CHECK_EQ(heard.load(), 2 * kThreads * kAdds);
    store.unlisten(id);
    store.add("shared", 4, CpuCode::Ours, {1.0});
    CHECK_EQ(heard.load(), 2 * kThreads * kAdds);
}

// A run's CPU figures and a race's CPU row, read back from the process's store.
void refreshFromTheStore()
{
    const FilterSpec *g = findFilter("gaussian");
    CHECK(g != nullptr);
    FilterParams p;
    p.values["sigma"] = 1.25;
    const std::string work = cpuWorkKey(*g, p, 333, 222);
    CpuTimings &store = cpuTimings();
    store.add(work, 4, CpuCode::Ours, {10.0});
    store.add(work, 4, CpuCode::OpenCv, {12.0});

    RunResult run; // as a run filled it: its own measurements
    run.filter = "gaussian";
    run.variant = "separable";
    run.kernelMs = {1.0, 2.0, 3.0};
    run.totalMs = 4.0;
    run.cpuThreads = 4;
    run.cpuWork = work;
    run.cpuMultiMs = 10.0;
    run.openCvCpuMs = 12.0;
    run.cpuSingleMs = 50.0;
    setCpuBest(run, run.openCvCpuMs);
    CHECK(refreshCpuFigures(run)); // the counts were not set yet
    CHECK_EQ(run.cpuBestMs, 10.0);
    CHECK_EQ(run.cpuMeasurements, 1);
    CHECK(!refreshCpuFigures(run)); // nothing new

    // Later measurements: OpenCV faster now, ours measured again slower (the best stays).
    store.add(work, 4, CpuCode::OpenCv, {6.0, 6.0, 7.0});
    store.add(work, 4, CpuCode::Ours, {11.0});
    store.add(work, 1, CpuCode::Reference, {40.0});
    CHECK(refreshCpuFigures(run));
    CHECK_EQ(run.cpuMultiMs, 10.0);
    CHECK_EQ(run.openCvCpuMs, 6.0);
    CHECK_EQ(run.cpuSingleMs, 40.0);
    CHECK_EQ(run.cpuBestMs, 6.0); // the fastest real CPU code, never the 1-thread reference
    CHECK(run.cpuBestLabel.rfind("OpenCV", 0) == 0);
    CHECK_EQ(run.cpuMeasurements, 2);
    CHECK_EQ(run.speedupVsCpu, 3.0);
    CHECK_EQ(run.speedupTotalVsCpu, 1.5);
    CHECK_EQ(run.kernelMs.median, 2.0); // a device run's own time is its own

    RunResult row; // a race's cpu_multi row: its time is its code's figure
    row.filter = "gaussian";
    row.variant = "cpu_multi";
    row.baseline = true;
    row.cpuThreads = 4;
    row.cpuWork = work;
    row.cpuMultiMs = 11.0;
    row.kernelMs = {11.0, 11.0, 11.0};
    row.totalMs = 11.0;
    row.mpixPerS = 100.0;
    CHECK(cpuRowCode(row).has_value());
    CHECK(refreshCpuFigures(row));
    CHECK_EQ(row.kernelMs.median, 10.0);
    CHECK_EQ(row.kernelMs.min, 10.0);
    CHECK_EQ(row.kernelMs.max, 11.0);
    CHECK_EQ(row.totalMs, 10.0);
    CHECK_EQ(row.cpuMultiMs, 10.0);
    CHECK(std::abs(row.mpixPerS - 110.0) < 1e-9); // the same pixels in less time
    CHECK_EQ(row.cpuBestMs, -1.0); // a CPU row has no "fastest CPU" of its own
    CHECK_EQ(cpuRowTiming(row).measurements, 2);

    RunResult unkeyed = run; // no work key: nothing to read
    unkeyed.cpuWork.clear();
    CHECK(!refreshCpuFigures(unkeyed));
}

} // namespace

int main()
{
    keying();
    statistic();
    manyThreads();
    refreshFromTheStore();
    return fwb::plain::finish("plain_cpu_timings");
}
