// Atomic file writes: temp file + rename (see AtomicFile.h).
#include "AtomicFile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>

namespace fwb {

bool writeFileAtomically(const std::filesystem::path &path, const void *data, std::size_t size, std::string *error)
{
    namespace fs = std::filesystem;
    auto fail = [&](const std::string &why) {
        if (error)
            *error = "cannot write " + path.string() + ": " + why;
        return false;
    };
    std::error_code ec;
    if (path.has_parent_path())
        fs::create_directories(path.parent_path(), ec);
    // A unique temp name: two processes may write the same cache entry at once.
    const fs::path temp = path.string() + ".tmp" + std::to_string(std::random_device{}());
    std::FILE *f = std::fopen(temp.string().c_str(), "wb");
    if (!f)
        return fail(std::strerror(errno));
    const bool written = std::fwrite(data, 1, size, f) == size;
    const bool closed = std::fclose(f) == 0;
    if (!written || !closed) {
        fs::remove(temp, ec);
        return fail("the write did not complete (disk full?)");
    }
    fs::rename(temp, path, ec);
    if (ec) {
        const std::string why = ec.message();
        fs::remove(temp, ec);
        return fail(why);
    }
    return true;
}

} // namespace fwb
