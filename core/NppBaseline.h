// NVIDIA's image library NPP (CUDA toolkit) as a baseline row `npp`: the same filter the family's
// library equivalent names (FilterSpec::openCv: Gaussian, box, erode/dilate, Sobel, median,
// transpose), on the NVIDIA GPU that is the session's OpenCL device, uploaded once and timed with
// CUDA events as our kernels are timed with profiling events. Optional: without FWB_WITH_NPP (or
// without the CUDA toolkit at configure time) every call says "unavailable" with the reason.
#pragma once

#include "OpenCvBaseline.h"

#include <string>

namespace fwb {

// "NPP 13.0.1" or empty when built without NPP.
std::string nppVersion();

// Which GPU NPP should run on: the session's OpenCL device, matched by PCI address.
struct NppTarget
{
    bool nvidia = false; // the OpenCL device is an NVIDIA GPU (else NPP cannot run "on the same device")
    int pciBus = -1;     // CL_DEVICE_PCI_BUS_ID_NV / CL_DEVICE_PCI_SLOT_ID_NV; -1: unknown (then CUDA device 0)
    int pciSlot = -1;
    std::string deviceName;
};

// Empty when NPP has this filter with these parameters, border and format, else why not.
std::string nppUnsupportedReason(const FilterSpec &filter, const FilterParams &params);

// flushCache: before every call (warm-ups too) a scratch buffer of RunRequest::flushBytesFor the GPU's L2
// is written, as RunRequest::flushCache does for our kernels.
OpenCvRun runNpp(const Image &src, const FilterSpec &filter, const FilterParams &params, const NppTarget &target,
                 int repeat, int warmup, bool flushCache = false);

} // namespace fwb
