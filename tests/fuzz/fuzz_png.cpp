// Fuzz target: the headless PNG decoder (imageio/, decodePng) on bytes in memory, as filter-bench
// of a Qt-free build and the Qt reader (for PNG and JPEG) call it. Beyond "no crash": a refusal says
// why, and a decoded image is within our size limits, in gray8 or rgba8888, and complete.
#include "FuzzSupport.h"
#include "HeadlessImageIo.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    return fwb::fuzz::fuzzDecoder(fwb::decodePng, data, size);
}
