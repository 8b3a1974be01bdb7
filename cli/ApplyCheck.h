// filter-bench apply, what it checks before any work (Verb::check): the options, the inputs (files,
// folders, globs) sorted and each once, this shard's share, and each output's name, never over an
// input and never two inputs into one output. Looks at files only; writes nothing.
#pragma once

#include "Session.h"

#include <algorithm>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace fwb {
class ImageIo;
}

namespace fwb::cli {

struct ApplyOptions
{
    std::string filterName, variantName, formatText = "rgba8888", borderText = "reflect101";
    std::string outDir, outFormat, deviceSpec, shardText, cacheDir;
    int maxInflight = 0; // 0: not given
    std::vector<std::string> paramAssignments, inputs;
    bool recursive = false, overwrite = false, json = false, check = false, noTuned = false;
};

// One image of the batch: the file read and the file written.
struct ApplyItem
{
    std::string input, output;
};

struct CheckedApply
{
    RunRequest request;
    std::vector<ApplyItem> items; // this shard's, in input order
    std::size_t allInputs = 0;    // before --shard
    // One image per core in flight (decode threads and encode threads, half the cores each), at most 16.
    int maxInflight = int(std::clamp(std::thread::hardware_concurrency(), 4u, 16u));
};

constexpr long kMaxShards = 1000000;

// Throws fwb::Error (exit 2) for the first problem found.
CheckedApply checkApply(const ApplyOptions &o, ImageIo *io);

// The file's extension in lower case (".png").
std::string lowerExtension(const std::filesystem::path &path);

} // namespace fwb::cli
