// The helper process for user kernels: a request (image, filter, variant, edited source) goes to a
// separate `filter-worker` process through files in a private temp folder; the caller waits with a
// time limit and kills it when exceeded, so a kernel that loops forever, writes out of bounds or
// crashes the driver costs one process, never the window or the CLI. Qt-free (posix_spawn).
//
// Protocol (version kWorkerProtocol), one folder per job:
//   request.json  {"protocol":3, "op":"run"|"build", "device":"P:D", "cache_dir", "kernel_dir",
//                  "tuning_db" (the tuning database auto launches consult; empty: none),
//                  "request":{...the RunRequest in the run schema, ResultJson.h...},
//                  "kernel":{name, base_filter, base_variant, kernel_file, entry_points, defines, ...}
//                  (user kernels only), "input":{"width","height","format"}}
//   kernel.cl     the user kernel's text (when the request has one)
//   input.raw     the image's pixels, tightly packed
//   launching     created by the worker once the program is built (the kernel's time limit starts)
// The worker answers with response.json {"protocol":3, "result":{...the RunResult in the run schema,
// the keys of `--json`, numbers at full precision...}} and, for runs that keep their output,
// output.raw; then exits 0. Every RunRequest field travels except reuseUpload (a fresh process has no
// image on the device) and the overrides (the kernel object stands for them), so the helper launches
// a user kernel exactly as the catalogue launches its base variant: same transfer mode, tiling,
// work-group shape (a tuned shape of the base variant included), repeats and checks. Version 3: the
// result in the run schema (version 2 had its own names for it).
#pragma once

#include "Image.h"
#include "Session.h"
#include "UserVariants.h"

#include <atomic>
#include <filesystem>
#include <optional>
#include <string>

namespace fwb {

inline constexpr int kWorkerProtocol = 3;
inline constexpr double kDefaultWorkerTimeoutS = 10.0;

struct WorkerJob
{
    enum class Op { Run, Build };
    Op op = Op::Run;
    std::string deviceSpec; // "P:D"; empty: the default device
    std::string cacheDir;   // program cache for the worker (SessionOptions::cacheDir)
    std::string kernelDir;  // override folder for the kernel files and headers
    std::string tuningDb;   // TuningDb file auto launches consult (as SessionOptions::tunedLocal); empty: none
    RunRequest request;     // request.variant names the row; variantOverride/sourceOverride do not travel:
    std::optional<UserVariant> kernel; // the user's kernel (editor or saved variant); empty: the catalogue's
    Image input;            // Build: only its size and format matter
};

struct WorkerOptions
{
    std::string workerPath;     // empty: $FWB_WORKER, else filter-worker beside this executable
    // The kernel's limit: from the moment the helper has built the program and starts launching
    // (it says so by creating `launching` in the job folder), so a slow first compile does not count.
    double timeoutS = kDefaultWorkerTimeoutS;
    double buildTimeoutS = 120; // starting the helper, finding the device and building
    const std::atomic<bool> *cancel = nullptr; // set: the worker is killed and the run cancelled
};

struct WorkerOutcome
{
    RunResult result;   // error set on every failure, including the ones below
    bool timedOut = false;
    bool crashed = false;   // exited by a signal or without an answer
    bool cancelled = false;
    double wallMs = 0;      // spawn to reaped, everything included
    double launchedMs = -1; // from the worker's "launching" (program built) to reaped; -1: never launched
    double workerMs = 0;    // inside the worker: reading the job to writing the answer
    double sessionMs = 0;   // inside the worker: finding the device and opening the Session
    double runMs = 0;       // inside the worker: build (cached or not) + Session::run
    double launchMs = 0;    // inside the worker: Session::run alone (what an in-process run costs)
    std::string stderrText; // what the worker printed (a driver's complaint before a crash)
};

// "the kernel did not finish within 10 s and was stopped" (the seconds as given, %g).
std::string workerTimeoutMessage(double timeoutS);

// Runs `job` in a fresh helper process and waits at most options.timeoutS (<= 0: no limit).
// Never throws. The answer comes as the helper sent it (every field, at full precision).
WorkerOutcome runInWorker(const WorkerJob &job, const WorkerOptions &options = {});

// A helper's answer `r` to a run of `request` on a width x height picture, as this process shows it: its CPU
// times are measurements of the same work in another process, so each goes into this process's CPU timing
// store (CpuTimings.h; one sample, the helper's figure), and every CPU figure of `r` is then read back from
// it (refreshCpuFigures): a user kernel's run says the CPU time the races and the other runs say. Called by
// those that show a helper's runs (Session::run through SessionOptions::runElsewhere, the window's user
// variants).
void adoptHelperCpuFigures(RunResult &r, const RunRequest &request, int width, int height);

// The helper's side: reads `dir`/request.json, runs it, writes the answer. Returns the exit status.
// parentPid: the caller; the helper dies with it (Linux: PR_SET_PDEATHSIG) and exits at once when
// it is already gone.
int serveWorkerJob(const std::filesystem::path &dir, long parentPid = 0);

// Removes this user's /tmp/fwb-worker-* job folders whose caller (the pid in their "owner" file) is
// gone: a filter-bench or window killed while a helper ran left its folder behind. runInWorker calls
// it before each job.
void removeOrphanedJobFolders();

// The worker executable runInWorker would start (resolved as described in WorkerOptions).
std::string defaultWorkerPath();

} // namespace fwb
