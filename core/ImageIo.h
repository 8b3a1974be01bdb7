// ImageIo: image file access as the CLI and the GUI share it. core stays Qt-free, so the Qt build
// provides the implementation (ui/ImageFileIo: QImageReader / QSaveFile); a Qt-free build has none.
#pragma once

#include "Image.h"

#include <string>

namespace fwb {

class ImageIo
{
public:
    virtual ~ImageIo() = default;
    // Fills `image` (rgba8888 or gray8) or returns false with a reason in `error`.
    virtual bool load(const std::string &path, Image &image, std::string &error) = 0;
    // Atomic write (temp file + rename); false with a reason on failure, no partial file left.
    virtual bool save(const std::string &path, const Image &image, std::string &error) = 0;
};

} // namespace fwb
