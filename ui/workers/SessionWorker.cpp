// SessionWorker: the job slot, the thread's loop, its Session and its stop (see SessionWorker.h).
#include "SessionWorker.h"

#include "WorkerWait.h"

#include <QMutexLocker>

#include <utility>

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace fwb {

#ifdef FWB_TSAN_WAIT
Q_COREAPP_STARTUP_FUNCTION(annotateQueuedSignals)
#endif

SessionWorker::SessionWorker(QThread::Priority priority, bool yieldToGui, QObject *parent)
    : QThread(parent), m_priority(priority), m_yieldToGui(yieldToGui)
{
}

SessionWorker::~SessionWorker()
{
    stopThread();
}

void SessionWorker::stopThread()
{
    {
        QMutexLocker lock(&m_mutex);
        m_abort = true;
        m_cancel = true; // a job in progress stops at its next check point
        m_condition.wakeOne();
    }
    joinThread(*this);
}

void SessionWorker::wakeOrStart()
{
    if (!isRunning())
        QThread::start(m_priority);
    else
        m_condition.wakeOne();
}

void SessionWorker::replaceJob(Job job)
{
    QMutexLocker lock(&m_mutex);
    m_waiting = std::move(job);
    m_waitingCancelled = false;
    if (m_busy)
        m_cancel = true; // restart: only the latest job matters
    wakeOrStart();
}

bool SessionWorker::startJobIfIdle(Job job)
{
    QMutexLocker lock(&m_mutex);
    if (m_busy || m_waiting)
        return false;
    m_waiting = std::move(job);
    m_waitingCancelled = false;
    wakeOrStart();
    return true;
}

void SessionWorker::putQuickJob(Job job)
{
    QMutexLocker lock(&m_mutex);
    m_quick = std::move(job);
    wakeOrStart();
}

void SessionWorker::cancelJob(bool dropWaiting)
{
    QMutexLocker lock(&m_mutex);
    if (dropWaiting)
        m_waiting = nullptr;
    else if (m_waiting)
        m_waitingCancelled = true;
    if (m_busy)
        m_cancel = true;
}

bool SessionWorker::hasJob() const
{
    QMutexLocker lock(&m_mutex);
    return m_busy || m_waiting;
}

SessionWorker::JobEnd SessionWorker::endJob()
{
    QMutexLocker lock(&m_mutex);
    m_busy = false;
    return {bool(m_waiting), m_abort};
}

Session &SessionWorker::openSession(const DeviceInfo &device, const SessionOptions &options)
{
    const std::string spec = device.spec();
    if (m_session && m_sessionSpec == spec)
        return *m_session;
    closeSession();
    m_session = std::make_unique<Session>(device, options);
    m_sessionSpec = spec;
    return *m_session;
}

void SessionWorker::closeSession()
{
    if (!m_session)
        return;
    sessionClosing();
    m_session.reset();
    m_sessionSpec.clear();
}

void SessionWorker::run()
{
    const ThreadEndMark end(this); // first in, last out: after the Session is gone
#ifdef Q_OS_LINUX
    // QThread's priorities mean nothing under SCHED_OTHER; a higher nice value does.
    if (m_yieldToGui)
        setpriority(PRIO_PROCESS, id_t(syscall(SYS_gettid)), 5);
#endif
    forever {
        Job job;
        bool quick = false;
        {
            QMutexLocker lock(&m_mutex);
            waitUntil(m_condition, m_mutex, [this] { return m_abort || m_quick || m_waiting; });
            if (m_abort)
                break;
            quick = bool(m_quick);
            if (quick) {
                job = std::exchange(m_quick, nullptr);
            } else {
                job = std::exchange(m_waiting, nullptr);
                m_busy = true;
                m_cancel = m_waitingCancelled;
            }
        }
        job();
        if (!quick)
            endJob();
    }
    closeSession(); // OpenCL objects die on the thread that made them
}

void SessionWorker::setHandOverHook(std::function<void()> hook)
{
    std::lock_guard lock(m_hookMutex);
    m_handOverHook = std::move(hook);
}

void SessionWorker::onGuiThread(std::function<void()> call)
{
    {
        std::lock_guard lock(m_toGuiMutex);
        m_toGui.push_back(std::move(call));
    }
    QMetaObject::invokeMethod(this, "deliverToGui", Qt::QueuedConnection);
    std::lock_guard lock(m_hookMutex); // held while it runs: setHandOverHook({}) waits for it to return
    if (m_handOverHook)
        m_handOverHook();
}

void SessionWorker::deliverToGui()
{
    std::function<void()> call;
    {
        std::lock_guard lock(m_toGuiMutex);
        if (m_toGui.empty())
            return;
        call = std::move(m_toGui.front());
        m_toGui.pop_front();
    }
    call();
}

} // namespace fwb
