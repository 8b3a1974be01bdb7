#include "ThreadPool.h"

#include <algorithm>
#include <cstdlib>
#include <exception>

namespace fwb {

struct ThreadPool::Job
{
    const std::function<void(int)> *fn = nullptr;
    int size = 0;
    int maxHelpers = 0;
    // Guarded by the pool's mutex:
    int next = 0;     // the next part to hand out
    int finished = 0; // parts ended (run, thrown or skipped)
    int helpers = 0;  // helper threads working on it now
    std::exception_ptr error;
};

ThreadPool::ThreadPool(int threads)
{
    if (threads <= 0)
        threads = int(std::max(1u, std::thread::hardware_concurrency()));
    threads = std::min(threads, 256);
    m_workers.reserve(std::size_t(threads - 1));
    for (int i = 1; i < threads; ++i)
        m_workers.emplace_back([this] { worker(); });
}

ThreadPool::~ThreadPool()
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    for (std::thread &t : m_workers)
        t.join();
}

// Takes parts of `job` one at a time until none is left; called and returns with the lock held.
void ThreadPool::runParts(std::unique_lock<std::mutex> &lock, Job &job, std::condition_variable &done)
{
    while (job.next < job.size) {
        const int i = job.next++;
        const bool skip = bool(job.error);
        lock.unlock();
        std::exception_ptr thrown;
        if (!skip) {
            try {
                (*job.fn)(i);
            } catch (...) {
                thrown = std::current_exception();
            }
        }
        lock.lock();
        if (thrown && !job.error)
            job.error = thrown;
        if (++job.finished == job.size)
            done.notify_all();
    }
}

void ThreadPool::worker()
{
    std::unique_lock<std::mutex> lock(m_mutex);
    for (;;) {
        Job *job = nullptr;
        m_wake.wait(lock, [&] {
            if (m_stop)
                return true;
            for (Job *j : m_jobs)
                if (j->next < j->size && j->helpers < j->maxHelpers) {
                    job = j;
                    return true;
                }
            return false;
        });
        if (!job)
            return; // stopping, nothing to help with
        ++job->helpers;
        runParts(lock, *job, m_done);
        --job->helpers;
        // All its parts are handed out: no helper needs to find it any more (its caller may still wait).
        const auto it = std::find(m_jobs.begin(), m_jobs.end(), job);
        if (it != m_jobs.end())
            m_jobs.erase(it);
        if (job->finished == job->size)
            m_done.notify_all();
    }
}

void ThreadPool::parallelFor(int n, const std::function<void(int)> &fn, int maxParallel)
{
    if (n <= 0)
        return;
    const int helpers = std::min({int(m_workers.size()), n - 1, maxParallel > 0 ? maxParallel - 1 : n});
    if (helpers <= 0) {
        for (int i = 0; i < n; ++i)
            fn(i);
        return;
    }
    Job job;
    job.fn = &fn;
    job.size = n;
    job.maxHelpers = helpers;
    std::unique_lock<std::mutex> lock(m_mutex);
    m_jobs.push_back(&job);
    if (helpers >= int(m_workers.size()))
        m_wake.notify_all();
    else
        for (int i = 0; i < helpers; ++i)
            m_wake.notify_one();
    runParts(lock, job, m_done); // the caller works too
    const auto it = std::find(m_jobs.begin(), m_jobs.end(), &job);
    if (it != m_jobs.end())
        m_jobs.erase(it);
    // Every part is handed out; wait for those still running and for the helpers to let go of the job.
    m_done.wait(lock, [&] { return job.finished == job.size && job.helpers == 0; });
    if (job.error)
        std::rethrow_exception(job.error);
}

void ThreadPool::parallelRanges(long long count, const std::function<void(long long, long long)> &body,
                                int maxParallel, long long minChunk, int chunksPerThread)
{
    if (count <= 0)
        return;
    const int parallel = std::max(1, maxParallel > 0 ? std::min(maxParallel, threads()) : threads());
    const long long byMin = std::max(1LL, count / std::max(1LL, minChunk));
    const int chunks = int(std::min<long long>(byMin, (long long)parallel * std::max(1, chunksPerThread)));
    if (chunks <= 1 || parallel == 1) {
        body(0, count);
        return;
    }
    parallelFor(
        chunks,
        [&](int c) {
            const long long begin = count * c / chunks, end = count * (c + 1) / chunks;
            if (end > begin)
                body(begin, end);
        },
        parallel);
}

ThreadPool &hostThreadPool()
{
    static ThreadPool pool([] {
        if (const char *env = std::getenv("FWB_CPU_THREADS")) {
            const int n = std::atoi(env);
            if (n > 0)
                return n;
        }
        return 0;
    }());
    return pool;
}

} // namespace fwb
