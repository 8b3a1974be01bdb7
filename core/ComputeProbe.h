// The device's arithmetic ceiling: FP32 peak measured by an FMA-throughput kernel (kernels/probes/probe_fma.cl),
// the honest denominator for "% of peak" of compute-bound workloads (matmul, N-body), as the copy
// bandwidth is for the filters.
#pragma once

#include <cstddef>
#include <string>

namespace fwb {

class Session;

struct Fp32Peak
{
    double gflops = 0;         // 2 flops per multiply-add, best of the timed launches
    double kernelMs = 0;       // that launch
    std::size_t workItems = 0; // global size
    int iterations = 0;        // loop trips per work-item (128 flops each)
    std::string error;         // non-empty when the probe could not run

    bool ok() const { return error.empty() && gflops > 0; }
};

// Measured once per device and driver per process (the first call builds the probe and times a few
// launches, tens of milliseconds on a GPU); later calls return the same figure. Never throws.
const Fp32Peak &fp32Peak(Session &session);

// gflops as a percentage of the peak, or -1 without a peak.
double percentOfPeak(double gflops, const Fp32Peak &peak);

} // namespace fwb
