// TileStream: the host side of streamed tiles. A small pool of host threads does the big memcpys
// (the user's image into page-locked staging, and the staging back into the output image) in
// parallel, so the copy of tile i+1 into pinned memory and of tile i-1 out of it run while the device
// copies and filters tile i. Qt-free, no OpenCL: Session drives the device side.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace fwb {

class HostCopyPool
{
public:
    // threads <= 0: $FWB_COPY_THREADS when set, else the hardware's threads (at most 8). The calling
    // thread works too, so a pool of N uses N - 1 helper threads.
    explicit HostCopyPool(int threads = 0);
    ~HostCopyPool();
    HostCopyPool(const HostCopyPool &) = delete;
    HostCopyPool &operator=(const HostCopyPool &) = delete;

    int threads() const { return m_threads; }

    // Copies `rows` rows of `rowBytes` from src (rows `srcPitch` apart) to dst (`dstPitch` apart),
    // split over the pool; blocks until done. Small copies (under ~1 MiB) stay on the caller.
    void copyRows(std::uint8_t *dst, std::size_t dstPitch, const std::uint8_t *src, std::size_t srcPitch,
                  std::size_t rowBytes, std::size_t rows);
    void copy(void *dst, const void *src, std::size_t bytes)
    {
        copyRows(static_cast<std::uint8_t *>(dst), bytes, static_cast<const std::uint8_t *>(src), bytes, bytes, 1);
    }

    // Runs fn(i) for every i in [0, n) on the pool and the caller; blocks until all are done. Callers on
    // other threads wait their turn.
    void parallelFor(int n, const std::function<void(int)> &fn);

private:
    void worker();

    int m_threads = 1;
    std::vector<std::thread> m_workers;
    std::mutex m_callMutex; // one job at a time (several sessions may share the pool)
    std::mutex m_mutex;
    std::condition_variable m_wake, m_done;
    const std::function<void(int)> *m_job = nullptr;
    int m_jobSize = 0, m_next = 0, m_finished = 0;
    std::uint64_t m_generation = 0;
    bool m_stop = false;
};

// The pool Session's streamed tiles and pinned staging share (created on first use, one per process).
HostCopyPool &hostCopyPool();

} // namespace fwb
