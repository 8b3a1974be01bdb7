// SessionWorker: the one pattern for a thread that owns a Session (Qt's Mandelbrot example, written once).
// ComputeWorker, BenchWorker, LabWorker and the transfers page's TransferCompareWorker derive from it.
//
// - A job is a closure over a copy of its request. The GUI thread hands it over under the mutex and wakes
//   the thread (started on the first job); the thread takes it, unlocks and runs it. replaceJob(): the
//   newest job replaces a waiting one and tells a running one to stop (the slider case: only the latest
//   matters); startJobIfIdle(): refused while one runs or waits (a race, a tuning, a comparison).
// - Cancelling sets m_cancel, which the job passes to the Session (checked between launches) and checks
//   itself between steps; each job starts with it clear, unless it was cancelled while it waited.
// - Results leave through onGuiThread(): the job hands a call that emits the derived class's signal with the
//   values it captured, and the call runs on the GUI thread. The calls cross through a mailbox under a
//   std::mutex, which ThreadSanitizer sees, and one queued deliverToGui() per call (a call by name: nothing
//   of ours rides Qt's post-event queue, whose lock TSan cannot see), not as a queued signal's arguments.
// - A Session lives on exactly one thread: openSession() makes it on this thread, the jobs use it there, and
//   it is destroyed there (closeSession(), and always as the thread ends), never on the GUI thread.
// - Stopping: the most-derived destructor calls stopThread() first (the jobs use the derived members):
//   abort, cancel the running job, wake, join. The sleeps and the join are told to ThreadSanitizer
//   (WorkerWait.h).
#pragma once

#include "Devices.h"
#include "Session.h"

#include <QMutex>
#include <QThread>
#include <QWaitCondition>

#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace fwb {

class SessionWorker : public QThread
{
    Q_OBJECT

public:
    ~SessionWorker() override; // stopThread() again, for safety: the derived destructor has called it

    // Tests (tests/support/GuiTestSupport.h, WorkerGate): called on the worker thread right after each call it
    // hands to the GUI thread (onGuiThread), so that a test can hold the job there. Empty: none.
    void setHandOverHook(std::function<void()> hook);

protected:
    using Job = std::function<void()>;

    // yieldToGui: a nicer thread (Linux: nice 5, inherited by the threads an OpenCL CPU driver starts from
    // it), so that on a CPU device the GUI thread still gets the cores it needs to repaint.
    SessionWorker(QThread::Priority priority, bool yieldToGui, QObject *parent);

    // ---- any thread but the worker's ----
    // The newest job replaces a waiting one; a running one is told to stop (m_cancel).
    void replaceJob(Job job);
    // A job only when none runs or waits; false (and nothing queued) otherwise.
    bool startJobIfIdle(Job job);
    // A short job that goes before the waiting one, replaces a waiting short job, cancels nothing and never
    // counts as busy (ComputeWorker's launch check: the user is looking at the shape field).
    void putQuickJob(Job job);
    // Tells the running job to stop; dropWaiting forgets a waiting job, else it will start cancelled.
    void cancelJob(bool dropWaiting);
    // A job (not a quick one) runs or waits.
    bool hasJob() const;
    // Abort, cancel, wake, join: the most-derived destructor calls it first. Idempotent.
    void stopThread();

    // ---- the worker thread ----
    struct JobEnd
    {
        bool newerWaiting = false; // a newer job replaced this one while it ran
        bool stopping = false;     // the worker is being destroyed: emit nothing more
    };
    // The running job is over (no longer busy): called before its finishing signal, whose slot may start
    // the next job at once. The loop calls it too after every job.
    JobEnd endJob();
    // This worker's Session for `device`, made here if it has none or one for another device (the old
    // one closed first); throws what Session's constructor throws.
    Session &openSession(const DeviceInfo &device, const SessionOptions &options = {});
    Session *session() const { return m_session.get(); }
    void closeSession();
    // Called on the worker thread just before its Session goes: drop what belongs to it.
    virtual void sessionClosing() {}

    // Runs `call` on the GUI thread (this object's), after every call handed before it, in order with the
    // signals the GUI thread's own code emits meanwhile: the job's way to emit a signal with what it made.
    void onGuiThread(std::function<void()> call);

    // Set by replaceJob() while a job runs, by cancelJob() and by stopThread(); the running job's cancel flag.
    std::atomic<bool> m_cancel{false};

private:
    void run() final;
    Q_INVOKABLE void deliverToGui(); // the GUI thread: runs the oldest call onGuiThread() handed over
    void wakeOrStart(); // mutex held

    const QThread::Priority m_priority;
    const bool m_yieldToGui;
    mutable QMutex m_mutex;
    QWaitCondition m_condition;
    Job m_waiting;                // the job slot: empty when none waits
    bool m_waitingCancelled = false;
    Job m_quick;
    bool m_busy = false;
    bool m_abort = false;
    std::mutex m_toGuiMutex;
    std::deque<std::function<void()>> m_toGui; // onGuiThread()'s calls, oldest first
    std::mutex m_hookMutex;
    std::function<void()> m_handOverHook;

    // Touched only by the worker thread.
    std::unique_ptr<Session> m_session;
    std::string m_sessionSpec;
};

} // namespace fwb
