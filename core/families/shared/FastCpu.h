// Shared by every filter family's fast CPU path (core/families/<family>/<Family>.cpp): the switch that
// picks it, the parameter lookup and the whole-row border helpers. A family's fast path is a
// cache-friendly, auto-vectorisable version of its plain reference, used as the multi-threaded "speedup
// vs CPU" baseline (threads > 1); rows are split over threads with parallelRows() (CpuReference.h). It is
// bit-identical to the reference, except where the family also gives an exact path (FilterSpec::cpuExact,
// what checks use): then within the filter's tolerance (gaussian5x5's fixed point).
#pragma once

#include "Catalogue.h"
#include "Image.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fwb {

// Whether cpuReference(..., threads) takes the fast path: threads > 1, so the single-threaded call
// stays the plain, obviously-correct oracle. A ForceFastCpuPath alive on the calling thread makes
// every thread count take the fast path, so tests can compare it with the oracle single-threaded too.
bool useFastCpuPath(int threads);

// A family's FilterSpec::cpuReference from its two CPU paths, each called as path(src, dst, params,
// threads): the fast one where useFastCpuPath(threads), else the plain reference.
template <typename Fast, typename Reference>
auto fastOrReference(Fast fast, Reference reference)
{
    return [fast, reference](const Image &src, Image &dst, const FilterParams &p, int threads) {
        if (useFastCpuPath(threads))
            fast(src, dst, p, threads);
        else
            reference(src, dst, p, threads);
    };
}

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

// The run's value of parameter `key`, else `fallback` (the family's default for it, as its ParamSpec says).
inline double paramOr(const FilterParams &p, const std::string &key, double fallback)
{
    const auto it = p.values.find(key);
    return it == p.values.end() ? fallback : it->second;
}

namespace fastcpu {

using u8 = std::uint8_t;

// FWB_VECTOR_CLONES on a hot row loop: GCC (and Clang) compile it twice, for AVX2 and for the build's
// baseline (x86-64: SSE2), and the loader picks one per machine (ifunc). The same plain C++ loop, twice
// the vector width where the CPU has it; no intrinsics. "avx2" does not include FMA, so float sums round
// exactly as the baseline's do (bit-identical results on every machine). Off where ifunc is not
// available (non-ELF, non-x86) and under the sanitizers (an ifunc resolver runs before they start).
#if defined(__has_feature) // Clang names its sanitizers this way (older versions lack GCC's macros)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define FWB_NO_VECTOR_CLONES
#endif
#endif
#if defined(__x86_64__) && defined(__ELF__) && defined(__GNUC__) && !defined(FWB_NO_VECTOR_CLONES)         \
    && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define FWB_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define FWB_VECTOR_CLONES
#endif

// A strip's cache of a separable filter's row-pass results: the row result of source row `row` sits in
// slot row % slots, computed on first use. A window of at most `slots` consecutive rows never evicts
// its own rows, so each source row of a strip is filtered along x once (plus the strip's halo) and the
// intermediate stays in cache instead of going through a whole-image buffer.
template <typename T>
class RowCache
{
public:
    RowCache(int slots, std::size_t rowLen)
        : m_slots(std::size_t(slots)), m_rowLen(rowLen), m_rows(m_slots * rowLen), m_which(m_slots, -1)
    {
    }
    // fill(row, out) writes row's result into out[0 .. rowLen).
    template <typename Fill>
    const T *get(int row, const Fill &fill)
    {
        const std::size_t slot = std::size_t(row) % m_slots;
        T *out = m_rows.data() + slot * m_rowLen;
        if (m_which[slot] != row) {
            fill(row, out);
            m_which[slot] = row;
        }
        return out;
    }

private:
    std::size_t m_slots, m_rowLen;
    std::vector<T> m_rows;
    std::vector<int> m_which;
};

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

} // namespace fastcpu

} // namespace fwb
