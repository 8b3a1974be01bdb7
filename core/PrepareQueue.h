// PrepareQueue: the programs a device can need, and the order to build them ahead, shared by
// `filter-bench prepare` (cli/PrepareVerb.cpp) and the window's background builder (ui/workers/PrepareAhead):
// one list of jobs, one queue order. Each job is a `filter-bench run` on a 32x24 test card
// (prepareRunArgs), run by a child that stays (`filter-bench prepare --serve`: prepareServeLine in,
// preparedBuildFromAnswer out), whose JSON answer becomes the job's row of the prepared record
// (preparedBuildFromRun); a job the record and the cache show built for this very source and device
// needs no child (alreadyPrepared).
#pragma once

#include "Catalogue.h"
#include "Devices.h"
#include "Image.h"
#include "PreparedRecord.h"

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace fwb {

struct PrepareJob
{
    std::string filter, variant, format;
    std::string param; // "radius=2" for a variant built for small radii only (its largest), else empty

    bool sameProgram(const PrepareJob &other) const
    {
        return filter == other.filter && variant == other.variant && format == other.format;
    }
    // OpenCV's OpenCL row (its baseline name): no program of ours, but OpenCV's own kernels, which OpenCV
    // compiles at their first run in a process and keeps in its disk cache (cv::ocl's OPENCV_OPENCL_CACHE_*,
    // on by default: $XDG_CACHE_HOME/opencv, else ~/.cache/opencv), and PoCL its launches in its own. The
    // job runs that row once (openCvPrepareRunArgs), so that a race's OpenCV bar loads them.
    bool isOpenCv() const { return variant == "opencv_tapi"; }
};

// The picture OpenCV's row is warmed on: its kernels' work-group shapes are those of ordinary pictures
// (PoCL compiles a launch per shape): warmed on 32x24 a 1200x800 row still took 1.8 s cold on PoCL, on
// 256x256 (or 640x480, 1920x1080) 0.06 s against 1.2 s cold.
inline constexpr const char *kOpenCvPrepareSize = "256x256";

// Every (filter, variant, format) of filters x formats that the device can run, formats outermost, then
// the catalogue's order; `unavailable` counts those it cannot (non-uniform groups, a format the variant
// lacks). withOpenCv: each filter's variants are preceded by its OpenCV job (PrepareJob::isOpenCv) where
// OpenCV has the filter in that format and this build has OpenCV (the window's builder: a race's last bar,
// which the race cannot build itself beside the others).
std::vector<PrepareJob> prepareJobs(const std::vector<const FilterSpec *> &filters,
                                    const std::vector<PixelFormat> &formats, const DeviceInfo &device,
                                    std::size_t *unavailable = nullptr, bool withOpenCv = false);

// Makes the folder OpenCV keeps its cache in ($XDG_CACHE_HOME, else ~/.cache): OpenCV uses it only where
// it exists (else /var/tmp), so a process that runs OpenCV's row before anything made it would fill another
// cache than the window's, which looks later. Before the first OpenCV job.
void makeOpenCvCacheRoot();

// The recorded build of `job`'s program among `builds` (a prepared record's rows), or null.
const PreparedBuild *findBuild(const std::vector<PreparedBuild> &builds, const PrepareJob &job);

// The jobs longest build first, so that `prepare`'s last minutes are not one slow program alone: by
// each program's cold build recorded on this device (`known`, the prepared record's rows; a job without one
// counts as the slowest known: a new or changed program), else, on a device never prepared, the wider pixel
// layouts first (rgba8888's programs are the slow ones: four channels unrolled). Stable: ties keep the
// catalogue's order.
std::vector<PrepareJob> longestFirst(std::vector<PrepareJob> jobs, const std::vector<PreparedBuild> &known);

// Whether a run with these settings uses the program a prepare job builds (the filter's default
// parameters, border and precision): only then does a program built ahead spare that run its build.
bool usesPreparedProgram(const FilterSpec &filter, const FilterParams &params);

// The child's arguments (argv[0] "filter-bench"): one run on a 32x24 test card, one repeat, no CPU
// timing, no copy-bandwidth probe, JSON; cacheDir empty: the child's default cache folder.
std::vector<std::string> prepareRunArgs(const PrepareJob &job, const std::string &deviceSpec,
                                        const std::string &cacheDir);

// A serving child's job line (`filter-bench prepare --serve`, cli/PrepareChild.h): prepareRunArgs as a
// JSON array of strings, without the line end.
std::string prepareServeLine(const PrepareJob &job, const std::string &deviceSpec, const std::string &cacheDir);
// The job's row from a serving child's answer line ({"status": N, "out": "..."}); none when the line is
// no such answer.
std::optional<PreparedBuild> preparedBuildFromAnswer(const PrepareJob &job, const std::string &answerLine,
                                                     const DeviceInfo &device);

// The prepared record's row from the child's standard output and exit status (-1: it did not start,
// 128+N: signal N), with the program's cache key and build options for alreadyPrepared.
PreparedBuild preparedBuildFromRun(const PrepareJob &job, const std::string &childStdout, int exitStatus,
                                   const DeviceInfo &device);

// The program cache's key of a recorded build, from its options and the kernel source this build has
// (so an edited kernel or a driver update gives another key); empty when the variant is unknown.
std::string preparedProgramKey(const PrepareJob &job, const std::string &options, const DeviceInfo &device);

// True when no child is needed: the record holds this job's build (or its deterministic failure) under
// the key today's source gives, and the program is where a run will find it: a valid entry of that key
// in cacheDir where the cache keeps binaries, else the driver's own kernel cache folder exists (PoCL).
bool alreadyPrepared(const PrepareJob &job, const PreparedDevice *record, const DeviceInfo &device,
                     const std::string &cacheDir);

// The jobs in the order to build them, thread-safe: the window's builder takes from it on the GUI
// thread while a race on its worker thread claims what it builds itself and waits for what a child is
// building (raising that child's priority while it waits: raise). Order: the jobs jumped to the front (a
// race's coming entries), then the focus (the selected variant, the other variants of its filter in its
// format, the other filters in its format, the other formats), each group in the catalogue's order.
class PrepareQueue
{
public:
    enum class State { Pending, Building, Done, Unknown };

    explicit PrepareQueue(std::vector<PrepareJob> jobs = {});

    void setFocus(const std::string &filter, const std::string &variant, const std::string &format);
    // Off: every build is only ahead of time (take's `wanted` never true; nobody waits for a child). The
    // window's builder turns it off for a CPU device, whose race a child at the window's priority would slow.
    void setWantedBuilds(bool on);
    // These (pending) jobs before all others, in this order; replaces the jobs jumped before.
    void jumpQueue(const std::vector<PrepareJob> &urgent);

    // The next pending job, now Building; none when every job is taken or the queue stopped. `wanted`:
    // whether someone waits for it now (a jumped job or the selected variant), not just ahead of time;
    // onlyWanted: none unless the next one is such a job.
    std::optional<PrepareJob> take(bool *wanted = nullptr, bool onlyWanted = false);
    // The child process (pid) a taken job was handed to: the one raise() raises (the window's builder).
    void setBuilder(const PrepareJob &job, long pid);
    // Now Done (built, found cached, or failed); a child raised for it is lowered again (it goes on to
    // builds only ahead of time).
    void finish(const PrepareJob &job);
    void putBack(const PrepareJob &job); // Building again Pending (its child was stopped)
    // The caller builds this program itself (the window's own run or race): a pending job is Done
    // without a child. Returns the state it had; Building: a child builds it now (waitUntilBuilt), and
    // `wantedBuild` says whether that child was taken as wanted (at nice 5) or only ahead of time (at idle
    // priority, which may starve behind other work: raise it).
    State claim(const PrepareJob &job, bool *wantedBuild = nullptr);
    // Someone waits for this job, which a child builds at idle priority: that child is raised to SCHED_OTHER
    // at this nice value (the waiter's own: ProcessPriority.h) until the job ends (finish) or the waiter
    // gives up on it (lower). Done under the queue's lock, so never to a child that has gone on to another
    // job. NoChild: not Building, or its child not known yet (setBuilder: ask again); Refused: this user
    // may not raise a priority (RLIMIT_NICE, ProcessPriority.h), the child stays at idle priority.
    enum class Raise { Raised, AlreadyWanted, Refused, NoChild };
    Raise raise(const PrepareJob &job, int nice);
    void lower(const PrepareJob &job); // the raised child back to idle priority (while still on this job)
    // The CPU time the child building this job has had so far (seconds), -1 when none is known: whether it
    // progresses or starves (or hangs).
    double builderCpuSeconds(const PrepareJob &job) const;
    // Until the job is no longer Building, the queue stopped, *cancel turned true or timeoutS passed;
    // true when it was built meanwhile.
    bool waitUntilBuilt(const PrepareJob &job, const std::atomic<bool> *cancel, double timeoutS);
    // No job is taken any more; waiters wake.
    void stop();

    State state(const PrepareJob &job) const;
    std::vector<PrepareJob> pendingInOrder() const; // what take() would hand out, in order
    std::size_t size() const;
    std::size_t done() const;
    std::size_t building() const;

private:
    struct Item
    {
        PrepareJob job;
        State state = State::Pending;
        int rank = 0;    // the focus's group (0 the selected variant .. 3 other formats)
        int urgent = -1; // position among the jumped jobs, -1 none
        bool wanted = false; // taken as wanted (take's `wanted`)
        long builder = 0;    // the child building it (setBuilder), 0 unknown
        bool raised = false; // that child raised for a waiter (raise)
    };
    void lowerBuilder(Item &item); // under m_mutex
    Item *find(const PrepareJob &job); // under m_mutex; null when not a job of this queue
    const Item *find(const PrepareJob &job) const;
    std::vector<std::size_t> pendingOrder() const; // under m_mutex

    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<Item> m_items;
    bool m_stopped = false;
    bool m_wantedBuilds = true;
};

} // namespace fwb
