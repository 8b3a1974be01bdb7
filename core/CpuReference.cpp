// Shared CPU reference helpers: row-band threading and the dense 2-D convolution.
#include "CpuReference.h"
#include "ThreadPool.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <thread>

namespace fwb {

void parallelRows(int height, int threads, const std::function<void(int, int)> &body)
{
    threads = std::clamp(threads, 1, std::max(1, height));
    if (threads == 1) {
        body(0, height);
        return;
    }
    // Strips of at least 8 rows, about four per thread (load balance on a busy machine), on the one pool.
    hostThreadPool().parallelRanges(
        height, [&body](long long y0, long long y1) { body(int(y0), int(y1)); }, threads, 8, 4);
}

void convolve2D(const Image &src, Image &dst, const std::vector<float> &weights, int radius, BorderMode border,
                int threads)
{
    // Row-wise accumulation: for each tap (dy, dx) in order, one contiguous multiply-add over the row,
    // which the compiler vectorises. Every pixel still sums its taps in (dy, dx) order, so the result
    // is bit-identical to the per-pixel loop, just several times faster (an honest CPU baseline).
    const int w = src.width(), h = src.height(), ch = src.channels();
    const int k = 2 * radius + 1;
    const std::size_t rowLen = std::size_t(w) * std::size_t(ch);
    parallelRows(h, threads, [&](int y0, int y1) {
        std::vector<float> acc(rowLen);
        for (int y = y0; y < y1; ++y) {
            std::fill(acc.begin(), acc.end(), 0.0f);
            for (int dy = 0; dy < k; ++dy) {
                const int sy = borderIndex(y + dy - radius, h, border);
                if (sy < 0)
                    continue; // constant border: adding w * 0 changes nothing
                const unsigned char *row = src.row(sy);
                for (int dx = 0; dx < k; ++dx) {
                    const float wt = weights[std::size_t(dy * k + dx)];
                    const int shift = dx - radius;
                    const int xlo = std::max(0, -shift), xhi = std::min(w, w - shift);
                    float *a = acc.data();
                    if (xlo < xhi) {
                        const unsigned char *in = row + std::ptrdiff_t(shift) * ch;
                        for (std::size_t i = std::size_t(xlo) * ch, end = std::size_t(xhi) * ch; i < end; ++i)
                            a[i] += wt * float(in[i]);
                    }
                    for (int x = 0; x < w; ++x) {
                        if (x >= xlo && x < xhi) {
                            x = xhi - 1;
                            continue;
                        }
                        const int sx = borderIndex(x + shift, w, border);
                        if (sx < 0)
                            continue;
                        for (int c = 0; c < ch; ++c)
                            a[std::size_t(x) * ch + c] += wt * float(row[std::size_t(sx) * ch + c]);
                    }
                }
            }
            unsigned char *out = dst.row(y);
            for (std::size_t i = 0; i < rowLen; ++i)
                out[i] = roundToU8(acc[i]);
        }
    });
}

namespace {
std::mutex computationsMutex;
std::map<int, int> computations;
} // namespace

int cpuReferenceComputations(int threads)
{
    std::lock_guard<std::mutex> lock(computationsMutex);
    const auto it = computations.find(threads);
    return it == computations.end() ? 0 : it->second;
}

void countCpuReferenceComputation(int threads)
{
    std::lock_guard<std::mutex> lock(computationsMutex);
    ++computations[threads];
}

} // namespace fwb
