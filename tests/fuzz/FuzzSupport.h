// Shared by the fuzz targets: a private scratch folder on tmpfs when there is one, and writing the
// fuzzer's bytes to a file there, because the parsers under test read files by path as the app does.
#pragma once

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

} // namespace fwb::fuzz
