// Fuzz target: a saved user variant's JSON (loadUserVariant / listUserVariants through JsonIo), a
// file in the user's data folder that people copy around and edit. Every problem must come out as
// fwb::Error naming the file (the CLI's one-line message, the window's list of skipped files);
// nothing else may escape, and a variant that loads must name only files inside its own folder.
#include "Error.h"
#include "FuzzSupport.h"
#include "UserVariants.h"

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::filesystem::path dir = fwb::fuzz::scratchDir() / "variants";
    static const bool once = [&] {
        std::filesystem::create_directories(dir);
        std::ofstream(dir / "fz.cl") << "__kernel void k(__global const uchar *in, __global uchar *out) {}\n";
        return true;
    }();
    (void)once;
    const std::filesystem::path json = dir / "fz.json";
    {
        std::ofstream out(json, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char *>(data), std::streamsize(size));
    }
    try {
        const fwb::UserVariant v = fwb::loadUserVariant(json.string(), dir);
        // The kernel file is read from beside the JSON: never from anywhere else.
        if (v.kernelFile.find('/') != std::string::npos || v.kernelFileName().find('/') != std::string::npos)
            std::abort();
        try {
            (void)fwb::userVariantSpec(v);
        } catch (const fwb::Error &) {
        }
    } catch (const fwb::Error &e) {
        if (std::string(e.what()).empty())
            std::abort();
    }
    // The listing catches fwb::Error only, as the window and `filter-bench user-variants` rely on.
    std::vector<std::string> problems;
    const auto listed = fwb::listUserVariants(dir, &problems);
    if (listed.size() + problems.size() != 1)
        std::abort();
    return 0;
}
