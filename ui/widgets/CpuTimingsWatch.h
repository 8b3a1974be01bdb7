// CpuTimingsWatch: core's CPU timing store (CpuTimings.h) told to the GUI thread. Every view that shows a
// CPU time (the timing panel, the race page, the lesson) reads it from the store again on changed(), so
// that a later measurement of the same work never leaves two CPU times for it on screen.
#pragma once

#include <QObject>

#include <atomic>

namespace fwb {

class CpuTimingsWatch : public QObject
{
    Q_OBJECT

public:
    // The one watch, made on first use on the GUI thread (a child of the application).
    static CpuTimingsWatch *instance();
    ~CpuTimingsWatch() override;

signals:
    // Some CPU figure changed (emitted on the GUI thread, once for a burst of measurements).
    void changed();

private slots:
    void deliver(); // on the GUI thread: changed()

private:
    explicit CpuTimingsWatch(QObject *parent);
    int m_listener = 0;
    std::atomic<bool> m_posted{false};
};

} // namespace fwb
