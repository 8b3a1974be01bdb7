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
    m_listener = cpuTimings().listen([this] {
        if (m_posted.exchange(true))
            return;
        QMetaObject::invokeMethod(
            this,
            [this] {
                m_posted = false;
                emit changed();
            },
            Qt::QueuedConnection);
    });
}

CpuTimingsWatch::~CpuTimingsWatch()
{
    cpuTimings().unlisten(m_listener);
}

} // namespace fwb
