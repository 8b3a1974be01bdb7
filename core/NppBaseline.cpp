// NPP baseline: maps the family's library equivalent (FilterSpec::openCv) to NPP's call with the same
// window and border rule, uploads the picture once into pitched device memory and times each call
// with CUDA events. Built without NPP, every entry point reports "unavailable".
#include "NppBaseline.h"

#include "Session.h"

#include <algorithm>
#include <optional>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <vector>

#ifdef FWB_HAVE_NPP
#include <cuda_runtime.h>
#include <npp.h>
#endif

namespace fwb {

namespace {

using Call = OpenCvEquivalent::Call;

int sobelOutput(const FilterSpec &filter, const FilterParams &params)
{
    return int(std::lround(filter.param(params, filter.openCv.outputParam)));
}

// Why NPP cannot do this call here, whether NPP is built in or not (runs list the same rows).
std::string callProblem(const FilterSpec &filter, const FilterParams &params)
{
    const Call call = filter.openCv.call;
    if (call == Call::None)
        return "NPP has no equivalent of " + filter.name;
    if (filter.hasBorder && call != Call::MedianBlur && call != Call::Transpose
        && params.border != BorderMode::Replicate)
        return std::string("NPP's border functions replicate the edge; run with --border replicate (this run: ")
               + borderModeName(params.border) + ")";
    if (call == Call::Sobel) {
        if (params.format != PixelFormat::Gray8)
            return "NPP's 16-bit Sobel is single-channel (gray8 only)";
        if (sobelOutput(filter, params) == 2)
            return "NPP has no Sobel magnitude; output=3 (gx, 16-bit, NPP's own output) or 0 (|gx|, 8-bit) compares "
                   "with NPP's 16-bit Sobel";
    }
    if (call == Call::GaussianBlur && windowRadius(filter, params) > 15)
        return "NPP's Gaussian takes at most 31 taps";
    return {};
}

} // namespace

std::string nppUnsupportedReason(const FilterSpec &filter, const FilterParams &params)
{
    if (filter.openCv.call == Call::None)
        return callProblem(filter, params);
#ifndef FWB_HAVE_NPP
    return "built without NPP (the CUDA toolkit with NPP was not found at configure time, or FWB_WITH_NPP=OFF)";
#else
    return callProblem(filter, params);
#endif
}

#ifndef FWB_HAVE_NPP

std::string nppVersion() { return {}; }

OpenCvRun runNpp(const Image &, const FilterSpec &filter, const FilterParams &params, const NppTarget &, int, int, bool)
{
    OpenCvRun run;
    run.unavailable = true;
    run.error = nppUnsupportedReason(filter, params);
    return run;
}

#else

std::string nppVersion()
{
    const NppLibraryVersion *v = nppGetLibVersion();
    return v ? "NPP " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->build)
             : std::string("NPP");
}

namespace {

struct CudaError : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

void cudaCheck(cudaError_t status, const char *what)
{
    if (status != cudaSuccess)
        throw CudaError(std::string(what) + ": " + cudaGetErrorString(status));
}

void nppCheck(NppStatus status, const char *what)
{
    if (status < 0)
        throw CudaError(std::string(what) + " failed (NppStatus " + std::to_string(int(status)) + ")");
}

// Pitched device memory, freed on every path.
struct DeviceImage
{
    void *data = nullptr;
    std::size_t pitch = 0;
    DeviceImage(std::size_t widthBytes, int height)
    {
        cudaCheck(cudaMallocPitch(&data, &pitch, std::max<std::size_t>(1, widthBytes), std::size_t(height)),
                  "cudaMallocPitch");
    }
    ~DeviceImage() { cudaFree(data); }
    DeviceImage(const DeviceImage &) = delete;
    DeviceImage &operator=(const DeviceImage &) = delete;
    Npp8u *bytes() const { return static_cast<Npp8u *>(data); }
    int step() const { return int(pitch); }
};

struct DeviceBuffer
{
    void *data = nullptr;
    explicit DeviceBuffer(std::size_t bytes) { cudaCheck(cudaMalloc(&data, std::max<std::size_t>(1, bytes)), "cudaMalloc"); }
    ~DeviceBuffer() { cudaFree(data); }
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;
};

struct Events
{
    cudaEvent_t start = nullptr, stop = nullptr;
    Events()
    {
        cudaCheck(cudaEventCreate(&start), "cudaEventCreate");
        cudaCheck(cudaEventCreate(&stop), "cudaEventCreate");
    }
    ~Events()
    {
        cudaEventDestroy(start);
        cudaEventDestroy(stop);
    }
    template <class F>
    double time(cudaStream_t stream, F &&f)
    {
        cudaCheck(cudaEventRecord(start, stream), "cudaEventRecord");
        f();
        cudaCheck(cudaEventRecord(stop, stream), "cudaEventRecord");
        cudaCheck(cudaEventSynchronize(stop), "cudaEventSynchronize");
        float ms = 0;
        cudaCheck(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
        return double(ms);
    }
};

int cudaDeviceFor(const NppTarget &target)
{
    if (target.pciBus < 0)
        return 0;
    char id[32];
    std::snprintf(id, sizeof id, "0000:%02x:%02x.0", target.pciBus, target.pciSlot);
    int device = 0;
    if (cudaDeviceGetByPCIBusId(&device, id) != cudaSuccess)
        throw CudaError(std::string("no CUDA device at PCI address ") + id + " (the OpenCL device " + target.deviceName
                        + ")");
    return device;
}

NppStreamContext streamContext(int device, cudaStream_t stream)
{
    NppStreamContext ctx{};
    ctx.hStream = stream;
    ctx.nCudaDeviceId = device;
    auto attr = [&](cudaDeviceAttr a) {
        int v = 0;
        cudaCheck(cudaDeviceGetAttribute(&v, a, device), "cudaDeviceGetAttribute");
        return v;
    };
    ctx.nMultiProcessorCount = attr(cudaDevAttrMultiProcessorCount);
    ctx.nMaxThreadsPerMultiProcessor = attr(cudaDevAttrMaxThreadsPerMultiProcessor);
    ctx.nMaxThreadsPerBlock = attr(cudaDevAttrMaxThreadsPerBlock);
    ctx.nSharedMemPerBlock = std::size_t(attr(cudaDevAttrMaxSharedMemoryPerBlock));
    ctx.nCudaDevAttrComputeCapabilityMajor = attr(cudaDevAttrComputeCapabilityMajor);
    ctx.nCudaDevAttrComputeCapabilityMinor = attr(cudaDevAttrComputeCapabilityMinor);
    cudaCheck(cudaStreamGetFlags(stream, &ctx.nStreamFlags), "cudaStreamGetFlags");
    return ctx;
}

std::vector<float> gaussianTaps(int radius, double sigma)
{
    std::vector<float> taps(std::size_t(2 * radius + 1));
    double sum = 0;
    for (int i = -radius; i <= radius; ++i)
        sum += std::exp(-double(i * i) / (2 * sigma * sigma));
    for (int i = -radius; i <= radius; ++i)
        taps[std::size_t(i + radius)] = float(std::exp(-double(i * i) / (2 * sigma * sigma)) / sum);
    return taps;
}

// One channel count's NPP entry points (C1R, C3R, C4R), so the call below is written once.
#define FWB_NPP_PICK(fn, ch) ((ch) == 1 ? fn##_8u_C1R_Ctx : (ch) == 3 ? fn##_8u_C3R_Ctx : fn##_8u_C4R_Ctx)

} // namespace

OpenCvRun runNpp(const Image &src, const FilterSpec &filter, const FilterParams &params, const NppTarget &target,
                 int repeat, int warmup, bool flushCache)
{
    OpenCvRun run;
    if (std::string why = callProblem(filter, params); !why.empty()) {
        run.unavailable = true;
        run.error = why;
        return run;
    }
    if (!target.nvidia) {
        run.unavailable = true;
        run.error = "NPP runs on NVIDIA GPUs; this run's device is " + target.deviceName;
        return run;
    }
    const Call call = filter.openCv.call;
    const int w = src.width(), h = src.height(), ch = src.channels();
    const int r = windowRadius(filter, params);
    const std::size_t rowBytes = std::size_t(w) * std::size_t(ch);
    try {
        const int device = cudaDeviceFor(target);
        cudaCheck(cudaSetDevice(device), "cudaSetDevice");
        cudaStream_t stream = nullptr;
        cudaCheck(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
        struct StreamGuard
        {
            cudaStream_t s;
            ~StreamGuard() { cudaStreamDestroy(s); }
        } streamGuard{stream};
        const NppStreamContext ctx = streamContext(device, stream);
        cudaDeviceProp prop{};
        cudaCheck(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
        run.deviceName = std::string(prop.name) + " (" + nppVersion() + ", CUDA)";

        const bool transposes = call == Call::Transpose;
        const bool sobel = call == Call::Sobel;
        const int outW = transposes ? h : w, outH = transposes ? w : h;
        DeviceImage in(rowBytes, h);
        DeviceImage out(sobel ? std::size_t(w) * 2 : std::size_t(outW) * std::size_t(ch), outH);
        Events events;
        std::vector<double> up, down;
        auto upload = [&] {
            cudaCheck(cudaMemcpy2DAsync(in.data, in.pitch, src.data(), src.stride(), rowBytes, std::size_t(h),
                                        cudaMemcpyHostToDevice, stream),
                      "upload");
        };
        up.push_back(events.time(stream, upload));

        const NppiSize size{w, h};
        const NppiPoint origin{0, 0};
        std::unique_ptr<DeviceBuffer> scratch; // the median's buffer, the Gaussian's taps, the erosion's mask
        std::string describe;
        const char *border = "replicate";
        std::function<void()> once;
        switch (call) {
        case Call::GaussianBlur: {
            const double sigma = filter.param(params, filter.openCv.sigmaParam);
            const std::vector<float> taps = gaussianTaps(r, sigma);
            scratch = std::make_unique<DeviceBuffer>(taps.size() * sizeof(float));
            cudaCheck(cudaMemcpy(scratch->data, taps.data(), taps.size() * sizeof(float), cudaMemcpyHostToDevice),
                      "taps upload");
            const auto fn = FWB_NPP_PICK(nppiFilterGaussAdvancedBorder, ch);
            const Npp32f *k = static_cast<const Npp32f *>(scratch->data);
            once = [&, fn, k, n = int(taps.size())] {
                nppCheck(fn(in.bytes(), in.step(), size, origin, out.bytes(), out.step(), size, n, k,
                            NPP_BORDER_REPLICATE, ctx),
                         "nppiFilterGaussAdvancedBorder");
            };
            char text[160];
            std::snprintf(text, sizeof text, "nppiFilterGaussAdvancedBorder(%d taps of sigma %g, %s)", 2 * r + 1,
                          sigma, border);
            describe = text;
            break;
        }
        case Call::Blur: {
            const auto fn = FWB_NPP_PICK(nppiFilterBoxBorder, ch);
            const NppiSize mask{2 * r + 1, 2 * r + 1};
            const NppiPoint anchor{r, r};
            once = [&, fn, mask, anchor] {
                nppCheck(fn(in.bytes(), in.step(), size, origin, out.bytes(), out.step(), size, mask, anchor,
                            NPP_BORDER_REPLICATE, ctx),
                         "nppiFilterBoxBorder");
            };
            describe = "nppiFilterBoxBorder(" + std::to_string(2 * r + 1) + "x" + std::to_string(2 * r + 1) + ", "
                       + border + ")";
            break;
        }
        case Call::Erode:
        case Call::Dilate: {
            const bool erode = call == Call::Erode;
            const std::string name = erode ? "Erode" : "Dilate";
            if (r == 1) {
                const auto fn = erode ? FWB_NPP_PICK(nppiErode3x3Border, ch) : FWB_NPP_PICK(nppiDilate3x3Border, ch);
                once = [&, fn] {
                    nppCheck(fn(in.bytes(), in.step(), size, origin, out.bytes(), out.step(), size,
                                NPP_BORDER_REPLICATE, ctx),
                             "nppi3x3Border morphology");
                };
                describe = "nppi" + name + "3x3Border(" + border + ")";
            } else {
                const int n = 2 * r + 1;
                std::vector<Npp8u> ones(std::size_t(n * n), 1);
                scratch = std::make_unique<DeviceBuffer>(ones.size());
                cudaCheck(cudaMemcpy(scratch->data, ones.data(), ones.size(), cudaMemcpyHostToDevice), "mask upload");
                const auto fn = erode ? FWB_NPP_PICK(nppiErodeBorder, ch) : FWB_NPP_PICK(nppiDilateBorder, ch);
                const Npp8u *mask = static_cast<const Npp8u *>(scratch->data);
                once = [&, fn, mask, n] {
                    nppCheck(fn(in.bytes(), in.step(), size, origin, out.bytes(), out.step(), size, mask,
                                NppiSize{n, n}, NppiPoint{r, r}, NPP_BORDER_REPLICATE, ctx),
                             "nppiBorder morphology");
                };
                describe = "nppi" + name + "Border(" + std::to_string(n) + "x" + std::to_string(n) + " of ones, "
                           + border + ")";
            }
            break;
        }
        case Call::Sobel: {
            const int output = sobelOutput(filter, params);
            const bool gx = output == 0 || output == 3; // |gx| (8-bit) or gx (16-bit); 1 and 4: gy
            const auto fn = gx ? nppiFilterSobelVertBorder_8u16s_C1R_Ctx : nppiFilterSobelHorizBorder_8u16s_C1R_Ctx;
            once = [&, fn] {
                nppCheck(fn(in.bytes(), in.step(), size, origin, reinterpret_cast<Npp16s *>(out.bytes()), out.step(),
                            size, NPP_MASK_SIZE_3_X_3, NPP_BORDER_REPLICATE, ctx),
                         "nppiFilterSobelBorder_8u16s");
            };
            describe = std::string(gx ? "nppiFilterSobelVertBorder" : "nppiFilterSobelHorizBorder")
                       + "_8u16s (16-bit signed output; |v|/4 rounded on the host to compare)";
            break;
        }
        case Call::MedianBlur: {
            // NPP's median reads the whole window and has no border rule: it filters the interior.
            if (w <= 2 * r || h <= 2 * r)
                throw CudaError("the picture is smaller than NPP's median window");
            const NppiSize roi{w - 2 * r, h - 2 * r};
            const NppiSize mask{2 * r + 1, 2 * r + 1};
            Npp32u bytes = 0;
            nppCheck(ch == 1   ? nppiFilterMedianGetBufferSize_8u_C1R_Ctx(roi, mask, &bytes, ctx)
                     : ch == 3 ? nppiFilterMedianGetBufferSize_8u_C3R_Ctx(roi, mask, &bytes, ctx)
                               : nppiFilterMedianGetBufferSize_8u_C4R_Ctx(roi, mask, &bytes, ctx),
                     "nppiFilterMedianGetBufferSize");
            scratch = std::make_unique<DeviceBuffer>(bytes);
            const auto fn = FWB_NPP_PICK(nppiFilterMedian, ch);
            Npp8u *buffer = static_cast<Npp8u *>(scratch->data);
            const std::size_t offset = std::size_t(r) * in.pitch + std::size_t(r) * std::size_t(ch);
            const std::size_t outOffset = std::size_t(r) * out.pitch + std::size_t(r) * std::size_t(ch);
            once = [&, fn, roi, mask, buffer, offset, outOffset] {
                nppCheck(fn(in.bytes() + offset, in.step(), out.bytes() + outOffset, out.step(), roi, mask,
                            NppiPoint{r, r}, buffer, ctx),
                         "nppiFilterMedian");
            };
            run.interiorMargin = r;
            describe = "nppiFilterMedian(" + std::to_string(2 * r + 1) + "x" + std::to_string(2 * r + 1)
                       + ", interior only: NPP has no border rule for the median)";
            break;
        }
        case Call::Transpose: {
            const auto fn = FWB_NPP_PICK(nppiTranspose, ch);
            once = [&, fn] { nppCheck(fn(in.bytes(), in.step(), out.bytes(), out.step(), size, ctx), "nppiTranspose"); };
            describe = "nppiTranspose";
            break;
        }
        case Call::None: break;
        }
        if (ch == 4 && call != Call::Transpose && call != Call::Sobel)
            describe += ", C4R: alpha filtered like a colour (the same as ours on opaque pictures)";
        run.call = describe;
        if (run.interiorMargin > 0) // the pixels NPP does not write: the input's (ours: the border rule's)
            cudaCheck(cudaMemcpy2D(out.data, out.pitch, in.data, in.pitch, rowBytes, std::size_t(h),
                                   cudaMemcpyDeviceToDevice),
                      "border copy");
        std::optional<DeviceBuffer> flushBuffer; // flushCache: written before every call, outside its events
        std::size_t flushBytes = 0;
        if (flushCache) {
            flushBytes = std::size_t(RunRequest::flushBytesFor(std::uint64_t(std::max(0, prop.l2CacheSize))));
            flushBuffer.emplace(flushBytes);
        }
        int flushes = 0;
        const auto flush = [&] {
            if (flushBuffer)
                cudaCheck(cudaMemsetAsync(flushBuffer->data, ++flushes & 255, flushBytes, stream), "cache flush");
        };
        for (int i = 0; i < warmup; ++i) {
            flush();
            once();
        }
        cudaCheck(cudaStreamSynchronize(stream), "warm-up");
        for (int i = 0; i < std::max(1, repeat); ++i) {
            flush();
            run.opMs.push_back(events.time(stream, once));
        }

        Image result(outW, outH, src.format());
        if (sobel) {
            run.outputBytesPerValue = 2;
            std::vector<std::int16_t> v(std::size_t(w) * std::size_t(h));
            down.push_back(events.time(stream, [&] {
                cudaCheck(cudaMemcpy2DAsync(v.data(), std::size_t(w) * 2, out.data, out.pitch, std::size_t(w) * 2,
                                            std::size_t(h), cudaMemcpyDeviceToHost, stream),
                          "download");
            }));
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < w; ++x)
                    result.row(y)[x] = std::uint8_t((std::abs(int(v[std::size_t(y) * std::size_t(w) + std::size_t(x)])) + 2) / 4);
        } else {
            down.push_back(events.time(stream, [&] {
                cudaCheck(cudaMemcpy2DAsync(result.data(), result.stride(), out.data, out.pitch,
                                            std::size_t(outW) * std::size_t(ch), std::size_t(outH),
                                            cudaMemcpyDeviceToHost, stream),
                          "download");
            }));
        }
        run.uploadMs = up.front();
        run.downloadMs = down.front();
        run.output = std::move(result);
    } catch (const std::exception &e) {
        run.error = std::string("NPP: ") + e.what();
    }
    return run;
}

#endif

} // namespace fwb
