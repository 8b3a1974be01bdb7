// runClBlastMatmul (see ClBlastBaseline.h).
#include "ClBlastBaseline.h"

#include "ClConfig.h"
#include "Error.h"
#include "Workload.h"

#ifdef FWB_HAVE_CLBLAST
#include <clblast.h>
#endif

#include <chrono>

namespace fwb {

bool haveClBlast()
{
#ifdef FWB_HAVE_CLBLAST
    return true;
#else
    return false;
#endif
}

RunResult runClBlastMatmul(Session &session, int n, int repeat, int warmup, bool check,
                           const std::atomic<bool> *cancel)
{
    RunResult r;
    r.filter = "matmul";
    r.variant = "clblast";
    r.baseline = true;
    r.device = session.device().name;
    r.deviceSpec = session.device().spec();
    r.params = {{"n", double(n)}};
    r.metricName = "GFLOPS";
    r.local = LocalSize::driverChoice();
    r.localSource = LocalSource::Driver;
    r.baselineCall = "clblast::Gemm<float>(row-major, no transposes, alpha 1, beta 0)";
#ifndef FWB_HAVE_CLBLAST
    (void)repeat, (void)warmup, (void)check, (void)cancel;
    r.unavailable = true;
    r.error = "this build has no CLBlast (install libclblast-dev and reconfigure with FWB_WITH_CLBLAST=ON)";
    return r;
#else
    using Clock = std::chrono::steady_clock;
    try {
        const WorkloadSpec &workload = *findWorkload("matmul");
        const VariantSpec &naive = *workload.variant("naive"); // row-major A and B, rows not padded
        const WorkloadProblem problem = workload.setup(naive, r.params);
        if (problem.intArgs.at(1) != n)
            throw Error("the naive layout is expected to leave rows unpadded");
        const Session::NativeHandles handles = session.nativeHandles();
        cl::Context context(cl_context(handles.context), true);
        cl::CommandQueue queue(cl_command_queue(handles.queue), true);
        const std::size_t bytes = std::size_t(n) * std::size_t(n) * sizeof(float);
        cl::Buffer a(context, CL_MEM_READ_ONLY, bytes), b(context, CL_MEM_READ_ONLY, bytes),
            c(context, CL_MEM_READ_WRITE, bytes);
        queue.enqueueWriteBuffer(a, CL_TRUE, 0, bytes, problem.buffers.at(0).data.data()); // blocking: nothing in flight if the next throws
        queue.enqueueWriteBuffer(b, CL_TRUE, 0, bytes, problem.buffers.at(1).data.data());
        cl_command_queue rawQueue = queue();
        std::vector<double> samples;
        const auto buildStart = Clock::now();
        for (int iter = 0; iter < std::max(0, warmup) + std::max(1, repeat); ++iter) {
            if (cancel && cancel->load(std::memory_order_relaxed)) {
                r.cancelled = true;
                throw Error("run cancelled");
            }
            queue.finish();
            const auto t0 = Clock::now();
            const clblast::StatusCode status = clblast::Gemm<float>(
                clblast::Layout::kRowMajor, clblast::Transpose::kNo, clblast::Transpose::kNo, std::size_t(n),
                std::size_t(n), std::size_t(n), 1.0f, a(), 0, std::size_t(n), b(), 0, std::size_t(n), 0.0f, c(), 0,
                std::size_t(n), &rawQueue, nullptr);
            if (status != clblast::StatusCode::kSuccess)
                throw Error("clblast::Gemm failed with status " + std::to_string(int(status)));
            queue.finish();
            const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
            if (iter == 0)
                r.buildMs = std::chrono::duration<double, std::milli>(Clock::now() - buildStart).count(); // CLBlast compiles on first use
            if (iter >= std::max(0, warmup))
                samples.push_back(ms);
        }
        r.buildOrigin = "clblast";
        r.kernelMs = Stats::of(samples);
        r.totalMs = r.kernelMs.median;
        if (r.kernelMs.median > 0)
            r.metricValue = problem.work / (r.kernelMs.median * 1e-3) / workload.metricScale;
        if (check) {
            std::vector<WorkloadBuffer> results = problem.buffers;
            queue.enqueueReadBuffer(c, CL_TRUE, 0, bytes, results.at(2).data.data());
            const WorkloadCheck verdict = workload.check(problem, results, r.params);
            r.checked = true;
            r.matches = verdict.matches;
            r.maxError = verdict.maxError;
            r.checkDetail = verdict.detail;
        }
    } catch (const cl::Error &e) {
        r.error = std::string(e.what()) + " failed";
        r.errorCode = clErrorName(e.err());
    } catch (const std::exception &e) {
        r.error = e.what();
    }
    return r;
#endif
}

} // namespace fwb
