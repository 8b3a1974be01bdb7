// CLBlast's SGEMM as the `clblast` baseline row of the matmul ladder (a tuned OpenCL BLAS on the
// session's own context and queue), when the build found CLBlast (FWB_WITH_CLBLAST).
#pragma once

#include "Session.h"

#include <atomic>

namespace fwb {

// True when this build links CLBlast.
bool haveClBlast();

// C = A * B for the matmul workload's own n x n inputs through clblast::Gemm<float> (row-major), timed
// on the host clock around the queue (CLBlast may launch several kernels for one call: padding,
// transposes), checked like the variants. A RunResult with variant "clblast", baseline true and the
// matmul metric (GFLOPS); unavailable with the reason in builds without CLBlast. Never throws.
RunResult runClBlastMatmul(Session &session, int n, int repeat, int warmup, bool check,
                           const std::atomic<bool> *cancel = nullptr);

} // namespace fwb
