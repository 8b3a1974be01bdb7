// Transfer modes: names, and why a mode does not apply to a device or variant.
#include "runtime/SessionImpl.h"

#include "Names.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
#include <new>
#include <set>
#include <thread>

namespace fwb {

using namespace runtime;

constexpr EnumName<TransferMode> kTransferModes[] = {
    {TransferMode::Pageable, "pageable"},
    {TransferMode::Pinned, "pinned"},
    {TransferMode::ZeroCopy, "zero_copy"},
    {TransferMode::OutputMapped, "output_mapped"},
    {TransferMode::Svm, "svm"},
};

const char *transferModeName(TransferMode mode) { return nameIn(kTransferModes, mode); }

TransferMode fastestTransferFor(const DeviceInfo &device)
{
    return device.isDiscreteGpu() ? TransferMode::Pinned : TransferMode::Pageable;
}

std::optional<TransferMode> parseTransferMode(const std::string &name) { return valueIn(kTransferModes, name); }

const std::vector<TransferMode> &allTransferModes()
{
    static const std::vector<TransferMode> modes = valuesIn(kTransferModes);
    return modes;
}

std::string Session::transferUnavailableReason(TransferMode mode, const VariantSpec *variant, std::string *note)
{
    const bool images = variant && variant->usesImages;
    std::string what;
    std::string why;
    switch (mode) {
    case TransferMode::Pageable:
        what = "copies straight from and to the image in ordinary (pageable) memory";
        break;
    case TransferMode::Pinned:
        what = "copies through page-locked staging buffers (CL_MEM_ALLOC_HOST_PTR, mapped once)";
        break;
    case TransferMode::ZeroCopy:
    case TransferMode::OutputMapped:
        what = mode == TransferMode::ZeroCopy
                   ? std::string("the kernel reads and writes host-visible CL_MEM_ALLOC_HOST_PTR buffers, mapped")
                         + (d->info.hostUnifiedMemory ? " (this device shares host memory: nothing moves)" : "")
                   : std::string("input copied from pageable memory; output written into a host-visible buffer, mapped");
        if (images)
            why = std::string(transferModeName(mode)) + " does not apply to image2d variants: an image object lives in "
                  "the device's own texture layout, which the host cannot map in place without a copy "
                  "(use pageable or pinned)";
        break;
    case TransferMode::Svm: {
        const cl_device_svm_capabilities caps = d->svmCaps();
        if (images)
            why = "svm does not apply to image2d variants: image objects cannot live in shared virtual memory "
                  "(use pageable or pinned)";
        else if (!(caps & (CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER)))
            why = "svm is unavailable: the device (" + d->info.openclVersion + ") reports no CL_DEVICE_SVM_CAPABILITIES; "
                  "it lacks CL_DEVICE_SVM_COARSE_GRAIN_BUFFER";
        what = caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER
                   ? "fine-grain buffer SVM (clSVMAlloc; the host memcpy needs no map)"
                   : "coarse-grain buffer SVM (clSVMAlloc; map and unmap around the host memcpy)";
        break;
    }
    }
    if (note)
        *note = why.empty() ? what : why;
    return why;
}

} // namespace fwb
