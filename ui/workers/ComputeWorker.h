// ComputeWorker: the thread that owns the window's OpenCL Session for single runs (a SessionWorker: Qt's
// Mandelbrot pattern); requests go in and results come out as values, so widgets never touch OpenCL and
// never wait for it.
#pragma once

#include "Devices.h"
#include "Image.h"
#include "Session.h"
#include "SessionWorker.h"

#include <QImage>
#include <QMetaType>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

namespace fwb {

// Which engine runs a request: an OpenCL device, or the CPU reference code itself.
struct ComputeEngine
{
    enum Kind { OpenCl, CpuSingle, CpuMulti };
    Kind kind = OpenCl;
    DeviceInfo device; // only for OpenCl

    bool isCpu() const { return kind != OpenCl; }
    QString label() const;
};

// One run request, copied into the worker under its mutex.
struct ComputeRequest
{
    quint64 id = 0;
    ComputeEngine engine;
    std::shared_ptr<const Image> input; // shared, never mutated: copying the request stays cheap
    RunRequest run;
    // Deliver the first launch's picture, checked, as firstPicture() before the timed repeats and the CPU
    // timings end (the window: its first result after launch waited seconds for timings).
    bool earlyPicture = false;
};

// One finished (or failed, or cancelled) run, as a value for the GUI thread.
struct ComputeResult
{
    quint64 id = 0;
    ComputeEngine engine;
    RunRequest request;
    RunResult run;            // timings and error; run.output is moved into outputImage
    std::shared_ptr<const Image> outputImage; // shared: copying a result never copies pixels
    QImage output;            // display copy of the output
    // The input as the kernel read it (converted to the run's pixel format), for display next to
    // the output; null when the input already had that format. Made here, off the GUI thread.
    QImage convertedInput;
    QImage heatMap;           // |output - CPU reference| as colours, null when not computed
    // The heat map max-pooled by 2, 4, 8, ...: a view zoomed out draws one of these, so that a
    // single differing pixel stays visible instead of being averaged into black.
    std::vector<QImage> heatMapLevels;
    int maxDiff = -1;         // versus the single-threaded CPU reference
    double meanDiff = 0;
    qint64 diffPixels = 0;    // pixels with any channel different from the reference
    double copyBandwidthGBps = 0; // device copy bandwidth, 0 when unknown
    // Not measured yet in this process: the worker measures it after this result (2 s on PoCL, which the
    // first result after launch no longer waits for) and sends copyBandwidthMeasured(id, GB/s).
    bool copyBandwidthPending = false;
    // Pinned transfers: the worker ran the session on a page-locked copy of the image (no staging
    // memcpy). pageLockedCopyMs: what making that copy cost, once per image, device and format, before
    // and outside the timed run; -1 when this run reused the copy or had none.
    bool pageLockedInput = false;
    double pageLockedCopyMs = -1;
    // firstPicture()'s result: the first launch's picture and its check, the build and the launch shape;
    // no timings (they are zero) and no CPU times until runFinished() brings the whole result.
    bool timingPending = false;
    bool superseded = false;  // a newer request replaced this one before it finished
    bool sessionReset = false; // the session was dropped (device-lost style error)
};

class ComputeWorker : public SessionWorker
{
    Q_OBJECT

public:
    explicit ComputeWorker(QObject *parent = nullptr);
    ~ComputeWorker() override;

    // Queues a run; a run already waiting is replaced (coalescing), a run in progress is cancelled.
    void submit(const ComputeRequest &request);
    // Asks the worker whether the request's work-group shape would launch (builds the program
    // if needed); the answer arrives as launchChecked().
    void checkLaunch(const ComputeRequest &request);
    // Cancels the run in progress and drops any waiting one.
    void cancel();

    bool isBusy() const;
    // Number of requests the worker has started executing (tests: "launches nothing").
    int startedCount() const { return m_started.load(); }

signals:
    void runStarted(quint64 id);
    // A request with earlyPicture: its first launch's output, checked, while its repeats run (timingPending).
    // Not sent for tiled runs, runs in the helper process, the CPU engines or a run already cancelled.
    void firstPicture(const fwb::ComputeResult &preview);
    void runFinished(const fwb::ComputeResult &result);
    // A result sent with copyBandwidthPending: the device's copy bandwidth, measured after it.
    void copyBandwidthMeasured(quint64 id, double gbps);
    // checkMs: how long the check took on the worker, building or loading the program included.
    void launchChecked(quint64 id, const QString &problem, double checkMs);

private:
    void runJob(const ComputeRequest &request); // worker thread
    ComputeResult execute(const ComputeRequest &request);
    ComputeResult executeOnCpu(const ComputeRequest &request);
    ComputeResult executeInHelper(const ComputeRequest &request, const std::string &userVariant);
    QString doCheck(const ComputeRequest &request);
    bool ensureSession(const DeviceInfo &device, QString *error);
    const Image &pageLockedInput(const ComputeRequest &request, ComputeResult &result);
    void sessionClosing() override { m_pageLocked.reset(); } // its memory is the session's page-locked block

    std::atomic<int> m_started{0};

    // Touched only by the worker thread.
    // --transfer pinned: the request's image copied once into page-locked memory of this session
    // (Session::pinnedImage) in the run's pixel format, so the copies DMA straight from it. Made before
    // the timed run, dropped when the image, device, format or transfer mode changes (and before the
    // session goes: the session only recognises its own page-locked blocks).
    struct PageLocked
    {
        std::weak_ptr<const Image> source; // requests share the image and never mutate it
        std::string deviceSpec;
        PixelFormat format = PixelFormat::Gray8;
        Image image;       // null when page-locked memory could not be had
        std::string error; // why not: the run stages through pinned buffers instead
    };
    std::optional<PageLocked> m_pageLocked;
};

// Heat map of |a - b| (max over channels), black -> red -> yellow -> white; null on size mismatch.
// countOut: the number of pixels that differ at all.
QImage differenceHeatMap(const Image &a, const Image &b, int *maxOut, double *meanOut,
                         qint64 *countOut = nullptr);
// Halves the image again and again (each pixel the per-channel maximum of its 2x2 block) down to a
// few pixels: the levels a zoomed-out view draws so that isolated bright pixels never vanish.
std::vector<QImage> maxPooledLevels(const QImage &image);

} // namespace fwb

Q_DECLARE_METATYPE(fwb::ComputeResult)
