// filter-bench's protected path: --timeout S, --user-variant NAME|PATH (run) and a kernel folder
// (--kernel-dir, FWB_KERNEL_DIR: run, race, tune, report) run each row in the helper process
// (core/WorkerProcess.h), which is stopped when it exceeds the time limit.
#pragma once

#include "Session.h"
#include "UserVariants.h"
#include "WorkerProcess.h"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace fwb::cli {

struct IsolatedRun
{
    bool enabled = false;
    double timeoutS = kDefaultWorkerTimeoutS;
    std::optional<UserVariant> kernel; // --user-variant
    std::string deviceSpec, cacheDir, kernelDir;
    std::string tuningDb; // the database auto launches consult (empty with --no-tuned)

    // The row `request` would run in-process, run in the helper instead (the user variant in place of
    // request.variant when one was given); `cancel` set kills the helper. Never throws.
    RunResult run(const Image &image, const RunRequest &request, const std::atomic<bool> *cancel = nullptr) const;
};

// --timeout S as run, race, tune and report take it: a plain decimal number of seconds, 0 < S <= 86400
// (OptionValues.h); the value in `seconds`.
CLI::Option *addTimeoutOption(CLI::App &command, std::optional<double> &seconds, const std::string &description);

// The helper-process path for --timeout (none: 10 s when a user variant or a kernel folder is given,
// else off) and --user-variant, which it loads. A kernel folder (--kernel-dir, FWB_KERNEL_DIR) always
// means the helper. useTuning: auto launches consult the tuning database as in-process runs do.
// Throws fwb::Error.
IsolatedRun isolatedRun(const std::string &userVariant, std::optional<double> timeoutS, const std::string &deviceSpec,
                        const std::string &cacheDir, const std::string &kernelDir, bool useTuning = true);

} // namespace fwb::cli
