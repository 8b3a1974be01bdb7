// BenchWorker: a thread of its own for the long comparisons (race, work-group tuning, sweep), with its
// own Session on the chosen device (a SessionWorker), so the interactive worker stays free. Jobs go in as values;
// every finished run comes back as a value by a queued signal (a bar appears as its run ends).
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

class BenchWorker : public SessionWorker
{
    Q_OBJECT

public:
    explicit BenchWorker(QObject *parent = nullptr);
    ~BenchWorker() override;

    // What a job does on the worker's thread once its Session is open, ending with its finishing signal
    // (after endJob()). Passed to start(); never called directly.
    using Work = void (BenchWorker::*)(Session &session, const BenchJob &job);
    void raceJob(Session &session, const BenchJob &job);  // raceStep/raceProgress, raceFinished
    void tuneJob(Session &session, const BenchJob &job);  // tuneProgress, tuneFinished
    void sweepJob(Session &session, const BenchJob &job); // sweepProgress/sweepStep, sweepFinished

    // Starts `work` on the job; refused (false) while one runs. A job that throws ends with failed().
    bool start(const BenchJob &job, Work work);
    void cancel();
    bool isBusy() const;

signals:
    // Before each run of a race (and the copy-speed probe, index 0): what starts now. firstBuild: this
    // variant's program has not been built by this worker's session for these settings yet (it compiles
    // before it runs).
    void raceStep(const fwb::RaceEntry &upcoming, int index, int total, bool firstBuild);
    void raceProgress(const fwb::RaceEntry &entry, int done, int total);
    void raceFinished(const fwb::RaceResult &race);
    void tuneProgress(const fwb::TuneCell &cell, int done, int total);
    void tuneFinished(const fwb::TuneResult &tune);
    void sweepProgress(int done, int total);
    // Every (variant, value) run done so far, after each value of each filter: the chart fills in.
    void sweepStep(const fwb::SweepResult &soFar, int done, int total);
    void sweepFinished(const fwb::SweepResult &sweep);
    void failed(const QString &message);

private:
    void runJob(const BenchJob &job, Work work); // worker thread
    // Before this worker builds a program the window's background builder also lists (worker thread):
    // claims it, or waits while a child builds it (`waiting` first says so). True when it still has to
    // be compiled here, false when it was built ahead.
    bool waitForBuildAhead(PrepareQueue &ahead, const PrepareJob &program, const std::function<void()> &waiting);

    void sessionClosing() override { m_built.clear(); }

    std::set<std::string> m_built; // programs the session has built: filter, variant and their settings (worker thread)
};

} // namespace fwb

Q_DECLARE_METATYPE(fwb::RaceEntry)
Q_DECLARE_METATYPE(fwb::RaceResult)
Q_DECLARE_METATYPE(fwb::TuneCell)
Q_DECLARE_METATYPE(fwb::TuneResult)
Q_DECLARE_METATYPE(fwb::SweepResult)
