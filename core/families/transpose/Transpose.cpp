// transpose (the output is height x width: naive, local tile, diagonal, padded; kernels/transpose/transpose.cl
// with the shared kernels/transpose/transpose.clh): catalogue entry, the plain CPU reference and the fast
// multi-threaded CPU path.
#include "Catalogue.h"
#include "CpuReference.h"
#include "families/shared/FastCpu.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace fwb {

namespace {

using namespace fastcpu;

// One 32x32-pixel block: output rows oy0..oy1 (input columns), output columns ox0..ox1 (input rows).
// A pixel is moved as one P (a byte for gray8, a 32-bit word for rgba8888), through memcpy: no
// alignment or aliasing assumption.
template <typename P, int BYTES>
inline void transposeBlock(const u8 *in, std::size_t inStride, Image &dst, int oy0, int oy1, int ox0, int ox1)
{
    for (int oy = oy0; oy < oy1; ++oy) { // output row oy = input column oy
        u8 *o = dst.row(oy);
        const u8 *col = in + std::size_t(oy) * BYTES;
        for (int ox = ox0; ox < ox1; ++ox) {
            P v;
            std::memcpy(&v, col + std::size_t(ox) * inStride, sizeof v);
            std::memcpy(o + std::size_t(ox) * BYTES, &v, sizeof v);
        }
    }
}

template <typename P, int BYTES>
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
            for (int bx = 0; bx < ow; bx += kBlock)
                transposeBlock<P, BYTES>(in, inStride, dst, by, ey, bx, std::min(bx + kBlock, ow));
        }
    });
}

// rgb888: three bytes a pixel.
struct Rgb
{
    u8 v[3];
};

// Fast path: 32x32-pixel blocks, one move per pixel.
void transposeFast(const Image &src, Image &dst, const FilterParams &, int threads)
{
    switch (src.channels()) {
    case 1: transposeImpl<u8, 1>(src, dst, threads); break;
    case 3: transposeImpl<Rgb, 3>(src, dst, threads); break;
    default: transposeImpl<std::uint32_t, 4>(src, dst, threads); break;
    }
}

// The plain reference: output pixel (ox, oy) is input pixel (oy, ox), channel by channel.
void transposeReference(const Image &src, Image &dst, const FilterParams &, int threads)
{
    const int ch = src.channels();
    parallelRows(dst.height(), threads, [&](int y0, int y1) {
        for (int oy = y0; oy < y1; ++oy) { // output row oy = input column oy
            unsigned char *o = dst.row(oy);
            for (int ox = 0; ox < dst.width(); ++ox)
                for (int c = 0; c < ch; ++c)
                    o[std::size_t(ox * ch + c)] = src.row(ox)[std::size_t(oy * ch + c)];
        }
    });
}

} // namespace

void registerTranspose(std::vector<FilterSpec> &out)
{
    FilterSpec f;
    f.name = "transpose";
    f.openCv = {OpenCvEquivalent::Call::Transpose, 0, {}, {}, {}, 1, {}};
    f.title = "Transpose";
    f.plainVerb = "flipping the picture over its diagonal";
    f.description = "Swaps rows and columns: the output is height x width. Pure data movement, so it shows the "
                    "memory system alone: coalescing, local-memory staging, work-group order and bank conflicts "
                    "(seeds 000 and 002).";
    f.hasBorder = false;
    f.transposesOutput = true;
    f.tolerance = 0;
    f.toleranceNote = "exact: pixels are moved, never computed";
    f.prepare = [](const FilterParams &) { return PreparedFilter{}; };
    f.cpuReference = fastOrReference(transposeFast, transposeReference);
    f.variants.push_back(VariantSpec{
        .name = "naive",
        .isBaseline = true,
        .title = "Naive (global memory)",
        .kernelFile = "transpose.cl",
        .passes = {{"transpose_naive_u8", Slot::Src, Slot::Dst, Geometry::Transposed}},
        .sharesTileProgram = true, // all four share one program; the naive kernel ignores the tile
        .description = "One work-item per pixel reads its row-major input and writes straight to the transposed "
                       "place: reads are coalesced, writes stride by the image height, so every work-item of a "
                       "warp writes a different cache line.",
        .seedNote = "Seed 000: the baseline of the transpose ladder.",
        .plainWords = "Every worker moves one pixel to its mirrored place; reading goes along rows but writing jumps all over memory, which is slow.",
    });
    f.variants.push_back(VariantSpec{
        .name = "local",
        .isBaseline = false,
        .title = "Local tile (transposeLS)",
        .kernelFile = "transpose.cl",
        .passes = {{"transpose_local_u8", Slot::Src, Slot::Dst, Geometry::Transposed}},
        .tiledLocal = true,
        .sharesTileProgram = false,
        .description = "A TILE_W x TILE_H block (auto 16x16) is staged in __local memory, barrier, then written "
                       "out transposed so the global write is row-wise too. The column read from local memory "
                       "hits one bank repeatedly, and concurrent work-groups queue on the same memory rows.",
        .seedNote = "Seed 000: barely faster than naive - a new bad access pattern from local rows to global columns.",
        .plainWords = "Each team first gathers a small square into a fast scratchpad, then writes it out flipped, so both reading and writing go along rows.",
    });
    f.variants.push_back(VariantSpec{
        .name = "local_diagonal",
        .isBaseline = false,
        .title = "Local tile, diagonal work-groups",
        .kernelFile = "transpose.cl",
        .passes = {{"transpose_local_diagonal_u8", Slot::Src, Slot::Dst, Geometry::Transposed}},
        .tiledLocal = true,
        .sharesTileProgram = false,
        .description = "The seed's one-line change by = (by + bx) % get_num_groups(1): work-groups that run at "
                       "the same time now read different input rows and write different output columns, so "
                       "their traffic spreads over memory partitions instead of piling onto one.",
        .seedNote = "Seed 000: one changed line, clearly faster than the plain local-tile transpose.",
        .plainWords = "The same squares, but the teams start in a staggered order so they do not all crowd the same part of memory at once.",
    });
    f.variants.push_back(VariantSpec{
        .name = "local_padded",
        .isBaseline = false,
        .title = "Local tile 17 wide, diagonal",
        .kernelFile = "transpose.cl",
        .passes = {{"transpose_local_padded_u8", Slot::Src, Slot::Dst, Geometry::Transposed}},
        .tiledLocal = true,
        .sharesTileProgram = false,
        .description = "As local_diagonal, with each tile row one element longer (TILE_W + 1): the column read in "
                       "the write phase then walks consecutive banks instead of hitting one bank TILE_H times. "
                       "Matters where local memory is banked on-chip (GPUs); a CPU emulates it in cache.",
        .seedNote = "Seed 002: local-memory bank conflicts - pad shared arrays so a column spans all banks.",
        .plainWords = "The same squares, with one spare column in the scratchpad so workers do not queue up for the same part of it.",
    });
    f.variants.push_back(VariantSpec{
        .name = "register_blocks",
        .title = "16x16 block per work-item, in registers",
        .kernelFile = "transpose.cl",
        .passes = {{"transpose_roofline_u8", Slot::Src, Slot::Dst, Geometry::Transposed}},
        .blockWidth = 16,
        .blockHeight = 16,
        // Odd sizes: rows padded to 128 bytes on the device keep every block, the edge ones too, on the
        // aligned 16-byte path, and the warps' 32-byte output runs on whole sectors (H100 rgba8888 6720x4481:
        // 0.167 ms padded to 16 bytes, 0.156 to 32, 0.149 to 128; 6720x4480 0.140).
        .rowAlign = 128,
        // H100, 6720x4480 gray8 / rgba8888: 4x16 31 / 148 us, 8x16 52 / 151 us, 16x16 76 / 155 us. A warp
        // of 4 blocks across and 8 down reads 64-byte runs and writes 128-byte runs.
        .preferredLocalGpu = {4, 16},
        .preferredLocalCpu = {16, 4},
        .description = "Each work-item moves a whole 16x16-pixel block: 16 row loads of 16 bytes (gray8) or 64 "
                       "bytes (rgba8888) all in flight at once, a transpose inside its registers (byte/word "
                       "shuffles, no __local memory, no barrier), 16 row stores of the same width. A warp covers "
                       "4 blocks across and 8 down (auto 4x16 groups), so its reads are 64-byte / 256-byte runs and its "
                       "writes 128-byte / 512-byte runs: whole 32-byte sectors both ways, every byte crosses the bus "
                       "once. In rgba8888 the local rung is as fast: four-byte pixels already fill sectors one per "
                       "work-item. The one-pixel-per-work-item ladder cannot get there for gray8: with one byte per "
                       "work-item an SM of a large GPU holds at most 2 KiB of loads in flight, too little to cover "
                       "the memory latency. "
                       "Odd sizes: rows padded to 128 bytes on the device, and in gray8 the blocks over the right and "
                       "bottom edges take the same aligned path in place (input rows past the height read the last "
                       "row again, output rows past the width are skipped), as fast as even sizes; rgba8888's edge "
                       "blocks move back to end at the edge. In packed rows (tiles, mapped memory) gray8 rows arrive as funnel-shifted aligned "
                       "words and leave as whole words with ragged byte/short ends; rgb888 takes a per-pixel path.",
        .seedNote = "Seeds 000/002 taken to the memory roofline: coalesced 16-byte accesses both ways, several "
                    "rows per work-item.",
        .plainWords = "Each worker flips a whole 16x16 square on its own and moves it in big chunks, as fast as memory can go.",
    });
    f.variants.push_back(VariantSpec{
        .name = "word_blocks",
        .title = "4x4 pixel block per work-item (rgba8888)",
        .kernelFile = "transpose.cl",
        .passes = {{"transpose_words_u8", Slot::Src, Slot::Dst, Geometry::Transposed}},
        .formats = {PixelFormat::Rgba8888},
        .blockWidth = 4,
        .blockHeight = 4,
        .rowAlign = 128, // every block on the aligned path, the warps' runs on whole sectors
        .preferredLocalGpu = {8, 8},
        .preferredLocalCpu = {16, 4},
        .description = "rgba8888's register rung: each work-item moves a 4x4-pixel block, four 16-byte row loads "
                       "and four 16-byte row stores of whole pixels, transposed in 16 registers (no __local "
                       "memory, no barrier). register_blocks' 16x16 block is 256 words in rgba8888, so few warps "
                       "fit a multiprocessor; a quarter-width block keeps many in flight. A warp covers 8 blocks "
                       "across and 4 down (auto 8x8 groups): 128-byte input runs and 64-byte output runs, whole "
                       "32-byte sectors both ways. Rows are padded to 128 bytes on the device, so edge blocks "
                       "take the aligned path in place; packed rows that are not 16-byte aligned (tiles, mapped "
                       "memory) move pixel by pixel. gray8 is register_blocks' (4x4 bytes would be 4-byte "
                       "accesses).",
        .plainWords = "Each worker flips a small 4x4 square of colour pixels on its own and moves it in big chunks, so many workers can be busy at once.",
    });
    out.push_back(f);
}

} // namespace fwb
