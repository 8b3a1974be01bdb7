// Fuzz target: the program-cache entry reader (decodeCacheEntry), which checks a file from a shared
// folder (other processes, other versions, a full disk) before its bytes reach the OpenCL driver.
// The same bytes also go through listEntries() as a file in a cache folder (filter-bench cache --list).
// Checks beyond "no crash": a decoded binary is exactly the entry's payload, and re-encoding it
// under the stored key gives back the same bytes.
#include "FuzzSupport.h"
#include "ProgramCache.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    std::vector<unsigned char> binary;
    std::string problem;
    const bool ok = fwb::decodeCacheEntry(data, size, std::string(), &binary, &problem);
    if (!ok && problem.empty())
        std::abort(); // a refusal must say why
    if (ok) {
        if (binary.empty() || binary.size() > size)
            std::abort();
        const std::string key(reinterpret_cast<const char *>(data) + 8, 16);
        const std::vector<unsigned char> again = fwb::encodeCacheEntry(key, binary.data(), binary.size());
        if (again.size() != size || std::memcmp(again.data(), data, size) != 0)
            std::abort();
        // With the key it was stored under it decodes the same; with another key it is refused.
        if (!fwb::decodeCacheEntry(data, size, key, nullptr))
            std::abort();
        std::string other = key;
        other[0] = other[0] == '0' ? '1' : '0';
        if (fwb::decodeCacheEntry(data, size, other, nullptr))
            std::abort();
    }
    // The folder listing reads the file and reports it valid exactly when decoding accepted it.
    const std::string name = "0123456789abcdef";
    fwb::fuzz::writeInput(name + ".bin", data, size);
    const std::vector<fwb::CacheEntryInfo> entries = fwb::ProgramCache::listEntries(fwb::fuzz::scratchDir().string());
    if (entries.size() != 1 || entries[0].bytes != size)
        std::abort();
    const bool keyMatches = ok && std::memcmp(data + 8, name.data(), 16) == 0;
    if (entries[0].valid != keyMatches)
        std::abort();
    return 0;
}
