// Fast CPU baselines: cache-friendly, auto-vectorisable versions of the plain reference filters,
// bit-identical to them, used as the multi-threaded "speedup vs CPU" baseline (threads > 1).
#pragma once

#include "../Catalogue.h"
#include "../Image.h"

#include <vector>

namespace fwb {

// Whether cpuReference(..., threads) takes the fast path: threads > 1, so the single-threaded call
// stays the plain, obviously-correct oracle. A ForceFastCpuPath alive on the calling thread makes
// every thread count take the fast path, so tests can compare it with the oracle single-threaded too.
bool useFastCpuPath(int threads);

class ForceFastCpuPath
{
public:
    ForceFastCpuPath();
    ~ForceFastCpuPath();
    ForceFastCpuPath(const ForceFastCpuPath &) = delete;
    ForceFastCpuPath &operator=(const ForceFastCpuPath &) = delete;

private:
    bool m_previous;
};

namespace fastcpu {

// Each one writes exactly what the filter's plain reference writes (same border rule, same integer
// or float operation order per output), only faster. dst is allocated by the caller.
void box3x3Interior(const Image &src, Image &dst, int threads); // dst already holds a copy of src
void box(const Image &src, Image &dst, int radius, BorderMode border, int threads);
void gaussianSeparable(const Image &src, Image &dst, const std::vector<float> &taps, BorderMode border,
                       int threads);
void sobel(const Image &src, Image &dst, int output, BorderMode border, int threads);
// Young & van Vliet coefficients as the reference uses them: w = B x + (a1 w1 + a2 w2 + a3 w3).
void recursiveGaussian(const Image &src, Image &dst, float B, float a1, float a2, float a3, int threads);
void transpose(const Image &src, Image &dst, int threads);
void median(const Image &src, Image &dst, int size, BorderMode border, int threads); // size 3 or 5
void morphology(const Image &src, Image &dst, int radius, bool dilate, BorderMode border, int threads);

} // namespace fastcpu

} // namespace fwb
