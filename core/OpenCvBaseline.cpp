// OpenCV baselines: maps each catalogue filter OpenCV also has to the equivalent OpenCV call with the
// same parameters and border rule, and times it on the CPU (cv::Mat) and through OpenCL (cv::UMat on
// the session's context). Built without OpenCV, every entry point reports "unavailable".
#include "OpenCvBaseline.h"

#include "Names.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <utility>

#ifdef FWB_HAVE_OPENCV
#include "ClConfig.h"

#include <opencv2/core.hpp>
#include <opencv2/core/ocl.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>
#endif

namespace fwb {

constexpr EnumName<Baseline> kBaselines[] = {
    {Baseline::OpenCvCpu, "opencv_cpu"},
    {Baseline::OpenCvTapi, "opencv_tapi"},
    {Baseline::Npp, "npp"},
};

const char *baselineName(Baseline baseline) { return nameIn(kBaselines, baseline); }

namespace {

// A row that does not run, and why.
OpenCvRun unavailableRun(std::string why)
{
    OpenCvRun run;
    run.unavailable = true;
    run.error = std::move(why);
    return run;
}

int intParam(const FilterSpec &filter, const FilterParams &params, const std::string &key)
{
    return int(std::lround(filter.param(params, key)));
}

} // namespace

// The window radius of the family's OpenCV call: fixed, from a parameter, or (GaussianBlur) 3 sigma.
int windowRadius(const FilterSpec &filter, const FilterParams &params)
{
    const OpenCvEquivalent &cv = filter.openCv;
    if (cv.fixedRadius > 0)
        return cv.fixedRadius;
    if (!cv.radiusParam.empty())
        return intParam(filter, params, cv.radiusParam);
    if (!cv.sigmaParam.empty())
        return std::max(1, int(std::ceil(3.0 * filter.param(params, cv.sigmaParam))));
    return 0;
}

std::string openCvUnsupportedReason(const FilterSpec &filter, const FilterParams &params)
{
    // The same answer for "which filters" with or without OpenCV built in, so runs list the same rows.
    if (filter.openCv.call == OpenCvEquivalent::Call::None)
        return "OpenCV has no equivalent of " + filter.name;
#ifndef FWB_HAVE_OPENCV
    (void)params;
    return "built without OpenCV (libopencv-dev not found at configure time, or FWB_WITH_OPENCV=OFF)";
#else
    return filter.openCv.unsupported ? filter.openCv.unsupported(params) : std::string();
#endif
}

#ifndef FWB_HAVE_OPENCV

std::string openCvVersion() { return {}; }

OpenCvRun runOpenCvCpu(const Image &, const FilterSpec &filter, const FilterParams &params, int, int, int)
{
    return unavailableRun(openCvUnsupportedReason(filter, params));
}

class OpenCvTapiContext
{};

OpenCvRun runOpenCvTapi(const Image &, const FilterSpec &filter, const FilterParams &params, const ClHandles &,
                        std::shared_ptr<OpenCvTapiContext> &, int, int)
{
    return runOpenCvCpu(Image(), filter, params, 0, 0, 0);
}

#else

std::string openCvVersion() { return "OpenCV " CV_VERSION; }

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

int cvBorder(BorderMode mode)
{
    switch (mode) {
    case BorderMode::Reflect101: return cv::BORDER_REFLECT_101;
    case BorderMode::Replicate: return cv::BORDER_REPLICATE;
    case BorderMode::Constant: return cv::BORDER_CONSTANT;
    }
    return cv::BORDER_REFLECT_101;
}

constexpr EnumName<BorderMode> kCvBorderNames[] = {
    {BorderMode::Reflect101, "BORDER_REFLECT_101"},
    {BorderMode::Replicate, "BORDER_REPLICATE"},
    {BorderMode::Constant, "BORDER_CONSTANT 0"},
};

const char *cvBorderName(BorderMode mode) { return nameIn(kCvBorderNames, mode); }

int cvType(PixelFormat format) { return CV_8UC(channelCount(format)); }

// One filter as OpenCV calls; InputArray/OutputArray take Mat and UMat alike, so the CPU and the
// T-API runs share it. Scratch arrays are the caller's so that repeats reuse their allocations.
template <class Array>
struct OpenCvFilter
{
    const FilterSpec &filter;
    const FilterParams &params;
    Array gx, gy, fx, fy, mag;

    using Call = OpenCvEquivalent::Call;

    std::string describe() const
    {
        const std::string border = cvBorderName(params.border);
        const int r = windowRadius(filter, params);
        char text[200];
        switch (filter.openCv.call) {
        case Call::GaussianBlur:
            std::snprintf(text, sizeof text, "cv::GaussianBlur(%dx%d, sigma %g, %s)", 2 * r + 1, 2 * r + 1,
                          filter.param(params, filter.openCv.sigmaParam), border.c_str());
            break;
        case Call::Blur:
            std::snprintf(text, sizeof text, "cv::blur(%dx%d, %s)", 2 * r + 1, 2 * r + 1, border.c_str());
            break;
        case Call::Sobel:
            std::snprintf(text, sizeof text, "%s", sobelOutput() == 2
                              ? "cv::Sobel x and y (CV_16S) + cv::magnitude (CV_32F) + convertTo(CV_8U, 1/4)"
                              : "cv::Sobel (CV_16S) + cv::convertScaleAbs(1/4)");
            if (params.format == PixelFormat::Rgba8888)
                std::snprintf(text + std::strlen(text), sizeof text - std::strlen(text), " + cv::mixChannels (alpha kept)");
            break;
        case Call::MedianBlur: std::snprintf(text, sizeof text, "cv::medianBlur(%d)", 2 * r + 1); break;
        case Call::Erode:
        case Call::Dilate:
            std::snprintf(text, sizeof text, "cv::%s(MORPH_RECT %dx%d, %s)",
                          filter.openCv.call == Call::Erode ? "erode" : "dilate", 2 * r + 1, 2 * r + 1, border.c_str());
            break;
        case Call::Transpose: std::snprintf(text, sizeof text, "cv::transpose"); break;
        case Call::None: std::snprintf(text, sizeof text, "none"); break;
        }
        return text;
    }

    // 0 = |gx|, 1 = |gy|, 2 = magnitude; 3 and 4 (gx, gy as 16-bit numbers) compare as 0 and 1: OpenCV's
    // row converts its 16-bit result to our 8-bit picture (convertScaleAbs) inside the timed call.
    int sobelOutput() const
    {
        const int output = intParam(filter, params, filter.openCv.outputParam);
        return output >= 3 ? output - 3 : output;
    }

    void operator()(const Array &src, Array &dst)
    {
        const int border = cvBorder(params.border);
        const int r = windowRadius(filter, params);
        switch (filter.openCv.call) {
        case Call::GaussianBlur: {
            const double sigma = filter.param(params, filter.openCv.sigmaParam);
            cv::GaussianBlur(src, dst, cv::Size(2 * r + 1, 2 * r + 1), sigma, sigma, border);
            break;
        }
        case Call::Blur: cv::blur(src, dst, cv::Size(2 * r + 1, 2 * r + 1), cv::Point(-1, -1), border); break;
        case Call::Sobel: {
            const int output = sobelOutput();
            if (output == 2) {
                cv::Sobel(src, gx, CV_16S, 1, 0, 3, 1, 0, border);
                cv::Sobel(src, gy, CV_16S, 0, 1, 3, 1, 0, border);
                gx.convertTo(fx, CV_32F);
                gy.convertTo(fy, CV_32F);
                cv::magnitude(fx.reshape(1), fy.reshape(1), mag);
                mag.reshape(src.channels()).convertTo(dst, CV_8U, 0.25);
            } else {
                cv::Sobel(src, gx, CV_16S, output == 0 ? 1 : 0, output == 0 ? 0 : 1, 3, 1, 0, border);
                cv::convertScaleAbs(gx, dst, 0.25);
            }
            if (src.channels() == 4) { // alpha passes through, as in our reference and kernels
                const int alphaToAlpha[] = {3, 3};
                cv::mixChannels(src, dst, alphaToAlpha, 1);
            }
            break;
        }
        case Call::MedianBlur: cv::medianBlur(src, dst, 2 * r + 1); break;
        case Call::Erode:
        case Call::Dilate: {
            const cv::Mat element = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(2 * r + 1, 2 * r + 1));
            if (filter.openCv.call == Call::Erode)
                cv::erode(src, dst, element, cv::Point(-1, -1), 1, border, cv::Scalar::all(0));
            else
                cv::dilate(src, dst, element, cv::Point(-1, -1), 1, border, cv::Scalar::all(0));
            break;
        }
        case Call::Transpose: cv::transpose(src, dst); break;
        case Call::None: break; // refused before (openCvUnsupportedReason)
        }
    }
};

cv::Mat wrap(const Image &image)
{
    return cv::Mat(image.height(), image.width(), cvType(image.format()), const_cast<std::uint8_t *>(image.data()),
                   image.stride());
}

Image copyOut(const cv::Mat &mat, PixelFormat format)
{
    Image out(mat.cols, mat.rows, format);
    for (int y = 0; y < mat.rows; ++y)
        std::copy_n(mat.ptr<std::uint8_t>(y), out.stride(), out.row(y));
    return out;
}

} // namespace

OpenCvRun runOpenCvCpu(const Image &src, const FilterSpec &filter, const FilterParams &params, int threads, int repeat,
                       int warmup)
{
    if (std::string why = openCvUnsupportedReason(filter, params); !why.empty())
        return unavailableRun(why);
    OpenCvRun run;
    try {
        const int previousThreads = cv::getNumThreads();
        const bool previousOcl = cv::ocl::useOpenCL();
        cv::ocl::setUseOpenCL(false); // a Mat never takes the OpenCL path, but be explicit
        if (threads > 0)
            cv::setNumThreads(threads);
        OpenCvFilter<cv::Mat> op{filter, params, {}, {}, {}, {}, {}};
        run.call = op.describe();
        const cv::Mat in = wrap(src);
        cv::Mat out;
        const int total = std::max(0, warmup) + std::max(1, repeat);
        for (int i = 0; i < total; ++i) {
            const auto t0 = Clock::now();
            op(in, out);
            if (i >= std::max(0, warmup))
                run.opMs.push_back(msSince(t0));
        }
        run.output = copyOut(out, src.format());
        cv::setNumThreads(previousThreads);
        cv::ocl::setUseOpenCL(previousOcl);
    } catch (const cv::Exception &e) {
        run.error = std::string("OpenCV failed: ") + e.what();
    }
    return run;
}

class OpenCvTapiContext
{
public:
    cv::ocl::OpenCLExecutionContext context;
};

namespace {

std::shared_ptr<OpenCvTapiContext> makeOpenCvTapiContext(const ClHandles &cl)
{
    auto state = std::make_shared<OpenCvTapiContext>();
    // OpenCV on the session's own context and device, with a queue of its own: the same device our
    // kernels ran on, not whatever OpenCV would pick by itself.
    // create() takes ownership of one reference of the context and of the device (ocl.hpp: "the caller
    // should additionally call clRetainContext and/or clRetainDevice ... if it wishes to continue using
    // them"). Without these two retains the session's context was released twice: PoCL aborted with
    // "PTHREAD ERROR in POclReleaseContext" when a window closed after an OpenCV T-API row.
    clRetainContext(static_cast<cl_context>(cl.context));
    clRetainDevice(static_cast<cl_device_id>(cl.device));
    try {
        state->context = cv::ocl::OpenCLExecutionContext::create(cl.platformName, cl.platform, cl.context, cl.device);
    } catch (...) {
        // Ownership passes only on success.
        clReleaseDevice(static_cast<cl_device_id>(cl.device));
        clReleaseContext(static_cast<cl_context>(cl.context));
        throw;
    }
    return state;
}

} // namespace

OpenCvRun runOpenCvTapi(const Image &src, const FilterSpec &filter, const FilterParams &params, const ClHandles &cl,
                        std::shared_ptr<OpenCvTapiContext> &state, int repeat, int warmup)
{
    if (std::string why = openCvUnsupportedReason(filter, params); !why.empty())
        return unavailableRun(why);
    OpenCvRun run;
    try {
        if (!cv::ocl::haveOpenCL())
            return unavailableRun("OpenCV reports no OpenCL support (cv::ocl::haveOpenCL() is false)");
        if (!state)
            state = makeOpenCvTapiContext(cl);
        cv::ocl::OpenCLExecutionContextScope scope(state->context);
        cv::ocl::setUseOpenCL(true);
        run.deviceName = cv::ocl::Device::getDefault().name();
        OpenCvFilter<cv::UMat> op{filter, params, {}, {}, {}, {}, {}};
        run.call = op.describe();
        const cv::Mat in = wrap(src);
        cv::UMat uin, uout;
        cv::Mat out;
        std::vector<double> uploads, downloads;
        const int total = std::max(0, warmup) + std::max(1, repeat);
        for (int i = 0; i < total; ++i) {
            const bool timed = i >= std::max(0, warmup);
            auto t0 = Clock::now();
            in.copyTo(uin);
            cv::ocl::finish();
            if (timed)
                uploads.push_back(msSince(t0));
            t0 = Clock::now();
            op(uin, uout);
            cv::ocl::finish();
            if (timed)
                run.opMs.push_back(msSince(t0));
            t0 = Clock::now();
            uout.copyTo(out);
            if (timed)
                downloads.push_back(msSince(t0));
        }
        run.uploadMs = median(uploads);
        run.downloadMs = median(downloads);
        run.output = copyOut(out, src.format());
    } catch (const cv::Exception &e) {
        run.error = std::string("OpenCV T-API failed: ") + e.what();
    }
    return run;
}

#endif

} // namespace fwb
