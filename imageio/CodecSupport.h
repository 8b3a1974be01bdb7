// What the PNG and JPEG codecs share: the storage hand-over, the final conversion into it, and the
// answers of a codec built without its library or given damaged data.
#pragma once

#include "HeadlessImageIo.h"
#include "ImageIo.h"

#include <exception>
#include <optional>
#include <string>

namespace fwb::codec {

// A codec built without its library: false, with the package to install as the error.
inline bool missing(ImageFileKind kind, std::string &error)
{
    error = headlessMissing(kind);
    return false;
}

// "the PNG data is damaged or cut short (why)".
inline std::string damaged(const char *format, const std::string &why)
{
    return std::string("the ") + format + " data is damaged or cut short (" + why + ")";
}

// allocate(w, h, decoded) with its failures as an error (a throw, a wrong size).
inline std::optional<Image> allocateTarget(const ImageIo::Allocate &allocate, int width, int height,
                                           PixelFormat decoded, std::string &error)
{
    try {
        Image target = allocate ? allocate(width, height, decoded) : Image(width, height, decoded);
        if (target.width() != width || target.height() != height || target.isNull()) {
            error = "the image storage has the wrong size";
            return std::nullopt;
        }
        return target;
    } catch (const std::exception &e) {
        error = e.what();
        return std::nullopt;
    }
}

// 16-bit sample to 8 bits, rounded to nearest: round(v * 255 / 65535), exactly what Qt 6's
// RGBA64 / RGBX64 / Grayscale16 -> RGBA8888 conversions give (checked over all 65536 values; a
// (v + 128 - (v >> 8)) >> 8 shortcut differs from it at 128 of them).
inline std::uint8_t to8Bits(unsigned v) { return std::uint8_t((v * 255 + 32767) / 65535); }

} // namespace fwb::codec
