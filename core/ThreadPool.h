// ThreadPool: the one persistent pool of host threads every CPU parallel loop in core shares
// (parallelRows for the CPU baselines, the N-body CPU step, HostCopyPool's staging copies).
// Created on first use, sized to the hardware's threads; the calling thread works too, so a pool of N
// runs N - 1 helper threads. Several callers may run jobs at once (one per Session thread); each job's
// parts are handed out one at a time, a job may start another from inside a part (the inner caller
// takes its own parts, so nothing waits on a thread that is waiting). The first exception a part
// throws is rethrown to the caller once the parts already started have ended; parts not yet started
// are skipped. Qt-free.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace fwb {

class ThreadPool
{
public:
    // threads <= 0: the hardware's threads. threads == 1: no helper thread, every job runs on its caller.
    explicit ThreadPool(int threads = 0);
    ~ThreadPool(); // waits for the helpers to end (jobs still queued are finished by their callers)
    ThreadPool(const ThreadPool &) = delete;
    ThreadPool &operator=(const ThreadPool &) = delete;

    // Helper threads plus the caller.
    int threads() const { return int(m_workers.size()) + 1; }

    // Runs fn(i) for every i in [0, n) on the caller and at most maxParallel - 1 helpers (<= 0: all of
    // them); blocks until every part has ended.
    void parallelFor(int n, const std::function<void(int)> &fn, int maxParallel = 0);

    // Runs body(begin, end) over [0, count) cut into contiguous chunks of at least minChunk items,
    // about chunksPerThread chunks per thread used (load balance), with at most maxParallel threads.
    void parallelRanges(long long count, const std::function<void(long long, long long)> &body, int maxParallel = 0,
                        long long minChunk = 1, int chunksPerThread = 4);

private:
    struct Job;
    void worker();
    static void runParts(std::unique_lock<std::mutex> &lock, Job &job, std::condition_variable &done);

    std::vector<std::thread> m_workers;
    std::mutex m_mutex;
    std::condition_variable m_wake, m_done;
    std::deque<Job *> m_jobs; // jobs with parts left to hand out, oldest first
    bool m_stop = false;
};

// The process's pool (created on first use, hardware threads; $FWB_CPU_THREADS caps it when set).
ThreadPool &hostThreadPool();

} // namespace fwb
