// matmul (seed 003's ladder, seed 002's tiles, myGEMM's rungs past them; kernels/workloads/matmul.cl): C = A * B
// over n x n floats, its inputs, launch geometry, padding and a host check in double precision.
#include "../Workload.h"
#include "FloatBytes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>

namespace fwb {

namespace {

// How a variant lays out its inputs and covers C.
enum class Shape {
    ElementPerItem, // 2-D n x n range, one work-item per element (seed 003 steps 1-3)
    RowPerItem,     // 1-D n range, one work-item per row of C (seed 003 steps 4-9)
    Tiled,          // 2-D range in TILE x TILE groups, guarded edges (seed 002)
    RegisterBlocks, // 2-D range of TSM x TSN blocks, inputs padded to whole tiles (myGEMM)
    WarpTiles,      // BM x BN blocks, a 1-D group of warps each, inputs padded to whole tiles (CUTLASS)
    ColumnStrips,   // 2-D ld x (rows / CS_ROWS) range, a column strip of C per work-item (CPU devices)
};

struct Layout
{
    Shape shape = Shape::ElementPerItem;
    bool bColumnMajor = false; // the host passes B transposed (seed 003 from step 2 on)
    bool accumulatesIntoC = false; // C is uploaded as zeros before every run (steps 1-2)
    int kMultiple = 1;         // ld is padded to a multiple of this (float4/float8 inner loops)
    bool rowCap = false;       // -DROW_CAP: capacity of the private row (and local column)
};

Layout layoutOf(const std::string &name)
{
    if (name == "naive")
        return {Shape::ElementPerItem, false, true, 1, false};
    if (name == "coalesced")
        return {Shape::ElementPerItem, true, true, 1, false};
    if (name == "private_sum")
        return {Shape::ElementPerItem, true, false, 1, false};
    if (name == "row_per_item")
        return {Shape::RowPerItem, true, false, 1, false};
    if (name == "row_in_private" || name == "column_in_local")
        return {Shape::RowPerItem, true, false, 1, true};
    if (name == "float4" || name == "float4_hoisted")
        return {Shape::RowPerItem, true, false, 4, true};
    if (name == "float8")
        return {Shape::RowPerItem, true, false, 8, true};
    if (name == "tiled_local")
        return {Shape::Tiled, false, false, 1, false};
    if (name == "column_strips") // rows padded to 64 floats: the range covers them with no edge test
        return {Shape::ColumnStrips, false, false, 64, false};
    if (name == "warp_tiled")
        return {Shape::WarpTiles, false, false, 1, false};
    return {Shape::RegisterBlocks, false, false, 1, false};
}

// The value of a "-DKEY=value" define in the variant's list (the single source of tile sizes).
int defineValue(const VariantSpec &variant, const std::string &key, int fallback)
{
    for (const std::string &d : variant.defines)
        if (d.rfind(key + "=", 0) == 0)
            return std::stoi(d.substr(key.size() + 1));
    return fallback;
}

std::size_t roundUpTo(std::size_t value, std::size_t multiple)
{
    return (value + multiple - 1) / multiple * multiple;
}

// The inputs, the same on every run and device: uniform in [-1, 1) from a fixed LCG, row-major.
void makeInputs(std::size_t n, std::vector<float> &a, std::vector<float> &b)
{
    a.resize(n * n);
    b.resize(n * n);
    std::uint32_t state = 2000u + std::uint32_t(n);
    auto next = [&state] {
        state = state * 1664525u + 1013904223u;
        return float(state >> 8) * (2.0f / 16777216.0f) - 1.0f;
    };
    for (float &x : a)
        x = next();
    for (float &x : b)
        x = next();
}

// Relative error of one device value against the exact sum, scaled by the sum of |terms| (the
// quantity rounding errors are proportional to); NaN and infinities count as infinitely wrong.
double relativeError(double device, double exact, double absTerms)
{
    if (!std::isfinite(device))
        return INFINITY;
    return std::fabs(device - exact) / std::max(absTerms, 1e-30);
}

} // namespace

std::size_t matmulPaddedN(const VariantSpec &variant, std::size_t n)
{
    const Layout layout = layoutOf(variant.name);
    const auto tiles = [&](const char *rows, const char *cols, const char *depth, int depthDefault) { // whole tiles
        return std::size_t(std::lcm(std::lcm(defineValue(variant, rows, 128), defineValue(variant, cols, 128)),
                                    defineValue(variant, depth, depthDefault)));
    };
    if (layout.shape == Shape::RegisterBlocks)
        return roundUpTo(n, tiles("TSM", "TSN", "TSK", 8));
    if (layout.shape == Shape::WarpTiles)
        return roundUpTo(n, tiles("BM", "BN", "BK", 16));
    return roundUpTo(n, std::size_t(layout.kMultiple));
}

namespace {

WorkloadProblem setupMatmul(const VariantSpec &variant, const std::map<std::string, double> &params)
{
    const std::size_t n = std::size_t(params.at("n"));
    const Layout layout = layoutOf(variant.name);
    const std::size_t ld = matmulPaddedN(variant, n);
    std::size_t rows = n; // rows of every stored matrix (the tiled rungs pad them as the rows)
    WorkloadProblem problem;
    WorkloadPass pass;
    switch (layout.shape) {
    case Shape::ElementPerItem:
        pass.dims = 2;
        pass.global[0] = n;
        pass.global[1] = n;
        break;
    case Shape::RowPerItem:
        pass.dims = 1;
        pass.global[0] = n;
        break;
    case Shape::Tiled: {
        const int tile = defineValue(variant, "TILE", 16);
        pass.dims = 2;
        pass.global[0] = roundUpTo(n, std::size_t(tile));
        pass.global[1] = roundUpTo(n, std::size_t(tile));
        pass.local = LocalSize{tile, tile};
        break;
    }
    case Shape::ColumnStrips: {
        const int strip = defineValue(variant, "CS_ROWS", 8);
        rows = roundUpTo(n, std::size_t(strip)); // padding rows of A are zeros, their C rows unread
        pass.dims = 2;
        pass.global[0] = rows / std::size_t(strip); // down the strips first: they share B's panel
        pass.global[1] = ld / 16;                   // 16 columns (one float16) per work-item
        pass.local = LocalSize{1, 1};
        break;
    }
    case Shape::RegisterBlocks: {
        const int tsm = defineValue(variant, "TSM", 128), tsn = defineValue(variant, "TSN", 128);
        const int wptm = defineValue(variant, "WPTM", 8), wptn = defineValue(variant, "WPTN", 8);
        rows = ld;
        pass.dims = 2;
        pass.global[0] = ld / std::size_t(tsn) * std::size_t(tsn / wptn);
        pass.global[1] = ld / std::size_t(tsm) * std::size_t(tsm / wptm);
        pass.local = LocalSize{tsn / wptn, tsm / wptm};
        break;
    }
    case Shape::WarpTiles: {
        // Group (x, y) computes the BM x BN block at rows y*BM, columns x*BN with THREADS work-items in
        // one dimension (its warps); matmul.cl's warp-tiling section says how they share it out.
        const int bm = defineValue(variant, "BM", 128), bn = defineValue(variant, "BN", 128);
        const int threads = (bm / defineValue(variant, "WM", 64)) * (bn / defineValue(variant, "WN", 32)) * 32;
        rows = ld;
        pass.dims = 2;
        pass.global[0] = ld / std::size_t(bn) * std::size_t(threads);
        pass.global[1] = ld / std::size_t(bm);
        pass.local = LocalSize{threads, 1};
        break;
    }
    }
    if (layout.rowCap) {
        std::size_t cap = 64; // a power of two >= ld, so a few programs serve every n
        while (cap < ld)
            cap *= 2;
        problem.defines.push_back("ROW_CAP=" + std::to_string(cap));
    }

    std::vector<float> a, b;
    makeInputs(n, a, b);
    std::vector<float> as(rows * ld, 0.0f), bs(rows * ld, 0.0f);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < n; ++k) {
            as[i * ld + k] = a[i * n + k];
            if (layout.bColumnMajor)
                bs[i * ld + k] = b[k * n + i]; // row i of bt is column i of B
            else
                bs[i * ld + k] = b[i * n + k];
        }
    WorkloadBuffer c{"c", std::vector<std::uint8_t>(rows * ld * sizeof(float), 0), false, true};
    c.input = layout.accumulatesIntoC; // zeros, uploaded before each run: the kernel adds into C
    problem.buffers = {{"a", floatBytes(as), true, false}, {"b", floatBytes(bs), true, false}, std::move(c)};
    problem.intArgs = {std::int32_t(n), std::int32_t(ld)};
    problem.passes = {pass};
    problem.work = 2.0 * double(n) * double(n) * double(n);
    return problem;
}

WorkloadCheck checkMatmul(const WorkloadProblem &problem, const std::vector<WorkloadBuffer> &results,
                          const std::map<std::string, double> &params)
{
    const std::size_t n = std::size_t(problem.intArgs.at(0));
    const std::size_t ld = std::size_t(problem.intArgs.at(1));
    std::vector<float> a, b;
    makeInputs(n, a, b);
    const std::vector<std::uint8_t> &c = results.at(2).data;
    auto device = [&](std::size_t i, std::size_t j) { return double(floatAt(c, i * ld + j)); };
    WorkloadCheck check;
    check.tolerance = double(n + 1) * std::ldexp(1.0, -24);
    auto element = [&](std::size_t i, std::size_t j) {
        double exact = 0, absTerms = 0;
        for (std::size_t k = 0; k < n; ++k) {
            const double p = double(a[i * n + k]) * double(b[k * n + j]);
            exact += p;
            absTerms += std::fabs(p);
        }
        check.maxError = std::max(check.maxError, relativeError(device(i, j), exact, absTerms));
    };
    if (n <= 512) {
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j)
                element(i, j);
        check.detail = "every element compared with a double-precision host product";
    } else {
        // The seed's method, random elements, plus the last row and column (where partial tiles end)
        // and every row and column sum: sum_j C[i][j] = sum_k A[i][k] * (sum_j B[k][j]), and likewise
        // for columns, so a wrong or missing block anywhere moves some sum.
        std::uint32_t state = 77u;
        const int samples = 256;
        for (int s = 0; s < samples; ++s) {
            state = state * 1664525u + 1013904223u;
            const std::size_t i = (state >> 8) % n;
            state = state * 1664525u + 1013904223u;
            element(i, (state >> 8) % n);
        }
        for (std::size_t j = 0; j < n; ++j)
            element(n - 1, j);
        for (std::size_t i = 0; i < n; ++i)
            element(i, n - 1);
        std::vector<double> bRowSum(n, 0), bRowAbs(n, 0), aColSum(n, 0), aColAbs(n, 0);
        for (std::size_t k = 0; k < n; ++k)
            for (std::size_t j = 0; j < n; ++j) {
                bRowSum[k] += b[k * n + j];
                bRowAbs[k] += std::fabs(b[k * n + j]);
                aColSum[j] += a[k * n + j]; // column j of A, summed over rows k
                aColAbs[j] += std::fabs(a[k * n + j]);
            }
        std::vector<double> deviceColSum(n, 0);
        for (std::size_t i = 0; i < n; ++i) {
            double deviceRowSum = 0, exact = 0, absTerms = 0;
            for (std::size_t j = 0; j < n; ++j) {
                const double v = device(i, j);
                deviceRowSum += v;
                deviceColSum[j] += v;
            }
            for (std::size_t k = 0; k < n; ++k) {
                exact += double(a[i * n + k]) * bRowSum[k];
                absTerms += std::fabs(a[i * n + k]) * bRowAbs[k];
            }
            check.maxError = std::max(check.maxError, relativeError(deviceRowSum, exact, absTerms));
        }
        for (std::size_t j = 0; j < n; ++j) {
            double exact = 0, absTerms = 0;
            for (std::size_t k = 0; k < n; ++k) {
                exact += aColSum[k] * double(b[k * n + j]);
                absTerms += aColAbs[k] * std::fabs(b[k * n + j]);
            }
            check.maxError = std::max(check.maxError, relativeError(deviceColSum[j], exact, absTerms));
        }
        check.detail = std::to_string(samples) + " random elements, the last row and column, and every row and "
                       "column sum compared with double-precision host values";
    }
    check.matches = check.maxError <= check.tolerance;
    char text[96];
    std::snprintf(text, sizeof text, "; worst error %.3g of sum|a*b| (tolerance %.3g)", check.maxError,
                  check.tolerance);
    check.detail += text;
    return check;
}

} // namespace

void registerMatmul(std::vector<WorkloadSpec> &out)
{
    WorkloadSpec w;
    w.name = "matmul";
    w.title = "Matrix multiplication";
    w.description = "C = A * B for n x n float matrices: 2n^3 floating-point operations on 3n^2 numbers, so a "
                    "good kernel is limited by arithmetic, not memory, once it reuses what it loads. Seed 003 "
                    "climbs nine steps at n = 2000; seed 002 adds 16x16 tiles; the rungs after them follow "
                    "Cedric Nugteren's myGEMM tutorial towards BLAS speed.";
    w.params = {{"n", "Matrix size n", "Rows and columns of each square matrix.", 2000, 1, 32768, 1, true}};
    w.metricName = "GFLOPS";
    w.metricScale = 1e9;
    w.toleranceNote = "relative to sum_k |A[i][k]*B[k][j]|, at most (n+1)*2^-24: any order of n float "
                      "multiply-adds, fused or not, rounds within n*2^-24 of that sum (Higham's gamma_n), so "
                      "every correct kernel passes and a wrong or missing block of terms fails";
    w.setup = setupMatmul;
    w.check = checkMatmul;

    VariantSpec v;
    v.kernelFile = "matmul.cl";
    auto add = [&](const char *name, const char *title, const char *entry, std::string description,
                   std::string seedNote, std::vector<std::string> defines = {}) {
        v.name = name;
        v.title = title;
        v.passes = {{entry}};
        v.description = std::move(description);
        v.seedNote = std::move(seedNote);
        v.defines = std::move(defines);
        w.variants.push_back(v);
    };

    add("naive", "Naive (adds into global C)", "matmul_naive",
        "One work-item per element of C, adding each product straight into C in global memory: every "
        "multiply-add also reads and writes C. Work-item ids run down the rows, so neighbours read A and C "
        "n floats apart.",
        "Seed 003 step 1, n = 2000: 1.73 GFLOPS on a CPU, 1.26 on a Radeon HD 4870.");
    add("coalesced", "B stored column-major", "matmul_coalesced",
        "As naive, but the host stores B column-major, so each work-item walks its row of A and its "
        "column of B through consecutive addresses (good for a CPU core's cache). On a GPU neighbours "
        "still sit n floats apart: the seed's 'coalesced' is sequential per work-item, not across them.",
        "Seed 003 step 2: 2.78 GFLOPS CPU, 1.23 GPU.");
    add("private_sum", "Sum in a private variable", "matmul_private_sum",
        "The running sum stays in a register and C is written once: the read-modify-write of global "
        "memory per product disappears.",
        "Seed 003 step 3: 4.26 GFLOPS CPU, 12.07 GPU (the GPU's biggest single step).");
    add("row_per_item", "One row per work-item (1-D)", "matmul_row_per_item",
        "Each work-item computes a whole row of C, so the range is 1-D with only n work-items. More work "
        "per item, but on a big GPU n work-items fill only a few of its cores.",
        "Seed 003 step 4: 2.98 GFLOPS CPU, 9.59 GPU (slower on both).");
    add("row_in_private", "Row of A in a private array", "matmul_row_in_private",
        "As one row per work-item, with that row of A copied once into a private array and reused for all "
        "n columns. A private array that large does not fit in registers: GPUs keep it in (cached) "
        "off-chip memory. Its capacity is a -DROW_CAP define (a power of two >= n).",
        "Seed 003 step 5: 3.23 GFLOPS CPU, 12.06 GPU.");
    add("column_in_local", "Column of B in local memory", "matmul_column_in_local",
        "As row_in_private, and the work-group copies each column of B into local memory together, waits "
        "at a barrier, then shares it. Helps only where local memory is real on-chip memory: where "
        "CL_DEVICE_LOCAL_MEM_TYPE is global (the seed's Radeon HD 4870, PoCL's CPU device) it is ordinary "
        "memory plus two barriers per column. Needs 4*ROW_CAP bytes of local memory (n up to ~12000 on "
        "48 KiB).",
        "Seed 003 step 6: 3.06 GFLOPS CPU, 10.05 GPU (that GPU emulated local memory in global memory).");
    add("float4", "float4 inner loop", "matmul_float4",
        "As row_in_private, with the inner loop taking four products at a time through dot() on float4s "
        "assembled from scalars each iteration; the host pads rows to a multiple of 4 with zeros.",
        "Seed 003 step 7: 3.24 GFLOPS CPU, 13.5 GPU.");
    add("float4_hoisted", "float4 row built once", "matmul_float4_hoisted",
        "As float4, with the private row of A stored as float4s built once before the loops, so the inner "
        "loop assembles only B's four values.",
        "Seed 003 step 8: 4.22 GFLOPS CPU, 32.06 GPU (the seed's best GPU result).");
    add("float8", "float8 inner loop", "matmul_float8",
        "As float4_hoisted with float8 (dot8 = dot of the two float4 halves' sum with ones); rows padded to "
        "a multiple of 8. Wins where the device prefers 8-wide vectors "
        "(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT = 8, e.g. AVX CPUs), loses where it prefers 4.",
        "Seed 003 step 9: 7.27 GFLOPS CPU, 29.3 GPU (the HD 4870's preferred width was 4).");
    add("tiled_local", "16x16 tiles in local memory", "matmul_tiled_local",
        "Work-groups of 16x16 work-items stage a 16x16 block of A and of B in local memory per step, so "
        "each float read from global memory serves 16 products instead of one; work-item ids run along "
        "rows, so loads and stores are contiguous across a warp. Edge tiles load zeros past n.",
        "Seed 002 (C++ AMP, 1024x1024 ints): 50 ms simple, 17 ms with 16x16 tiles (about 43 and 126 "
        "GOPS); 7350 ms on the CPU.",
        {"TILE=16"});
    const std::vector<std::string> blocks = {"TSM=128", "TSN=128", "TSK=8", "WPTM=8", "WPTN=8"};
    auto with = [&](std::vector<std::string> extra) {
        std::vector<std::string> all = blocks;
        all.insert(all.end(), extra.begin(), extra.end());
        return all;
    };
    add("register_blocked", "2-D register blocking", "matmul_register_blocked",
        "Each 16x16 work-group computes a 128x128 block of C and each work-item an 8x8 block of sums held "
        "in registers. Per step the group stages 128x8 of A and 8x128 of B in local memory; each value "
        "read from local memory then feeds 8 multiply-adds instead of one, so arithmetic, not memory "
        "traffic, sets the pace. n is padded with zeros to a multiple of 128 (counted as overhead: GFLOPS "
        "use the true n).",
        "Past the seeds: myGEMM kernel 6. H100, n = 4096: 28.7 TFLOPS, 56% of cuBLAS FP32 (51.6), the "
        "ladder's best there; 26.3 TFLOPS at n = 2000 (padded to 2048).", with({}));
    add("register_blocked_wide", "Register blocking, float4 loads", "matmul_register_blocked_wide",
        "As register_blocked, with every global load, local read and store of C 16 bytes wide (float4): "
        "a quarter of the load instructions. Each work-item's 8x8 block is two float4 runs of rows by two "
        "of columns, so 16 neighbours still cover 256 contiguous bytes. The A slab is stored transposed so "
        "four rows of one k form a float4; those transposing stores land in the same local-memory bank "
        "(2-way conflicts).",
        "Past the seeds: myGEMM kernel 7 (wider loads with register blocking). H100, n = 4096: 23.0 TFLOPS, "
        "slower than scalar register_blocked (28.7): NVIDIA's compiler already merges the scalar loads, "
        "and the float4 runs cost more registers.", with({"PAD=0"}));
    add("register_blocked_padded", "Register blocking, padded tile", "matmul_register_blocked_wide",
        "As register_blocked_wide, with each row of the transposed A slab 4 floats longer (-DPAD=4): the "
        "words a work-item scatters now fall in different banks, so the transposing stores are "
        "conflict-free and float4 reads stay aligned.",
        "Past the seeds: myGEMM kernel 5's padding against bank conflicts, on kernel 7. H100, n = 4096: "
        "23.3 TFLOPS (+1% over wide).", with({"PAD=4"}));
    add("register_blocked_prefetch", "Register blocking, double-buffered", "matmul_register_blocked_prefetch",
        "As register_blocked_padded, with two sets of local slabs: the next slab's global loads are issued "
        "before the current one is multiplied, so their latency hides behind the arithmetic, and one "
        "barrier per step suffices instead of two.",
        "Past the seeds: myGEMM kernel 9 (prefetching). H100, n = 4096: 24.5 TFLOPS (+5% over padded).",
        with({"PAD=4"}));
    add("warp_tiled", "Warp tiling (CUTLASS SIMT)", "matmul_warp_tiled",
        "A 1-D group of 256 work-items (8 warps of 32) computes a 128x128 block of C from 8-deep slabs; "
        "each warp owns a 64x32 region and each work-item 8x8 sums in registers, as 2x2 float4 runs that "
        "sit 32 rows and 16 columns apart, so one k's reads of local memory across a warp are a few "
        "consecutive 16-byte words shared by its lanes (no bank conflicts). Global loads and stores of C "
        "are 16-byte; the A slab is stored transposed and padded so the scattering stores are "
        "conflict-free too. Slabs are double-buffered (one barrier per step) and every fixed loop is "
        "unrolled, so the sums stay in registers. n is padded with zeros to a multiple of 128. Block, "
        "warp and per-item sizes are -D defines (BM, BN, BK, WM, WN, TM, TN, PAD).",
        "Past the seeds: the warp-tiled SIMT GEMM (CUTLASS, siboehm kernel 10)",
        {"BM=128", "BN=128", "BK=8", "WM=64", "WN=32", "TM=8", "TN=8", "PAD=4"});
    add("column_strips", "CPU-shaped: 8x16 blocks in float16 registers", "matmul_column_strips",
        "Shaped for CPU devices such as PoCL on an AVX-512 core: each work-item computes an 8-row by "
        "16-column block of C. Along k it loads 16 consecutive floats of a row of B as one float16 (one "
        "64-byte vector register), broadcasts one element of A per row, and keeps 8 float16 sums in "
        "registers, so every vector of B loaded serves 8 vector multiply-adds. Explicit vectors because "
        "PoCL vectorises across work-items only in loops without inner loops, and a matrix product is all "
        "inner loop; no local memory and no barriers, which on a CPU are ordinary memory and loop splits. "
        "Rows are padded to 64 floats, so every vector is aligned and the range needs no edge test. The "
        "range walks down the row strips first, so the work-items a CPU runs one after another share one "
        "16-column panel of B in its cache; work-groups are single work-items. Measured at n = 2000: PoCL "
        "on 2 AVX-512 cores 39 GFLOPS (float8 10, naive 1.4); an H100 0.99 TFLOPS - a GPU wastes 31 of "
        "every 32 lanes on one-work-item groups, which is why the register-blocked rungs exist.",
        "Past the seeds: seed 003's float8 idea taken to the CPU's full vector width, with register "
        "blocking. Seed 003's best CPU step was float8 at 7.27 GFLOPS.",
        {"CS_ROWS=8"});

    out.push_back(std::move(w));
}

} // namespace fwb
