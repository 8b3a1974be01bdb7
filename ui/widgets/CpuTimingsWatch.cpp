// CpuTimingsWatch: the store's listener posts one queued changed() to the GUI thread.
#include "CpuTimingsWatch.h"

#include "CpuTimings.h"

#include <QCoreApplication>
#include <QMetaObject>

namespace fwb {

CpuTimingsWatch *CpuTimingsWatch::instance()
{
    static CpuTimingsWatch *watch = new CpuTimingsWatch(QCoreApplication::instance());
    return watch;
}

CpuTimingsWatch::CpuTimingsWatch(QObject *parent) : QObject(parent)
{
    // Measurements happen on worker threads: a burst of them becomes one changed() on this object's thread.
    // Queued by name, not with a functor: the call object is then made and freed inside Qt's own library,
    // whose post-event queue (futex-locked) ThreadSanitizer cannot see (tests/tsan.supp); a functor's would be
    // made by this code on the measuring thread and freed by Qt's template code on the GUI thread.
    m_listener = cpuTimings().listen([this] {
        if (!m_posted.exchange(true))
            QMetaObject::invokeMethod(this, "deliver", Qt::QueuedConnection);
    });
}

void CpuTimingsWatch::deliver()
{
    m_posted = false;
    emit changed();
}

CpuTimingsWatch::~CpuTimingsWatch()
{
    cpuTimings().unlisten(m_listener);
}

} // namespace fwb
