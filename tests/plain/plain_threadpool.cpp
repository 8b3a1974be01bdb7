// The one host thread pool (core/ThreadPool): every part runs exactly once, on at most maxParallel
// threads at once; the first exception reaches the caller and the pool stays usable; jobs started from
// inside a part and jobs from several caller threads at once finish (no deadlock); parallelRows covers
// every row once in contiguous strips; a pool ends cleanly with work just done.
#include "Check.h"
#include "CpuReference.h"
#include "ThreadPool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace fwb;

namespace {

void everyPartOnce()
{
    ThreadPool pool(4);
    CHECK_EQ(pool.threads(), 4);
    for (int n : {0, 1, 2, 3, 7, 100, 1000}) {
        std::vector<std::atomic<int>> hits(std::size_t(n > 0 ? n : 1));
        pool.parallelFor(n, [&](int i) { ++hits[std::size_t(i)]; });
        int wrong = 0;
        for (int i = 0; i < n; ++i)
            wrong += hits[std::size_t(i)].load() != 1;
        CHECK_EQ(wrong, 0);
    }
}

void maxParallelHonoured()
{
    ThreadPool pool(4);
    for (int cap : {1, 2, 3}) {
        std::atomic<int> running{0}, peak{0};
        std::set<std::thread::id> ids;
        std::mutex idsMutex;
        pool.parallelFor(
            24,
            [&](int) {
                const int now = ++running;
                int seen = peak.load();
                while (now > seen && !peak.compare_exchange_weak(seen, now)) {
                }
                {
                    std::lock_guard<std::mutex> lock(idsMutex);
                    ids.insert(std::this_thread::get_id());
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
                --running;
            },
            cap);
        CHECK(peak.load() <= cap);
        CHECK(int(ids.size()) <= cap);
        if (cap == 1) // no helper at all: the caller ran every part
            CHECK(ids.size() == 1 && *ids.begin() == std::this_thread::get_id());
    }
}

void exceptionReachesCaller()
{
    ThreadPool pool(3);
    std::atomic<int> ran{0};
    CHECK_THROWS_WITH(pool.parallelFor(64,
                                       [&](int i) {
                                           ++ran;
                                           if (i == 5)
                                               throw std::runtime_error("part 5 failed");
                                       }),
                      "part 5 failed");
    CHECK(ran.load() >= 1 && ran.load() <= 64);
    // The pool is still whole afterwards.
    std::atomic<int> sum{0};
    pool.parallelFor(100, [&](int i) { sum += i; });
    CHECK_EQ(sum.load(), 4950);
}

void nestedAndConcurrentJobs()
{
    ThreadPool pool(3);
    std::atomic<long> total{0};
    // Parts that start jobs of their own, from four caller threads at once.
    std::vector<std::thread> callers;
    for (int c = 0; c < 4; ++c)
        callers.emplace_back([&] {
            pool.parallelFor(8, [&](int) { pool.parallelFor(16, [&](int j) { total += j; }); });
        });
    for (std::thread &t : callers)
        t.join();
    CHECK_EQ(total.load(), 4L * 8 * 120);
}

void rangesCoverOnce()
{
    ThreadPool pool(4);
    for (long long count : {1LL, 5LL, 33LL, 1000LL, 4481LL}) {
        std::vector<std::atomic<int>> hits(static_cast<std::size_t>(count));
        std::atomic<int> calls{0};
        pool.parallelRanges(
            count,
            [&](long long b, long long e) {
                ++calls;
                CHECK(b < e);
                for (long long i = b; i < e; ++i)
                    ++hits[std::size_t(i)];
            },
            0, 8, 4);
        int wrong = 0;
        for (auto &h : hits)
            wrong += h.load() != 1;
        CHECK_EQ(wrong, 0);
        CHECK(calls.load() <= 16);
        CHECK(calls.load() <= std::max(1LL, count / 8));
    }
}

// parallelRows on the process pool: every row once, strips contiguous, one call when threads == 1.
void parallelRowsCoversOnce()
{
    for (int threads : {1, 2, 5, 64})
        for (int height : {1, 7, 97, 4480}) {
            std::vector<std::atomic<int>> hits(static_cast<std::size_t>(height));
            std::atomic<int> calls{0};
            parallelRows(height, threads, [&](int y0, int y1) {
                ++calls;
                for (int y = y0; y < y1; ++y)
                    ++hits[std::size_t(y)];
            });
            int wrong = 0;
            for (auto &h : hits)
                wrong += h.load() != 1;
            CHECK_EQ(wrong, 0);
            if (threads == 1)
                CHECK_EQ(calls.load(), 1);
        }
    CHECK(hostThreadPool().threads() >= 1);
    CHECK(&hostThreadPool() == &hostThreadPool());
}

void cleanShutdown()
{
    for (int i = 0; i < 20; ++i) {
        ThreadPool pool(1 + i % 5);
        std::atomic<int> n{0};
        pool.parallelFor(10, [&](int) { ++n; });
        CHECK_EQ(n.load(), 10);
    } // each pool joins its helpers here
}

} // namespace

int main()
{
    everyPartOnce();
    maxParallelHonoured();
    exceptionReachesCaller();
    nestedAndConcurrentJobs();
    rangesCoverOnce();
    parallelRowsCoversOnce();
    cleanShutdown();
    return fwb::plain::finish("plain_threadpool");
}
