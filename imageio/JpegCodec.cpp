// JPEG through TurboJPEG: decoding with Qt's output rules (gray8 for gray JPEGs, rgba8888 otherwise,
// CMYK as Qt converts it, EXIF orientation applied as QImageReader::setAutoTransform(true)), and
// encoding for save().
#include "CodecSupport.h"
#include "HeadlessImageIo.h"
#include "JpegMarkers.h"

#ifdef FWB_HAVE_TURBOJPEG
#include <turbojpeg.h>

#include <cstring>
#include <memory>
#endif

namespace fwb {

#ifndef FWB_HAVE_TURBOJPEG
bool decodeJpeg(const std::uint8_t *, std::size_t, const ImageIo::Allocate &, Image &, std::string &error)
{
    return codec::missing(ImageFileKind::Jpeg, error);
}
bool encodeJpeg(const Image &, int, std::string &, std::string &error)
{
    return codec::missing(ImageFileKind::Jpeg, error);
}
#else

namespace {

struct HandleFree
{
    void operator()(void *handle) const { tjDestroy(handle); }
};
using Handle = std::unique_ptr<void, HandleFree>;

std::string jpegDamaged(const std::string &why) { return codec::damaged("JPEG", why); }

// Writes `src` turned by EXIF orientation 2..8 into `dst` (same format; sides swapped for 5..8).
// The transformations are Qt's (qt_imageTransform): mirror and/or flip, then a quarter turn clockwise.
void orientInto(const Image &src, int orientation, Image &dst)
{
    const int w = src.width(), h = src.height(), ch = src.channels();
    const bool mirror = orientation == 2 || orientation == 3 || orientation == 7 || orientation == 8;
    const bool flip = orientation == 3 || orientation == 4 || orientation == 5 || orientation == 8;
    const bool turn = orientation >= 5;
    // Rotate270 (8) is mirror + flip + turn; Qt turns it in one step, with the same result.
    for (int y = 0; y < h; ++y) {
        const std::uint8_t *in = src.row(y);
        const int my = flip ? h - 1 - y : y; // after mirror/flip
        for (int x = 0; x < w; ++x) {
            const int mx = mirror ? w - 1 - x : x;
            // A quarter turn clockwise: (mx, my) in w x h goes to (h - 1 - my, mx) in h x w.
            const int ox = turn ? h - 1 - my : mx, oy = turn ? mx : my;
            std::memcpy(dst.row(oy) + std::size_t(ox) * std::size_t(ch), in + std::size_t(x) * std::size_t(ch), std::size_t(ch));
        }
    }
}

} // namespace

bool decodeJpeg(const std::uint8_t *data, std::size_t size, const ImageIo::Allocate &allocate, Image &image,
                std::string &error)
{
    if (size < 4 || data[0] != 0xff || data[1] != 0xd8) {
        error = "the contents are not JPEG image data";
        return false;
    }
    // libjpeg fills a cut-short file's missing rows with grey and only warns: refused here, as in Qt's reader.
    if (!jpegHasEnd(data, size)) {
        error = "the JPEG data is cut short (the file ends before the image does; the decoder would fill the rest "
                "with grey)";
        return false;
    }
    Handle handle(tjInitDecompress());
    if (!handle) {
        error = "out of memory";
        return false;
    }
    int width = 0, height = 0, subsampling = 0, colourspace = 0;
    if (tjDecompressHeader3(handle.get(), data, static_cast<unsigned long>(size), &width, &height, &subsampling,
                            &colourspace)) {
        error = jpegDamaged(tjGetErrorStr2(handle.get()));
        return false;
    }
    if (std::string problem = imageSizeProblem(width, height, 4); !problem.empty()) {
        error = problem;
        return false;
    }
    const JpegLayout layout = jpegLayout(data, size);
    // Huffman-coded scans spend at least one bit per 8x8 block of the first component: a file with less
    // scan data than that cannot hold the pixels its header declares (said before any memory is taken).
    const bool huffman = layout.frameMarker >= 0xc0 && layout.frameMarker <= 0xc3;
    const std::uint64_t blocks = std::uint64_t((width + 7) / 8) * std::uint64_t((height + 7) / 8);
    if (huffman && layout.scanStart && std::uint64_t(size - layout.scanStart) * 8 + 64 < blocks) {
        error = jpegDamaged("its " + std::to_string(size - layout.scanStart) + " bytes of scan data cannot hold a "
                        + std::to_string(width) + "x" + std::to_string(height) + " image");
        return false;
    }
    const bool gray = colourspace == TJCS_GRAY;
    const bool cmyk = colourspace == TJCS_CMYK || colourspace == TJCS_YCCK;
    const PixelFormat decoded = gray ? PixelFormat::Gray8 : PixelFormat::Rgba8888;
    const int orientation = layout.orientation > 1 ? layout.orientation : 1;
    const bool turned = orientation >= 5;
    const int outW = turned ? height : width, outH = turned ? width : height;

    std::optional<Image> target = codec::allocateTarget(allocate, outW, outH, decoded, error);
    if (!target)
        return false;
    // A colour JPEG asked for in rgb888 (its own three channels) decodes straight into it too: the same
    // colour conversion as RGBA, packed without the alpha byte.
    const bool rgbDirect = !gray && !cmyk && target->format() == PixelFormat::Rgb888;
    const bool direct = orientation == 1 && (target->format() == decoded || rgbDirect);
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
    // ISLOW DCT and fancy upsampling (TurboJPEG's defaults, Qt's at its default quality): the same
    // libjpeg-turbo code, so the same pixels. TJFLAG_LIMITSCANS: a progressive file of more than 500
    // scans is refused instead of taking minutes (a known denial of service).
    const int pixelFormat = gray ? TJPF_GRAY : cmyk ? TJPF_CMYK : direct && rgbDirect ? TJPF_RGB : TJPF_RGBA;
    if (tjDecompress2(handle.get(), data, static_cast<unsigned long>(size), out.data(), width, int(out.stride()),
                      height, pixelFormat, TJFLAG_LIMITSCANS)
        && tjGetErrorCode(handle.get()) != TJERR_WARNING) { // warnings (extraneous bytes, ...) pass, as in Qt
        error = jpegDamaged(tjGetErrorStr2(handle.get()));
        return false;
    }
    if (cmyk) { // Qt's conversion (Adobe's inverted CMYK): r = k * c / 255, ...
        for (int y = 0; y < height; ++y) {
            std::uint8_t *p = out.row(y);
            for (int x = 0; x < width; ++x, p += 4) {
                const int k = p[3];
                p[0] = std::uint8_t(k * p[0] / 255), p[1] = std::uint8_t(k * p[1] / 255),
                p[2] = std::uint8_t(k * p[2] / 255), p[3] = 255;
            }
        }
    }
    if (!direct) {
        if (orientation == 1) {
            scratch->convertInto(*target);
        } else if (target->format() == decoded) {
            orientInto(*scratch, orientation, *target);
        } else {
            Image turnedImage(outW, outH, decoded);
            orientInto(*scratch, orientation, turnedImage);
            turnedImage.convertInto(*target);
        }
    }
    image = std::move(*target);
    return true;
}

bool encodeJpeg(const Image &image, int quality, std::string &bytes, std::string &error)
{
    if (image.isNull()) {
        error = "the image is empty";
        return false;
    }
    Handle handle(tjInitCompress());
    if (!handle) {
        error = "out of memory";
        return false;
    }
    const bool gray = image.format() == PixelFormat::Gray8;
    const int pixelFormat = gray ? TJPF_GRAY : image.format() == PixelFormat::Rgb888 ? TJPF_RGB : TJPF_RGBA;
    unsigned char *jpeg = nullptr;
    unsigned long length = 0;
    // Alpha is dropped (JPEG has none), as Qt's writer drops it.
    if (tjCompress2(handle.get(), image.data(), image.width(), int(image.stride()), image.height(), pixelFormat, &jpeg,
                    &length, gray ? TJSAMP_GRAY : TJSAMP_420, quality, 0)) {
        error = std::string("JPEG encoding failed (") + tjGetErrorStr2(handle.get()) + ")";
        tjFree(jpeg);
        return false;
    }
    bytes.assign(reinterpret_cast<const char *>(jpeg), length);
    tjFree(jpeg);
    return true;
}

#endif

} // namespace fwb
