// What the race, tune and report verbs share with run: the image (--input or --synthetic), the base
// request (--format, --border, --param, --repeat, --warmup, --local) and a session that reads the
// tuning database unless --no-tuned.
#pragma once

#include "IsolatedRun.h"
#include "Session.h"
#include "TuningDb.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fwb {
class ImageIo;
}

namespace fwb::cli {

struct BenchInputOptions
{
    std::string filterName, deviceSpec, input, synthetic, cacheDir, kernelDir;
    std::string formatText = "gray8", borderText = "reflect101", localText = "auto";
    std::vector<std::string> paramAssignments;
    int repeat = 0, warmup = 1; // repeat: addBenchInputOptions sets the verb's default
    std::optional<double> timeoutS; // --timeout S: every run in the helper process, stopped after S seconds
    bool noTuned = false;
    bool json = false;
};

// Adds --filter, --device, --input, --synthetic, --format, --border, --param, --repeat, --warmup,
// --cache-dir, --kernel-dir, --timeout, --no-tuned and --json (as `json` describes) to `command`.
void addBenchInputOptions(CLI::App &command, BenchInputOptions &o, const std::string &jsonDescription,
                          int defaultRepeat);

struct BenchSetup
{
    const FilterSpec *filter = nullptr;
    Image image;
    std::string source; // "test card" or the file
    RunRequest request; // filter, params, border, format, local, repeat, warmup; variant empty
    DeviceInfo device;
    std::shared_ptr<TuningDb> tuning;
    std::string tuningWarning; // a damaged database, ignored
    // Edited kernels (--kernel-dir, FWB_KERNEL_DIR) or --timeout: every variant run goes to the helper
    // process (isolated.enabled), as filter-bench run's do.
    IsolatedRun isolated;
};

// What prepareBench checks before any work (the verbs' Verb::check): the filter, the base request, the
// test card's size (the card is not drawn) and --timeout. Throws fwb::Error with the usage problem.
struct CheckedBench
{
    const FilterSpec *filter = nullptr;
    RunRequest request;
    long syntheticW = 1920, syntheticH = 1080; // without --input
    IsolatedRun isolated;
};
CheckedBench checkBench(const BenchInputOptions &o, ImageIo *io, const std::string &verb);

// checkBench, then the image (loaded or drawn), the device and the tuning database; throws fwb::Error
// with the usage problem.
BenchSetup prepareBench(const BenchInputOptions &o, ImageIo *io, const std::string &verb);

// Session options for the setup: the cache folder, kernel folder, the tuning hook (enabled unless
// --no-tuned) and, when setup.isolated is enabled, the helper process for every variant run (it reads
// the tuning database itself while the setup's is enabled).
SessionOptions benchSessionOptions(const BenchInputOptions &o, const BenchSetup &setup);

// --shapes as tune and report both read it: concrete WxH shapes, comma-separated; "" gives none (every
// shape), a list naming no shape (",") or any other word is refused. Throws fwb::Error.
std::vector<LocalSize> parseShapeList(const std::string &text);

// The command line that reproduces a run, quoted for a POSIX shell.
std::string shellCommandLine(const std::vector<std::string> &args);

} // namespace fwb::cli
