// Launch geometry, work-group resolution, event timing and error translation shared by every kind of run.
#include "runtime/RunSupport.h"

#include "Error.h"
#include "WorkGroup.h"

#include <algorithm>
#include <new>

namespace fwb::runtime {

void passGlobal(const VariantSpec &variant, const PassSpec &pass, int curW, int curH, PixelFormat format, bool cpuDevice,
                std::size_t global[2])
{
    const std::size_t w = std::size_t(curW), h = std::size_t(curH);
    const std::size_t bw = std::size_t(variant.blockWidthFor(format, cpuDevice));
    const std::size_t bh = std::size_t(variant.blockHeightFor(format, cpuDevice));
    switch (pass.geometry) {
    case Geometry::Pixels: global[0] = w; global[1] = h; break;
    case Geometry::Transposed: // a blockWidth x blockHeight block per work-item (default 1x1)
    case Geometry::Blocks: global[0] = (w + bw - 1) / bw; global[1] = (h + bh - 1) / bh; break;
    case Geometry::PixelsX4: global[0] = (w + 3) / 4; global[1] = h; break; // the kernel guards the last group
    case Geometry::Interior:
        global[0] = std::size_t(std::max(0, curW - 2));
        global[1] = std::size_t(std::max(0, curH - 2));
        break;
    case Geometry::Columns: global[0] = w; global[1] = 1; break;
    }
}

bool allocationFailure(cl_int err)
{
    return err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES || err == CL_OUT_OF_HOST_MEMORY
           || err == CL_INVALID_BUFFER_SIZE;
}

std::string mib(std::uint64_t bytes)
{
    return std::to_string((bytes + (std::uint64_t(1) << 20) - 1) >> 20) + " MiB";
}

double msBetween(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double, std::milli>(b - a).count();
}

double eventMs(const cl::Event &event)
{
    const cl_ulong start = event.getProfilingInfo<CL_PROFILING_COMMAND_START>();
    const cl_ulong end = event.getProfilingInfo<CL_PROFILING_COMMAND_END>();
    return end > start ? double(end - start) * 1e-6 : 0.0;
}

PassShape resolvePassShape(const DeviceInfo &device, GlobalRule globalRule, bool oneDimensional, bool mixed,
                           const LocalSize &requested, const std::optional<LocalSize> &tuned,
                           std::size_t kernelMaxItems, std::size_t gx, std::size_t gy,
                           const LocalSize &preferred)
{
    const std::size_t maxItems = std::min(kernelMaxItems ? kernelMaxItems : std::size_t(256),
                                          device.maxWorkGroupSize ? device.maxWorkGroupSize : std::size_t(256));
    if (requested.isDriver())
        return {LocalSize::driverChoice(), LocalSource::Driver, {}};
    if (requested.isConcrete() && !(mixed && oneDimensional && requested.height != 1))
        return {requested, LocalSource::User, {}};
    if (requested.isAuto() && tuned && tuned->isConcrete() && (!oneDimensional || tuned->height == 1)) {
        // A tuned shape this device or kernel cannot launch (a database from another driver, or edited
        // by hand: 4097x1) falls back to the default below instead of failing every run; the launch
        // then reports "default", not "tuned", and the run says why (RunResult::warning).
        LaunchLimits limits;
        limits.kernelMaxWorkGroupSize = kernelMaxItems;
        limits.dimensions = oneDimensional ? 1 : 2;
        std::string problem = localSizeProblem(device, *tuned, limits);
        if (problem.empty())
            return {*tuned, LocalSource::Tuned, {}};
        PassShape fallback = resolvePassShape(device, globalRule, oneDimensional, mixed, requested, std::nullopt,
                                              kernelMaxItems, gx, gy, preferred);
        fallback.tunedProblem = std::move(problem);
        return fallback;
    }
    if (preferred.isConcrete() && (!oneDimensional || preferred.height == 1))
        return {clampLocalSize(preferred, maxItems), LocalSource::Default, {}};
    if (globalRule == GlobalRule::Exact)
        return {dividingLocalSize(gx, oneDimensional ? 1 : gy, maxItems), LocalSource::Default, {}};
    return {clampLocalSize(defaultLocalSize(device, oneDimensional), maxItems), LocalSource::Default, {}};
}

PassShape resolvePassShape(const DeviceInfo &device, const VariantSpec &variant, const PassSpec &pass,
                           const LocalSize &requested, const std::optional<LocalSize> &tuned,
                           std::size_t kernelMaxItems, std::size_t gx, std::size_t gy)
{
    const bool mixed = std::any_of(variant.passes.begin(), variant.passes.end(),
                                   [](const PassSpec &p) { return p.geometry != Geometry::Columns; });
    const LocalSize preferred = device.kind == DeviceKind::Cpu ? variant.preferredLocalCpu : variant.preferredLocalGpu;
    return resolvePassShape(device, variant.globalRule, pass.geometry == Geometry::Columns, mixed, requested, tuned,
                            kernelMaxItems, gx, gy, preferred);
}

double RepeatTimes::add(double upload, const std::vector<double> &passMs, double download, double wall)
{
    double kernel = 0;
    for (std::size_t p = 0; p < passes.size(); ++p) {
        passes[p].push_back(passMs[p]);
        kernel += passMs[p];
    }
    uploads.push_back(upload);
    kernels.push_back(kernel);
    downloads.push_back(download);
    walls.push_back(wall);
    return kernel;
}

void RepeatTimes::fill(RunResult &r) const
{
    r.uploadMs = Stats::of(uploads).median;
    r.kernelMs = Stats::of(kernels);
    for (const auto &samples : passes)
        r.passMs.push_back(Stats::of(samples).median);
    r.downloadMs = Stats::of(downloads).median;
    r.totalMs = Stats::of(walls).median;
}

RunResult startResult(const DeviceInfo &device, const std::string &name, const std::string &variant,
                      const LocalSize &local)
{
    RunResult r;
    r.filter = name;
    r.variant = variant;
    r.device = device.name;
    r.deviceSpec = device.spec();
    r.local = local;
    return r;
}

void appendWarning(RunResult &r, const std::string &sentence)
{
    if (r.warning.find(sentence) == std::string::npos)
        r.warning += (r.warning.empty() ? "" : "; ") + sentence;
}

void recordCurrentException(RunResult &r)
{
    const ErrorReport report = describeCurrentException();
    r.error = report.message;
    if (!report.code.empty())
        r.errorCode = report.code;
    if (report.ours)
        r.buildLog = report.buildLog;
}

} // namespace fwb::runtime
