// prepare's builds in children that stay (issue 25). A child `filter-bench run` per program paid the
// process start, the OpenCL platform's start and a session for every program, so each of prepare's
// threads keeps one child, `filter-bench prepare --serve` (internal, not in --help), and sends it its jobs
// one after another. On PoCL that took a 20-program prepare from 42 s to 16.5 s; on an H100 a program's
// 2-3 s beyond its build stayed (its first launch, where the driver compiles the PTX to machine code;
// docs/MEASUREMENTS.md, "Session 18"). Still processes, not threads: NVIDIA's compiler and PoCL's LLVM largely serialise the builds
// inside one process, and a driver that crashes on one program costs that job only: the next job gets a
// new child.
//
// The protocol, one line each way per job: the parent sends prepareRunArgs (core/PrepareQueue.h) as a
// JSON array of strings (prepareServeLine; the window's builder, ui/workers/PrepareAhead, sends the same);
// the child runs it in-process through the command line (the run verb, the very code a child
// `filter-bench run` ran, so the same JSON) with its standard output captured, and answers
// {"status": <the run's exit status>, "out": "<what the run printed>"} (preparedBuildFromAnswer), then
// waits for the next line; it exits at the end of its input, and dies with its parent (FWB_PARENT_PID, or
// PR_SET_PDEATHSIG set by the window).
#pragma once

#include "ChildProcess.h"
#include "Devices.h"
#include "PrepareQueue.h"
#include "PreparedRecord.h"

#include <functional>
#include <string>
#include <vector>

namespace fwb::cli {

// A filter-bench command line (args[0] the program's name) run in this process; its exit status.
using RunCommand = std::function<int(const std::vector<std::string> &args)>;

// The child's side: serves jobs from standard input until its end; its exit status (0 at the end of
// input, 1 when the answers cannot be written: the parent went). Only `run` command lines are served.
// Fault injection for the tests, FWB_PREPARE_CHILD_FAULT=die:FILTER/VARIANT/FORMAT (the child kills
// itself, SIGKILL, as that job starts: a driver crash) or hang:FILTER/VARIANT/FORMAT (it never answers).
int servePrepareJobs(const RunCommand &run);

// The parent's side: one prepare thread's child, started at its first job (and again after a job its
// child did not answer: it died, answered garbage or ran past the time limit, and was killed). Use it
// on one thread: the child dies with the thread that started it.
class PrepareChild
{
public:
    // jobTimeoutS: how long one job may take before its child is killed and the job fails (0: no limit).
    PrepareChild(DeviceInfo device, std::string cacheDir, double jobTimeoutS);
    ~PrepareChild(); // stop()

    // The job's row as preparedBuildFromRun makes it (wallMs: this job's time, a child's start included).
    PreparedBuild build(const PrepareJob &job);
    // Ends the child (end of input, then a kill after a grace period) and counts its lifetime.
    void stop();

    int childrenStarted() const { return m_started; }
    double childSeconds() const { return m_childSeconds; } // every ended child's lifetime, summed

private:
    ChildOutcome endChild(int graceMs);

    DeviceInfo m_device;
    std::string m_cacheDir;
    double m_jobTimeoutS;
    ServingChild m_child;
    double m_childStart = 0; // seconds on the steady clock
    int m_started = 0;
    double m_childSeconds = 0;
};

// The per-job limit prepare gives its children: FWB_PREPARE_JOB_TIMEOUT_S (seconds, 0 none), else 900 s,
// far beyond the slowest build measured (seconds) but not forever for a driver that hangs.
double prepareJobTimeoutS();

} // namespace fwb::cli
