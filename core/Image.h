// Image: an 8-bit-per-channel raster (gray8, rgb888, rgba8888), format conversions and the test card.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fwb {

enum class PixelFormat { Gray8, Rgb888, Rgba8888 };

int channelCount(PixelFormat format);
const char *formatName(PixelFormat format);
std::optional<PixelFormat> parsePixelFormat(std::string_view name);
const std::vector<PixelFormat> &allPixelFormats();

// Largest image the tools accept: 2^31 pixels (2 Gpixel, e.g. 46000x46000) and 2^20 on a side; images
// bigger than the device allows go through in tiles (Session::run). The host memory check is separate.
inline constexpr std::int64_t kMaxImagePixels = std::int64_t(1) << 31;
inline constexpr int kMaxImageSide = 1 << 20;
// Empty when width x height is acceptable, otherwise a sentence saying why not. With channels > 0, also
// refuses (before allocating) an image the memory this process may use cannot hold, naming both sizes.
std::string imageSizeProblem(std::int64_t width, std::int64_t height, int channels = 0);
// The memory that check divides: physical memory, or the process's cgroup limit where lower (a
// container), or FWB_MEMORY_MIB where set (to try the limits, and for the fuzzer's smaller budget).
// 0 when unknown.
std::uint64_t memoryBudgetBytes();
// The largest pixel buffer one image may take: a third of memoryBudgetBytes(), at most the 2 Gpixel x 4
// bytes of the size limit. Decoders get it as their allocation limit.
std::uint64_t imageMemoryLimitBytes();

class Image
{
public:
    Image() = default;
    // Tightly packed (stride = width * channels); throws fwb::Error on a bad size.
    Image(int width, int height, PixelFormat format);
    // An image on storage someone else owns (e.g. Session::pinnedImage's page-locked memory): `pixels`
    // (at least width * channels * height bytes, tightly packed, contents kept) serve as the image's
    // until it is destroyed, then `release` runs once. A copy is an ordinary image with its own pixels;
    // a move carries the storage along. Throws fwb::Error on a bad size or a null `pixels`.
    static Image adopt(int width, int height, PixelFormat format, std::uint8_t *pixels, std::function<void()> release);
    Image(const Image &other);
    Image &operator=(const Image &other);
    Image(Image &&other) noexcept = default;
    Image &operator=(Image &&other) noexcept = default;
    ~Image() = default;

    int width() const { return m_width; }
    int height() const { return m_height; }
    PixelFormat format() const { return m_format; }
    int channels() const { return channelCount(m_format); }
    std::size_t stride() const { return m_stride; }
    std::size_t sizeBytes() const { return m_adopted ? m_stride * std::size_t(m_height) : m_data.size(); }
    bool isNull() const { return m_width == 0 || m_height == 0; }
    // False when the pixels live in adopted storage (adopt()).
    bool ownsStorage() const { return !m_adopted; }

    std::uint8_t *data() { return m_adopted ? m_adopted.get() : m_data.data(); }
    const std::uint8_t *data() const { return m_adopted ? m_adopted.get() : m_data.data(); }
    std::uint8_t *row(int y) { return data() + std::size_t(y) * m_stride; }
    const std::uint8_t *row(int y) const { return data() + std::size_t(y) * m_stride; }

    Image convertedTo(PixelFormat format) const;
    // Writes this image's pixels, converted to `out`'s format, into `out` (same width and height; its
    // storage, adopted or not, stays). Throws fwb::Error on a size mismatch.
    void convertInto(Image &out) const;
    // 64-bit FNV-1a over size, format and pixels: identifies content for caches.
    std::uint64_t contentHash() const;

private:
    int m_width = 0;
    int m_height = 0;
    PixelFormat m_format = PixelFormat::Gray8;
    std::size_t m_stride = 0;
    std::vector<std::uint8_t> m_data;             // the pixels, unless adopted
    std::shared_ptr<std::uint8_t> m_adopted;      // adopted storage; its deleter runs the owner's release
};

// Deterministic test card of any size: colour bars, gradients, a zone plate, fine lines,
// text-like glyph edges and a noise patch. Same input, same pixels, on every machine.
Image makeTestCard(int width, int height, PixelFormat format);
// Draws that test card into an existing image, at its size and in its format (same pixels as makeTestCard).
void drawTestCard(Image &image);

// Largest absolute per-channel difference between two images of equal size and format;
// -1 when they differ in size or format. meanOut (optional) receives the mean difference.
int maxAbsDiff(const Image &a, const Image &b, double *meanOut = nullptr);

} // namespace fwb
