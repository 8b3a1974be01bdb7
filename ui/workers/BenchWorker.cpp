// BenchWorker: race, tune and sweep jobs on a SessionWorker thread with its own Session (see BenchWorker.h).
#include "BenchWorker.h"

#include "Catalogue.h"
#include "PrepareAhead.h"
#include "ProcessPriority.h"
#include "StartupTrace.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace fwb {

std::shared_ptr<TuningDb> workbenchTuningDb()
{
    static const std::shared_ptr<TuningDb> db = [] {
        auto d = std::make_shared<TuningDb>();
        std::string warning;
        if (!d->load(&warning))
            std::fprintf(stderr, "filter-workbench: warning: %s\n", warning.c_str());
        return d;
    }();
    return db;
}

namespace {

// What a variant's program depends on besides the device: the filter, the variant and the settings that
// become its build options (parameters, border, format, fast math). A key seen before means the
// session's program cache has it.
std::string programKey(const RunRequest &run, const std::string &variant)
{
    std::string key = run.filter + '/' + variant + '/' + formatName(run.params.format) + '/'
                      + borderModeName(run.params.border) + (run.params.fastMath ? "/fast" : "");
    for (const auto &[name, value] : run.params.values)
        key += '/' + name + '=' + std::to_string(value);
    return key;
}

PrepareJob preparedJob(const BenchJob &job, const std::string &variant)
{
    return {job.run.filter, variant, formatName(job.run.params.format), {}};
}

// The background builder's queue for this job's device, where the job's programs are the ones it builds
// (default parameters), else null.
std::shared_ptr<PrepareQueue> aheadFor(const BenchJob &job)
{
    const FilterSpec *filter = findFilter(job.run.filter);
    if (!filter || !usesPreparedProgram(*filter, job.run.params))
        return nullptr;
    return PrepareAhead::queueFor(job.device);
}

} // namespace

bool BenchWorker::waitForBuildAhead(PrepareQueue &ahead, const PrepareJob &program, const std::function<void()> &waiting)
{
    // This worker builds a program no child has taken itself; one a child builds now it waits for, rather
    // than compile it a second time beside it: a child taken as wanted (nice 5, on a GPU) for at most the
    // longest build there is, a child at idle priority (every child on a CPU device) raised for this job
    // (waitForIdleChild). (PoCL, 2 cores, scripts/window-first-use.sh: a race that caught up with the child
    // building gaussian5x5 `stream` and compiled it beside it waited 2.5 s for its bar.)
    bool wanted = false;
    const PrepareQueue::State was = ahead.claim(program, &wanted);
    if (was == PrepareQueue::State::Building) {
        waiting();
        const auto start = std::chrono::steady_clock::now();
        std::string how = "taken as wanted";
        const bool built = wanted ? ahead.waitUntilBuilt(program, &m_cancel, kWantedWaitS)
                                  : waitForIdleChild(ahead, program, &how);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        char text[300]; // FWB_TRACE (scripts/window-first-use.sh): what the race waited for
        std::snprintf(text, sizeof text, "race: waited %.0f ms for a child building %s (%s; %s)", ms,
                      program.variant.c_str(), how.c_str(), built ? "built" : "not built: compiled here");
        traceStartup(text);
        return !built;
    }
    return was != PrepareQueue::State::Done;
}

bool BenchWorker::waitForIdleChild(PrepareQueue &ahead, const PrepareJob &program, std::string *how)
{
    // The race times nothing while it waits, so the child may have what the race would have had compiling
    // the program itself: it is raised to this thread's own priority (SCHED_OTHER at the window's nice value)
    // for the job, where this user may (ProcessPriority.h), and lowered again when the job ends. Measured
    // on PoCL, 2 cores, scripts/window-first-use.sh, a race 10 s after launch with 4 busy loops beside the
    // window and other work (load 7-11): before, the race waited at most 5 s for an idle child, which
    // starved, then compiled the program beside it (2-3 such waits a race, 10-15 s). Raised to nice 5 (a
    // wanted build's priority on a GPU) the child got 9-16% of a core against the loops' nice 0, and one
    // race took 113 s against 59 s; at the race's own nice value it gets the race's share (29-42% of a
    // core), every wait ends built, none compiles a second time. A child that gets almost nothing even so
    // hangs: given up after kProgressWindowS.
    // Where the raise is refused (an ordinary user: RLIMIT_NICE 0) the child stays idle, and the race waits
    // only while it gets the cores' idle time: on a quiet machine it has a core and is part way through,
    // on a loaded one it gets none (0-1% of a core measured), and the race compiles the program itself
    // after kProgressWindowS, not 5 s (waits of 1.1-1.2 s as nobody, load 9).
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    auto since = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
    const int nice = currentNice();
    PrepareQueue::Raise raised = PrepareQueue::Raise::NoChild;
    double windowCpu = -1, share = -1;
    auto windowStart = start;
    bool built = false;
    for (;;) {
        if (raised == PrepareQueue::Raise::NoChild) // until the builder has named the child (PrepareQueue::setBuilder)
            raised = ahead.raise(program, nice);
        if (ahead.waitUntilBuilt(program, &m_cancel, kProgressSliceS)) {
            built = true;
            break;
        }
        if (ahead.state(program) != PrepareQueue::State::Building || m_cancel.load() || since(start) >= kRaisedWaitS)
            break;
        const double cpu = ahead.builderCpuSeconds(program);
        if (cpu < 0 || windowCpu < 0) { // the first sample
            windowCpu = cpu;
            windowStart = Clock::now();
            continue;
        }
        if (const double window = since(windowStart); window >= kProgressWindowS) {
            share = (cpu - windowCpu) / window;
            if (share < (raised == PrepareQueue::Raise::Raised ? kHungShare : kStarvingShare))
                break; // compiled here
            windowCpu = cpu;
            windowStart = Clock::now();
        }
    }
    if (!built)
        ahead.lower(program); // it goes on at idle priority while the race compiles (or was cancelled)
    char text[120];
    if (raised == PrepareQueue::Raise::Raised)
        std::snprintf(text, sizeof text, "raised to nice %d", nice);
    else
        std::snprintf(text, sizeof text, "%s",
                      raised == PrepareQueue::Raise::Refused ? "not raised: refused, still idle"
                                                             : "idle, its child not known");
    *how = text;
    if (share >= 0) {
        std::snprintf(text, sizeof text, ", %.0f%% of a core", share * 100);
        *how += text;
    }
    return built;
}

BenchWorker::BenchWorker(QObject *parent) : SessionWorker(QThread::LowPriority, false, parent)
{
    qRegisterMetaType<fwb::BenchProgress>();
    qRegisterMetaType<fwb::BenchResult>();
}

BenchWorker::~BenchWorker()
{
    stopThread();
}

bool BenchWorker::start(const BenchJob &job, Work work)
{
    return startJobIfIdle([this, job, work] { runJob(job, work); });
}

void BenchWorker::cancel()
{
    cancelJob(false);
}

bool BenchWorker::isBusy() const
{
    return hasJob();
}

void BenchWorker::report(BenchProgress progress)
{
    onGuiThread([this, p = std::move(progress)] { emit this->progress(p); });
}

void BenchWorker::finish(BenchResult result)
{
    onGuiThread([this, r = std::move(result)] { emit finished(r); });
}

void BenchWorker::runJob(const BenchJob &job, Work work)
{
    try {
        SessionOptions options;
        options.tunedLocal = TuningDb::lookup(workbenchTuningDb());
        (this->*work)(openSession(job.device, options), job);
    } catch (const std::exception &e) {
        workbenchTuningDb()->setEnabled(true);
        endJob();
        onGuiThread([this, message = QString::fromStdString(e.what())] { emit failed(message); });
    }
}

// endJob() before each finishing signal: its slot may start the next job at once. The window's background
// builder (PrepareAhead): its children build what the race and the tuning need next.

void BenchWorker::raceJob(Session &session, const BenchJob &job)
{
    const std::shared_ptr<PrepareQueue> ahead = aheadFor(job);
    RaceOptions options = job.race;
    if (ahead) {
        // The versions built ahead race first, those a child builds now next, those not started last
        // (catalogue order within each): the bars rank by time whatever the order, and the builder gets the
        // most time for what is not built yet. They jump the builder's queue in that order.
        std::vector<std::string> names = options.variants;
        if (names.empty())
            for (const VariantSpec &v : findFilter(job.run.filter)->variants)
                names.push_back(v.name);
        auto readiness = [&](const std::string &name) {
            const PrepareQueue::State state = ahead->state(preparedJob(job, name));
            return state == PrepareQueue::State::Pending ? 2 : state == PrepareQueue::State::Building ? 1 : 0;
        };
        std::stable_sort(names.begin(), names.end(),
                         [&](const std::string &a, const std::string &b) { return readiness(a) < readiness(b); });
        options.variants = names;
        std::vector<PrepareJob> coming;
        for (const std::string &name : names)
            coming.push_back(preparedJob(job, name));
        if (options.baselines) // OpenCV's row comes last (a job of the builder's where OpenCV has the filter)
            coming.push_back(preparedJob(job, "opencv_tapi"));
        ahead->jumpQueue(coming);
    }
    const RaceResult race = runRace(
        session, *job.input, job.run, options, &m_cancel,
        [this](const RaceEntry &e, int done, int total) { report({e, done, total}); },
        [this, &job, &ahead](const RaceEntry &upcoming, int index, int total) {
            const bool variant = index > 0 && !upcoming.baseline;
            const VariantSpec *spec = variant ? findFilter(job.run.filter)->variant(upcoming.name) : nullptr;
            // One this device cannot run (its row says why) builds nothing. OpenCV through OpenCL compiles its
            // own kernels at its first run in a process (1.3 s of a cold race on PoCL, silent before): said too.
            const bool builds = spec && variantUnavailableReason(*spec, job.device, job.run.params.format).empty();
            const bool openCvOnDevice = upcoming.baseline && upcoming.onDevice();
            bool first = (builds || openCvOnDevice) && m_built.insert(programKey(job.run, upcoming.name)).second;
            if (first && ahead && !waitForBuildAhead(*ahead, preparedJob(job, upcoming.name),
                                                     [&] { report({BenchProgress::RaceStep{upcoming, true}, index, total}); }))
                first = false; // built ahead (or just now by a child): a quick load, not a compile
            report({BenchProgress::RaceStep{upcoming, first}, index, total});
        });
    endJob();
    finish({race});
}

void BenchWorker::tuneJob(Session &session, const BenchJob &job)
{
    // The default launch is measured untuned, and every shape as asked.
    if (const std::shared_ptr<PrepareQueue> ahead = aheadFor(job))
        waitForBuildAhead(*ahead, preparedJob(job, job.run.variant), [] {});
    TuningDb &db = *workbenchTuningDb();
    db.setEnabled(false);
    const TuneResult tune = tuneVariant(session, *job.input, job.run, job.tune, &m_cancel,
                                        [this](const TuneCell &c, int done, int total) {
                                            report({c, done, total});
                                        });
    db.setEnabled(true);
    m_built.insert(programKey(job.run, job.run.variant));
    endJob();
    finish({tune});
}

void BenchWorker::sweepJob(Session &session, const BenchJob &job)
{
    // Every point reaches the chart as soon as its value of its filter is measured; Cancel stops between runs.
    const SweepResult result = runSweep(session, *job.input, job.run, job.sweepParam, job.sweepValues, {}, &m_cancel,
                                        {}, job.sweepFilters, [this](const SweepResult &soFar, int done, int total) {
                                            report({soFar, done, total});
                                        });
    endJob();
    finish({result});
}

} // namespace fwb
