// The headless image I/O (imageio/: libspng, TurboJPEG), Qt-free: round trips of PNG and JPEG in every
// format at odd sizes, 16-bit, paletted and tRNS PNGs expanded by Qt's rules, EXIF orientation, sizes
// refused from the header before any memory is taken, cut-short and damaged files refused with their
// reason, atomic saves; and filter-bench run --input/--output on a PNG (with --transfer pinned: the
// decoder writes into page-locked memory, so the run stages nothing).
#include "PlainSupport.h"
#include "HeadlessImageIo.h"
#include "JpegMarkers.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace fwb;
using namespace fwb::plain;
namespace fs = std::filesystem;

namespace {

fs::path g_dir;

// --- PNG files written by hand (stored deflate blocks), any depth and colour type ---
std::uint32_t crc32(const std::string &data)
{
    std::uint32_t crc = 0xffffffffu;
    for (unsigned char c : data) {
        crc ^= c;
        for (int k = 0; k < 8; ++k)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}
std::string be32(std::uint32_t v) { return {char(v >> 24), char(v >> 16), char(v >> 8), char(v)}; }
std::string chunk(const std::string &type, const std::string &data)
{
    return be32(std::uint32_t(data.size())) + type + data + be32(crc32(type + data));
}
std::string zlibStored(const std::string &raw)
{
    std::string z("\x78\x01", 2);
    std::size_t at = 0;
    do {
        const std::size_t n = std::min<std::size_t>(65535, raw.size() - at);
        const bool last = at + n == raw.size();
        z += char(last ? 1 : 0);
        z += char(n & 0xff), z += char(n >> 8), z += char(~n & 0xff), z += char((~n >> 8) & 0xff);
        z += raw.substr(at, n);
        at += n;
    } while (at < raw.size());
    std::uint32_t a = 1, b = 0;
    for (unsigned char c : raw)
        a = (a + c) % 65521, b = (b + a) % 65521;
    return z + be32((b << 16) | a);
}
// rows: each starting with its filter byte (0).
std::string png(std::uint32_t w, std::uint32_t h, int depth, int colourType, const std::string &rows,
                const std::string &extra = {})
{
    const std::string ihdr = be32(w) + be32(h) + char(depth) + char(colourType) + std::string(3, '\0');
    return std::string("\x89PNG\r\n\x1a\n", 8) + chunk("IHDR", ihdr) + extra + chunk("IDAT", zlibStored(rows))
           + chunk("IEND", {});
}
std::string bytes(std::initializer_list<int> values)
{
    std::string s;
    for (int v : values)
        s += char(v);
    return s;
}

Image pattern(int w, int h, PixelFormat format)
{
    Image image(w, h, format);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < image.channels(); ++c)
                image.row(y)[x * image.channels() + c] = std::uint8_t(c == 3 ? (x * 7 + y * 3) & 255 : (x * 5 + y * 3 + c * 40) & 255);
    return image;
}

bool load(const fs::path &path, Image &image, std::string &error)
{
    return HeadlessImageIo().load(path.string(), image, error);
}
std::vector<int> pixel(const Image &im, int x, int y)
{
    const std::uint8_t *p = im.row(y) + x * im.channels();
    return std::vector<int>(p, p + im.channels());
}
#define CHECK_PIXEL(im, x, y, ...) CHECK(pixel((im), (x), (y)) == std::vector<int>(__VA_ARGS__))

void roundTrips()
{
    HeadlessImageIo io;
    for (PixelFormat format : {PixelFormat::Gray8, PixelFormat::Rgb888, PixelFormat::Rgba8888})
        for (auto [w, h] : {std::pair{37, 23}, std::pair{1, 1}, std::pair{259, 194}}) {
            const Image image = pattern(w, h, format);
            const fs::path pngPath = g_dir / ("rt-" + std::string(formatName(format)) + ".png");
            std::string error;
            CHECK(io.save(pngPath.string(), image, error));
            Image back;
            CHECK(load(pngPath, back, error));
            // gray8 stays gray8; RGB becomes rgba8888 with alpha 255 (Qt's rule)
            const PixelFormat expected = format == PixelFormat::Gray8 ? PixelFormat::Gray8 : PixelFormat::Rgba8888;
            CHECK(back.format() == expected);
            CHECK_EQ(maxAbsDiff(back, image.convertedTo(expected)), 0);

            const fs::path jpgPath = g_dir / ("rt-" + std::string(formatName(format)) + ".jpg");
            CHECK(io.save(jpgPath.string(), image, error));
            CHECK(load(jpgPath, back, error));
            CHECK(back.format() == expected);
            if (back.format() == expected && back.width() == w) {
                Image opaque = image.convertedTo(expected);
                if (expected == PixelFormat::Rgba8888)
                    for (int y = 0; y < h; ++y)
                        for (int x = 0; x < w; ++x)
                            opaque.row(y)[4 * x + 3] = 255; // JPEG keeps no alpha
                double mean = 0;
                maxAbsDiff(back, opaque, &mean);
                if (!(mean < 10.0))
                    std::fprintf(stderr, "%s %dx%d: JPEG mean difference %.2f\n", formatName(format), w, h, mean);
                CHECK(mean < 10.0); // quality 75, 4:2:0 chroma: lossy; exactness is tst_image_readers' (against Qt)
            }
        }
}

void sixteenBitAndPalettes()
{
    std::string error;
    Image im;
    // 16-bit RGBA: round(v * 255 / 65535) as Qt (0xfe00 -> 253, 0x8000 -> 128).
    writeAll(g_dir / "rgba16.png", png(2, 1, 16, 6, bytes({0, 0x12, 0x34, 0x80, 0x80, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x00, 0x01,
                                                             0x01, 0x7f, 0x7f, 0x80, 0x00})));
    CHECK(load(g_dir / "rgba16.png", im, error));
    CHECK(im.format() == PixelFormat::Rgba8888);
    CHECK_PIXEL(im, 0, 0, {0x12, 0x80, 0xff, 0xff});
    CHECK_PIXEL(im, 1, 0, {0xfd, 0x01, 0x7f, 0x80});
    // 16-bit gray: rgba8888 (Qt loads it as Grayscale16, not Grayscale8).
    // 0x0080 is a tie Qt rounds down (0), where (v + 128 - (v >> 8)) >> 8 gives 1.
    writeAll(g_dir / "gray16.png", png(4, 1, 16, 0, bytes({0, 0, 0, 0x80, 0, 0xff, 0xff, 0x00, 0x80})));
    CHECK(load(g_dir / "gray16.png", im, error));
    CHECK(im.format() == PixelFormat::Rgba8888);
    CHECK_PIXEL(im, 1, 0, {0x80, 0x80, 0x80, 255});
    CHECK_PIXEL(im, 2, 0, {255, 255, 255, 255});
    CHECK_PIXEL(im, 3, 0, {0, 0, 0, 255});
    // Paletted, 8-bit, tRNS for the first entry; index 5 is past the palette: entry 0, as Qt does.
    const std::string plte = chunk("PLTE", bytes({10, 20, 30, 40, 50, 60, 70, 80, 90}));
    writeAll(g_dir / "indexed.png", png(4, 1, 8, 3, bytes({0, 0, 1, 2, 5}), plte + chunk("tRNS", bytes({128}))));
    CHECK(load(g_dir / "indexed.png", im, error));
    CHECK(im.format() == PixelFormat::Rgba8888);
    CHECK_PIXEL(im, 0, 0, {10, 20, 30, 128});
    CHECK_PIXEL(im, 1, 0, {40, 50, 60, 255});
    CHECK_PIXEL(im, 2, 0, {70, 80, 90, 255});
    CHECK_PIXEL(im, 3, 0, {10, 20, 30, 128});
    // Paletted, 2 bits a pixel: indices 0 1 2 1 packed in one byte.
    writeAll(g_dir / "indexed2.png", png(4, 1, 2, 3, bytes({0, 0x19}), plte));
    CHECK(load(g_dir / "indexed2.png", im, error));
    CHECK_PIXEL(im, 2, 0, {70, 80, 90, 255});
    CHECK_PIXEL(im, 3, 0, {40, 50, 60, 255});
    // 8-bit gray with tRNS: rgba8888, the transparent gray as transparent black (Qt's colour table).
    writeAll(g_dir / "gray-trns.png", png(2, 1, 8, 0, bytes({0, 7, 9}), chunk("tRNS", bytes({0, 7}))));
    CHECK(load(g_dir / "gray-trns.png", im, error));
    CHECK(im.format() == PixelFormat::Rgba8888);
    CHECK_PIXEL(im, 0, 0, {0, 0, 0, 0});
    CHECK_PIXEL(im, 1, 0, {9, 9, 9, 255});
    // 1-bit gray: black and white.
    writeAll(g_dir / "mono.png", png(3, 1, 1, 0, bytes({0, 0x40})));
    CHECK(load(g_dir / "mono.png", im, error));
    CHECK_PIXEL(im, 1, 0, {255, 255, 255, 255});
    CHECK_PIXEL(im, 2, 0, {0, 0, 0, 255});
    // 8-bit gray: gray8; gray+alpha: rgba8888.
    writeAll(g_dir / "gray8.png", png(2, 1, 8, 0, bytes({0, 3, 200})));
    CHECK(load(g_dir / "gray8.png", im, error));
    CHECK(im.format() == PixelFormat::Gray8);
    CHECK_PIXEL(im, 1, 0, {200});
    writeAll(g_dir / "gray-alpha.png", png(1, 1, 8, 4, bytes({0, 200, 128})));
    CHECK(load(g_dir / "gray-alpha.png", im, error));
    CHECK_PIXEL(im, 0, 0, {200, 200, 200, 128});
    // RGB with tRNS: the matching colour transparent.
    writeAll(g_dir / "rgb-trns.png", png(2, 1, 8, 2, bytes({0, 1, 2, 3, 4, 5, 6}), chunk("tRNS", bytes({0, 1, 0, 2, 0, 3}))));
    CHECK(load(g_dir / "rgb-trns.png", im, error));
    CHECK_PIXEL(im, 0, 0, {1, 2, 3, 0});
    CHECK_PIXEL(im, 1, 0, {4, 5, 6, 255});
}

// APP1 with orientation `o` spliced in after SOI (big- or little-endian TIFF header).
std::string withOrientation(const std::string &jpeg, int o, bool little = false)
{
    const std::string tiff = little ? std::string("II*\0\x08\0\0\0", 8) + bytes({1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, o, 0, 0, 0}) + std::string(4, '\0')
                                    : std::string("MM\0*\0\0\0\x08", 8) + bytes({0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, o, 0, 0}) + std::string(4, '\0');
    const std::string payload = std::string("Exif\0\0", 6) + tiff;
    const std::size_t length = payload.size() + 2;
    return jpeg.substr(0, 2) + bytes({0xff, 0xe1, int(length >> 8), int(length & 0xff)}) + payload + jpeg.substr(2);
}

void exifOrientationApplied()
{
    // 8x4: left half black, right half white, a grey dot top left.
    Image halves(8, 4, PixelFormat::Gray8);
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 8; ++x)
            halves.row(y)[x] = x < 4 ? 0 : 255;
    std::string jpeg, error;
    CHECK(encodeJpeg(halves, 100, jpeg, error));
    struct Row
    {
        int orientation;
        int w, h;
        int topLeft, bottomLeft; // expected: black (0) or white (1)
    };
    for (const Row &r : {Row{1, 8, 4, 0, 0}, Row{6, 4, 8, 0, 1}, Row{8, 4, 8, 1, 0}, Row{3, 8, 4, 1, 1}, Row{2, 8, 4, 1, 1},
                         Row{5, 4, 8, 0, 1}})
        for (bool little : {false, true}) {
            const fs::path path = g_dir / ("exif-" + std::to_string(r.orientation) + ".jpg");
            writeAll(path, withOrientation(jpeg, r.orientation, little));
            Image im;
            CHECK(load(path, im, error));
            CHECK_EQ(im.width(), r.w);
            CHECK_EQ(im.height(), r.h);
            if (im.width() == r.w && im.height() == r.h) {
                CHECK_EQ(im.row(0)[0] > 128, r.topLeft == 1);
                CHECK_EQ(im.row(r.h - 1)[0] > 128, r.bottomLeft == 1);
            }
        }
    // Malformed EXIF: no orientation, never a crash (offset past the end, wrong type, bad magic).
    const std::string good = std::string("Exif\0\0MM\0*\0\0\0\x08", 14) + bytes({0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0});
    auto orientation = [](const std::string &s) { return exifOrientation(reinterpret_cast<const std::uint8_t *>(s.data()), s.size()); };
    CHECK_EQ(orientation(good), 6);
    for (std::size_t n = 0; n < good.size() - 6; ++n)
        CHECK(orientation(good.substr(0, n)) == 0 || n >= 24); // cut short: 0 until the value is there
    std::string wrongType = good;
    wrongType[19] = 4;
    CHECK_EQ(orientation(wrongType), 0);
    std::string farOffset = good;
    farOffset[13] = char(0xff);
    CHECK_EQ(orientation(farOffset), 0);
}

void refusedBeforeAllocation()
{
    bool allocated = false;
    const ImageIo::Allocate watch = [&](int w, int h, PixelFormat f) {
        allocated = true;
        return Image(w, h, f);
    };
    HeadlessImageIo io;
    Image im;
    std::string error;
    writeAll(g_dir / "huge.png", png(100000, 100000, 8, 0, std::string(2, '\0')));
    CHECK(!io.loadInto((g_dir / "huge.png").string(), watch, im, error));
    CHECK_HAS(error, "too large");
    // Within the size limits, but the data cannot hold it (deflate expands 1032:1 at most).
    writeAll(g_dir / "huge-within-limits.png", png(40000, 40000, 8, 6, std::string(2, '\0')));
    CHECK(!io.loadInto((g_dir / "huge-within-limits.png").string(), watch, im, error));
    CHECK(contains(error, "damaged or cut short") || contains(error, "needs"));
    // The memory budget: 5000x5000 16-bit RGBA is 190 MiB as the 8 bytes a pixel Qt's decoder fills.
    setenv("FWB_MEMORY_MIB", "300", 1);
    writeAll(g_dir / "budget16.png", png(5000, 5000, 16, 6, std::string(2, '\0')));
    CHECK(!io.loadInto((g_dir / "budget16.png").string(), watch, im, error));
    CHECK_HAS(error, "needs 190 MiB");
    unsetenv("FWB_MEMORY_MIB");
    // A JPEG header declaring 30000x30000 over a few bytes of scan data.
    std::string jpeg;
    CHECK(encodeJpeg(pattern(16, 16, PixelFormat::Gray8), 90, jpeg, error));
    for (std::size_t i = 2; i + 8 < jpeg.size(); ++i)
        if (std::uint8_t(jpeg[i]) == 0xff && std::uint8_t(jpeg[i + 1]) == 0xc0) {
            jpeg[i + 5] = char(30000 >> 8), jpeg[i + 6] = char(30000 & 0xff);
            jpeg[i + 7] = char(30000 >> 8), jpeg[i + 8] = char(30000 & 0xff);
            break;
        }
    writeAll(g_dir / "huge.jpg", jpeg);
    CHECK(!io.loadInto((g_dir / "huge.jpg").string(), watch, im, error));
    CHECK(contains(error, "damaged or cut short") || contains(error, "needs"));
    CHECK(!allocated);
    CHECK(im.isNull());
}

void damagedFilesRefused()
{
    HeadlessImageIo io;
    std::string pngBytes, jpgBytes, error;
    CHECK(encodePng(pattern(64, 48, PixelFormat::Rgba8888), pngBytes, error));
    CHECK(encodeJpeg(pattern(64, 48, PixelFormat::Rgba8888), 90, jpgBytes, error));
    std::string garbage(4096, '\0');
    for (std::size_t i = 0; i < garbage.size(); ++i)
        garbage[i] = char((i * 2654435761u) >> 13);
    struct Case
    {
        std::string name, bytes, problem;
    };
    const std::vector<Case> cases{
        {"zero.png", "", "the file is empty"},
        {"truncated.png", pngBytes.substr(0, pngBytes.size() / 2), "damaged or cut short"},
        {"truncated-header.png", pngBytes.substr(0, 20), "damaged or cut short"},
        {"no-iend.png", pngBytes.substr(0, pngBytes.size() - 12), "damaged or cut short"},
        {"truncated.jpg", jpgBytes.substr(0, jpgBytes.size() / 2), "cut short"},
        {"truncated-in-header.jpg", jpgBytes.substr(0, 100), "cut short"},
        {"garbage.png", garbage, "not PNG image data"},
        {"garbage.jpg", garbage, "not JPG image data"},
        {"garbage", garbage, "not an image format"},
        {"small.gif", "GIF89a" + std::string(20, '\0'), "need a build with Qt"},
    };
    for (const Case &c : cases) {
        writeAll(g_dir / c.name, c.bytes);
        Image im;
        const bool ok = io.load((g_dir / c.name).string(), im, error);
        CHECK(!ok);
        if (!ok)
            CHECK_HAS(error, c.problem);
        CHECK(im.isNull());
    }
    std::string corrupt = pngBytes;
    corrupt[corrupt.size() / 2] ^= 0x55; // a CRC or zlib error inside IDAT
    writeAll(g_dir / "corrupt.png", corrupt);
    Image im;
    CHECK(!io.load((g_dir / "corrupt.png").string(), im, error));
    CHECK_HAS(error, "damaged");
    CHECK(!io.load((g_dir / "missing.png").string(), im, error));
    CHECK_HAS(error, "does not exist");
    fs::create_directories(g_dir / "a-folder.png");
    CHECK(!io.load((g_dir / "a-folder.png").string(), im, error));
    CHECK_HAS(error, "is a folder");
}

// loadInto: the pixels land in the caller's storage (adopted memory, as Session::pinnedImage's), in
// the caller's format, without another image in between when the formats agree.
void decodesIntoCallerStorage()
{
    HeadlessImageIo io;
    std::string error;
    const Image rgba = pattern(41, 17, PixelFormat::Rgba8888);
    CHECK(io.save((g_dir / "into.png").string(), rgba, error));
    CHECK(io.save((g_dir / "into.jpg").string(), rgba, error));
    for (const char *name : {"into.png", "into.jpg"})
        for (PixelFormat format : {PixelFormat::Rgba8888, PixelFormat::Gray8, PixelFormat::Rgb888}) {
            std::vector<std::uint8_t> storage;
            const ImageIo::Allocate adopt = [&](int w, int h, PixelFormat) {
                storage.assign(std::size_t(w) * std::size_t(h) * std::size_t(channelCount(format)), 0);
                return Image::adopt(w, h, format, storage.data(), [] {});
            };
            Image into, plain;
            CHECK(io.loadInto((g_dir / name).string(), adopt, into, error));
            CHECK(io.load((g_dir / name).string(), plain, error));
            CHECK(into.data() == storage.data());
            CHECK(into.format() == format);
            CHECK_EQ(maxAbsDiff(into, plain.convertedTo(format)), 0);
        }
    // A throwing allocator fails the load with its message.
    Image im;
    CHECK(!io.loadInto((g_dir / "into.png").string(), [](int, int, PixelFormat) -> Image { throw std::runtime_error("no pinned memory"); }, im, error));
    CHECK_HAS(error, "no pinned memory");
}

void savesAtomically()
{
    HeadlessImageIo io;
    std::string error;
    const fs::path dir = g_dir / "atomic";
    fs::create_directories(dir);
    const fs::path existing = dir / "existing.png";
    writeAll(existing, "old contents");
    CHECK(!io.save(existing.string(), Image(), error)); // nothing to encode: the old file stays
    CHECK(readAll(existing) == "old contents");
    writeAll(dir / "not-a-folder", "x");
    CHECK(!io.save((dir / "not-a-folder" / "out.png").string(), pattern(3, 3, PixelFormat::Gray8), error));
    CHECK(!io.save((dir / "out.bmp").string(), pattern(3, 3, PixelFormat::Gray8), error));
    CHECK_HAS(error, "unsupported output format");
    fs::create_symlink(existing, dir / "link.png");
    CHECK(!io.save((dir / "link.png").string(), pattern(3, 3, PixelFormat::Gray8), error));
    CHECK(fs::is_symlink(dir / "link.png"));
    CHECK(readAll(existing) == "old contents");
    CHECK(io.save(existing.string(), pattern(3, 3, PixelFormat::Gray8), error)); // a good save replaces it
    Image back;
    CHECK(load(existing, back, error));
    CHECK_EQ(back.width(), 3);
    int entries = 0;
    for (const auto &entry : fs::directory_iterator(dir))
        entries += entry.is_regular_file() || entry.is_symlink();
    CHECK_EQ(entries, 3); // existing.png, not-a-folder, link.png: no temp file left behind
}

#ifdef FWB_FILTER_BENCH
std::string run(const std::string &args, int &code) { return runFilterBench(args, g_dir / "bench-out.txt", code); }

void filterBenchReadsAndWrites()
{
    HeadlessImageIo io;
    std::string error;
    const fs::path in = g_dir / "bench-in.png", outPng = g_dir / "bench-out.png", outJpg = g_dir / "bench-out.jpg";
    CHECK(io.save(in.string(), pattern(67, 45, PixelFormat::Rgba8888), error));
    int code = 0;
    std::string text = run("run --filter box --variant naive --repeat 1 --warmup 0 --format rgba8888 --input '" + in.string()
                               + "' --output '" + outPng.string() + "'",
                           code);
    CHECK_EQ(code, 0);
    if (code)
        std::fprintf(stderr, "%s\n", text.c_str());
    Image out;
    CHECK(load(outPng, out, error));
    CHECK_EQ(out.width(), 67);
    CHECK_EQ(out.height(), 45);
    // Pinned: decoded into page-locked memory, so nothing is staged.
    text = run("run --filter box --variant naive --repeat 2 --warmup 1 --transfer pinned --json --input '" + in.string()
                   + "' --output '" + outJpg.string() + "'",
               code);
    CHECK_EQ(code, 0);
    CHECK_HAS(text, "\"staging_ms\":0");
    CHECK(load(outJpg, out, error));
    CHECK_EQ(out.width(), 67);
    // A damaged input: exit 2, the file and the reason, nothing written.
    writeAll(g_dir / "bench-bad.png", "\x89PNG\r\n\x1a\nthis is not really a png");
    text = run("run --filter box --variant naive --input '" + (g_dir / "bench-bad.png").string() + "' --output '"
                   + (g_dir / "never.png").string() + "'",
               code);
    CHECK_EQ(code, 2);
    CHECK_HAS(text, "bench-bad.png");
    CHECK_HAS(text, "damaged or cut short");
    CHECK(!fs::exists(g_dir / "never.png"));
}
#endif

} // namespace

int main()
{
    g_dir = fs::temp_directory_path() / ("fwb-plain-image-io-" + std::to_string(getpid()));
    fs::create_directories(g_dir);
    if (!headlessReads(ImageFileKind::Png) || !headlessReads(ImageFileKind::Jpeg)) {
        std::printf("plain_image_io: skipped (%s; %s)\n", headlessMissing(ImageFileKind::Png).c_str(),
                    headlessMissing(ImageFileKind::Jpeg).c_str());
        return 0;
    }
    roundTrips();
    sixteenBitAndPalettes();
    exifOrientationApplied();
    refusedBeforeAllocation();
    damagedFilesRefused();
    decodesIntoCallerStorage();
    savesAtomically();
#ifdef FWB_FILTER_BENCH
    filterBenchReadsAndWrites();
#endif
    std::error_code ec;
    fs::remove_all(g_dir, ec);
    return fwb::plain::finish("plain_image_io");
}
