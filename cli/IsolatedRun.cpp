// IsolatedRun: filter-bench's rows in the helper process, with a time limit.
#include "IsolatedRun.h"

#include "Error.h"
#include "OptionValues.h"
#include "TuningDb.h"
#include "WorkerProcess.h"

#include <cstdlib>

namespace fwb::cli {

CLI::Option *addTimeoutOption(CLI::App &command, std::optional<double> &seconds, const std::string &description)
{
    return command.add_option("--timeout", seconds, description)
        ->type_name("S")
        ->check(positiveDecimalUpTo(86400, [](const std::string &text) {
            return "--timeout '" + text + "' must be a number of seconds > 0, e.g. 10 or 0.5";
        }));
}

IsolatedRun isolatedRun(const std::string &userVariant, std::optional<double> timeoutS, const std::string &deviceSpec,
                        const std::string &cacheDir, const std::string &kernelDir, bool useTuning)
{
    IsolatedRun isolated;
    if (useTuning)
        isolated.tuningDb = TuningDb::defaultPath(cacheDir).string();
    isolated.deviceSpec = deviceSpec;
    isolated.cacheDir = cacheDir;
    isolated.kernelDir = kernelDir;
    if (timeoutS) {
        isolated.timeoutS = *timeoutS;
        isolated.enabled = true;
    }
    // Edited kernels (--kernel-dir, FWB_KERNEL_DIR) run in the helper, as they do from the window: one
    // that writes out of bounds or crashes the driver costs that process, never filter-bench.
    const char *envKernelDir = std::getenv("FWB_KERNEL_DIR");
    if (!kernelDir.empty() || (envKernelDir && *envKernelDir))
        isolated.enabled = true;
    if (!userVariant.empty()) {
        isolated.kernel = loadUserVariant(userVariant);
        userVariantSpec(*isolated.kernel); // an unknown base or wrong entry count fails here, before any run
        isolated.enabled = true;
    }
    return isolated;
}

RunResult IsolatedRun::run(const Image &image, const RunRequest &request, const std::atomic<bool> *cancel) const
{
    WorkerJob job;
    job.deviceSpec = deviceSpec;
    job.cacheDir = cacheDir;
    job.kernelDir = kernelDir;
    job.tuningDb = tuningDb;
    job.request = request;
    if (kernel) {
        job.kernel = kernel;
        job.request.variant = kernel->name;
    }
    job.input = image;
    WorkerOptions options;
    options.timeoutS = timeoutS;
    options.cancel = cancel;
    WorkerOutcome outcome = runInWorker(job, options);
    return std::move(outcome.result);
}

} // namespace fwb::cli
