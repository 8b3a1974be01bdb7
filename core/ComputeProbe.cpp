// fp32Peak: the FMA-throughput probe on a session's own context and queue (see ComputeProbe.h).
#include "ComputeProbe.h"
#include "runtime/RunSupport.h"

#include "ClConfig.h"
#include "Devices.h"
#include "Error.h"
#include "KernelSources.h"
#include "Session.h"

#include <algorithm>
#include <map>
#include <mutex>

namespace fwb {

namespace {

using runtime::eventMs;

constexpr double kFlopsPerIteration = 128; // 16 float4 mads per loop trip

Fp32Peak measure(Session &session)
{
    Fp32Peak peak;
    try {
        const DeviceInfo &info = session.device();
        const Session::NativeHandles handles = session.nativeHandles();
        cl::Context context(cl_context(handles.context), true);
        cl::Device device(cl_device_id(handles.device), true);
        cl::CommandQueue queue(cl_command_queue(handles.queue), true);
        cl::Program program(context, loadKernelSource("probe_fma.cl").text);
        try {
            program.build({device});
        } catch (const cl::Error &) {
            throw Error("the FP32 probe did not build: " + program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device),
                        CL_BUILD_PROGRAM_FAILURE);
        }
        cl::Kernel kernel(program, "probe_fma");
        // Enough work-items to fill every compute unit several times over (a GPU hides latency with
        // resident work-groups; a CPU driver vectorises across work-items and needs a few groups per core).
        const std::size_t units = std::max<std::size_t>(1, info.computeUnits);
        const bool gpu = info.kind != DeviceKind::Cpu;
        const std::size_t group = std::min<std::size_t>(gpu ? 256 : 64, std::max<std::size_t>(1, info.maxWorkGroupSize));
        peak.workItems = units * (gpu ? 8192 : 1024) / group * group;
        cl::Buffer out(context, CL_MEM_WRITE_ONLY, peak.workItems * sizeof(float));
        kernel.setArg(0, out);
        kernel.setArg(2, 0.999f);
        auto launch = [&](int iterations) {
            kernel.setArg(1, cl_int(iterations));
            cl::Event event;
            queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(peak.workItems), cl::NDRange(group),
                                       nullptr, &event);
            event.wait();
            return eventMs(event);
        };
        // Grow the loop until one launch takes at least 5 ms: timer resolution and launch overhead
        // then cost well under 1%.
        int iterations = 64;
        double ms = launch(iterations);
        while (ms < 5.0 && iterations < (1 << 22)) {
            iterations = int(std::min<double>(1 << 22, iterations * std::clamp(6.0 / std::max(ms, 1e-3), 2.0, 64.0)));
            ms = launch(iterations);
        }
        double best = ms;
        for (int i = 0; i < 4; ++i)
            best = std::min(best, launch(iterations));
        peak.iterations = iterations;
        peak.kernelMs = best;
        peak.gflops = double(peak.workItems) * double(iterations) * kFlopsPerIteration / (best * 1e-3) / 1e9;
    } catch (const cl::Error &e) {
        peak.error = std::string("FP32 probe: ") + e.what() + " (" + clErrorName(e.err()) + ")";
    } catch (const std::exception &e) {
        peak.error = std::string("FP32 probe: ") + e.what();
    }
    return peak;
}

} // namespace

const Fp32Peak &fp32Peak(Session &session)
{
    static std::mutex mutex;
    static std::map<std::string, Fp32Peak> measured; // by device and driver: never erased, so references stay valid
    const DeviceInfo &info = session.device();
    const std::string key = info.spec() + "|" + info.name + "|" + info.driverVersion;
    {
        std::lock_guard lock(mutex);
        if (auto it = measured.find(key); it != measured.end())
            return it->second;
    }
    Fp32Peak peak = measure(session); // outside the lock: two sessions on two devices may probe at once
    std::lock_guard lock(mutex);
    return measured.emplace(key, std::move(peak)).first->second;
}

double percentOfPeak(double gflops, const Fp32Peak &peak)
{
    return peak.ok() && gflops > 0 ? 100.0 * gflops / peak.gflops : -1;
}

} // namespace fwb
