// BenchWorker: a thread of its own for the long comparisons (race, work-group tuning, sweep), with its
// own Session on the chosen device (a SessionWorker), so the interactive worker stays free. Jobs go in as values;
// every job, of whatever kind, reports by the same two queued signals: `progress` as it goes (a bar appears as
// its run ends) and `finished` with its result, each carrying its kind's value.
#pragma once

#include "ComputeWorker.h"
#include "Race.h"
#include "SessionWorker.h"
#include "Sweep.h"
#include "Tuner.h"
#include "TuningDb.h"

#include <QMetaType>

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <variant>

namespace fwb {

class PrepareQueue;
struct PrepareJob;

// The workbench's tuning database (the cache folder's tuning.json), loaded once and shared by every
// session the window makes: the tuner writes it, auto launches read it.
std::shared_ptr<TuningDb> workbenchTuningDb();

// A job's request; what it does is the BenchWorker::Work its page starts it with.
struct BenchJob
{
    DeviceInfo device;
    std::shared_ptr<const Image> input;
    RunRequest run; // filter, params, format; variant for Tune
    RaceOptions race;
    TuneOptions tune;
    std::string sweepParam;
    std::vector<double> sweepValues;
    // Sweep: more filters with the same parameter on the same chart (gaussian beside
    // recursive_gaussian shows where the flat-cost blur overtakes); their series are "filter/variant".
    std::vector<std::string> sweepFilters;
};

// What a running job reports, `done` of `total`: a race's next run before it starts (RaceStep: done is its
// index; firstBuild: its program has not been built by this worker's session for these settings yet, it
// compiles before it runs; the copy-speed probe is index 0) and each run it finished (RaceEntry); each shape a
// tuning measured (TuneCell); every (variant, value) point of a sweep so far, after each value of each filter
// (SweepResult: the chart fills in).
struct BenchProgress
{
    struct RaceStep
    {
        RaceEntry upcoming;
        bool firstBuild = false;
    };
    std::variant<RaceStep, RaceEntry, TuneCell, SweepResult> what;
    int done = 0;
    int total = 0;
};

// What a job ends with: its kind's result.
struct BenchResult
{
    std::variant<RaceResult, TuneResult, SweepResult> what;
};

class BenchWorker : public SessionWorker
{
    Q_OBJECT

public:
    explicit BenchWorker(QObject *parent = nullptr);
    ~BenchWorker() override;

    // What a job does on the worker's thread once its Session is open, reporting its progress and ending
    // with finished() (after endJob()). Passed to start(); never called directly.
    using Work = void (BenchWorker::*)(Session &session, const BenchJob &job);
    void raceJob(Session &session, const BenchJob &job);  // RaceStep and RaceEntry, RaceResult
    void tuneJob(Session &session, const BenchJob &job);  // TuneCell, TuneResult
    void sweepJob(Session &session, const BenchJob &job); // SweepResult, SweepResult

    // Starts `work` on the job; refused (false) while one runs. A job that throws ends with failed().
    bool start(const BenchJob &job, Work work);
    void cancel();
    bool isBusy() const;

signals:
    void progress(const fwb::BenchProgress &progress);
    void finished(const fwb::BenchResult &result);
    void failed(const QString &message);

private:
    void runJob(const BenchJob &job, Work work); // worker thread
    // progress() and finished() from the worker thread (onGuiThread()).
    void report(BenchProgress progress);
    void finish(BenchResult result);
    // Before this worker builds a program the window's background builder also lists (worker thread):
    // claims it, or waits while a child builds it (`waiting` first says so). True when it still has to
    // be compiled here, false when it was built ahead.
    bool waitForBuildAhead(PrepareQueue &ahead, const PrepareJob &program, const std::function<void()> &waiting);
    // Waits for a child that builds the program at idle priority, raised while it waits; true when built.
    // `how`: raised or not, and the share of a core it had last (FWB_TRACE).
    bool waitForIdleChild(PrepareQueue &ahead, const PrepareJob &program, std::string *how);
    static constexpr double kWantedWaitS = 900;    // a child taken as wanted: the slowest build anywhere
    // A child raised for the wait (or refused): while it progresses, but not forever (the longest wait
    // measured, PoCL under load: 16 s for a build that had a seventh of a core, 2.2 s of CPU).
    static constexpr double kRaisedWaitS = 300;
    static constexpr double kProgressSliceS = 0.1; // how often the wait looks at the child
    static constexpr double kProgressWindowS = 1;  // the CPU time it had over this long, as a share of a core:
    static constexpr double kHungShare = 0.02;     // a raised one below it hangs (one 10 ms tick a second)
    static constexpr double kStarvingShare = 0.1;  // an idle one below it starves (0-1% measured under load)

    void sessionClosing() override { m_built.clear(); }

    std::set<std::string> m_built; // programs the session has built: filter, variant and their settings (worker thread)
};

} // namespace fwb

Q_DECLARE_METATYPE(fwb::BenchProgress)
Q_DECLARE_METATYPE(fwb::BenchResult)
