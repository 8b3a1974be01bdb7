// Kernel sources: the table embedded at build time, an optional override folder, #include resolution.
#pragma once

#include <string>
#include <vector>

namespace fwb {

namespace detail {
struct EmbeddedKernel
{
    const char *name;
    const char *source;
};
extern const EmbeddedKernel kEmbeddedKernels[];
extern const int kEmbeddedKernelCount;
} // namespace detail

struct KernelSource
{
    std::string name;   // "gaussian5x5.cl"
    // With our own #include "x.clh" lines expanded. `#line N "file"` directives before and after each
    // pasted header make the compiler's log name the file the user edits and its own line numbers
    // ("gaussian5x5.cl:119:5: error: ..."), not lines of this assembled text.
    std::string text;
    std::string origin; // "embedded" or the override file's path
    std::vector<std::string> includes; // headers pasted in, in first-use order ("common.clh", ...)

    // The same mapping as data, for logs of compilers that ignore #line file names: assembled line
    // (1-based) -> {file, line}. {"", 0} for lines we added (the #line directives themselves).
    struct Origin
    {
        std::string file;
        int line = 0;
    };
    Origin originOf(int assembledLine) const;
    std::vector<int> lineFile; // per assembled line: index into files, -1 for our directives
    std::vector<int> lineNumber;
    std::vector<std::string> files;
};

// Files in overrideDir (if non-empty) win over embedded ones of the same name; the FWB_KERNEL_DIR
// environment variable is used when overrideDir is empty. Throws fwb::Error if the file is unknown.
KernelSource loadKernelSource(const std::string &name, const std::string &overrideDir = {});

// Assembles `text` as if it were the kernel file `name` (an edited or user kernel): its includes are
// resolved like loadKernelSource's (overrideDir, FWB_KERNEL_DIR, embedded).
KernelSource assembleKernelSource(const std::string &name, const std::string &text, const std::string &overrideDir = {});

// One kernel file as written, includes not expanded (the editor's tabs). Throws fwb::Error if unknown.
std::string rawKernelFile(const std::string &name, const std::string &overrideDir = {});

std::vector<std::string> embeddedKernelNames();

} // namespace fwb
