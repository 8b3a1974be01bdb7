#include "TileStream.h"
#include "ThreadPool.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace fwb {

namespace {

int defaultThreads()
{
    if (const char *env = std::getenv("FWB_COPY_THREADS")) {
        const int n = std::atoi(env);
        if (n > 0)
            return std::min(n, 64);
    }
    // At most 8: on the H100 host (16 cores) 8 copy threads beat 16 (20000x15000 rgba tiles: 69 ms against 78
    // end to end), the driver's own threads and the DMA engines need the rest of the cores and memory bandwidth.
    return int(std::clamp(std::thread::hardware_concurrency(), 1u, 8u));
}

} // namespace

HostCopyPool::HostCopyPool(int threads) : m_threads(threads > 0 ? std::min(threads, 64) : defaultThreads()) {}

HostCopyPool::~HostCopyPool() = default;

void HostCopyPool::parallelFor(int n, const std::function<void(int)> &fn)
{
    hostThreadPool().parallelFor(n, fn, m_threads);
}

void HostCopyPool::copyRows(std::uint8_t *dst, std::size_t dstPitch, const std::uint8_t *src, std::size_t srcPitch,
                            std::size_t rowBytes, std::size_t rows)
{
    if (rows == 0 || rowBytes == 0)
        return;
    // Packed rows on both sides are one flat block: split it by bytes, not rows.
    if (rows > 1 && dstPitch == rowBytes && srcPitch == rowBytes) {
        rowBytes *= rows;
        dstPitch = srcPitch = rowBytes;
        rows = 1;
    }
    const std::size_t bytes = rowBytes * rows;
    constexpr std::size_t kMinPart = std::size_t(1) << 20; // below ~1 MiB a part costs more to hand out than to copy
    const int parts = int(std::min<std::size_t>(std::size_t(m_threads), std::max<std::size_t>(1, bytes / kMinPart)));
    if (parts <= 1) {
        for (std::size_t y = 0; y < rows; ++y)
            std::memcpy(dst + y * dstPitch, src + y * srcPitch, rowBytes);
        return;
    }
    if (rows == 1) { // one block: byte ranges, 64-byte aligned cuts
        const std::size_t step = ((bytes + std::size_t(parts) - 1) / std::size_t(parts) + 63) / 64 * 64;
        parallelFor(parts, [&](int i) {
            const std::size_t begin = std::min(bytes, std::size_t(i) * step), end = std::min(bytes, begin + step);
            if (end > begin)
                std::memcpy(dst + begin, src + begin, end - begin);
        });
        return;
    }
    const int rowParts = int(std::min<std::size_t>(std::size_t(parts), rows));
    parallelFor(rowParts, [&](int i) {
        const std::size_t begin = rows * std::size_t(i) / std::size_t(rowParts);
        const std::size_t end = rows * std::size_t(i + 1) / std::size_t(rowParts);
        for (std::size_t y = begin; y < end; ++y)
            std::memcpy(dst + y * dstPitch, src + y * srcPitch, rowBytes);
    });
}

HostCopyPool &hostCopyPool()
{
    static HostCopyPool pool;
    return pool;
}

} // namespace fwb
