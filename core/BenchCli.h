// filter-bench's command-line logic (devices, list, run), Qt-free; image files come through ImageIo.
#pragma once

#include "Image.h"

#include <string>

namespace fwb {

// Image file access, provided by the Qt build (QImageReader / QSaveFile); null in a Qt-free build.
class ImageIo
{
public:
    virtual ~ImageIo() = default;
    // Fills `image` (rgba8888 or gray8) or returns false with a reason in `error`.
    virtual bool load(const std::string &path, Image &image, std::string &error) = 0;
    // Atomic write (temp file + rename); false with a reason on failure, no partial file left.
    virtual bool save(const std::string &path, const Image &image, std::string &error) = 0;
};

// Returns the process exit code: 0 success, 1 a run failed or did not match, 2 bad usage or input.
int runBenchCli(int argc, char **argv, ImageIo *io);

} // namespace fwb
