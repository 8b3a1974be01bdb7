// Resolves a kernel file by name (override folder first, then the embedded table) and expands the
// project's own `#include "file.clh"` lines (by file name: kernels/<family>/ and kernels/shared/ share one name space);
// #line directives keep every build-log line number in the user's own file.
#include "KernelSources.h"

#include "AtomicFile.h"
#include "Error.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace fwb {

namespace {

constexpr std::uint64_t kMaxKernelFileBytes = 16ull << 20;

bool readOverride(const std::string &dir, const std::string &name, std::string &text, std::string &origin)
{
    if (dir.empty())
        return false;
    std::filesystem::path path = std::filesystem::path(dir) / name;
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        // A copy of the repository's kernels/ (one folder per family): the file in one of its folders.
        std::vector<std::filesystem::path> found;
        for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
            if (std::error_code sub; it->is_directory(sub) && std::filesystem::exists(it->path() / name, sub))
                found.push_back(it->path() / name);
        if (found.empty())
            return false; // the embedded file, then
        std::sort(found.begin(), found.end());
        path = found.front();
    }
    // A kernel or header is text of a few hundred KiB at most: `#include "/dev/zero"`, a FIFO or a
    // huge file is refused with its reason, never read until memory runs out.
    std::string why;
    if (!readRegularFile(path, kMaxKernelFileBytes, text, &why))
        throw Error("cannot read kernel file " + path.string() + ": " + why);
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

std::string effectiveDir(const std::string &overrideDir)
{
    if (!overrideDir.empty())
        return overrideDir;
    const char *env = std::getenv("FWB_KERNEL_DIR");
    return env ? env : std::string();
}

// A file name inside a #line directive: a C string literal.
std::string quoted(const std::string &name)
{
    std::string out = "\"";
    for (char c : name) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + '"';
}

struct Assembler
{
    std::string dir;
    KernelSource &out;

    int fileIndex(const std::string &name)
    {
        const auto it = std::find(out.files.begin(), out.files.end(), name);
        if (it != out.files.end())
            return int(it - out.files.begin());
        out.files.push_back(name);
        return int(out.files.size()) - 1;
    }
    void emit(const std::string &line, int file, int number)
    {
        out.text += line;
        out.text += '\n';
        out.lineFile.push_back(file);
        out.lineNumber.push_back(number);
    }
    void expand(const std::string &name, const std::string &text, int depth)
    {
        if (depth > 8)
            throw Error("kernel #include nesting is too deep");
        const int file = fileIndex(name);
        emit("#line 1 " + quoted(name), -1, 0);
        std::istringstream in(text);
        std::string line;
        int number = 0;
        while (std::getline(in, line)) {
            ++number;
            const std::size_t hash = line.find_first_not_of(" \t");
            if (hash != std::string::npos && line.compare(hash, 8, "#include") == 0) {
                const std::size_t open = line.find('"');
                const std::size_t close = open == std::string::npos ? open : line.find('"', open + 1);
                if (close != std::string::npos) {
                    std::string origin;
                    const std::string included = line.substr(open + 1, close - open - 1);
                    if (std::find(out.includes.begin(), out.includes.end(), included) == out.includes.end())
                        out.includes.push_back(included);
                    expand(included, rawSource(included, dir, origin), depth + 1);
                    // The include line itself becomes an empty line, so the count stays true.
                    emit("#line " + std::to_string(number) + " " + quoted(name), -1, 0);
                    emit("", file, number);
                    continue;
                }
            }
            emit(line, file, number);
        }
    }
};

} // namespace

KernelSource::Origin KernelSource::originOf(int assembledLine) const
{
    const int i = assembledLine - 1;
    if (i < 0 || i >= int(lineFile.size()) || lineFile[std::size_t(i)] < 0)
        return {};
    return {files[std::size_t(lineFile[std::size_t(i)])], lineNumber[std::size_t(i)]};
}

KernelSource assembleKernelSource(const std::string &name, const std::string &text, const std::string &overrideDir)
{
    KernelSource source;
    source.name = name;
    source.origin = "edited";
    Assembler assembler{effectiveDir(overrideDir), source};
    assembler.expand(name, text, 0);
    return source;
}

KernelSource loadKernelSource(const std::string &name, const std::string &overrideDir)
{
    const std::string dir = effectiveDir(overrideDir);
    std::string origin;
    const std::string text = rawSource(name, dir, origin);
    KernelSource source = assembleKernelSource(name, text, dir);
    source.origin = origin;
    return source;
}

std::string rawKernelFile(const std::string &name, const std::string &overrideDir)
{
    std::string origin;
    return rawSource(name, effectiveDir(overrideDir), origin);
}

std::vector<std::string> embeddedKernelNames()
{
    std::vector<std::string> names;
    for (int i = 0; i < detail::kEmbeddedKernelCount; ++i)
        names.emplace_back(detail::kEmbeddedKernels[i].name);
    return names;
}

} // namespace fwb
