// Image storage, pixel-format conversions and the deterministic test card generator.
#include "Image.h"

#include "Names.h"
#include "Error.h"
#include "Hash.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <unistd.h>

namespace fwb {

int channelCount(PixelFormat format)
{
    switch (format) {
    case PixelFormat::Gray8: return 1;
    case PixelFormat::Rgb888: return 3;
    case PixelFormat::Rgba8888: return 4;
    }
    return 1;
}

constexpr EnumName<PixelFormat> kPixelFormats[] = {
    {PixelFormat::Gray8, "gray8"},
    {PixelFormat::Rgb888, "rgb888"},
    {PixelFormat::Rgba8888, "rgba8888"},
};

const char *formatName(PixelFormat format) { return nameIn(kPixelFormats, format); }

std::optional<PixelFormat> parsePixelFormat(std::string_view name) { return valueIn(kPixelFormats, name); }

const std::vector<PixelFormat> &allPixelFormats()
{
    static const std::vector<PixelFormat> formats = valuesIn(kPixelFormats);
    return formats;
}

// Memory this process may use, in bytes (0 when unknown): physical memory, lowered by a cgroup limit (a
// container sees the host's memory in sysconf but is killed at its own limit), or FWB_MEMORY_MIB when set.
static std::uint64_t readLimitFile(const char *path)
{
    std::FILE *file = std::fopen(path, "r");
    if (!file)
        return 0;
    char text[64] = {};
    const std::size_t n = std::fread(text, 1, sizeof text - 1, file);
    std::fclose(file);
    text[n] = 0;
    char *end = nullptr;
    const unsigned long long value = std::strtoull(text, &end, 10);
    return end != text ? std::uint64_t(value) : 0; // "max" (no limit) reads as 0
}

std::uint64_t memoryBudgetBytes()
{
    if (const char *mib = std::getenv("FWB_MEMORY_MIB"); mib && *mib) {
        // Digits only, 1..2^40 MiB: 17592186044416 << 20 would wrap to 0 (no limit at all).
        char *end = nullptr;
        errno = 0;
        const unsigned long long value = std::strtoull(mib, &end, 10);
        const bool digits = std::string_view(mib).find_first_not_of("0123456789") == std::string_view::npos;
        if (digits && errno == 0 && *end == 0 && value > 0 && value <= (1ull << 40))
            return std::uint64_t(value) << 20;
        static std::atomic<bool> warned{false};
        if (!warned.exchange(true))
            std::fprintf(stderr, "warning: FWB_MEMORY_MIB '%s' is not a whole number of MiB in 1..%llu; ignoring it\n",
                         mib, 1ull << 40);
    }
    std::uint64_t memory = 0;
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0)
        memory = std::uint64_t(pages) * std::uint64_t(page);
#endif
    for (const char *limit : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"})
        if (const std::uint64_t bytes = readLimitFile(limit); bytes > 0 && (memory == 0 || bytes < memory))
            memory = bytes;
    return memory;
}

std::uint64_t imageMemoryLimitBytes()
{
    const std::uint64_t memory = memoryBudgetBytes();
    const std::uint64_t largest = std::uint64_t(kMaxImagePixels) * 4;
    return memory ? std::min(largest, memory / 3) : largest;
}

std::string imageSizeProblem(std::int64_t width, std::int64_t height, int channels)
{
    if (width <= 0 || height <= 0)
        return "image size " + std::to_string(width) + "x" + std::to_string(height)
               + " is empty (both sides must be at least 1)";
    if (width > kMaxImageSide || height > kMaxImageSide || width * height > kMaxImagePixels)
        return "image size " + std::to_string(width) + "x" + std::to_string(height)
               + " is too large (limit: " + std::to_string(kMaxImageSide) + " per side and "
               + std::to_string(kMaxImagePixels / 1000000) + " Mpixel in all)";
    // Input, output and a converted copy live at once: a third of the memory per image at most.
    const std::uint64_t bytes = std::uint64_t(width) * std::uint64_t(height) * std::uint64_t(std::max(0, channels));
    if (const std::uint64_t memory = memoryBudgetBytes(); channels > 0 && memory && bytes > memory / 3)
        return "image size " + std::to_string(width) + "x" + std::to_string(height) + " needs "
               + std::to_string(bytes >> 20) + " MiB, more than a third of the "
               + std::to_string(memory >> 20) + " MiB of memory this program may use (input, output and a "
               "copy live at once)";
    return {};
}

Image::Image(int width, int height, PixelFormat format)
{
    if (std::string problem = imageSizeProblem(width, height, channelCount(format)); !problem.empty())
        throw Error(problem);
    m_width = width;
    m_height = height;
    m_format = format;
    m_stride = std::size_t(width) * std::size_t(channelCount(format));
    m_data.assign(m_stride * std::size_t(height), 0);
}

Image Image::adopt(int width, int height, PixelFormat format, std::uint8_t *pixels, std::function<void()> release)
{
    if (std::string problem = imageSizeProblem(width, height); !problem.empty())
        throw Error(problem);
    if (!pixels)
        throw Error("no storage to adopt for a " + std::to_string(width) + "x" + std::to_string(height) + " image");
    Image image;
    image.m_width = width;
    image.m_height = height;
    image.m_format = format;
    image.m_stride = std::size_t(width) * std::size_t(channelCount(format));
    image.m_adopted = std::shared_ptr<std::uint8_t>(pixels, [release = std::move(release)](std::uint8_t *) noexcept {
        try {
            if (release)
                release();
        } catch (...) {
            // an owner that cannot release (a lost device) has nothing left to give back
        }
    });
    return image;
}

Image::Image(const Image &other)
    : m_width(other.m_width), m_height(other.m_height), m_format(other.m_format), m_stride(other.m_stride),
      m_data(other.m_adopted ? std::vector<std::uint8_t>(other.data(), other.data() + other.sizeBytes()) : other.m_data)
{
}

Image &Image::operator=(const Image &other)
{
    if (this != &other)
        *this = Image(other);
    return *this;
}

static std::uint8_t lumaOf(const std::uint8_t *p)
{
    // ITU-R BT.601 weights in 8-bit fixed point, rounded.
    return std::uint8_t((77 * p[0] + 150 * p[1] + 29 * p[2] + 128) >> 8);
}

Image Image::convertedTo(PixelFormat format) const
{
    if (format == m_format || isNull()) {
        Image copy = *this;
        copy.m_format = isNull() ? format : m_format;
        return copy;
    }
    Image out(m_width, m_height, format);
    convertInto(out);
    return out;
}

void Image::convertInto(Image &out) const
{
    if (out.m_width != m_width || out.m_height != m_height)
        throw Error("cannot convert a " + std::to_string(m_width) + "x" + std::to_string(m_height) + " image into a "
                    + std::to_string(out.m_width) + "x" + std::to_string(out.m_height) + " one");
    if (out.m_format == m_format) {
        if (out.data() != data())
            std::copy(data(), data() + sizeBytes(), out.data());
        return;
    }
    const int inCh = channels();
    const int outCh = out.channels();
    for (int y = 0; y < m_height; ++y) {
        const std::uint8_t *src = row(y);
        std::uint8_t *dst = out.row(y);
        for (int x = 0; x < m_width; ++x, src += inCh, dst += outCh) {
            std::uint8_t rgba[4];
            if (inCh == 1) {
                rgba[0] = rgba[1] = rgba[2] = src[0];
                rgba[3] = 255;
            } else {
                rgba[0] = src[0];
                rgba[1] = src[1];
                rgba[2] = src[2];
                rgba[3] = inCh == 4 ? src[3] : 255;
            }
            if (outCh == 1)
                dst[0] = lumaOf(rgba);
            else
                std::copy(rgba, rgba + outCh, dst);
        }
    }
}

std::uint64_t Image::contentHash() const
{
    Fnv1a hash;
    hash.add(&m_width, sizeof m_width);
    hash.add(&m_height, sizeof m_height);
    hash.add(&m_format, sizeof m_format);
    hash.add(data(), sizeBytes());
    return hash.value();
}

namespace {

// Integer hash for the noise patch: same value on every platform (no std::rand).
std::uint32_t mix(std::uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

// 5x7 glyphs ("OPENCL 0123456789") drawn as blocky text-like edges.
const char *const kGlyphs[] = {
    "01110100011000110001100011000101110", // O
    "11110100011000111110100001000010000", // P
    "11111100001000011110100001000011111", // E
    "10001110011010110011100011000110001", // N
    "01110100011000010000100001000101110", // C
    "10000100001000010000100001000011111", // L
    "01110100011001110101110011000101110", // 0
    "00100011000010000100001000010001110", // 1
    "01110100010000100010001000100011111", // 2
    "11110000010000101110000010000111110", // 3
    "00010001100101010010111110001000010", // 4
    "11111100001111000001000011000101110", // 5
    "00110010001000011110100011000101110", // 6
    "11111000010001000100010000100001000", // 7
    "01110100011000101110100011000101110", // 8
    "01110100011000101111000010001001100", // 9
};

struct Rgb
{
    int r, g, b;
};

Rgb testCardPixel(int x, int y, int w, int h)
{
    const double u = (x + 0.5) / w;
    const double v = (y + 0.5) / h;
    // Band layout (top to bottom): colour bars, gradients, zone plate | lines | text, noise.
    if (v < 0.22) {
        static const Rgb bars[8] = {{235, 235, 235}, {235, 235, 16}, {16, 235, 235}, {16, 235, 16},
                                    {235, 16, 235}, {235, 16, 16},   {16, 16, 235},  {16, 16, 16}};
        return bars[std::min(7, int(u * 8))];
    }
    if (v < 0.34) {
        const int g = int(std::lround(u * 255));
        if (v < 0.28)
            return {g, g, g};
        return {g, int(std::lround((1 - u) * 255)), int(std::lround(std::fabs(2 * u - 1) * 255))};
    }
    if (u < 0.5) {
        // Zone plate: cos(k r^2) rings whose frequency rises to Nyquist at the panel edge.
        const double cx = 0.25 * w, cy = 0.34 * h + 0.33 * h;
        const double rmax = std::max(1.0, std::min(0.25 * w, 0.33 * h));
        const double dx = (x - cx) / rmax, dy = (y - cy) / rmax;
        const double phase = 3.14159265358979 * rmax * 0.5 * (dx * dx + dy * dy);
        const int g = int(std::lround(127.5 + 127.5 * std::cos(phase)));
        return {g, g, g};
    }
    if (v < 0.67) {
        // Fine lines: 1-, 2- and 3-pixel stripes, vertical then horizontal, then a diagonal.
        const int lx = x - w / 2;
        const int third = std::max(1, (w - w / 2) / 3);
        if (lx < third)
            return ((lx / (1 + (y * 3 / std::max(1, h)) % 3)) % 2) ? Rgb{255, 255, 255} : Rgb{0, 0, 0};
        if (lx < 2 * third)
            return ((y / 2) % 2) ? Rgb{255, 255, 255} : Rgb{0, 0, 0};
        return ((lx + y) % 6 < 3) ? Rgb{200, 40, 40} : Rgb{40, 40, 200};
    }
    if (v < 0.84) {
        // Text-like edges: glyph cells of 6x9 "pixels" scaled to the band height.
        const int bandTop = int(0.67 * h);
        const int cell = std::max(1, int(0.17 * h) / 9);
        const int gx = (x - w / 2) / cell, gy = (y - bandTop) / cell;
        const int glyph = (gx / 6) % 16, col = gx % 6, rowInGlyph = gy % 9;
        if (col < 5 && rowInGlyph >= 1 && rowInGlyph < 8 && kGlyphs[glyph][(rowInGlyph - 1) * 5 + col] == '1')
            return {10, 10, 10};
        return {245, 240, 220};
    }
    // Noise patch: uniform 8-bit noise per channel.
    const std::uint32_t n = mix(std::uint32_t(x) * 73856093U ^ std::uint32_t(y) * 19349663U);
    return {int(n & 255), int((n >> 8) & 255), int((n >> 16) & 255)};
}

} // namespace

Image makeTestCard(int width, int height, PixelFormat format)
{
    Image image(width, height, format);
    drawTestCard(image);
    return image;
}

void drawTestCard(Image &image)
{
    // Each pixel as RGBA, then in the image's layout exactly as convertedTo() would turn RGBA into it.
    const int width = image.width(), height = image.height(), ch = image.channels();
    for (int y = 0; y < height; ++y) {
        std::uint8_t *p = image.row(y);
        for (int x = 0; x < width; ++x, p += ch) {
            const Rgb c = testCardPixel(x, y, width, height);
            const std::uint8_t rgba[4] = {std::uint8_t(std::clamp(c.r, 0, 255)), std::uint8_t(std::clamp(c.g, 0, 255)),
                                          std::uint8_t(std::clamp(c.b, 0, 255)), 255};
            if (ch == 1)
                p[0] = lumaOf(rgba);
            else
                std::copy(rgba, rgba + ch, p);
        }
    }
}

int maxAbsDiff(const Image &a, const Image &b, double *meanOut)
{
    if (a.width() != b.width() || a.height() != b.height() || a.format() != b.format())
        return -1;
    int worst = 0;
    std::uint64_t sum = 0;
    const std::size_t rowBytes = std::size_t(a.width()) * a.channels();
    for (int y = 0; y < a.height(); ++y) {
        const std::uint8_t *pa = a.row(y);
        const std::uint8_t *pb = b.row(y);
        for (std::size_t i = 0; i < rowBytes; ++i) {
            const int d = std::abs(int(pa[i]) - int(pb[i]));
            worst = std::max(worst, d);
            sum += std::uint64_t(d);
        }
    }
    if (meanOut)
        *meanOut = a.sizeBytes() ? double(sum) / double(rowBytes * std::size_t(a.height())) : 0.0;
    return worst;
}

} // namespace fwb
