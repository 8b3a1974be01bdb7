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
    // "" when load/save can use `path` byte for byte; else why not (a name the implementation would
    // re-encode into another name, e.g. invalid UTF-8 through QString). Such names are refused.
    virtual std::string pathProblem(const std::string &path) const { return {}; }
    // "" when save() can write `path` (its name and its format); checked before any work is done.
    virtual std::string saveProblem(const std::string &path) const { return pathProblem(path); }
};

} // namespace fwb
