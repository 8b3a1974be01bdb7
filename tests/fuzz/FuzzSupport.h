// Shared by the fuzz targets: a private scratch folder on tmpfs when there is one, and writing the
// fuzzer's bytes to a file there, because the parsers under test read files by path as the app does.
#pragma once

#include "Image.h"
#include "ImageIo.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace fwb::fuzz {

inline const std::filesystem::path &scratchDir()
{
    static const std::filesystem::path dir = [] {
        const std::filesystem::path base = std::filesystem::exists("/dev/shm") ? "/dev/shm" : "/tmp";
        std::filesystem::path d = base / ("fwb-fuzz-" + std::to_string(getpid()));
        std::filesystem::create_directories(d);
        // Gone at exit, whatever way the fuzzer ends normally.
        static struct Cleanup
        {
            std::filesystem::path path;
            ~Cleanup()
            {
                std::error_code ec;
                std::filesystem::remove_all(path, ec);
            }
        } cleanup{d};
        return d;
    }();
    return dir;
}

inline std::filesystem::path writeInput(const std::string &name, const std::uint8_t *data, std::size_t size)
{
    const std::filesystem::path path = scratchDir() / name;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(data), std::streamsize(size));
    return path;
}

// A decoded image, beyond "no crash": within our size limits, gray8 or rgba8888, and complete (the
// first and the last pixel are touched, so a short buffer is an ASan report).
inline void checkDecodedImage(const Image &image)
{
    if (image.isNull() || !imageSizeProblem(image.width(), image.height(), image.channels()).empty())
        std::abort();
    if (image.format() != PixelFormat::Gray8 && image.format() != PixelFormat::Rgba8888)
        std::abort();
    volatile std::uint8_t sink = image.row(0)[0];
    sink = image.row(image.height() - 1)[std::size_t(image.width()) * std::size_t(image.channels()) - 1];
    (void)sink;
}

// A headless decoder (decodePng, decodeJpeg) on the fuzzer's bytes in memory: a refusal says why and
// leaves no image; a decoded image passes checkDecodedImage.
template <class Decode> int fuzzDecoder(Decode decode, const std::uint8_t *data, std::size_t size)
{
    Image image;
    std::string error;
    if (!decode(data, size, ImageIo::plainImage, image, error)) {
        if (error.empty() || !image.isNull())
            std::abort();
        return 0;
    }
    checkDecodedImage(image);
    return 0;
}

} // namespace fwb::fuzz
