// TileStream: the host side of streamed tiles. Host threads (hostThreadPool(), ThreadPool.h) do the big memcpys
// (the user's image into page-locked staging, and the staging back into the output image) in
// parallel, so the copy of tile i+1 into pinned memory and of tile i-1 out of it run while the device
// copies and filters tile i. Qt-free, no OpenCL: Session drives the device side.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

namespace fwb {

class HostCopyPool
{
public:
    // threads <= 0: $FWB_COPY_THREADS when set, else the hardware's threads (at most 8). It owns no
    // threads: its jobs run on hostThreadPool() with at most `threads` threads at once (caller included).
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

    // Runs fn(i) for every i in [0, n) on the pool and the caller; blocks until all are done.
    void parallelFor(int n, const std::function<void(int)> &fn);

private:
    int m_threads = 1;
};

// The pool Session's streamed tiles and pinned staging share (created on first use, one per process).
HostCopyPool &hostCopyPool();

} // namespace fwb
