// ImageIo: image file access as the CLI and the GUI share it. core stays Qt-free: the implementations
// are imageio/HeadlessImageIo (PNG and JPEG through libspng and TurboJPEG, no Qt) and, in Qt builds,
// ui/ImageFileIo (QImageReader / QSaveFile for the other formats, the headless one for PNG and JPEG).
#pragma once

#include "Image.h"

#include <exception>
#include <functional>
#include <string>

namespace fwb {

class ImageIo
{
public:
    virtual ~ImageIo() = default;
    // Fills `image` (rgba8888 or gray8) or returns false with a reason in `error`.
    virtual bool load(const std::string &path, Image &image, std::string &error) = 0;
    // The storage a decoder fills: called once the header is read and the size checked, with the
    // decoded size and format (gray8 or rgba8888); returns a width x height image in any format (the
    // decoder converts into it) on any storage, e.g. Session::pinnedImage's page-locked memory, so
    // the pixels land where the device reads them. May throw fwb::Error (the load fails with it).
    using Allocate = std::function<Image(int width, int height, PixelFormat decoded)>;
    static Image plainImage(int width, int height, PixelFormat decoded) { return Image(width, height, decoded); }
    // load() into storage from `allocate`. This default loads, then converts into it (one copy); the
    // headless decoders write into it directly. `image` is only assigned on success.
    virtual bool loadInto(const std::string &path, const Allocate &allocate, Image &image, std::string &error)
    {
        Image decoded;
        if (!load(path, decoded, error))
            return false;
        return adoptDecoded(std::move(decoded), allocate, image, error);
    }
    // Atomic write (temp file + rename); false with a reason on failure, no partial file left.
    virtual bool save(const std::string &path, const Image &image, std::string &error) = 0;
    // "" when load/save can use `path` byte for byte; else why not (a name the implementation would
    // re-encode into another name, e.g. invalid UTF-8 through QString). Such names are refused.
    virtual std::string pathProblem(const std::string &path) const { return {}; }
    // "" when save() can write `path` (its name and its format); checked before any work is done.
    virtual std::string saveProblem(const std::string &path) const { return pathProblem(path); }
    // zlib level of the PNG files save() writes: 0 (fastest, largest) to 9 (smallest, slowest); -1 the
    // writer's default (libspng's: 6, every row filter tried). 1-5 use one row filter (encodePng).
    // PNG is lossless: the pixels are the same at every level. Set it before saving from several threads.
    void setPngLevel(int level) { m_pngLevel = level; }
    int pngLevel() const { return m_pngLevel; }

private:
    int m_pngLevel = -1;

protected:
    // `decoded` into allocate's image (the conversion copy load-then-copy costs).
    static bool adoptDecoded(Image decoded, const Allocate &allocate, Image &image, std::string &error)
    {
        try {
            Image target = allocate(decoded.width(), decoded.height(), decoded.format());
            if (target.width() != decoded.width() || target.height() != decoded.height()) {
                error = "the image storage has the wrong size";
                return false;
            }
            decoded.convertInto(target);
            image = std::move(target);
            return true;
        } catch (const std::exception &e) {
            error = e.what();
            return false;
        }
    }
};

} // namespace fwb
