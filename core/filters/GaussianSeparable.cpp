// Gaussian blur of any sigma as two 1-D passes (radius ceil(3 sigma)), plain and local-memory staged.
// The CPU reference runs the same two passes with the same float intermediate and tap order.
#include "BoxSeparableSobel.h"

#include "../CpuReference.h"
#include "FastCpu.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace fwb {

namespace {

double gaussianSigma(const FilterParams &p)
{
    const FilterSpec *self = findFilter("gaussian");
    return self ? self->param(p, "sigma") : 2.0;
}

int gaussianRadius(double sigma) { return std::max(1, int(std::ceil(3.0 * sigma))); }

// 2r+1 taps exp(-k^2 / 2 sigma^2), normalised in double, stored as float (what every variant uses).
std::vector<float> gaussianTaps(double sigma)
{
    const int r = gaussianRadius(sigma);
    std::vector<double> g(std::size_t(2 * r + 1));
    double sum = 0;
    for (int k = -r; k <= r; ++k)
        sum += g[std::size_t(k + r)] = std::exp(-double(k * k) / (2.0 * sigma * sigma));
    std::vector<float> taps(g.size());
    for (std::size_t i = 0; i < g.size(); ++i)
        taps[i] = float(g[i] / sum);
    return taps;
}

// Rows into float, then columns of the floats, taps summed 0..2r (the kernels' order), rounded once.
void gaussianReference(const Image &src, Image &dst, const FilterParams &p, int threads)
{
    const std::vector<float> taps = gaussianTaps(gaussianSigma(p));
    const int r = int(taps.size() / 2);
    const int w = src.width(), h = src.height(), ch = src.channels();
    std::vector<float> rows(std::size_t(w) * h * ch);
    parallelRows(h, threads, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            const unsigned char *in = src.row(y);
            float *out = rows.data() + std::size_t(y) * w * ch;
            for (int x = 0; x < w; ++x)
                for (int c = 0; c < ch; ++c) {
                    float sum = 0.0f;
                    for (int k = 0; k <= 2 * r; ++k) {
                        const int bx = borderIndex(x + k - r, w, p.border);
                        sum += taps[std::size_t(k)] * (bx < 0 ? 0.0f : float(in[std::size_t(bx) * ch + c]));
                    }
                    out[std::size_t(x) * ch + c] = sum;
                }
        }
    });
    parallelRows(h, threads, [&](int y0, int y1) {
        std::vector<const float *> lines(taps.size());
        for (int y = y0; y < y1; ++y) {
            for (int k = 0; k <= 2 * r; ++k) {
                const int by = borderIndex(y + k - r, h, p.border);
                lines[std::size_t(k)] = by < 0 ? nullptr : rows.data() + std::size_t(by) * w * ch;
            }
            unsigned char *out = dst.row(y);
            for (std::size_t i = 0; i < std::size_t(w) * ch; ++i) {
                float sum = 0.0f;
                for (int k = 0; k <= 2 * r; ++k)
                    sum += taps[std::size_t(k)] * (lines[std::size_t(k)] ? lines[std::size_t(k)][i] : 0.0f);
                out[i] = roundToU8(sum);
            }
        }
    });
}

} // namespace

void registerGaussianSeparable(std::vector<FilterSpec> &out)
{
    FilterSpec f;
    f.name = "gaussian";
    f.title = "Gaussian blur (any sigma)";
    f.description = "Gaussian blur with radius ceil(3 sigma) (sigma 0.3..50: up to 301 taps), done as a row pass "
                    "into a float scratch buffer and a column pass: 2(2r+1) multiply-adds per pixel instead of "
                    "(2r+1)^2. The cost still grows with sigma - the recursive filter's reason to exist.";
    f.params = {{"sigma", "Sigma (px)", "Width of the bell curve; the window reaches 3 sigma on each side.", 2.0, 0.3,
                 50.0, 0.1, false}};
    f.tolerance = 1;
    f.toleranceNote = "±1 per 8-bit channel: the CPU reference runs the same two 1-D passes with the same float "
                      "intermediate and tap order; only fused multiply-adds on the device can move a .5 case";
    f.prepare = [](const FilterParams &p) {
        PreparedFilter prepared;
        prepared.coeffs = gaussianTaps(gaussianSigma(p));
        prepared.radius = int(prepared.coeffs.size() / 2);
        // Sizes separable_local's __local tiles at compile time (one program per radius, not per sigma).
        prepared.defines.push_back("-DGAUSS_RADIUS=" + std::to_string(prepared.radius));
        return prepared;
    };
    f.cpuReference = [](const Image &src, Image &dst, const FilterParams &p, int threads) {
        if (useFastCpuPath(threads))
            fastcpu::gaussianSeparable(src, dst, gaussianTaps(gaussianSigma(p)), p.border, threads);
        else
            gaussianReference(src, dst, p, threads);
    };

    VariantSpec v;
    v.kernelFile = "gaussian_separable.cl";
    v.tempType = TempType::Float32;
    v.name = "separable";
    v.title = "Separable: rows, then columns";
    v.passes = {{"gaussian_h", Slot::Src, Slot::TmpA}, {"gaussian_v", Slot::TmpA, Slot::Dst}};
    v.description = "Two 1-D passes with the taps in __constant memory: each reads 2r+1 neighbours along its "
                    "axis straight from global memory and relies on the cache for the overlap. The float "
                    "scratch buffer keeps full precision between the passes (one rounding at the end).";
    v.seedNote = "Seed 004's lesson carries over: taps in constant memory avoid private-array spills. Seed 000 "
                 "compares this against the recursive (IIR) filter, whose cost does not grow with sigma.";
    out.push_back(f);
    FilterSpec &g = out.back();
    g.variants.push_back(v);

    v.name = "separable_local";
    v.title = "Separable, passes staged in local memory";
    v.passes = {{"gaussian_local_h", Slot::Src, Slot::TmpA}, {"gaussian_local_v", Slot::TmpA, Slot::Dst}};
    v.tiledLocal = true;
    v.description = "Each pass first copies its work-group's tile plus r pixels of apron on both sides (rows) or "
                    "above and below (columns) into __local memory, waits at a barrier, then reads every tap "
                    "from there. Fewer global reads per pixel ((T+2r)/T instead of 2r+1), but a copy, a barrier "
                    "and a tile that grows with sigma; tile = work-group shape (auto: 16x16).";
    v.seedNote = "Seed 004: a local tile gave no gain for 5x5 (1.96 vs 1.63 ms) because L1 served the reads; wide "
                 "kernels reuse each pixel more, so the trade can tip the other way.";
    g.variants.push_back(v);
}

} // namespace fwb
