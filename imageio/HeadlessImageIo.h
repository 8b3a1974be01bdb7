// HeadlessImageIo: PNG (libspng) and JPEG (TurboJPEG) files without Qt, decoded straight into the
// caller's storage (ImageIo::loadInto: e.g. page-locked memory) and written atomically. Decoded
// pixels and formats match Qt's reader (gray8 for 8-bit gray PNGs without tRNS and gray JPEGs,
// rgba8888 for everything else; 16-bit samples rounded as round(v * 255 / 65535); EXIF orientation applied).
#pragma once

#include "ImageIo.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace fwb {

enum class ImageFileKind { Unknown, Png, Jpeg, Gif, Bmp, Tiff, Webp };
// What a file's first bytes say it is (the decoders are chosen by contents, as Qt chooses them).
ImageFileKind sniffImageFile(const std::uint8_t *data, std::size_t size);
// The kind by the file's first bytes; Unknown when it cannot be read.
ImageFileKind sniffImageFile(const std::string &path);

// Built with the decoder for `kind` (PNG: libspng, JPEG: TurboJPEG)?
bool headlessReads(ImageFileKind kind);
// "" when headlessReads(kind), else what to install ("PNG files need libspng (Debian package
// libspng-dev), which this build was made without").
std::string headlessMissing(ImageFileKind kind);

// JPEG quality of save(): Qt's default (QImageWriter without setQuality), so a Qt build and a Qt-free
// one write the same images; 4:2:0 chroma subsampling as libjpeg's defaults.
inline constexpr int kJpegSaveQuality = 75;

class HeadlessImageIo : public ImageIo
{
public:
    bool load(const std::string &path, Image &image, std::string &error) override;
    bool loadInto(const std::string &path, const Allocate &allocate, Image &image, std::string &error) override;
    bool save(const std::string &path, const Image &image, std::string &error) override;
    std::string saveProblem(const std::string &path) const override; // the format, by suffix
    // Takes this name's format (.png, .jpg, .jpeg, with its library built)?
    static bool writes(const std::string &path);
};

// Decoders and encoders on bytes in memory (the fuzz targets and the tests call them directly).
// The error is a whole sentence ("the PNG data is damaged or cut short (...)").
bool decodePng(const std::uint8_t *data, std::size_t size, const ImageIo::Allocate &allocate, Image &image,
               std::string &error);
bool decodeJpeg(const std::uint8_t *data, std::size_t size, const ImageIo::Allocate &allocate, Image &image,
                std::string &error);
// level: zlib's 0..9 (ImageIo::setPngLevel) with one row filter (Paeth) at 1-5, none at 0, every filter
// tried per row at 6-9; -1 libspng's default (level 6, every filter).
bool encodePng(const Image &image, std::string &bytes, std::string &error, int level = -1);
bool encodeJpeg(const Image &image, int quality, std::string &bytes, std::string &error);

} // namespace fwb
