// Fuzz target: the headless PNG decoder (imageio/, decodePng) on bytes in memory, as filter-bench
// of a Qt-free build and the Qt reader (for PNG and JPEG) call it. Beyond "no crash": a refusal says
// why, and a decoded image is within our size limits, in gray8 or rgba8888, and complete.
#include "HeadlessImageIo.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    fwb::Image image;
    std::string error;
    if (!fwb::decodePng(data, size, fwb::ImageIo::plainImage, image, error)) {
        if (error.empty() || !image.isNull())
            std::abort();
        return 0;
    }
    if (image.isNull() || !fwb::imageSizeProblem(image.width(), image.height(), image.channels()).empty())
        std::abort();
    if (image.format() != fwb::PixelFormat::Gray8 && image.format() != fwb::PixelFormat::Rgba8888)
        std::abort();
    // Touch the first and the last pixel: the whole buffer is there.
    volatile std::uint8_t sink = image.row(0)[0];
    sink = image.row(image.height() - 1)[std::size_t(image.width()) * std::size_t(image.channels()) - 1];
    (void)sink;
    return 0;
}
