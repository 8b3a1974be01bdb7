// filter-bench apply, what it checks before any work (Verb::check): the options, the inputs (files,
// folders, globs) sorted and each once, this shard's share, and each output's name, never over an
// input and never two inputs into one output. Looks at files only; writes nothing.
#pragma once

#include "Session.h"

#include <algorithm>
#include <filesystem>
#include <string>
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
    int queues = 0;      // sessions (each with its queue and thread) per --device entry; 0: not given
    int pngLevel = -1;   // zlib level of the PNGs written; -1: not given (kApplyPngLevel)
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
    int maxInflight = 0;          // --max-inflight; 0: the default (defaultMaxInflight)
};

// Images in flight when --max-inflight is not given: one per host thread (each decodes or encodes one)
// and two per device thread (one running, one waiting for it), 4 to 64.
int defaultMaxInflight(unsigned hostThreads, unsigned deviceThreads);
// Sessions per device when --queues is not given: 2 on a GPU (one image's copies and kernels while
// the other's host work - setup, hand-over - runs), 1 on a CPU device (its kernels take the host's
// cores: another session would only compete with decoding and encoding).
int defaultQueues(const DeviceInfo &device);

constexpr long kMaxShards = 1000000;
// zlib level of the PNGs apply writes unless --png-level says otherwise: libspng's default (zlib's 6,
// every row filter tried) made encoding a batch's slowest stage by far (MEASUREMENTS.md, "PNG encode
// settings").
constexpr int kApplyPngLevel = 3;

// Throws fwb::Error (exit 2) for the first problem found.
CheckedApply checkApply(const ApplyOptions &o, ImageIo *io);

// The file's extension in lower case (".png").
std::string lowerExtension(const std::filesystem::path &path);

} // namespace fwb::cli
