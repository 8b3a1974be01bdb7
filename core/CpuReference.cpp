// Shared CPU reference helpers: row-band threading and the dense 2-D convolution.
#include "CpuReference.h"

#include <algorithm>
#include <thread>

namespace fwb {

void parallelRows(int height, int threads, const std::function<void(int, int)> &body)
{
    threads = std::clamp(threads, 1, std::max(1, height));
    if (threads == 1) {
        body(0, height);
        return;
    }
    std::vector<std::thread> pool;
    pool.reserve(std::size_t(threads));
    for (int t = 0; t < threads; ++t) {
        const int y0 = int(std::int64_t(height) * t / threads);
        const int y1 = int(std::int64_t(height) * (t + 1) / threads);
        pool.emplace_back([&body, y0, y1] { body(y0, y1); });
    }
    for (std::thread &t : pool)
        t.join();
}

void convolve2D(const Image &src, Image &dst, const std::vector<float> &weights, int radius, BorderMode border,
                int threads)
{
    const int w = src.width(), h = src.height(), ch = src.channels();
    const int k = 2 * radius + 1;
    parallelRows(h, threads, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            unsigned char *out = dst.row(y);
            for (int x = 0; x < w; ++x) {
                const bool inside = x >= radius && x + radius < w && y >= radius && y + radius < h;
                for (int c = 0; c < ch; ++c) {
                    float sum = 0.0f;
                    for (int dy = 0; dy < k; ++dy)
                        for (int dx = 0; dx < k; ++dx) {
                            const int sx = x + dx - radius, sy = y + dy - radius;
                            const float p = inside ? float(src.row(sy)[std::size_t(sx) * ch + c])
                                                   : pixelAt(src, sx, sy, c, border);
                            sum += weights[std::size_t(dy * k + dx)] * p;
                        }
                    out[std::size_t(x) * ch + c] = roundToU8(sum);
                }
            }
        }
    });
}

} // namespace fwb
