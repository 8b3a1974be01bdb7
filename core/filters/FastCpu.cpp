// Fast CPU baselines (see FastCpu.h): whole-row loops over padded row buffers, so the inner loops run
// over contiguous bytes or floats without per-pixel border branches and the compiler vectorises them.
#include "FastCpu.h"

#include "../CpuReference.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace fwb {

namespace {

thread_local bool t_forceFast = false;

using u8 = std::uint8_t;

// Fills the r border pixels on each side of a row whose w pixels already sit at mid[0 .. w*ch):
// the pixel the border rule names, or 0 where it names none (constant border, like pixelAt()).
template <typename T>
void padInPlace(T *mid, int w, int ch, int r, BorderMode border)
{
    auto fill = [&](int x) {
        const int bx = borderIndex(x, w, border);
        for (int c = 0; c < ch; ++c)
            mid[std::ptrdiff_t(x) * ch + c] = bx < 0 ? T(0) : mid[std::ptrdiff_t(bx) * ch + c];
    };
    for (int x = -r; x < 0; ++x)
        fill(x);
    for (int x = w; x < w + r; ++x)
        fill(x);
}

// Copies (and converts) one image row into mid[0 .. w*ch) and pads it with r border pixels each side.
template <typename T>
void padRow(const u8 *in, T *mid, int w, int ch, int r, BorderMode border)
{
    const std::size_t n = std::size_t(w) * std::size_t(ch);
    for (std::size_t i = 0; i < n; ++i)
        mid[i] = T(in[i]);
    padInPlace(mid, w, ch, r, border);
}

// Row y of a tightly packed buffer with the border rule applied on y; `zero` (a row of zeros) where
// the rule names no row (constant border).
template <typename T>
const T *rowOrZero(const T *base, std::size_t rowLen, int y, int h, BorderMode border, const T *zero)
{
    const int by = borderIndex(y, h, border);
    return by < 0 ? zero : base + std::size_t(by) * rowLen;
}

// ---- Box blurs ----------------------------------------------------------------------------------

// Interior 3x3 mean: column sums of three rows (16-bit), then three of those per output.
void box3x3InteriorRow(const u8 *__restrict a, const u8 *__restrict b, const u8 *__restrict c,
                       std::uint16_t *__restrict col, u8 *__restrict out, std::size_t n, std::size_t ch)
{
    for (std::size_t i = 0; i < n; ++i)
        col[i] = std::uint16_t(a[i] + b[i] + c[i]);
    for (std::size_t i = ch; i + ch < n; ++i) {
        const unsigned sum = unsigned(col[i - ch]) + col[i] + col[i + ch];
        out[i] = u8((2 * sum + 9) / 18); // divRound(sum, 9); at most 255, no saturation needed
    }
}

// Row sums of 2r+1 pixels over a padded row (16-bit: at most 101 * 255).
void boxRowSums(const u8 *__restrict pad, std::uint16_t *__restrict out, std::size_t n, std::size_t ch, int r)
{
    if (r <= 8) { // few taps: one vectorised pass per tap beats the serial running sum
        for (std::size_t i = 0; i < n; ++i)
            out[i] = pad[i];
        for (int k = 1; k <= 2 * r; ++k) {
            const u8 *in = pad + std::size_t(k) * ch;
            for (std::size_t i = 0; i < n; ++i)
                out[i] = std::uint16_t(out[i] + in[i]);
        }
        return;
    }
    // Many taps: running sum per channel, two operations per pixel whatever the radius.
    const std::size_t span = std::size_t(2 * r + 1) * ch;
    for (std::size_t c = 0; c < ch; ++c) {
        unsigned s = 0;
        for (std::size_t i = c; i < span; i += ch)
            s += pad[i];
        out[c] = std::uint16_t(s);
        for (std::size_t i = c + ch; i < n; i += ch) {
            s += unsigned(pad[i + span - ch]) - unsigned(pad[i - ch]);
            out[i] = std::uint16_t(s);
        }
    }
}

void addRow(std::int32_t *__restrict acc, const std::uint16_t *__restrict row, std::size_t n, int sign)
{
    if (sign > 0)
        for (std::size_t i = 0; i < n; ++i)
            acc[i] += row[i];
    else
        for (std::size_t i = 0; i < n; ++i)
            acc[i] -= row[i];
}

// round(sum / area) halves up, as divRound() in integers: (2 sum + area) / (2 area). Done in float,
// which is exact here: 2 sum + area <= 511 area < 2^23 and (quotient + 1) * 2 area < 2^24, so the
// correctly rounded float quotient never reaches the next integer (and float division vectorises).
void boxDivide(const std::int32_t *__restrict sums, u8 *__restrict out, std::size_t n, int area)
{
    const float den = float(2 * area);
    for (std::size_t i = 0; i < n; ++i)
        out[i] = u8(int(float(2 * sums[i] + area) / den));
}

// ---- Median -------------------------------------------------------------------------------------

#define FWB_X(a, b)                                                                                           \
    {                                                                                                          \
        const u8 lo_ = std::min(p[a], p[b]);                                                                   \
        p[b] = std::max(p[a], p[b]);                                                                           \
        p[a] = lo_;                                                                                            \
    }
#define FWB_LO(a, b) p[a] = std::min(p[a], p[b]);
#define FWB_HI(a, b) p[b] = std::max(p[a], p[b]);

// Sorts five rows element-wise (the columns of a 5-row window): 9 exchanges, shared by 5 outputs.
void sortColumns5(const u8 *__restrict s0, const u8 *__restrict s1, const u8 *__restrict s2,
                  const u8 *__restrict s3, const u8 *__restrict s4, u8 *__restrict r0, u8 *__restrict r1,
                  u8 *__restrict r2, u8 *__restrict r3, u8 *__restrict r4, std::size_t n)
{
    for (std::size_t i = 0; i < n; ++i) {
        u8 p[5] = {s0[i], s1[i], s2[i], s3[i], s4[i]};
        FWB_X(0, 1) FWB_X(3, 4) FWB_X(2, 4) FWB_X(2, 3) FWB_X(0, 3) FWB_X(0, 2) FWB_X(1, 4) FWB_X(1, 3) FWB_X(1, 2)
        r0[i] = p[0];
        r1[i] = p[1];
        r2[i] = p[2];
        r3[i] = p[3];
        r4[i] = p[4];
    }
}

// Median of 25 from five column-sorted rank rows (r_k = k-th smallest of each column, padded by 2
// pixels): p[dy * 5 + dx] = r_dy at x + dx - 2. The network is the kernels' 113-step Batcher network
// pruned further given sorted columns (76 steps), checked exhaustively with the 0-1 principle over
// all 6^5 column-sorted 0-1 inputs; tst_cpureference compares it with the plain oracle.
void median5Row(const u8 *__restrict r0, const u8 *__restrict r1, const u8 *__restrict r2,
                const u8 *__restrict r3, const u8 *__restrict r4, u8 *__restrict out, std::size_t n,
                std::ptrdiff_t ch)
{
    // One pointer per window position, so every load in the loop is base[i] (contiguous in i).
    const u8 *q[25];
    const u8 *rows[5] = {r0, r1, r2, r3, r4};
    for (int dy = 0; dy < 5; ++dy)
        for (int dx = 0; dx < 5; ++dx)
            q[dy * 5 + dx] = rows[dy] + (dx - 2) * ch;
    for (std::size_t i = 0; i < n; ++i) {
        u8 p[25];
#pragma GCC unroll 25
        for (int k = 0; k < 25; ++k)
            p[k] = q[k][i];
        FWB_X(0, 1) FWB_X(2, 3) FWB_X(4, 5) FWB_X(6, 7) FWB_X(8, 9) FWB_X(10, 11) FWB_X(12, 13) FWB_X(14, 15)
        FWB_X(16, 17) FWB_X(18, 19) FWB_X(20, 21) FWB_X(22, 23) FWB_X(1, 3) FWB_X(4, 6) FWB_X(5, 7)
        FWB_X(8, 10) FWB_X(9, 11) FWB_X(12, 14) FWB_X(13, 15) FWB_X(16, 18) FWB_X(17, 19) FWB_X(20, 22)
        FWB_HI(1, 2) FWB_X(5, 6) FWB_X(9, 10) FWB_X(13, 14) FWB_X(17, 18) FWB_LO(21, 22) FWB_HI(0, 4)
        FWB_X(2, 6) FWB_X(3, 7) FWB_X(9, 13) FWB_X(10, 14) FWB_LO(11, 15) FWB_X(16, 20) FWB_X(17, 21)
        FWB_LO(19, 23) FWB_HI(2, 4) FWB_X(3, 5) FWB_X(10, 12) FWB_X(11, 13) FWB_X(18, 20) FWB_X(5, 6)
        FWB_X(9, 10) FWB_X(11, 12) FWB_X(13, 14) FWB_X(17, 18) FWB_X(4, 12) FWB_X(5, 13) FWB_LO(6, 14)
        FWB_HI(4, 8) FWB_HI(5, 9) FWB_X(6, 10) FWB_X(7, 11) FWB_LO(20, 24) FWB_X(7, 9) FWB_X(10, 12)
        FWB_LO(11, 13) FWB_X(18, 20) FWB_HI(7, 8) FWB_X(9, 10) FWB_X(11, 12) FWB_X(17, 18) FWB_LO(19, 20)
        FWB_HI(3, 19) FWB_HI(8, 16) FWB_HI(9, 17) FWB_LO(10, 18) FWB_LO(11, 19) FWB_LO(13, 21) FWB_HI(6, 10)
        FWB_LO(12, 16) FWB_LO(13, 17) FWB_HI(10, 12) FWB_LO(11, 13) FWB_HI(11, 12)
        out[i] = p[12];
    }
}

inline u8 med3(u8 a, u8 b, u8 c) { return std::max(std::min(a, b), std::min(std::max(a, b), c)); }

// Median of 9 from three column-sorted rank rows (low, middle, high; padded by 1 pixel): the median
// of (largest low, median of middles, smallest high) - Paeth's exact 3x3 median.
void median3Row(const u8 *__restrict lo, const u8 *__restrict mi, const u8 *__restrict hi, u8 *__restrict out,
                std::size_t n, std::ptrdiff_t ch)
{
    for (std::size_t i = 0; i < n; ++i) {
        const std::ptrdiff_t j = std::ptrdiff_t(i);
        const u8 a = std::max(std::max(lo[j - ch], lo[j]), lo[j + ch]);
        const u8 b = med3(mi[j - ch], mi[j], mi[j + ch]);
        const u8 c = std::min(std::min(hi[j - ch], hi[j]), hi[j + ch]);
        out[i] = med3(a, b, c);
    }
}

void sortColumns3(const u8 *__restrict s0, const u8 *__restrict s1, const u8 *__restrict s2, u8 *__restrict r0,
                  u8 *__restrict r1, u8 *__restrict r2, std::size_t n)
{
    for (std::size_t i = 0; i < n; ++i) {
        u8 p[3] = {s0[i], s1[i], s2[i]};
        FWB_X(0, 1) FWB_X(1, 2) FWB_X(0, 1)
        r0[i] = p[0];
        r1[i] = p[1];
        r2[i] = p[2];
    }
}

#undef FWB_X
#undef FWB_LO
#undef FWB_HI

// ---- Morphology ---------------------------------------------------------------------------------

template <bool Dilate>
inline u8 morphOp(u8 a, u8 b)
{
    return Dilate ? std::max(a, b) : std::min(a, b);
}

template <bool Dilate>
void morphAccumulate(u8 *__restrict acc, const u8 *__restrict in, std::size_t n)
{
    for (std::size_t i = 0; i < n; ++i)
        acc[i] = morphOp<Dilate>(acc[i], in[i]);
}

template <bool Dilate>
void morphologyImpl(const Image &src, Image &dst, int r, BorderMode border, int threads)
{
    const int w = src.width(), h = src.height(), ch = src.channels();
    const std::size_t n = std::size_t(w) * std::size_t(ch);
    std::vector<u8> rows(n * std::size_t(h));
    // Row pass: min/max of 2r+1 shifted copies of the padded row, one contiguous pass per tap.
    parallelRows(h, threads, [&](int y0, int y1) {
        std::vector<u8> pad((std::size_t(w) + 2 * std::size_t(r)) * std::size_t(ch));
        u8 *mid = pad.data() + std::size_t(r) * std::size_t(ch);
        for (int y = y0; y < y1; ++y) {
            padRow(src.row(y), mid, w, ch, r, border);
            u8 *out = rows.data() + std::size_t(y) * n;
            std::memcpy(out, pad.data(), n);
            for (int k = 1; k <= 2 * r; ++k)
                morphAccumulate<Dilate>(out, pad.data() + std::size_t(k) * std::size_t(ch), n);
        }
    });
    // Column pass: min/max of 2r+1 whole rows of the row result (a zero row outside, constant border).
    parallelRows(h, threads, [&](int y0, int y1) {
        const std::vector<u8> zero(n, 0);
        for (int y = y0; y < y1; ++y) {
            u8 *out = dst.row(y);
            std::memcpy(out, rowOrZero(rows.data(), n, y - r, h, border, zero.data()), n);
            for (int dy = -r + 1; dy <= r; ++dy)
                morphAccumulate<Dilate>(out, rowOrZero(rows.data(), n, y + dy, h, border, zero.data()), n);
        }
    });
}

// ---- Sobel --------------------------------------------------------------------------------------

// One output row from three padded rows (1 pixel each side): the reference's integer gx, gy and
// sobelValue() arithmetic, with the output choice hoisted out of the loop.
void sobelRow(const u8 *__restrict a, const u8 *__restrict b, const u8 *__restrict c, u8 *__restrict out,
              std::size_t n, std::size_t ch, int output)
{
    const std::size_t c2 = 2 * ch;
    if (output == 0) {
        for (std::size_t i = 0; i < n; ++i) {
            const int gx = (a[i + c2] + 2 * b[i + c2] + c[i + c2]) - (a[i] + 2 * b[i] + c[i]);
            const int v = ((gx < 0 ? -gx : gx) + 2) / 4;
            out[i] = u8(v > 255 ? 255 : v);
        }
    } else if (output == 1) {
        for (std::size_t i = 0; i < n; ++i) {
            const int gy = (c[i] + 2 * c[i + ch] + c[i + c2]) - (a[i] + 2 * a[i + ch] + a[i + c2]);
            const int v = ((gy < 0 ? -gy : gy) + 2) / 4;
            out[i] = u8(v > 255 ? 255 : v);
        }
    } else {
        for (std::size_t i = 0; i < n; ++i) {
            const int gx = (a[i + c2] + 2 * b[i + c2] + c[i + c2]) - (a[i] + 2 * b[i] + c[i]);
            const int gy = (c[i] + 2 * c[i + ch] + c[i + c2]) - (a[i] + 2 * a[i + ch] + a[i + c2]);
            out[i] = roundToU8(std::sqrt(float(gx * gx + gy * gy)) * 0.25f);
        }
    }
}

// ---- Gaussian (separable) -----------------------------------------------------------------------

// Chunk of floats per row-pass sweep: the accumulator stays in L1 while every tap passes over it.
constexpr std::size_t kChunk = 2048;

// acc[i] += t0 * a[i], then += t1 * b[i], ...: tap after tap per element, the reference's order, up
// to four taps per sweep so the accumulator goes through memory once instead of four times.
void axpy1(float *__restrict acc, const float *__restrict a, float t0, std::size_t n)
{
    for (std::size_t i = 0; i < n; ++i)
        acc[i] += t0 * a[i];
}

void axpy4(float *__restrict acc, const float *__restrict a, const float *__restrict b, const float *__restrict c,
           const float *__restrict d, const float *t, std::size_t n)
{
    const float t0 = t[0], t1 = t[1], t2 = t[2], t3 = t[3];
    for (std::size_t i = 0; i < n; ++i) {
        float v = acc[i];
        v += t0 * a[i];
        v += t1 * b[i];
        v += t2 * c[i];
        v += t3 * d[i];
        acc[i] = v;
    }
}

// acc += sum over taps k of t[k] * line(k), in k order; line(k) is null for a row to skip.
template <typename Line>
void accumulateTaps(float *acc, const float *t, int taps, std::size_t n, const Line &line)
{
    int k = 0;
    for (; k + 4 <= taps; k += 4) {
        const float *a = line(k), *b = line(k + 1), *c = line(k + 2), *d = line(k + 3);
        if (a && b && c && d) {
            axpy4(acc, a, b, c, d, t + k, n);
            continue;
        }
        for (int j = k; j < k + 4; ++j)
            if (const float *p = line(j))
                axpy1(acc, p, t[j], n);
    }
    for (; k < taps; ++k)
        if (const float *p = line(k))
            axpy1(acc, p, t[k], n);
}

// ---- Recursive Gaussian -------------------------------------------------------------------------

struct Yvv
{
    float B, a1, a2, a3;
};

// One causal sweep of iirLine() over `lanes` lines at once, samples t = first, first + step, ... (count
// of them): out = B v + (a1 w1 + a2 w2 + a3 w3), in iirLine()'s operation order.
void iirSweep(float *data, std::size_t pitch, int count, int first, int step, std::size_t lanes, const Yvv &k,
              float *__restrict w1, float *__restrict w2, float *__restrict w3)
{
    for (int i = 0, t = first; i < count; ++i, t += step) {
        float *__restrict v = data + std::size_t(t) * pitch;
        for (std::size_t l = 0; l < lanes; ++l) {
            const float w0 = k.B * v[l] + (k.a1 * w1[l] + k.a2 * w2[l] + k.a3 * w3[l]);
            v[l] = w0;
            w3[l] = w2[l];
            w2[l] = w1[l];
            w1[l] = w0;
        }
    }
}

// Runs the reference's iirLine() on `lanes` independent lines at once: line l's sample t sits at
// data[t * pitch + l]. Per line the float operations and their order are iirLine()'s exactly; the
// lanes only let the compiler vectorise across lines. w1..w3 are scratch of `lanes` floats each.
void iirLanes(float *data, std::size_t pitch, int count, std::size_t lanes, const Yvv &k, float *__restrict w1,
              float *__restrict w2, float *__restrict w3)
{
    for (std::size_t l = 0; l < lanes; ++l)
        w1[l] = w2[l] = w3[l] = data[l];
    iirSweep(data, pitch, count, 0, 1, lanes, k, w1, w2, w3);
    for (std::size_t l = 0; l < lanes; ++l) // backward pass starts from the last forward value held
        w2[l] = w3[l] = w1[l];
    iirSweep(data, pitch, count, count - 1, -1, lanes, k, w1, w2, w3);
}

// ---- Transpose ----------------------------------------------------------------------------------

template <int CH>
void transposeImpl(const Image &src, Image &dst, int threads)
{
    // 32x32-pixel blocks: the block's 32 input rows and 32 output rows stay in L1 while it is copied.
    constexpr int kBlock = 32;
    const int ow = dst.width(), oh = dst.height();
    const u8 *in = src.data();
    const std::size_t inStride = src.stride();
    parallelRows(oh, threads, [&](int y0, int y1) {
        for (int by = y0; by < y1; by += kBlock) {
            const int ey = std::min(by + kBlock, y1);
            for (int bx = 0; bx < ow; bx += kBlock) {
                const int ex = std::min(bx + kBlock, ow);
                for (int oy = by; oy < ey; ++oy) { // output row oy = input column oy
                    u8 *o = dst.row(oy);
                    const u8 *col = in + std::size_t(oy) * CH;
                    for (int ox = bx; ox < ex; ++ox)
                        for (int c = 0; c < CH; ++c)
                            o[std::size_t(ox) * CH + c] = col[std::size_t(ox) * inStride + c];
                }
            }
        }
    });
}

} // namespace

bool useFastCpuPath(int threads) { return threads > 1 || t_forceFast; }

ForceFastCpuPath::ForceFastCpuPath() : m_previous(t_forceFast) { t_forceFast = true; }

ForceFastCpuPath::~ForceFastCpuPath() { t_forceFast = m_previous; }

namespace fastcpu {

void box3x3Interior(const Image &src, Image &dst, int threads)
{
    const int w = src.width(), h = src.height(), ch = src.channels();
    if (w < 3 || h < 3)
        return;
    const std::size_t n = std::size_t(w) * std::size_t(ch);
    parallelRows(h - 2, threads, [&](int r0, int r1) {
        std::vector<std::uint16_t> col(n);
        for (int y = r0 + 1; y < r1 + 1; ++y)
            box3x3InteriorRow(src.row(y - 1), src.row(y), src.row(y + 1), col.data(), dst.row(y), n,
                              std::size_t(ch));
    });
}

void box(const Image &src, Image &dst, int r, BorderMode border, int threads)
{
    const int w = src.width(), h = src.height(), ch = src.channels();
    const std::size_t n = std::size_t(w) * std::size_t(ch);
    const int area = (2 * r + 1) * (2 * r + 1);
    std::vector<std::uint16_t> rows(n * std::size_t(h));
    parallelRows(h, threads, [&](int y0, int y1) {
        std::vector<u8> pad((std::size_t(w) + 2 * std::size_t(r)) * std::size_t(ch));
        for (int y = y0; y < y1; ++y) {
            padRow(src.row(y), pad.data() + std::size_t(r) * std::size_t(ch), w, ch, r, border);
            boxRowSums(pad.data(), rows.data() + std::size_t(y) * n, n, std::size_t(ch), r);
        }
    });
    // Column pass: a running sum of 2r+1 row-sum rows per band (add the row entering the window,
    // subtract the one leaving); exact in integers, so the border mapping of each row is all it needs.
    parallelRows(h, threads, [&](int y0, int y1) {
        std::vector<std::int32_t> sums(n, 0);
        auto update = [&](int y, int sign) {
            const int by = borderIndex(y, h, border);
            if (by >= 0)
                addRow(sums.data(), rows.data() + std::size_t(by) * n, n, sign);
        };
        for (int dy = -r; dy <= r; ++dy)
            update(y0 + dy, +1);
        for (int y = y0; y < y1; ++y) {
            if (y > y0) {
                update(y + r, +1);
                update(y - r - 1, -1);
            }
            boxDivide(sums.data(), dst.row(y), n, area);
        }
    });
}

void gaussianSeparable(const Image &src, Image &dst, const std::vector<float> &taps, BorderMode border,
                       int threads)
{
    const int w = src.width(), h = src.height(), ch = src.channels();
    const int r = int(taps.size() / 2);
    const std::size_t n = std::size_t(w) * std::size_t(ch);
    // Each thread runs the row pass on demand for the rows its band needs, into a cache of 2r+1 row
    // results indexed by row number modulo 2r+1: a window's rows are at most 2r+1 consecutive numbers,
    // so they never evict each other, and the float intermediate stays in cache instead of going
    // through a whole-image buffer. A recomputed row is the same deterministic sum, bit for bit.
    parallelRows(h, threads, [&](int y0, int y1) {
        const std::size_t slots = std::size_t(2 * r + 1);
        std::vector<float> cache(slots * n);
        std::vector<int> cached(slots, -1);
        std::vector<float> pad((std::size_t(w) + 2 * std::size_t(r)) * std::size_t(ch));
        std::vector<float> acc(n);
        // Row pass: out = 0 + t0 * p[x-r] + t1 * p[x-r+1] + ... in tap order, as the reference sums
        // (a constant border's zero pixel adds t * 0 = +0 there too, so padding with 0 changes no bit).
        auto rowPass = [&](int sy) -> const float * {
            const std::size_t slot = std::size_t(sy) % slots;
            float *out = cache.data() + slot * n;
            if (cached[slot] == sy)
                return out;
            padRow(src.row(sy), pad.data() + std::size_t(r) * std::size_t(ch), w, ch, r, border);
            for (std::size_t i0 = 0; i0 < n; i0 += kChunk) {
                const std::size_t len = std::min(kChunk, n - i0);
                std::fill(out + i0, out + i0 + len, 0.0f);
                accumulateTaps(out + i0, taps.data(), 2 * r + 1, len, [&](int k) -> const float * {
                    return pad.data() + i0 + std::size_t(k) * std::size_t(ch);
                });
            }
            cached[slot] = sy;
            return out;
        };
        // Column pass: the same tap order down the column, whole rows at a time. A row the constant
        // border drops would add t * 0 = +0 to a non-negative sum, which changes nothing: skipped.
        for (int y = y0; y < y1; ++y) {
            std::fill(acc.begin(), acc.end(), 0.0f);
            // The (up to) four rows one sweep reads are distinct slots of the cache (see above), so
            // fetching the later ones cannot evict the earlier ones.
            accumulateTaps(acc.data(), taps.data(), 2 * r + 1, n, [&](int k) -> const float * {
                const int by = borderIndex(y + k - r, h, border);
                return by < 0 ? nullptr : rowPass(by);
            });
            u8 *out = dst.row(y);
            for (std::size_t i = 0; i < n; ++i)
                out[i] = roundToU8(acc[i]);
        }
    });
}

void sobel(const Image &src, Image &dst, int output, BorderMode border, int threads)
{
    const int w = src.width(), h = src.height(), ch = src.channels();
    const std::size_t n = std::size_t(w) * std::size_t(ch);
    const std::size_t padLen = n + 2 * std::size_t(ch);
    parallelRows(h, threads, [&](int y0, int y1) {
        const std::vector<u8> zero(n, 0);
        std::vector<u8> pads(3 * padLen);
        for (int y = y0; y < y1; ++y) {
            for (int k = 0; k < 3; ++k)
                padRow(rowOrZero(src.data(), n, y + k - 1, h, border, zero.data()),
                       pads.data() + std::size_t(k) * padLen + std::size_t(ch), w, ch, 1, border);
            sobelRow(pads.data(), pads.data() + padLen, pads.data() + 2 * padLen, dst.row(y), n, std::size_t(ch),
                     output);
        }
    });
}

void recursiveGaussian(const Image &src, Image &dst, float B, float a1, float a2, float a3, int threads)
{
    const int w = src.width(), h = src.height(), ch = src.channels();
    const std::size_t n = std::size_t(w) * std::size_t(ch);
    const Yvv k{B, a1, a2, a3};
    std::vector<float> buf(n * std::size_t(h));
    // Column pass: every column (and channel) of a slice of the row at once, row after row - the same
    // recursion per column as the reference, but walking memory row-wise instead of down a stride.
    constexpr std::size_t kSlice = 256;
    const int slices = int((n + kSlice - 1) / kSlice);
    parallelRows(slices, threads, [&](int s0, int s1) {
        std::vector<float> state(3 * kSlice);
        for (int s = s0; s < s1; ++s) {
            const std::size_t i0 = std::size_t(s) * kSlice, len = std::min(kSlice, n - i0);
            for (int y = 0; y < h; ++y) {
                const u8 *in = src.row(y) + i0;
                float *out = buf.data() + std::size_t(y) * n + i0;
                for (std::size_t i = 0; i < len; ++i)
                    out[i] = float(in[i]);
            }
            float *w1 = state.data(), *w2 = w1 + kSlice, *w3 = w2 + kSlice;
            iirLanes(buf.data() + i0, n, h, len, k, w1, w2, w3);
        }
    });
    // Row pass: a group of rows is transposed into a small [x][line] block (line = row and channel),
    // filtered along x with all lines as vector lanes, then rounded straight into the output rows.
    const int groupRows = std::max(1, 16 / ch);
    const int groups = (h + groupRows - 1) / groupRows;
    parallelRows(groups, threads, [&](int g0, int g1) {
        std::vector<float> block(std::size_t(w) * std::size_t(groupRows * ch));
        std::vector<float> state(3 * std::size_t(groupRows * ch));
        for (int g = g0; g < g1; ++g) {
            const int y0 = g * groupRows, rowsHere = std::min(groupRows, h - y0);
            const std::size_t lanes = std::size_t(rowsHere * ch);
            for (int j = 0; j < rowsHere; ++j) {
                const float *row = buf.data() + std::size_t(y0 + j) * n;
                for (int x = 0; x < w; ++x)
                    for (int c = 0; c < ch; ++c)
                        block[std::size_t(x) * lanes + std::size_t(j * ch + c)] = row[std::size_t(x) * ch + c];
            }
            float *w1 = state.data(), *w2 = w1 + lanes, *w3 = w2 + lanes;
            iirLanes(block.data(), lanes, w, lanes, k, w1, w2, w3);
            for (int j = 0; j < rowsHere; ++j) {
                u8 *out = dst.row(y0 + j);
                for (int x = 0; x < w; ++x) {
                    const float *from = block.data() + std::size_t(x) * lanes + std::size_t(j * ch);
                    for (int c = 0; c < ch; ++c)
                        out[std::size_t(x) * ch + c] = roundToU8(from[c]);
                }
            }
        }
    });
}

void transpose(const Image &src, Image &dst, int threads)
{
    switch (src.channels()) {
    case 1: transposeImpl<1>(src, dst, threads); break;
    case 3: transposeImpl<3>(src, dst, threads); break;
    default: transposeImpl<4>(src, dst, threads); break;
    }
}

void median(const Image &src, Image &dst, int size, BorderMode border, int threads)
{
    const int w = src.width(), h = src.height(), ch = src.channels(), r = size / 2;
    const std::size_t n = std::size_t(w) * std::size_t(ch);
    const std::size_t padLen = n + 2 * std::size_t(r) * std::size_t(ch);
    parallelRows(h, threads, [&](int y0, int y1) {
        const std::vector<u8> zero(n, 0);
        std::vector<u8> ranks(std::size_t(size) * padLen);
        u8 *rank[5] = {};
        for (int k = 0; k < size; ++k)
            rank[k] = ranks.data() + std::size_t(k) * padLen + std::size_t(r) * std::size_t(ch);
        for (int y = y0; y < y1; ++y) {
            // Sort each column of the window's rows once; the border rule on x then applies to the
            // sorted columns (a column's values do not depend on x), a zero column for constant.
            const u8 *s[5] = {};
            for (int k = 0; k < size; ++k)
                s[k] = rowOrZero(src.data(), n, y + k - r, h, border, zero.data());
            if (size == 3)
                sortColumns3(s[0], s[1], s[2], rank[0], rank[1], rank[2], n);
            else
                sortColumns5(s[0], s[1], s[2], s[3], s[4], rank[0], rank[1], rank[2], rank[3], rank[4], n);
            for (int k = 0; k < size; ++k)
                padInPlace(rank[k], w, ch, r, border);
            if (size == 3)
                median3Row(rank[0], rank[1], rank[2], dst.row(y), n, ch);
            else
                median5Row(rank[0], rank[1], rank[2], rank[3], rank[4], dst.row(y), n, ch);
        }
    });
}

void morphology(const Image &src, Image &dst, int radius, bool dilate, BorderMode border, int threads)
{
    if (dilate)
        morphologyImpl<true>(src, dst, radius, border, threads);
    else
        morphologyImpl<false>(src, dst, radius, border, threads);
}

} // namespace fastcpu

} // namespace fwb
