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
    std::string text;   // with our own #include "x.clh" lines expanded
    std::string origin; // "embedded" or the override file's path
};

// Files in overrideDir (if non-empty) win over embedded ones of the same name; the FWB_KERNEL_DIR
// environment variable is used when overrideDir is empty. Throws fwb::Error if the file is unknown.
KernelSource loadKernelSource(const std::string &name, const std::string &overrideDir = {});
std::vector<std::string> embeddedKernelNames();

} // namespace fwb
