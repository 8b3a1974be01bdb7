// Resolves a kernel file by name (override folder first, then the embedded table) and expands the
// project's own `#include "file.clh"` lines, so each .cl stays valid OpenCL C with -I kernels/.
#include "KernelSources.h"

#include "Error.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fwb {

namespace {

bool readOverride(const std::string &dir, const std::string &name, std::string &text, std::string &origin)
{
    if (dir.empty())
        return false;
    const std::filesystem::path path = std::filesystem::path(dir) / name;
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return false;
    std::ostringstream buffer;
    buffer << in.rdbuf();
    text = buffer.str();
    origin = path.string();
    return true;
}

std::string rawSource(const std::string &name, const std::string &dir, std::string &origin)
{
    std::string text;
    if (readOverride(dir, name, text, origin))
        return text;
    for (int i = 0; i < detail::kEmbeddedKernelCount; ++i)
        if (name == detail::kEmbeddedKernels[i].name) {
            origin = "embedded";
            return detail::kEmbeddedKernels[i].source;
        }
    throw Error("unknown kernel file '" + name + "'");
}

std::string expandIncludes(const std::string &text, const std::string &dir, int depth)
{
    if (depth > 8)
        throw Error("kernel #include nesting is too deep");
    std::istringstream in(text);
    std::string out, line;
    while (std::getline(in, line)) {
        const std::size_t hash = line.find_first_not_of(" \t");
        if (hash != std::string::npos && line.compare(hash, 8, "#include") == 0) {
            const std::size_t open = line.find('"');
            const std::size_t close = open == std::string::npos ? open : line.find('"', open + 1);
            if (close != std::string::npos) {
                std::string origin;
                const std::string included = line.substr(open + 1, close - open - 1);
                out += expandIncludes(rawSource(included, dir, origin), dir, depth + 1);
                out += '\n';
                continue;
            }
        }
        out += line;
        out += '\n';
    }
    return out;
}

} // namespace

KernelSource loadKernelSource(const std::string &name, const std::string &overrideDir)
{
    std::string dir = overrideDir;
    if (dir.empty())
        if (const char *env = std::getenv("FWB_KERNEL_DIR"))
            dir = env;
    KernelSource source;
    source.name = name;
    source.text = expandIncludes(rawSource(name, dir, source.origin), dir, 0);
    return source;
}

std::vector<std::string> embeddedKernelNames()
{
    std::vector<std::string> names;
    for (int i = 0; i < detail::kEmbeddedKernelCount; ++i)
        names.emplace_back(detail::kEmbeddedKernels[i].name);
    return names;
}

} // namespace fwb
