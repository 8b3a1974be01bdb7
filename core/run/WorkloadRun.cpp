// Compute workloads (matrix multiply, N-body): buffers in, passes (ping-pong between steps), buffers out.
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

RunResult Session::runWorkload(const WorkloadRequest &request, const std::atomic<bool> *cancel)
{
    RunResult r = startResult(d->info, request.workload, request.variant, request.local);
    const WorkloadSpec *workload = findWorkload(request.workload);
    if (!workload) {
        r.error = "unknown workload '" + request.workload + "'";
        return r;
    }
    r.params = workload->resolvedParams(request.params);
    r.metricName = workload->metricName;
    const VariantSpec *variant = workload->variant(request.variant);
    if (!variant) {
        r.error = "unknown variant '" + request.variant + "' of workload " + workload->name;
        return r;
    }
    if (std::string why = variantUnavailableReason(*variant, d->info, PixelFormat::Gray8); !why.empty()) {
        r.unavailable = true;
        r.error = why;
        return r;
    }
    auto cancelled = [&] { return cancel && cancel->load(std::memory_order_relaxed); };
    const auto wallStart = Clock::now();
    try {
        const WorkloadProblem problem = workload->setup(*variant, r.params);
        if (problem.passes.size() != variant->passes.size())
            throw Error("workload " + workload->name + " planned " + std::to_string(problem.passes.size())
                        + " passes for a variant with " + std::to_string(variant->passes.size()));
        std::string opts;
        for (const std::string &define : problem.defines)
            opts += " -D" + define;
        for (const std::string &define : variant->defines)
            opts += " -D" + define;
        if (request.fastMath && variant->fastMathMatters)
            opts += " -cl-fast-relaxed-math";
        r.buildOptions = opts.empty() ? opts : opts.substr(1);
        const KernelSource source = loadKernelSource(variant->kernelFile, d->options.kernelDir);
        BuildInfo build;
        cl::Program program = d->programs.get(d->context, d->device, d->info, source.text, r.buildOptions, &build);
        r.buildMs = build.buildMs;
        r.buildOrigin = programOriginName(build.origin);
        r.buildCached = build.origin != ProgramOrigin::Compiled;

        std::vector<cl::Buffer> buffers;
        for (const WorkloadBuffer &b : problem.buffers) {
            if (d->info.maxAllocSize && b.data.size() > d->info.maxAllocSize)
                throw Error("buffer " + b.name + " needs " + std::to_string(b.data.size() >> 20) + " MiB, more than this "
                            "device allows in one allocation (" + std::to_string(d->info.maxAllocSize >> 20) + " MiB)",
                            CL_INVALID_BUFFER_SIZE);
            fault::check(fault::Step::Alloc); // FWB_FAULT=alloc:N (tests), as in run()
            buffers.emplace_back(d->context, CL_MEM_READ_WRITE, std::max<std::size_t>(1, b.data.size()));
            fault::trackMemory(buffers.back());
        }
        std::vector<PassLaunch> launches;
        for (std::size_t p = 0; p < variant->passes.size(); ++p) {
            PassLaunch launch;
            launch.kernel = cl::Kernel(program, variant->passes[p].entry.c_str());
            launch.dims = problem.passes[p].dims;
            launch.global[0] = problem.passes[p].global[0];
            launch.global[1] = launch.dims == 2 ? problem.passes[p].global[1] : 1;
            LaunchLimits limits;
            limits.kernelMaxWorkGroupSize = launch.kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(d->device);
            limits.kernelLocalMem = launch.kernel.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(d->device);
            limits.dimensions = launch.dims;
            const LocalSize &required = problem.passes[p].local;
            if (required.isConcrete()) {
                // The kernel's tiles are compiled for one shape: auto launches it, anything else is refused.
                if (!request.local.isAuto() && request.local != required) {
                    r.errorCode = "invalid work-group shape";
                    throw Error("variant " + variant->name + " is compiled for work-groups of " + required.toString()
                                + " (its tile sizes); ask for auto or " + required.toString() + ", not "
                                + request.local.toString());
                }
                launch.local = required;
                launch.source = request.local.isAuto() ? LocalSource::Default : LocalSource::User;
                // A kernel compiled for exactly this shape (reqd_work_group_size) and built by the driver is
                // launched at it even where the driver's CL_KERNEL_WORK_GROUP_SIZE says less: NVIDIA's 580
                // driver reports 256 for every Compute Lab kernel tried on an H100, 512- and 1024-item builds
                // included, and runs them all correctly (docs/MEASUREMENTS.md, "Session 20"). A driver that
                // cannot launch it refuses the enqueue, and the run fails with its error.
                const auto compiled = launch.kernel.getWorkGroupInfo<CL_KERNEL_COMPILE_WORK_GROUP_SIZE>(d->device);
                if (compiled[0] == std::size_t(required.width) && compiled[1] == std::size_t(required.height)
                    && compiled[2] == 1)
                    limits.kernelMaxWorkGroupSize = std::max(limits.kernelMaxWorkGroupSize, required.items());
            } else {
                const LocalSize preferred = d->info.kind == DeviceKind::Cpu ? variant->preferredLocalCpu
                                                                            : variant->preferredLocalGpu;
                const PassShape shape = resolvePassShape(d->info, variant->globalRule, launch.dims == 1, false,
                                                         request.local, std::nullopt, limits.kernelMaxWorkGroupSize,
                                                         launch.global[0], launch.global[1], preferred);
                launch.local = shape.local;
                launch.source = shape.source;
            }
            launch.checkAndRound(d->info, limits, variant->globalRule, r);
            launch.empty = launch.global[0] == 0 || launch.global[1] == 0;
            int arg = 0;
            for (cl::Buffer &b : buffers)
                launch.kernel.setArg(arg++, b);
            for (std::int32_t value : problem.intArgs)
                launch.kernel.setArg(arg++, cl_int(value));
            launches.push_back(std::move(launch));
        }
        if (!launches.empty()) {
            r.local = launches.front().local;
            r.localSource = launches.front().source;
            r.global[0] = launches.front().global[0];
            r.global[1] = launches.front().global[1];
        }

        std::vector<WorkloadBuffer> results = problem.buffers;
        const DrainQueueOnUnwind drainBeforeBuffersGo{d->queue}; // uploads read problem, downloads write results
        const int steps = std::max(1, problem.steps);
        for (const auto &[first, second] : problem.pingPong)
            if (first < 0 || second < 0 || std::size_t(first) >= buffers.size() || std::size_t(second) >= buffers.size())
                throw Error("workload " + workload->name + " swaps a buffer it does not have");
        // bound[b]: the buffer passed as argument b right now (ping-pong pairs swap it between steps).
        std::vector<std::size_t> bound(buffers.size());
        RepeatTimes times(launches.size());
        const int total = std::max(0, request.warmup) + std::max(1, request.repeat);
        for (int iter = 0; iter < total; ++iter) {
            if (cancelled()) {
                r.cancelled = true;
                throw Error("run cancelled");
            }
            const auto t0 = Clock::now();
            std::vector<cl::Event> upEvents, downEvents;
            std::vector<std::vector<cl::Event>> passEvents(launches.size(), std::vector<cl::Event>(std::size_t(steps)));
            for (std::size_t b = 0; b < buffers.size(); ++b)
                bound[b] = b;
            auto bindBuffers = [&] {
                for (PassLaunch &launch : launches)
                    for (std::size_t b = 0; b < buffers.size(); ++b)
                        launch.kernel.setArg(cl_uint(b), buffers[bound[b]]);
            };
            if (!problem.pingPong.empty())
                bindBuffers();
            for (std::size_t b = 0; b < buffers.size(); ++b)
                if (problem.buffers[b].input && !problem.buffers[b].data.empty()) {
                    upEvents.emplace_back();
                    d->queue.enqueueWriteBuffer(buffers[bound[b]], CL_FALSE, 0, problem.buffers[b].data.size(),
                                                problem.buffers[b].data.data(), nullptr, &upEvents.back());
                }
            for (int step = 0; step < steps; ++step) {
                for (std::size_t p = 0; p < launches.size(); ++p) {
                    const PassLaunch &launch = launches[p];
                    if (launch.empty)
                        continue;
                    fault::check(fault::Step::Launch); // FWB_FAULT=launch:N (tests)
                    d->queue.enqueueNDRangeKernel(launch.kernel, cl::NullRange, launch.globalRange(),
                                                  launch.localRange(), nullptr, &passEvents[p][std::size_t(step)]);
                }
                if (!problem.pingPong.empty()) {
                    // setArg copies the handle at enqueue time, so rebinding affects only later launches.
                    for (const auto &[first, second] : problem.pingPong)
                        std::swap(bound[std::size_t(first)], bound[std::size_t(second)]);
                    bindBuffers();
                }
            }
            fault::check(fault::Step::Read); // FWB_FAULT=read:N (tests)
            for (std::size_t b = 0; b < buffers.size(); ++b)
                if (problem.buffers[b].output && !results[b].data.empty()) {
                    downEvents.emplace_back();
                    d->queue.enqueueReadBuffer(buffers[bound[b]], CL_FALSE, 0, results[b].data.size(),
                                               results[b].data.data(), nullptr, &downEvents.back());
                }
            d->queue.finish();
            const auto t1 = Clock::now();
            if (iter < std::max(0, request.warmup))
                continue;
            auto sumMs = [](const std::vector<cl::Event> &events) {
                double ms = 0;
                for (const cl::Event &e : events)
                    ms += eventMs(e);
                return ms;
            };
            std::vector<double> passMs(launches.size());
            for (std::size_t p = 0; p < launches.size(); ++p)
                passMs[p] = launches[p].empty ? 0.0 : sumMs(passEvents[p]);
            times.add(sumMs(upEvents), passMs, sumMs(downEvents), msBetween(t0, t1));
        }
        times.fill(r);
        r.bytesMoved = problem.bytesMoved;
        if (r.kernelMs.median > 0) {
            r.metricValue = problem.work / (r.kernelMs.median * 1e-3) / workload->metricScale;
            if (problem.bytesMoved > 0)
                r.gbps = problem.bytesMoved / (r.kernelMs.median * 1e-3) / 1e9;
        }
        if (request.check && workload->check) {
            const WorkloadCheck check = workload->check(problem, results, r.params);
            r.checked = true;
            r.matches = check.matches;
            r.maxError = check.maxError;
            r.checkDetail = check.detail;
            r.cpuSingleMs = check.cpuSingleMs;
            r.cpuMultiMs = check.cpuMultiMs;
            r.cpuThreads = check.cpuThreads;
        }
    } catch (...) {
        recordCurrentException(r);
    }
    if (r.totalMs == 0)
        r.totalMs = msBetween(wallStart, Clock::now());
    return r;
}

} // namespace fwb
