// Work-group inspector: builds kernels/probes/inspect.cl, launches it with the exact global size asked for
// (no rounding up: that is the point) and reads back the four corner rows.
#include "Inspector.h"

#include "ClDevice.h"
#include "Error.h"
#include "FaultInjection.h"
#include "KernelSources.h"
#include "ProgramCache.h"

#include <cstdio>
#include <vector>

namespace fwb {

namespace {

constexpr int kFields = 11; // must match FWB_INSPECT_FIELDS in kernels/probes/inspect.cl
const char *const kCornerNames[4] = {"Top left", "Top right", "Bottom left", "Bottom right"};

bool divides(const InspectResult &r)
{
    return !r.local.isConcrete()
           || (r.global[0] % std::size_t(r.local.width) == 0 && r.global[1] % std::size_t(r.local.height) == 0);
}

} // namespace

InspectResult inspectWorkGroups(const DeviceInfo &device, const InspectRequest &request)
{
    InspectResult r;
    r.device = device.summary();
    r.global[0] = request.global[0];
    r.global[1] = request.global[1];
    r.local = request.local;
    r.cl20 = request.cl20;
    for (int c = 0; c < 4; ++c)
        r.corners[std::size_t(c)].name = kCornerNames[c];
    if (r.global[0] == 0 || r.global[1] == 0) {
        r.error = "the global size must be at least 1x1";
        return r;
    }
    if (request.cl20 && device.openclCMajor < 2) {
        r.unavailable = true;
        r.error = "-cl-std=CL2.0 needs OpenCL C 2.0; " + device.name + " offers OpenCL C "
                  + std::to_string(device.openclCMajor) + "." + std::to_string(device.openclCMinor)
                  + " (no get_enqueued_local_size, no non-uniform work-groups)";
        return r;
    }
    if (std::string why = launchCountProblem(r.global[0], r.global[1], r.local, device.maxWorkGroupSize); !why.empty()) {
        r.error = why; // refused before the runtime sees it: PoCL aborts on such launches
        r.errorCode = "launch too large";
        return r;
    }
    r.buildOptions = request.cl20 ? "-cl-std=CL2.0" : "";
    bool launching = false;
    try {
        cl::Device clDevice = clDeviceFor(device);
        cl::Context context(clDevice);
        cl::CommandQueue queue(context, clDevice);
        ProgramCache programs(request.cacheDir);
        const KernelSource source = loadKernelSource("inspect.cl");
        cl::Program program = programs.get(context, clDevice, device, source.text, r.buildOptions);
        cl::Kernel kernel(program, "inspect_corners");
        std::vector<cl_uint> rows(4 * kFields, 0);
        fault::check(fault::Step::Alloc); // FWB_FAULT=alloc:N|launch:N|read:N (tests), as in a session's run
        cl::Buffer out(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, rows.size() * sizeof(cl_uint), rows.data());
        kernel.setArg(0, out);
        const cl::NDRange local = !r.local.isConcrete()
                                      ? cl::NullRange
                                      : cl::NDRange(std::size_t(r.local.width), std::size_t(r.local.height));
        fault::check(fault::Step::Launch);
        launching = true;
        queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(r.global[0], r.global[1]), local);
        launching = false;
        fault::check(fault::Step::Read);
        queue.enqueueReadBuffer(out, CL_TRUE, 0, rows.size() * sizeof(cl_uint), rows.data());
        r.enqueuedFromBuiltin = request.cl20;
        for (int c = 0; c < 4; ++c) {
            const cl_uint *row = rows.data() + c * kFields;
            CornerSample &s = r.corners[std::size_t(c)];
            s.recorded = row[0] != 0;
            for (int d = 0; d < 2; ++d) {
                s.globalId[d] = row[1 + d];
                s.localSize[d] = row[3 + d];
                s.enqueuedLocalSize[d] = row[5 + d];
                s.groupId[d] = row[7 + d];
            }
            if (c == 0) {
                r.numGroups[0] = row[9];
                r.numGroups[1] = row[10];
            }
        }
    } catch (...) {
        const ErrorReport report = describeCurrentException();
        r.error = report.message;
        r.errorCode = report.code;
        if (report.ours)
            r.buildLog = report.buildLog;
        if (!report.ours && launching && report.clCode == CL_INVALID_WORK_GROUP_SIZE && !divides(r)) {
            r.expectedFailure = true;
            const std::string sizes = "global " + std::to_string(r.global[0]) + "x" + std::to_string(r.global[1])
                                      + " with local " + r.local.toString();
            r.error = request.cl20
                          ? "expected: " + device.name + " refuses " + sizes + " even with -cl-std=CL2.0: it does not "
                            "support non-uniform work-groups (CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT = false), so "
                            "the global size must divide by the local size (CL_INVALID_WORK_GROUP_SIZE)"
                          : "expected: OpenCL 1.2 rules refuse " + sizes + " because the global size does not "
                            "divide by the local size (CL_INVALID_WORK_GROUP_SIZE); round the global size up and "
                            "guard in the kernel, or build -cl-std=CL2.0 on a device with non-uniform work-groups";
        }
    }
    return r;
}

std::string formatCornerTable(const InspectResult &r)
{
    auto pair = [](const std::size_t v[2]) {
        char b[32];
        std::snprintf(b, sizeof b, "(%3zu, %3zu)", v[0], v[1]);
        return std::string(b);
    };
    std::string out;
    char line[160];
    std::snprintf(line, sizeof line, "%12s  %15s  %16s  %25s\n", "Work Item", "get_global_id()", "get_local_size()",
                  "get_enqueued_local_size()");
    out += line;
    out += std::string(75, '-') + "\n";
    for (const CornerSample &s : r.corners) {
        if (!s.recorded) {
            std::snprintf(line, sizeof line, "%12s  %15s\n", s.name, "(not run)");
            out += line;
            continue;
        }
        const std::string enqueued = r.enqueuedFromBuiltin ? pair(s.enqueuedLocalSize) : std::string("undefined");
        std::snprintf(line, sizeof line, "%12s  %15s  %16s  %25s\n", s.name, pair(s.globalId).c_str(),
                      pair(s.localSize).c_str(), enqueued.c_str());
        out += line;
    }
    return out;
}

} // namespace fwb
