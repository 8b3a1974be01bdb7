// OpenCV as the baseline to beat: the same filter, parameters and border rule run by OpenCV's CPU
// code (all cores) and by its OpenCL path (T-API, on the session's own OpenCL context). Optional:
// without FWB_WITH_OPENCV every call says "unavailable" with the reason.
#pragma once

#include "Catalogue.h"
#include "Image.h"

#include <memory>
#include <string>
#include <vector>

namespace fwb {

enum class Baseline { OpenCvCpu, OpenCvTapi, Npp };
const char *baselineName(Baseline baseline); // "opencv_cpu", "opencv_tapi", "npp"

// "OpenCV 4.6.0" or empty when built without OpenCV.
std::string openCvVersion();

struct OpenCvRun
{
    bool unavailable = false; // OpenCV lacks this filter/format/border, or was not built in (reason in error)
    std::string error;
    Image output;
    std::vector<double> opMs;  // wall time of each timed call (T-API: up to cv::ocl::finish())
    double uploadMs = 0;       // T-API: host Mat -> UMat, median
    double downloadMs = 0;     // T-API: UMat -> host Mat, median
    std::string call;          // the OpenCV call(s), e.g. "cv::GaussianBlur(5x5, sigma 1, BORDER_REFLECT_101)"
    std::string deviceName;    // T-API: the OpenCL device OpenCV ran on
    int interiorMargin = 0;    // > 0: the library filters only the pixels this far from every edge
                               // (NPP's median); the check compares that interior
    int outputBytesPerValue = 1; // what the call writes per output byte of ours (NPP's Sobel: 2, 16-bit)
};

// The OpenCL objects of a session that OpenCV's T-API should use (cl_platform_id, cl_context, cl_device_id).
struct ClHandles
{
    void *platform = nullptr;
    void *context = nullptr;
    void *device = nullptr;
    std::string platformName;
};

// The window radius of the family's library call (FilterSpec::openCv, shared by the NPP row): fixed,
// from a parameter, or (Gaussian) 3 sigma.
int windowRadius(const FilterSpec &filter, const FilterParams &params);

// Empty when OpenCV has this filter with these parameters, border and format, else why not.
std::string openCvUnsupportedReason(const FilterSpec &filter, const FilterParams &params);

OpenCvRun runOpenCvCpu(const Image &src, const FilterSpec &filter, const FilterParams &params, int threads, int repeat,
                       int warmup);
// OpenCV's execution context on a session's OpenCL objects, made on the first T-API run that needs it
// and kept in `context` for the session's life: OpenCV caches its compiled programs there (and PoCL
// aborts when such a context is made and dropped per call, or dropped unused).
class OpenCvTapiContext;

OpenCvRun runOpenCvTapi(const Image &src, const FilterSpec &filter, const FilterParams &params, const ClHandles &cl,
                        std::shared_ptr<OpenCvTapiContext> &context, int repeat, int warmup);

} // namespace fwb
