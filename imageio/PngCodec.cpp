// PNG through libspng: decoding with Qt's output rules (see HeadlessImageIo.h), encoding for save().
#include "CodecSupport.h"
#include "HeadlessImageIo.h"

#ifdef FWB_HAVE_SPNG
#include <spng.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>
#endif

namespace fwb {

#ifndef FWB_HAVE_SPNG
bool decodePng(const std::uint8_t *, std::size_t, const ImageIo::Allocate &, Image &, std::string &error)
{
    return codec::missing(ImageFileKind::Png, error);
}
bool encodePng(const Image &, std::string &, std::string &error, int)
{
    return codec::missing(ImageFileKind::Png, error);
}
#else

namespace {

struct CtxFree
{
    void operator()(spng_ctx *ctx) const { spng_ctx_free(ctx); }
};
using Ctx = std::unique_ptr<spng_ctx, CtxFree>;

std::string pngDamaged(const std::string &why) { return codec::damaged("PNG", why); }
std::string pngDamaged(int rc) { return pngDamaged(spng_strerror(rc)); }

// Bytes of compressed image data (IDAT chunks) before IEND; the chunk walk stops at the first
// inconsistent length (the decoder then says what is wrong).
std::uint64_t idatBytes(const std::uint8_t *data, std::size_t size)
{
    std::uint64_t total = 0;
    std::size_t i = 8;
    while (i + 12 <= size) {
        const std::uint32_t length = (std::uint32_t(data[i]) << 24) | (data[i + 1] << 16) | (data[i + 2] << 8) | data[i + 3];
        if (std::memcmp(data + i + 4, "IDAT", 4) == 0)
            total += length;
        if (std::memcmp(data + i + 4, "IEND", 4) == 0 || length > size - i - 12)
            break;
        i += 12 + length;
    }
    return total;
}

int samplesPerPixel(int colorType)
{
    switch (colorType) {
    case SPNG_COLOR_TYPE_GRAYSCALE: return 1;
    case SPNG_COLOR_TYPE_TRUECOLOR: return 3;
    case SPNG_COLOR_TYPE_INDEXED: return 1;
    case SPNG_COLOR_TYPE_GRAYSCALE_ALPHA: return 2;
    default: return 4;
    }
}

// One sample of a raw (big-endian, packed) row.
inline unsigned sample(const std::uint8_t *row, std::size_t index, int depth)
{
    if (depth == 8)
        return row[index];
    if (depth == 16)
        return (unsigned(row[2 * index]) << 8) | row[2 * index + 1];
    const std::size_t bit = index * std::size_t(depth);
    return (row[bit / 8] >> (8 - depth - int(bit % 8))) & ((1u << depth) - 1);
}

struct Rgba
{
    std::uint8_t r, g, b, a;
};

// The colour table Qt builds for paletted and low-depth gray PNGs (Format_Indexed8 / Format_Mono),
// with its rules for tRNS and for indices past the table.
std::vector<Rgba> qtColourTable(const spng_ihdr &ihdr, spng_ctx *ctx, bool hasTrns, const spng_trns &trns,
                                std::string &error)
{
    std::vector<Rgba> table;
    if (ihdr.color_type == SPNG_COLOR_TYPE_INDEXED) {
        spng_plte plte{};
        if (int rc = spng_get_plte(ctx, &plte); rc) {
            error = pngDamaged(rc);
            return {};
        }
        for (std::uint32_t i = 0; i < plte.n_entries; ++i) {
            const std::uint8_t alpha = hasTrns && i < trns.n_type3_entries ? trns.type3_alpha[i] : 255;
            table.push_back({plte.entries[i].red, plte.entries[i].green, plte.entries[i].blue, alpha});
        }
        if (ihdr.bit_depth == 1 && table.size() < 2) // Format_Mono's two entries: white stays
            table.resize(2, Rgba{255, 255, 255, 255});
        return table;
    }
    // Gray of 1, 2 or 4 bits, or 8 bits with tRNS.
    if (ihdr.bit_depth == 1) { // Format_Mono: 0 black, 1 white; tRNS makes one of them transparent
        table = {{0, 0, 0, 255}, {255, 255, 255, 255}};
        if (hasTrns && trns.gray <= 1)
            table[trns.gray].a = 0;
        return table;
    }
    const int colours = 1 << ihdr.bit_depth;
    for (int i = 0; i < colours; ++i) {
        const auto c = std::uint8_t(i * 255 / (colours - 1));
        table.push_back({c, c, c, 255});
    }
    if (hasTrns && trns.gray < colours)
        table[trns.gray] = {0, 0, 0, 0}; // Qt sets the entry to 0: transparent black
    return table;
}

} // namespace

bool decodePng(const std::uint8_t *data, std::size_t size, const ImageIo::Allocate &allocate, Image &image,
               std::string &error)
{
    Ctx ctx(spng_ctx_new(0));
    if (!ctx) {
        error = "out of memory";
        return false;
    }
    // Critical chunks with a bad CRC are errors, ancillary ones are dropped (libpng's defaults, Qt's reader).
    spng_set_crc_action(ctx.get(), SPNG_CRC_ERROR, SPNG_CRC_DISCARD);
    spng_set_chunk_limits(ctx.get(), std::size_t(64) << 20, std::size_t(64) << 20); // text, ICC: not the pixels
    spng_set_png_buffer(ctx.get(), data, size);
    spng_ihdr ihdr{};
    if (int rc = spng_get_ihdr(ctx.get(), &ihdr); rc) {
        error = pngDamaged(rc);
        return false;
    }
    spng_trns trns{};
    const int trnsRc = spng_get_trns(ctx.get(), &trns);
    if (trnsRc && trnsRc != SPNG_ECHUNKAVAIL) {
        error = pngDamaged(trnsRc);
        return false;
    }
    const bool hasTrns = trnsRc == 0;
    const int depth = ihdr.bit_depth, type = ihdr.color_type;
    const bool gray8 = type == SPNG_COLOR_TYPE_GRAYSCALE && depth == 8 && !hasTrns;
    const PixelFormat decoded = gray8 ? PixelFormat::Gray8 : PixelFormat::Rgba8888;
    // Checked as Qt checks it: 4 bytes a pixel, 8 where its decoder fills 16-bit RGBA first.
    const bool wide = depth == 16 && !(type == SPNG_COLOR_TYPE_GRAYSCALE && !hasTrns);
    if (std::string problem = imageSizeProblem(ihdr.width, ihdr.height, wide ? 8 : 4); !problem.empty()) {
        error = problem;
        return false;
    }
    const int width = int(ihdr.width), height = int(ihdr.height);
    // Deflate cannot expand more than 1032:1 (a 258-byte match in 2 bits): a file with less image data
    // than that cannot hold the pixels its header declares. Said before any pixel memory is taken.
    const std::uint64_t pixelBytes =
        (std::uint64_t(width) * std::uint64_t(height) * std::uint64_t(samplesPerPixel(type) * depth) + 7) / 8;
    if (const std::uint64_t compressed = idatBytes(data, size); compressed * 1032 + 1024 < pixelBytes) {
        error = pngDamaged("its " + std::to_string(compressed) + " bytes of image data cannot hold a "
                        + std::to_string(width) + "x" + std::to_string(height) + " image");
        return false;
    }

    std::optional<Image> target = codec::allocateTarget(allocate, width, height, decoded, error);
    if (!target)
        return false;
    const bool direct = target->format() == decoded;
    std::optional<Image> scratch;
    if (!direct) {
        try {
            scratch.emplace(width, height, decoded);
        } catch (const std::exception &e) {
            error = e.what();
            return false;
        }
    }
    Image &out = direct ? *target : *scratch;

    const bool byLibrary = gray8 || (depth == 8 && type != SPNG_COLOR_TYPE_GRAYSCALE && type != SPNG_COLOR_TYPE_INDEXED);
    if (byLibrary) {
        // 8-bit gray without tRNS, RGB, RGBA, gray+alpha: libspng's own expansion is Qt's (tRNS to alpha,
        // gray to RGB), straight into the image's rows.
        const int format = gray8 ? SPNG_FMT_G8 : SPNG_FMT_RGBA8;
        std::size_t bytes = 0;
        if (int rc = spng_decoded_image_size(ctx.get(), format, &bytes); rc || bytes != out.sizeBytes()) {
            error = rc ? pngDamaged(rc) : pngDamaged("unexpected decoded size");
            return false;
        }
        if (int rc = spng_decode_image(ctx.get(), out.data(), bytes, format, SPNG_DECODE_TRNS); rc) {
            error = pngDamaged(rc);
            return false;
        }
    } else {
        // Palettes, gray below 8 bits or with tRNS, 16-bit: the raw samples, expanded by Qt's rules.
        std::size_t bytes = 0;
        if (int rc = spng_decoded_image_size(ctx.get(), SPNG_FMT_RAW, &bytes); rc) {
            error = pngDamaged(rc);
            return false;
        }
        std::vector<std::uint8_t> raw;
        try {
            raw.resize(bytes);
        } catch (const std::exception &) {
            error = "out of memory for the decoded PNG (" + std::to_string(bytes >> 20) + " MiB)";
            return false;
        }
        if (int rc = spng_decode_image(ctx.get(), raw.data(), bytes, SPNG_FMT_RAW, 0); rc) {
            error = pngDamaged(rc);
            return false;
        }
        const std::size_t rowBytes = bytes / std::size_t(height);
        std::vector<Rgba> table;
        if (depth < 16) {
            table = qtColourTable(ihdr, ctx.get(), hasTrns, trns, error);
            if (table.empty())
                return false;
        }
        for (int y = 0; y < height; ++y) {
            const std::uint8_t *in = raw.data() + std::size_t(y) * rowBytes;
            std::uint8_t *o = out.row(y);
            for (int x = 0; x < width; ++x, o += 4) {
                if (depth < 16) {
                    unsigned index = sample(in, std::size_t(x), depth);
                    if (index >= table.size())
                        index = 0; // Qt's sanity check of palette indices
                    const Rgba c = table[index];
                    o[0] = c.r, o[1] = c.g, o[2] = c.b, o[3] = c.a;
                    continue;
                }
                unsigned r, g, b, a = 0xffff;
                const std::size_t s = std::size_t(x) * std::size_t(samplesPerPixel(type));
                if (type == SPNG_COLOR_TYPE_GRAYSCALE || type == SPNG_COLOR_TYPE_GRAYSCALE_ALPHA) {
                    r = g = b = sample(in, s, 16);
                    if (type == SPNG_COLOR_TYPE_GRAYSCALE_ALPHA)
                        a = sample(in, s + 1, 16);
                    else if (hasTrns && r == trns.gray)
                        a = 0;
                } else {
                    r = sample(in, s, 16), g = sample(in, s + 1, 16), b = sample(in, s + 2, 16);
                    if (type == SPNG_COLOR_TYPE_TRUECOLOR_ALPHA)
                        a = sample(in, s + 3, 16);
                    else if (hasTrns && r == trns.red && g == trns.green && b == trns.blue)
                        a = 0;
                }
                o[0] = codec::to8Bits(r), o[1] = codec::to8Bits(g), o[2] = codec::to8Bits(b), o[3] = codec::to8Bits(a);
            }
        }
    }
    // The chunks after the image, up to IEND: a file cut short after its pixels is cut short.
    if (int rc = spng_decode_chunks(ctx.get()); rc) {
        error = pngDamaged(rc);
        return false;
    }
    if (!direct)
        scratch->convertInto(*target);
    image = std::move(*target);
    return true;
}

bool encodePng(const Image &image, std::string &bytes, std::string &error, int level)
{
    if (image.isNull()) {
        error = "the image is empty";
        return false;
    }
    Ctx ctx(spng_ctx_new(SPNG_CTX_ENCODER));
    if (!ctx) {
        error = "out of memory";
        return false;
    }
    spng_set_option(ctx.get(), SPNG_ENCODE_TO_BUFFER, 1);
    if (level >= 0) { // else libspng's defaults: zlib's level 6, every row filter tried on each row
        spng_set_option(ctx.get(), SPNG_IMG_COMPRESSION_LEVEL, std::min(level, 9));
        // Trying all five row filters on every row costs more than the deflate at level 3 itself; one
        // filter (Paeth: the smallest files of the single filters on a blurred photo, the test card
        // and a noisy photo at level 3) loses 0-6% of size against trying all (MEASUREMENTS.md).
        spng_set_option(ctx.get(), SPNG_FILTER_CHOICE,
                        level == 0  ? SPNG_DISABLE_FILTERING // stored rows: a filter would only cost time
                        : level < 6 ? SPNG_FILTER_CHOICE_PAETH
                                    : SPNG_FILTER_CHOICE_ALL);
    }
    spng_ihdr ihdr{};
    ihdr.width = std::uint32_t(image.width());
    ihdr.height = std::uint32_t(image.height());
    ihdr.bit_depth = 8;
    ihdr.color_type = image.format() == PixelFormat::Gray8    ? SPNG_COLOR_TYPE_GRAYSCALE
                      : image.format() == PixelFormat::Rgb888 ? SPNG_COLOR_TYPE_TRUECOLOR
                                                              : SPNG_COLOR_TYPE_TRUECOLOR_ALPHA;
    int rc = spng_set_ihdr(ctx.get(), &ihdr);
    if (!rc)
        rc = spng_encode_image(ctx.get(), image.data(), image.sizeBytes(), SPNG_FMT_PNG, SPNG_ENCODE_FINALIZE);
    std::size_t length = 0;
    void *png = rc ? nullptr : spng_get_png_buffer(ctx.get(), &length, &rc);
    if (!png) {
        error = std::string("PNG encoding failed (") + spng_strerror(rc) + ")";
        return false;
    }
    bytes.assign(static_cast<const char *>(png), length);
    std::free(png);
    return true;
}

#endif

} // namespace fwb
