// How the worker threads (SessionWorker: ComputeWorker, BenchWorker, LabWorker, TransferCompareWorker)
// wait, in one place, told to ThreadSanitizer: Qt's own waits happen inside libQt6Core, which is not
// instrumented.
//
// waitUntil: a SessionWorker sleeps on its QWaitCondition. Called with the mutex locked; returns with it
// locked and ready() true.
//
// Under ThreadSanitizer, Qt's inline QMutex::lock()/unlock() tell TSan about the mutex, but
// QWaitCondition::wait() (inside libQt6Core, not instrumented) unlocks and relocks it without a word:
// TSan would believe the sleeping thread still holds the mutex and report the waking thread's lock
// as a "double lock", with only our frames in the stacks. The annotations below say what wait() does
// (release, then re-acquire); they compile to nothing in every other build.
#pragma once

#include <QMutex>
#include <QThread>
#include <QWaitCondition>

#if defined(__SANITIZE_THREAD__)
#define FWB_TSAN_WAIT 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define FWB_TSAN_WAIT 1
#endif
#endif
#ifdef FWB_TSAN_WAIT
#include <QCoreApplication>
#include <QEvent>
#include <sanitizer/tsan_interface.h>

// Qt's hook for every signal emission (libQt6Core exports it; the declaration is in the private
// qobject_p.h, which Debian does not ship).
struct QSignalSpyCallbackSet
{
    typedef void (*BeginCallback)(QObject *caller, int signal_or_method_index, void **argv);
    typedef void (*EndCallback)(QObject *caller, int signal_or_method_index);
    BeginCallback signal_begin_callback, slot_begin_callback;
    EndCallback signal_end_callback, slot_end_callback;
};
Q_CORE_EXPORT void qt_register_signal_spy_callbacks(QSignalSpyCallbackSet *callback_set);
#endif

namespace fwb {

template <typename Ready>
void waitUntil(QWaitCondition &condition, QMutex &mutex, Ready ready)
{
    while (!ready()) {
#ifdef FWB_TSAN_WAIT
        // The address Qt's own annotations use: the QBasicMutex inside the QMutex.
        void *const m = static_cast<QBasicMutex *>(&mutex);
        __tsan_mutex_pre_unlock(m, 0);
        __tsan_mutex_post_unlock(m, 0);
#endif
        condition.wait(&mutex);
#ifdef FWB_TSAN_WAIT
        __tsan_mutex_pre_lock(m, 0);
        __tsan_mutex_post_lock(m, 0, 0);
#endif
    }
}

// ThreadEndMark / joinThread: QThread::wait() joins the (detached) thread through Qt's own mutex and
// wait condition, unseen by TSan, which would then take the thread's last writes (its Session torn
// down at the end of run()) and the destructor's reads after wait() for a race. A ThreadEndMark,
// declared first in run(), releases on the way out; joinThread() waits and acquires.
class ThreadEndMark
{
public:
    explicit ThreadEndMark(QThread *thread) : m_thread(thread) {}
    ~ThreadEndMark()
    {
#ifdef FWB_TSAN_WAIT
        __tsan_release(m_thread);
#endif
    }
    ThreadEndMark(const ThreadEndMark &) = delete;
    ThreadEndMark &operator=(const ThreadEndMark &) = delete;

private:
    QThread *m_thread;
};

inline void joinThread(QThread &thread)
{
    thread.wait();
#ifdef FWB_TSAN_WAIT
    __tsan_acquire(&thread);
#endif
}

#ifdef FWB_TSAN_WAIT
// The workers hand their results to the window by queued signals. Qt posts the call into the GUI
// thread's event queue under its own lock (libQt6Core), so TSan would take everything a worker wrote
// before emitting (a result, its image) and the window's reads in the slot for races. Modelled here:
// every emission releases as it starts and again as it ends (after Qt has copied the arguments and
// posted the call), every queued call delivered on the GUI thread acquires. (A delivery that beats the
// second release is what tests/tsan.supp's QMetaType::construct is for.)
// Registered once per process from SessionWorker.cpp (Q_COREAPP_STARTUP_FUNCTION).
namespace tsan_detail {
inline char queuedSignals;
class QueuedCallAcquire : public QObject
{
public:
    using QObject::QObject;
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == QEvent::MetaCall)
            __tsan_acquire(&queuedSignals);
        return false;
    }
};
} // namespace tsan_detail

// For a queued QMetaObject::invokeMethod from another thread (no signal, so no emission to release
// at): call it just before, once the call's arguments are made.
inline void releaseForQueuedCall() { __tsan_release(&tsan_detail::queuedSignals); }

inline void annotateQueuedSignals()
{
    static QSignalSpyCallbackSet callbacks{
        [](QObject *, int, void **) { __tsan_release(&tsan_detail::queuedSignals); }, nullptr,
        [](QObject *, int) { __tsan_release(&tsan_detail::queuedSignals); }, nullptr};
    qt_register_signal_spy_callbacks(&callbacks);
    QCoreApplication::instance()->installEventFilter(new tsan_detail::QueuedCallAcquire(QCoreApplication::instance()));
}
#else
inline void releaseForQueuedCall() {}
#endif

} // namespace fwb
