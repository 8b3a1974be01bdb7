// Session: the facade over one device's runtime (core/runtime: context, queue, memory, launch plans,
// timing) and its runs (core/run: image, tiled, workload and baseline runs). This file opens and
// closes the session and hands out what callers share with it.
#include "runtime/SessionImpl.h"

#include "TileStream.h"

#include <algorithm>
#include <cstring>

namespace fwb {

using namespace runtime;

bool makesBlocks(const VariantSpec &variant)
{
    return std::any_of(variant.passes.begin(), variant.passes.end(),
                       [](const PassSpec &p) { return p.geometry == Geometry::Blocks; });
}

std::shared_ptr<const VariantSpec> withOutputBlock(const VariantSpec &variant, const LocalSize &block)
{
    auto changed = std::make_shared<VariantSpec>(variant);
    changed->blockWidth = block.width;
    changed->blockHeight = block.height;
    changed->blockHeightGpu = changed->blockHeightGpuRgba = 0;
    changed->blockBytesGpu = changed->blockBytesGpuRgba = changed->blockBytesCpu = 0;
    return changed;
}

Session::Session(const DeviceInfo &device, SessionOptions options)
    : d(std::make_unique<Impl>(device, std::move(options)))
{}

Session::~Session() = default;

const DeviceInfo &Session::device() const { return d->info; }

Image Session::pinnedImage(int width, int height, PixelFormat format)
{
    if (std::string problem = imageSizeProblem(width, height, channelCount(format)); !problem.empty())
        throw Error(problem);
    const std::size_t bytes = std::size_t(width) * std::size_t(height) * std::size_t(channelCount(format));
    try {
        std::shared_ptr<Impl::PinnedBlock> block = d->newPinnedBlock(bytes);
        hostCopyPool().parallelFor(8, [&](int i) { // zero pixels, touched on several threads
            const std::size_t begin = bytes * std::size_t(i) / 8, end = bytes * std::size_t(i + 1) / 8;
            std::memset(static_cast<std::uint8_t *>(block->ptr) + begin, 0, end - begin);
        });
        return Impl::adoptBlock(std::move(block), width, height, format);
    } catch (const cl::Error &e) {
        throw Error("cannot allocate " + mib(bytes) + " of page-locked host memory for a " + std::to_string(width) + "x"
                        + std::to_string(height) + " " + formatName(format) + " image: " + clErrorName(e.err()),
                    e.err());
    }
}

Session::NativeHandles Session::nativeHandles() const
{
    return {d->context(), d->device(), d->queue()};
}

} // namespace fwb
