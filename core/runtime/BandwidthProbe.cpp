// The bandwidth probe (host<->device copies pageable and pinned, zero-copy reads) and the device's
// own copy bandwidth: the ceilings a run's figures are read against.
#include "CopyBandwidth.h"
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

// One process-wide record of bandwidth probes and copy speeds, keyed by device: measured once, shared
// by sessions.
struct ProbeRegistry
{
    std::mutex mutex;
    std::map<std::string, Session::BandwidthProbe> probes;
    std::map<std::string, double> copyGBps;
};
ProbeRegistry &probeRegistry()
{
    static ProbeRegistry registry;
    return registry;
}
std::string probeKey(const DeviceInfo &info)
{
    return info.platformName + "|" + info.name + "|" + info.driverVersion + "|" + info.spec();
}

// A probe buffer's size: `mib` MiB, at most half the largest allocation and an eighth of the device's
// memory, whole 4 KiB pages.
std::size_t probeBytes(const DeviceInfo &info, std::size_t mib)
{
    std::size_t bytes = mib << 20;
    if (info.maxAllocSize)
        bytes = std::min<std::size_t>(bytes, std::size_t(info.maxAllocSize / 2));
    if (info.globalMemSize)
        bytes = std::min<std::size_t>(bytes, std::size_t(info.globalMemSize / 8));
    return bytes & ~std::size_t(4095);
}

} // namespace

const Session::BandwidthProbe *Session::Impl::probeIfMeasured() const
{
    ProbeRegistry &registry = probeRegistry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    auto it = registry.probes.find(probeKey(info));
    return it == registry.probes.end() ? nullptr : &it->second;
}

const Session::BandwidthProbe &Session::bandwidthProbe()
{
    if (const BandwidthProbe *known = d->probeIfMeasured())
        return *known;
    BandwidthProbe p;
    try {
        const std::size_t bytes = probeBytes(d->info, 64);
        p.bytes = bytes;
        p.deviceCopyGBps = copyBandwidthGBps();
        cl::CommandQueue &q = d->queue;
        auto gbps = [bytes](const std::function<void(cl::Event &)> &enqueue) {
            std::vector<double> samples;
            for (int i = 0; i < 5; ++i) {
                cl::Event ev;
                enqueue(ev);
                ev.wait();
                if (i > 0) // the first pays page-in and lazy allocation
                    samples.push_back(eventMs(ev));
            }
            const double ms = Stats::of(samples).median;
            return ms > 0 ? double(bytes) / (ms * 1e-3) / 1e9 : 0.0;
        };
        cl::Buffer device(d->context, CL_MEM_READ_WRITE, bytes);
        std::vector<std::uint8_t> pageable(bytes, 1);
        p.h2dPageableGBps = gbps([&](cl::Event &ev) {
            q.enqueueWriteBuffer(device, CL_FALSE, 0, bytes, pageable.data(), nullptr, &ev);
        });
        p.d2hPageableGBps = gbps([&](cl::Event &ev) {
            q.enqueueReadBuffer(device, CL_FALSE, 0, bytes, pageable.data(), nullptr, &ev);
        });
        cl::Buffer pinnedBuffer(d->context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes);
        void *pinned = q.enqueueMapBuffer(pinnedBuffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes);
        std::memset(pinned, 1, bytes);
        p.h2dPinnedGBps = gbps([&](cl::Event &ev) {
            q.enqueueWriteBuffer(device, CL_FALSE, 0, bytes, pinned, nullptr, &ev);
        });
        p.d2hPinnedGBps = gbps([&](cl::Event &ev) {
            q.enqueueReadBuffer(device, CL_FALSE, 0, bytes, pinned, nullptr, &ev);
        });
        q.enqueueUnmapMemObject(pinnedBuffer, pinned);
        q.finish();
        // Zero copy: a kernel streaming a host-visible buffer (unmapped, so the device owns it).
        cl::Program program(d->context, loadKernelSource("probe_read.cl").text); // kernels/probes/probe_read.cl
        program.build({d->device});
        cl::Kernel kernel(program, "fwb_probe_read");
        cl::Buffer sink(d->context, CL_MEM_READ_WRITE, sizeof(cl_uint));
        const cl_uint n = cl_uint(bytes / 16);
        kernel.setArg(0, pinnedBuffer);
        kernel.setArg(1, sink);
        kernel.setArg(2, n);
        const std::size_t items = std::min<std::size_t>(roundUp(n, 256), std::size_t(std::max(1u, d->info.computeUnits)) * 2048);
        p.zeroCopyReadGBps = gbps([&](cl::Event &ev) {
            q.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(roundUp(items, 256)), cl::NDRange(256), nullptr, &ev);
        });
    } catch (const cl::Error &e) {
        p.error = std::string(e.what()) + " failed: " + clErrorName(e.err());
    } catch (const std::exception &e) {
        p.error = e.what();
    }
    ProbeRegistry &registry = probeRegistry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    return registry.probes.emplace(probeKey(d->info), p).first->second;
}

double measuredCopyBandwidthGBps(const DeviceInfo &device)
{
    ProbeRegistry &registry = probeRegistry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    const auto known = registry.copyGBps.find(probeKey(device));
    return known == registry.copyGBps.end() ? -1.0 : known->second;
}

double Session::copyBandwidthGBps()
{
    if (d->copyGBps >= 0)
        return d->copyGBps;
    // Once per device and process, not per session: a process that runs one job after another, each in
    // a session of its own (prepare's children, cli/PrepareChild.h), would otherwise copy 2 x 256 MiB
    // per job: on PoCL most of a cached program's job (2 of 2.3 s measured on two cores).
    ProbeRegistry &registry = probeRegistry();
    {
        std::lock_guard<std::mutex> lock(registry.mutex);
        if (const auto known = registry.copyGBps.find(probeKey(d->info)); known != registry.copyGBps.end())
            return d->copyGBps = known->second;
    }
    try {
        const std::size_t bytes = probeBytes(d->info, 256);
        cl::Buffer a(d->context, CL_MEM_READ_WRITE, bytes), b(d->context, CL_MEM_READ_WRITE, bytes);
        const cl_uchar zero = 0;
        d->queue.enqueueFillBuffer(a, zero, 0, bytes);
        std::vector<double> samples;
        for (int i = 0; i < 6; ++i) {
            cl::Event ev;
            d->queue.enqueueCopyBuffer(a, b, 0, 0, bytes, nullptr, &ev);
            ev.wait();
            if (i > 0) // the first copy pays page-in and lazy allocation
                samples.push_back(eventMs(ev));
        }
        const double ms = Stats::of(samples).median;
        d->copyGBps = ms > 0 ? 2.0 * double(bytes) / (ms * 1e-3) / 1e9 : 0.0;
    } catch (const std::exception &) {
        d->copyGBps = 0;
        return d->copyGBps; // not kept: another session may manage
    }
    std::lock_guard<std::mutex> lock(registry.mutex);
    return d->copyGBps = registry.copyGBps.emplace(probeKey(d->info), d->copyGBps).first->second;
}

} // namespace fwb
