// LabWorker: its jobs on its SessionWorker thread: the ladder (runWorkload per rung, the FP32 probe,
// CLBlast) and the N-body animation loop (see LabWorker.h).
#include "LabWorker.h"

#include "ClBlastBaseline.h"
#include "ComputeProbe.h"
#include "Error.h"
#include "NBodyLive.h"
#include "Session.h"
#include "Workload.h"

#include <algorithm>
#include <chrono>

namespace fwb {

namespace {

constexpr double kFrameSeconds = 1.0 / 30; // aim for ~30 frames a second of stepping between read-backs

} // namespace

LabWorker::LabWorker(const DeviceInfo &device, bool cpuEngine, QObject *parent)
    : SessionWorker(QThread::LowPriority, true, parent), m_deviceInfo(device), m_cpuEngine(cpuEngine)
{
    qRegisterMetaType<fwb::LabRow>();
    qRegisterMetaType<fwb::LabFrame>();
}

LabWorker::~LabWorker()
{
    stopThread();
}

QString LabWorker::engineName() const
{
    return m_cpuEngine ? tr("CPU (host reference, all threads)") : QString::fromStdString(m_deviceInfo.name);
}

void LabWorker::submit(const LabRequest &request)
{
    m_frameInFlight = false;
    replaceJob([this, request] { runJob(request); });
}

void LabWorker::runJob(const LabRequest &request)
{
    try {
        if (request.kind == LabRequest::Ladder)
            runLadder(request);
        else if (request.kind == LabRequest::NBody)
            runNBody(request);
    } catch (const std::exception &e) {
        onGuiThread([this, m = QString::fromStdString(e.what())] { emit failed(m); });
    }
}

bool LabWorker::ensureSession(QString *error)
{
    try {
        openSession(m_deviceInfo);
        return true;
    } catch (const std::exception &e) {
        *error = tr("Cannot open %1: %2").arg(QString::fromStdString(m_deviceInfo.name), QString::fromUtf8(e.what()));
        return false;
    }
}

void LabWorker::runLadder(const LabRequest &request)
{
    QString error;
    if (m_cpuEngine || !ensureSession(&error)) {
        onGuiThread([this, m = error.isEmpty() ? tr("the CPU engine runs no ladder") : error] { emit failed(m); });
        return;
    }
    const Fp32Peak &peak = fp32Peak(*session());
    onGuiThread([this, g = peak.ok() ? peak.gflops : 0, note = QString::fromStdString(peak.error)] { emit peakMeasured(g, note); });
    for (const QString &name : request.variants) {
        if (restartWanted())
            return;
        RunResult r;
        if (name == QLatin1String("clblast")) {
            r = runClBlastMatmul(*session(), request.n, request.repeat, 1, true, &m_cancel);
        } else {
            WorkloadRequest w;
            w.workload = "matmul";
            w.variant = name.toStdString();
            w.params = {{"n", double(request.n)}};
            w.repeat = request.repeat;
            w.warmup = 1;
            r = session()->runWorkload(w, &m_cancel);
        }
        if (r.cancelled)
            return;
        LabRow row;
        row.variant = name;
        row.n = request.n;
        row.ok = r.ok();
        row.matches = r.matches;
        row.unavailable = r.unavailable;
        row.baseline = r.baseline;
        row.error = QString::fromStdString(r.error);
        row.kernelMs = r.kernelMs.median;
        row.gflops = r.ok() ? r.metricValue : 0;
        row.pctOfPeak = percentOfPeak(row.gflops, peak);
        row.local = QString::fromStdString(r.local.toString());
        onGuiThread([this, row] { emit rowReady(row); });
    }
    onGuiThread([this] { emit ladderFinished(); });
}

void LabWorker::runNBody(const LabRequest &request)
{
    QString error;
    if (!m_cpuEngine && !ensureSession(&error)) {
        onGuiThread([this, error] { emit failed(error); });
        return;
    }
    NBodyLive sim(m_cpuEngine ? nullptr : session(), request.nbodyVariant.toStdString(), request.bodies,
                  request.fastMath);
    auto emitFrame = [&](double stepsPerSecond) {
        const std::vector<float> xyz = sim.positions();
        LabFrame frame;
        frame.xyz = QVector<float>(xyz.begin(), xyz.end());
        frame.stepsPerSecond = stepsPerSecond;
        frame.steps = sim.stepsDone();
        frame.bodies = sim.bodies();
        m_frameInFlight = true;
        onGuiThread([this, frame = std::move(frame)] { emit frameReady(frame); });
    };
    emitFrame(0);
    // Step in batches sized to about a frame's time; read back and show a frame only when the page
    // has painted the last one, so a slow window never queues frames and a slow engine never waits.
    int batch = 1;
    double recentSteps = 0, recentSeconds = 0;
    while (!restartWanted()) {
        const double seconds = sim.advance(batch);
        recentSteps += batch;
        recentSeconds += seconds;
        if (seconds < kFrameSeconds / 2 && batch < 4096)
            batch *= 2;
        else if (seconds > kFrameSeconds * 2 && batch > 1)
            batch /= 2;
        if (!m_frameInFlight && recentSeconds > 0) {
            emitFrame(recentSteps / recentSeconds);
            if (recentSeconds > 1.0) { // steps/s over the last second or so
                recentSteps = 0;
                recentSeconds = 0;
            }
        }
    }
}

} // namespace fwb
