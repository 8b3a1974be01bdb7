// ComputeWorker: its jobs (a run, a launch check) on its SessionWorker thread, and the CPU-reference engine.
#include "ComputeWorker.h"

#include "BenchWorker.h" // workbenchTuningDb()

#include "Catalogue.h"
#include "CopyBandwidth.h"
#include "Error.h"
#include "ImageFileIo.h"
#include "StartupTrace.h"
#include "TuningDb.h"
#include "UserVariants.h"
#include "WorkerProcess.h"

#include <QLoggingCategory>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

Q_LOGGING_CATEGORY(lcWorker, "fwb.worker")

namespace fwb {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Errors after which the context/queue cannot be trusted: start a fresh Session next time.
bool isDeviceLostStyle(const std::string &code)
{
    return code == "CL_DEVICE_NOT_AVAILABLE" || code == "CL_INVALID_COMMAND_QUEUE"
           || code == "CL_INVALID_CONTEXT" || code == "CL_OUT_OF_RESOURCES"
           || code == "CL_DEVICE_LOST" || code == "CL_CONTEXT_LOST";
}

// What the views show: the result as it is, alpha included. Every filter passes alpha through unchanged
// (issue 24, defect 1), and the views draw transparent pictures on a checkerboard: an opaque copy
// painted a transparent logo's background black, and its black text vanished (defect 7).
QImage displayImage(const Image &image)
{
    return qimageFromImage(image);
}

// The display copies of a result (picture, difference map, converted input) made from its output image.
void fillPictures(ComputeResult &result, const ComputeRequest &request, const Image &input, const Image &output,
                  const Image *reference)
{
    if (reference) {
        result.heatMap = differenceHeatMap(output, *reference, &result.maxDiff, &result.meanDiff, &result.diffPixels);
        result.heatMapLevels = maxPooledLevels(result.heatMap);
    }
    result.output = displayImage(output);
    if (request.input->format() != request.run.params.format)
        result.convertedInput = qimageFromImage(result.pageLockedInput ? input
                                                : request.input->convertedTo(request.run.params.format));
}

} // namespace

QString ComputeEngine::label() const
{
    switch (kind) {
    case CpuSingle: return QObject::tr("CPU reference (single thread)");
    case CpuMulti: return QObject::tr("CPU reference (multi-thread)");
    case OpenCl: break;
    }
    return QString::fromStdString(device.name);
}

ComputeWorker::ComputeWorker(QObject *parent) : SessionWorker(QThread::LowPriority, true, parent)
{
    qRegisterMetaType<fwb::ComputeResult>();
}

ComputeWorker::~ComputeWorker()
{
    stopThread(); // a run in progress stops at its next check point
}

void ComputeWorker::submit(const ComputeRequest &request)
{
    replaceJob([this, request] { runJob(request); });
}

void ComputeWorker::checkLaunch(const ComputeRequest &request)
{
    putQuickJob([this, request] {
        traceStartup("worker: first launch check (session, build)");
        const auto start = Clock::now();
        const QString problem = doCheck(request);
        onGuiThread([this, id = request.id, problem, ms = msSince(start)] { emit launchChecked(id, problem, ms); });
    });
}

void ComputeWorker::cancel()
{
    cancelJob(true);
}

bool ComputeWorker::isBusy() const
{
    return hasJob();
}

void ComputeWorker::runJob(const ComputeRequest &request)
{
    ++m_started;
    traceStartup("worker: first run started");
    onGuiThread([this, id = request.id] { emit runStarted(id); });
    ComputeResult result = execute(request);
    const JobEnd end = endJob();
    result.superseded = end.newerWaiting;
    if (end.stopping)
        return;
    const quint64 id = result.id;
    const bool probe = result.copyBandwidthPending;
    onGuiThread([this, result = std::move(result)] { emit runFinished(result); });
    // The copy probe after the result, not before it: once per device and process, skipped while a newer
    // run waits (its result will ask again).
    if (probe && !end.newerWaiting && !hasJob() && session()) {
        const double gbps = session()->copyBandwidthGBps();
        traceStartup("worker: copy bandwidth measured");
        onGuiThread([this, id, gbps] { emit copyBandwidthMeasured(id, gbps); });
    }
}

// The image the session runs on. --transfer pinned (in process): a page-locked copy in the run's pixel
// format, made here once per image, device and format, before and outside the timed run, so that the
// session's copies DMA straight from it and into a page-locked output (no staging memcpy). Anything
// else: the request's image, and the copy (if any) goes. Page-locked memory that cannot be had leaves
// the run staging through pinned buffers, with the reason in its transfer note.
const Image &ComputeWorker::pageLockedInput(const ComputeRequest &request, ComputeResult &result)
{
    const Image &input = *request.input;
    if (request.run.transfer != TransferMode::Pinned) {
        m_pageLocked.reset();
        return input;
    }
    const std::string spec = request.engine.device.spec();
    const PixelFormat format = request.run.params.format;
    const bool same = m_pageLocked && m_pageLocked->source.lock() == request.input
                      && m_pageLocked->deviceSpec == spec && m_pageLocked->format == format;
    if (!same) {
        m_pageLocked.reset(); // the old copy's memory goes before the new one is taken
        PageLocked copy;
        copy.source = request.input;
        copy.deviceSpec = spec;
        copy.format = format;
        const auto start = Clock::now();
        try {
            // Test hook (tst_gui_worker): FWB_TEST_NO_PAGE_LOCKED=1 refuses page-locked memory.
            if (qEnvironmentVariableIsSet("FWB_TEST_NO_PAGE_LOCKED"))
                throw Error("page-locked memory refused (FWB_TEST_NO_PAGE_LOCKED)");
            copy.image = session()->pinnedImage(input.width(), input.height(), format);
            input.convertInto(copy.image); // a plain copy when the formats match
            result.pageLockedCopyMs = msSince(start);
        } catch (const std::exception &e) {
            copy.image = Image();
            copy.error = e.what();
            qCWarning(lcWorker) << "no page-locked copy of the image:" << e.what();
        }
        m_pageLocked = std::move(copy);
    }
    if (m_pageLocked->image.isNull())
        return input;
    result.pageLockedInput = true;
    return m_pageLocked->image;
}

bool ComputeWorker::ensureSession(const DeviceInfo &device, QString *error)
{
    try {
        SessionOptions options;
        options.tunedLocal = TuningDb::lookup(workbenchTuningDb()); // the tuner's shapes for auto launches
        openSession(device, options);
        return true;
    } catch (const std::exception &e) {
        *error = QString::fromStdString(e.what());
        return false;
    }
}

// A user variant ("user:NAME") never runs in the window's process: the helper builds or runs it,
// stopped past the limit, exactly as filter-bench run --user-variant does.
static WorkerOutcome runUserVariant(const ComputeRequest &request, const std::string &name, bool buildOnly,
                                    const std::atomic<bool> *cancel)
{
    WorkerJob job;
    job.op = buildOnly ? WorkerJob::Op::Build : WorkerJob::Op::Run;
    job.deviceSpec = request.engine.device.spec();
    job.tuningDb = workbenchTuningDb()->path().string();
    job.request = request.run;
    job.request.variant = name;
    try {
        job.kernel = loadUserVariant(name);
    } catch (const std::exception &e) {
        WorkerOutcome out;
        out.result.filter = request.run.filter;
        out.result.variant = name;
        out.result.error = e.what();
        return out;
    }
    const Image &input = *request.input;
    job.input = buildOnly ? Image(input.width(), input.height(), input.format()) : input;
    WorkerOptions options;
    options.cancel = cancel;
    WorkerOutcome out = runInWorker(job, options);
    if (!buildOnly) // its CPU times as this window's other runs and races say them (CpuTimings.h)
        adoptHelperCpuFigures(out.result, job.request, input.width(), input.height());
    return out;
}

QString ComputeWorker::doCheck(const ComputeRequest &request)
{
    if (request.engine.isCpu())
        return {};
    if (const auto user = userVariantNameOf(request.run.variant)) {
        if (!request.input)
            return {};
        const WorkerOutcome out = runUserVariant(request, *user, true, nullptr);
        return QString::fromStdString(out.result.error);
    }
    QString error;
    if (!ensureSession(request.engine.device, &error))
        return error;
    const int w = request.input ? request.input->width() : 0;
    const int h = request.input ? request.input->height() : 0;
    return QString::fromStdString(session()->checkLaunch(request.run, w, h));
}

ComputeResult ComputeWorker::execute(const ComputeRequest &request)
{
    if (request.engine.isCpu()) {
        m_pageLocked.reset(); // another engine: the device's page-locked copy goes
        return executeOnCpu(request);
    }

    ComputeResult result;
    result.id = request.id;
    result.engine = request.engine;
    result.request = request.run;
    QString error;
    if (!request.input) {
        result.run.error = "no input image";
        return result;
    }
    if (const auto user = userVariantNameOf(request.run.variant)) {
        m_pageLocked.reset(); // the helper process stages through its own memory
        return executeInHelper(request, *user);
    }
    if (!ensureSession(request.engine.device, &error)) {
        result.run.error = error.toStdString();
        result.run.device = request.engine.device.name;
        return result;
    }
    const Image &input = pageLockedInput(request, result);
    Session::FirstOutput early;
    if (request.earlyPicture)
        early = [&](const Image &output, const Image &reference, const RunResult &sofar) {
            if (m_cancel.load())
                return; // a newer request or a cancel: this picture would be replaced at once
            ComputeResult preview;
            preview.id = request.id;
            preview.engine = request.engine;
            preview.request = request.run;
            preview.run = sofar;
            preview.timingPending = true;
            preview.pageLockedInput = result.pageLockedInput;
            fillPictures(preview, request, input, output, reference.isNull() ? nullptr : &reference);
            traceStartup("worker: first picture ready");
            onGuiThread([this, preview = std::move(preview)] { emit firstPicture(preview); });
        };
    result.run = session()->run(input, request.run, Session::OutputStorage(), &m_cancel, early);
    if (request.run.transfer == TransferMode::Pinned && m_pageLocked && !m_pageLocked->error.empty()
        && !result.run.unavailable)
        result.run.transferNote = "no page-locked copy of the image (" + m_pageLocked->error
                                  + "): staged through pinned buffers";
    if (result.run.ok() && !result.run.cancelled) {
        const double copyGBps = measuredCopyBandwidthGBps(session()->device()); // if not yet: after the result
        result.copyBandwidthGBps = std::max(0.0, copyGBps);
        result.copyBandwidthPending = copyGBps < 0;
        // Only for a checked run (the window's always are): its reference is cached inside the session, as
        // Session::run just computed it. An unchecked run (the lesson's live frames) skips the map.
        Image reference;
        if (const FilterSpec *filter = request.run.check ? findFilter(request.run.filter) : nullptr)
            // (`input`: the page-locked copy is already in the run's format, as the run's reference was.)
            reference = session()->cpuReference(input, *filter, request.run.params, 1, nullptr);
        fillPictures(result, request, input, result.run.output, reference.isNull() ? nullptr : &reference);
        // A page-locked output (the session's output block) is copied into ordinary memory, off the
        // clock: results live on in the window, and the block then serves the next run.
        result.outputImage = result.run.output.ownsStorage()
                                 ? std::make_shared<const Image>(std::move(result.run.output))
                                 : std::make_shared<const Image>(Image(result.run.output));
        result.run.output = Image();
    } else if (isDeviceLostStyle(result.run.errorCode)) {
        qCWarning(lcWorker) << "dropping the session after" << result.run.errorCode.c_str();
        closeSession();
        result.sessionReset = true;
    }
    return result;
}

ComputeResult ComputeWorker::executeInHelper(const ComputeRequest &request, const std::string &userVariant)
{
    ComputeResult result;
    result.id = request.id;
    result.engine = request.engine;
    result.request = request.run;
    WorkerOutcome outcome = runUserVariant(request, userVariant, false, &m_cancel);
    result.run = std::move(outcome.result);
    if (outcome.cancelled)
        result.run.cancelled = true;
    if (!result.run.ok() || result.run.output.isNull())
        return result;
    // The difference against the CPU reference (the oracle's bytes), here as for an in-process run.
    const Image &input = *request.input;
    const Image src = input.format() == request.run.params.format ? input : input.convertedTo(request.run.params.format);
    if (const FilterSpec *filter = findFilter(request.run.filter); filter && filter->cpuReference) {
        Image reference = filter->transposesOutput ? Image(src.height(), src.width(), src.format())
                                                   : Image(src.width(), src.height(), src.format());
        if (filter->copySourceToDst)
            reference = src;
        filter->oracleBytes(src, reference, request.run.params, int(std::max(1u, std::thread::hardware_concurrency())));
        result.heatMap = differenceHeatMap(result.run.output, reference, &result.maxDiff, &result.meanDiff,
                                           &result.diffPixels);
        result.heatMapLevels = maxPooledLevels(result.heatMap);
    }
    result.output = displayImage(result.run.output);
    result.outputImage = std::make_shared<const Image>(std::move(result.run.output));
    if (input.format() != src.format())
        result.convertedInput = qimageFromImage(src);
    result.run.output = Image();
    return result;
}

ComputeResult ComputeWorker::executeOnCpu(const ComputeRequest &request)
{
    ComputeResult result;
    result.id = request.id;
    result.engine = request.engine;
    result.request = request.run;
    RunResult &r = result.run;
    r.filter = request.run.filter;
    r.variant = request.run.variant;
    r.device = result.engine.label().toStdString();
    r.deviceSpec = request.engine.kind == ComputeEngine::CpuSingle ? "cpu-single" : "cpu-multi";
    r.local = request.run.local;
    r.reuploaded = false;
    r.buildOrigin = "none";
    const FilterSpec *filter = findFilter(request.run.filter);
    if (!filter || !request.input) {
        r.error = filter ? "no input image" : "unknown filter '" + request.run.filter + "'";
        return result;
    }
    r.tolerance = filter->tolerance;
    try {
        const Image &input = *request.input;
        const Image src = input.format() == request.run.params.format
                              ? input
                              : input.convertedTo(request.run.params.format);
        const int threads = request.engine.kind == ComputeEngine::CpuSingle
                                ? 1
                                : int(std::max(1u, std::thread::hardware_concurrency()));
        r.cpuThreads = threads;
        std::vector<double> samples;
        Image dst;
        const int repeats = std::clamp(request.run.repeat, 1, 3); // the CPU is slow; 3 is enough
        for (int i = 0; i < repeats; ++i) {
            if (m_cancel.load()) {
                r.cancelled = true;
                r.error = "run cancelled";
                return result;
            }
            dst = filter->transposesOutput ? Image(src.height(), src.width(), src.format())
                                           : Image(src.width(), src.height(), src.format());
            if (filter->copySourceToDst)
                dst = src;
            const auto start = Clock::now();
            filter->cpuReference(src, dst, request.run.params, threads);
            samples.push_back(msSince(start));
        }
        // A CPU measurement: into the CPU timing store, and its figure for the work is the time shown (the
        // race page's and every run's timing panel's CPU time too: CpuTimings.h).
        r.cpuWork = cpuWorkKey(*filter, request.run.params, src.width(), src.height());
        const CpuTiming t = cpuTimings().add(r.cpuWork, threads, threads == 1 ? CpuCode::Reference : CpuCode::Ours,
                                             samples);
        r.kernelMs = t.known() ? Stats{t.minMs, t.ms, t.maxMs} : Stats::of(samples);
        r.totalMs = r.kernelMs.median;
        const double pixels = double(src.width()) * double(src.height());
        r.bytesMoved = 2.0 * double(src.sizeBytes());
        if (r.kernelMs.median > 0) {
            r.mpixPerS = pixels / (r.kernelMs.median * 1e-3) / 1e6;
            r.gbps = r.bytesMoved / (r.kernelMs.median * 1e-3) / 1e9;
        }
        if (threads == 1)
            r.cpuSingleMs = r.kernelMs.median;
        else
            r.cpuMultiMs = r.kernelMs.median;
        r.checked = true;
        r.maxAbsDiff = 0;
        r.matches = true;
        result.maxDiff = 0;
        result.heatMap = differenceHeatMap(dst, dst, &result.maxDiff, &result.meanDiff, &result.diffPixels);
        result.heatMapLevels = maxPooledLevels(result.heatMap);
        result.output = displayImage(dst);
        result.outputImage = std::make_shared<const Image>(std::move(dst));
        if (input.format() != src.format())
            result.convertedInput = qimageFromImage(src);
    } catch (const std::exception &e) {
        r.error = e.what();
    }
    return result;
}

QImage differenceHeatMap(const Image &a, const Image &b, int *maxOut, double *meanOut, qint64 *countOut)
{
    if (a.isNull() || a.width() != b.width() || a.height() != b.height() || a.format() != b.format())
        return {};
    const int w = a.width(), h = a.height(), ch = a.channels();
    std::vector<std::uint8_t> diff(std::size_t(w) * std::size_t(h));
    int maxDiff = 0;
    double sum = 0;
    qint64 count = 0;
    for (int y = 0; y < h; ++y) {
        const std::uint8_t *ra = a.row(y);
        const std::uint8_t *rb = b.row(y);
        std::uint8_t *out = diff.data() + std::size_t(y) * std::size_t(w);
        for (int x = 0; x < w; ++x) {
            int d = 0;
            for (int c = 0; c < ch; ++c)
                d = std::max(d, std::abs(int(ra[x * ch + c]) - int(rb[x * ch + c])));
            out[x] = std::uint8_t(d);
            maxDiff = std::max(maxDiff, d);
            sum += d;
            count += d > 0 ? 1 : 0;
        }
    }
    if (maxOut)
        *maxOut = maxDiff;
    if (meanOut)
        *meanOut = sum / (double(w) * double(h));
    if (countOut)
        *countOut = count;
    // Scaled to the largest difference so that even a 1-level rounding difference is visible.
    QRgb palette[256];
    const double scale = maxDiff > 0 ? 1.0 / maxDiff : 0.0;
    for (int d = 0; d < 256; ++d) {
        const double t = std::min(1.0, d * scale);
        const int r = int(std::min(1.0, t * 3.0) * 255);
        const int g = int(std::clamp(t * 3.0 - 1.0, 0.0, 1.0) * 255);
        const int bl = int(std::clamp(t * 3.0 - 2.0, 0.0, 1.0) * 255);
        palette[d] = d == 0 ? qRgb(0, 0, 0) : qRgb(std::max(r, 60), g, bl);
    }
    QImage image(w, h, QImage::Format_RGB32);
    for (int y = 0; y < h; ++y) {
        const std::uint8_t *in = diff.data() + std::size_t(y) * std::size_t(w);
        QRgb *line = reinterpret_cast<QRgb *>(image.scanLine(y));
        for (int x = 0; x < w; ++x)
            line[x] = palette[in[x]];
    }
    return image;
}

std::vector<QImage> maxPooledLevels(const QImage &image)
{
    std::vector<QImage> levels;
    if (image.isNull())
        return levels;
    QImage previous = image.convertToFormat(QImage::Format_RGB32);
    // Down to about 64 pixels on the longer side: below that the view shows too little to matter.
    while (std::max(previous.width(), previous.height()) > 64) {
        const int w = (previous.width() + 1) / 2, h = (previous.height() + 1) / 2;
        QImage level(w, h, QImage::Format_RGB32);
        for (int y = 0; y < h; ++y) {
            const auto *row0 = reinterpret_cast<const QRgb *>(previous.constScanLine(2 * y));
            const auto *row1 = reinterpret_cast<const QRgb *>(
                previous.constScanLine(std::min(2 * y + 1, previous.height() - 1)));
            auto *out = reinterpret_cast<QRgb *>(level.scanLine(y));
            for (int x = 0; x < w; ++x) {
                const int x1 = std::min(2 * x + 1, previous.width() - 1);
                const QRgb p[4] = {row0[2 * x], row0[x1], row1[2 * x], row1[x1]};
                int r = 0, g = 0, b = 0;
                for (QRgb v : p) {
                    r = std::max(r, qRed(v));
                    g = std::max(g, qGreen(v));
                    b = std::max(b, qBlue(v));
                }
                out[x] = qRgb(r, g, b);
            }
        }
        levels.push_back(level);
        previous = level;
    }
    return levels;
}

} // namespace fwb
