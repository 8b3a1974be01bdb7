// CPU reference filters: the correctness oracle (threads = 1) and the honest multi-threaded baseline.
// Both run the same per-row code, split over rows, so their outputs are bit-identical.
#pragma once

#include "Catalogue.h"
#include "Image.h"

#include <functional>
#include <vector>

namespace fwb {

// Runs body(y0, y1) over [0, height) in contiguous row strips (at least 8 rows, about four per thread) on
// hostThreadPool() (ThreadPool.h), with at most `threads` threads at once (the pool's size caps it);
// threads == 1: one call body(0, height) on the caller.
void parallelRows(int height, int threads, const std::function<void(int y0, int y1)> &body);

// round(sum / d), halves up, in integers - the kernels' fwb_div_round().
inline int divRound(int sum, int d) { return (2 * sum + d) / (2 * d); }

inline unsigned char saturateU8(int v) { return static_cast<unsigned char>(v < 0 ? 0 : v > 255 ? 255 : v); }

// Same rounding as the kernels: (int)(v + 0.5f), saturated to 0..255.
inline unsigned char roundToU8(float v)
{
    const int i = int(v + 0.5f);
    return static_cast<unsigned char>(i < 0 ? 0 : i > 255 ? 255 : i);
}

// Pixel at (x, y) of channel c with the border rule applied (0 outside for Constant).
inline float pixelAt(const Image &img, int x, int y, int c, BorderMode border)
{
    const int bx = borderIndex(x, img.width(), border);
    const int by = borderIndex(y, img.height(), border);
    if (bx < 0 || by < 0)
        return 0.0f;
    return float(img.row(by)[std::size_t(bx) * std::size_t(img.channels()) + std::size_t(c)]);
}

// Dense 2-D convolution with a (2r+1)^2 weight table, summed row-major (dy outer, dx inner).
void convolve2D(const Image &src, Image &dst, const std::vector<float> &weights, int radius, BorderMode border,
                int threads);

// The checking reference is computed once per (picture, filter, parameters, format, border, threads) in a
// Session (its cache: Session::cpuReference) and reused by every later run and race on that picture.
// How many times it was computed, not reused, in this process with this many threads (the tests' hook:
// a second race on the same picture computes no reference).
int cpuReferenceComputations(int threads);
void countCpuReferenceComputation(int threads);

} // namespace fwb
