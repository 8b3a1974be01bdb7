// PrepareAhead: the window's background builder (issue 25). When the window has a device it builds every
// program the catalogue can need on it into the shared program cache before anyone asks: the selected
// variant, the other variants of its filter in the current format, the other filters in that format, then
// the other formats (core/PrepareQueue.h, the order `filter-bench prepare` shares). The builds run in
// children that stay, `filter-bench prepare --serve` (cli/PrepareChild.h: a job line in, an answer line out;
// drivers serialise their compiler inside one process: PoCL's LLVM), each a run on a 32x24 card: a child
// pays its process start, the platform's start and the copy-speed probe once, not once per program
// (a child per build spent more on those than on the builds on PoCL). There are two kinds: children at the
// lowest priority (SCHED_IDLE, nice 19: only the cores' idle time) for builds only ahead of time, and
// children at nice 5 for builds someone waits for (a race's coming entries, the selected variant; not on a
// CPU device, whose race they would slow); each kind serves only its own builds. A race that meets its
// program on an idle child raises that child to its own priority for the job while it waits
// (PrepareQueue::raise, send() names the child), and the job's end lowers it again; an ordinary user may
// not raise a priority (core/ProcessPriority.h: RLIMIT_NICE), and there the race waits only while the child
// gets CPU time (BenchWorker::waitForIdleChild). Children are killed with the window (PR_SET_PDEATHSIG):
// QProcesses on the GUI thread, so no thread of ours waits on them; one left without a job is sent the end
// of its input and exits. A child that dies costs its job only (recorded as failed):
// the next job gets a new child. A program the prepared record (prepared.json) and the cache show built for
// this very source, driver and device gets no job; each job's build is recorded there as it ends. A race's
// coming entries jump the queue and its worker waits for an entry a child is building (queueFor); a
// program the window builds itself (claim) gets no job. It stops, children killed and reaped, when the
// device changes or the window closes; the cache's entries are written atomically (core/AtomicFile.h), so
// a killed child leaves no half entry. Off with View ▸ Prepare Kernels Ahead or FWB_PREPARE_AHEAD=0 (the
// test suites' default).
#pragma once

#include "Devices.h"
#include "PrepareQueue.h"
#include "PreparedRecord.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>
#include <optional>
#include <string>
#include <vector>

class QMenu;
class QProcess;
class QStatusBar;

namespace fwb {

class PrepareAhead : public QObject
{
    Q_OBJECT

public:
    explicit PrepareAhead(QObject *parent = nullptr);
    ~PrepareAhead() override; // stop()

    // False when FWB_PREPARE_AHEAD is 0 (or off, no, false).
    static bool allowedByEnvironment();
    // $FWB_FILTER_BENCH, else filter-bench beside this executable.
    static QString filterBenchPath();
    // The queue of the device a window prepares now (thread-safe: the race's worker asks), or null.
    static std::shared_ptr<PrepareQueue> queueFor(const DeviceInfo &device);

    // Its line in the status bar ("prepareStatus") and View ▸ Prepare Kernels Ahead ("prepareAheadAction").
    void attach(QStatusBar *statusBar, QMenu *viewMenu);

    void setEnabled(bool on);
    bool isEnabled() const { return m_enabled; }
    // What to prepare: filter names (empty: the catalogue) and formats (default gray8, rgba8888, rgb888;
    // the focus's format goes first whatever the order here). Takes effect at the next start.
    void setScope(const std::vector<std::string> &filters, const std::vector<std::string> &formats);
    // Children at a time (default: one per core, at most 8) building ahead at idle priority, and as many
    // again for builds someone waits for (a race's coming entries): idle ones may starve behind other work.
    void setJobs(int jobs);
    // The device to prepare for: another one stops the current builds and starts over; none stops.
    void setDevice(const std::optional<DeviceInfo> &device);
    void setFocus(const std::string &filter, const std::string &variant, const std::string &format);
    // The window builds this program itself now (its own run): no child for it.
    void claim(const PrepareJob &job);
    // While the window's own run is in flight the builder does not start (for at most kMaxHoldMs): the
    // first result after launch does not share the machine with the children's start-up. The window says
    // it is no longer busy once its first picture is on screen, and the builder starts then. Not on a CPU
    // device, whose children all run at idle priority: there it starts at once.
    void setWindowBusy(bool busy);
    // Kills the children and waits for each; nothing more starts until the device is set again.
    void stop();

    bool isBuilding() const; // a child builds, or the queue is being gone through
    bool isFinished() const; // every job of the current device done
    QString statusText() const { return m_status; }
    std::size_t total() const;
    std::size_t done() const;
    int childrenStarted() const { return m_started; } // processes, since the last start (tests)
    int buildsSent() const { return m_sent; }          // jobs handed to children, since the last start
    QList<qint64> childPids() const;
    qint64 childBuilding(const PrepareJob &job) const; // the pid of the child on this job now, else 0 (tests)

signals:
    void statusChanged(const QString &text);
    void enabledChanged(bool on);
    void finished();

private:
    void start();
    void pump(); // skips what is prepared, hands the next jobs to free children (or new ones)
    QProcess *startChild(bool wanted);
    void send(QProcess *child, const PrepareJob &job);
    void childAnswered(QProcess *child);
    void childEnded(QProcess *child, int exitStatus);
    void jobEnded(const PrepareJob &job, const PreparedBuild &build);
    void closeIdleChildren(); // those without a job: the end of their input, they exit
    void setStatus(const QString &text);
    void updateProgress();

    bool m_enabled = true;
    int m_jobs = 1;
    std::vector<std::string> m_filters, m_formats;
    std::optional<DeviceInfo> m_device;
    std::string m_focusFilter, m_focusVariant, m_focusFormat;
    std::shared_ptr<PrepareQueue> m_queue;
    std::string m_cacheDir;
    std::vector<PreparedDevice> m_record;
    struct Child
    {
        std::optional<PrepareJob> job; // the one it builds now, none between jobs
        bool wanted = false;           // at nice 5, for builds someone waits for; else at idle priority
        QByteArray pending;            // its output past the last answer line
        bool closing = false;          // sent the end of its input: it exits
    };
    QHash<QProcess *, Child> m_children;
    std::vector<PrepareJob> m_claimedEarly; // claimed before the queue existed (the window's first run)
    QTimer m_poll; // picks up the jobs a race jumped to the front from its own thread
    QTimer m_startTimer;
    QElapsedTimer m_clock;
    QString m_status, m_missing;
    int m_started = 0;
    int m_sent = 0;
    int m_failed = 0;
    bool m_pumping = false;
    bool m_windowBusy = false;
    QElapsedTimer m_held; // since the device was set: how long the start has waited for the window
};

} // namespace fwb
