// LessonLiveFrames: the live step's two sides and their frame rates (see LessonLiveFrames.h).
#include "lesson/LessonLiveFrames.h"

#include "Catalogue.h"
#include "ComputeWorker.h"
#include "ImageFileIo.h"
#include "OpenCvBaseline.h"

#include <QSemaphore>

#include <algorithm>
#include <chrono>
#include <thread>

namespace fwb {

namespace {

constexpr int kLiveWidth = 640, kLiveHeight = 360; // the live step's moving window of the picture
constexpr int kFpsWindowMs = 2000;                 // frames per second over the last two seconds

} // namespace

// ---- the moving picture --------------------------------------------------------------------------

Image lessonFrame(const Image &source, int index, int width, int height)
{
    width = std::min(width, source.width());
    height = std::min(height, source.height());
    Image out(width, height, source.format());
    const int bpp = source.channels();
    const int shift = (index * 4) % std::max(1, source.width()); // 4 pixels a frame, to the right
    for (int y = 0; y < height; ++y) {
        const std::uint8_t *in = source.row(y);
        std::uint8_t *o = out.row(y);
        for (int x = 0; x < width; ++x) {
            const int sx = (x + source.width() - shift) % source.width();
            std::copy_n(in + std::size_t(sx) * bpp, bpp, o + std::size_t(x) * bpp);
        }
    }
    return out;
}

LessonCpuLoop::LessonCpuLoop(std::shared_ptr<const Image> source, FilterParams params, bool openCv,
                             std::shared_ptr<QSemaphore> turn, QObject *parent)
    : QThread(parent), m_source(std::move(source)), m_params(std::move(params)), m_openCv(openCv),
      m_turn(std::move(turn))
{
}

LessonCpuLoop::~LessonCpuLoop()
{
    stop();
    wait();
}

void LessonCpuLoop::stop()
{
    m_stop = true;
}

void LessonCpuLoop::run()
{
    const FilterSpec *filter = lessonFilter();
    if (!filter || !m_source)
        return;
    const int threads = int(std::max(1u, std::thread::hardware_concurrency()));
    for (int index = 0; !m_stop; ++index) {
        if (m_turn) { // taking turns with the device: wait for ours
            while (!m_turn->tryAcquire(1, 50))
                if (m_stop)
                    return;
        }
        const auto start = std::chrono::steady_clock::now();
        const Image frame = lessonFrame(*m_source, index, kLiveWidth, kLiveHeight);
        Image out(frame.width(), frame.height(), frame.format());
        if (m_openCv) {
            OpenCvRun r = runOpenCvCpu(frame, *filter, m_params, threads, 1, 0);
            if (r.unavailable || !r.error.empty() || r.output.isNull())
                filter->cpuReference(frame, out, m_params, threads);
            else
                out = std::move(r.output);
        } else {
            filter->cpuReference(frame, out, m_params, threads);
        }
        QImage shown = qimageFromImage(out);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (!m_stop)
            emit frameDone(shown, ms);
    }
}

// ---- both sides -----------------------------------------------------------------------------------

LessonLiveFrames::LessonLiveFrames(QObject *parent) : QObject(parent) {}

LessonLiveFrames::~LessonLiveFrames()
{
    stop();
}

void LessonLiveFrames::start(const Setup &setup)
{
    if (m_running)
        return;
    m_setup = setup;
    m_running = true;
    m_cpuDurations.clear();
    m_deviceDurations.clear();
    m_cpuFrameCount = m_deviceFrameCount = 0;
    // A device that is this same processor cannot run beside the CPU code without both slowing down (and
    // two busy thread pools on the same cores slow each other far more than twice): the sides take turns,
    // a frame each, and each rate is that of its own turns. A graphics card runs beside the CPU code.
    m_takeTurns = m_setup.hasDevice && m_setup.device.kind != DeviceKind::Gpu;
    m_cpuTurn = std::make_shared<QSemaphore>(0);
    m_cpuLoop = new LessonCpuLoop(m_setup.source, m_setup.params, m_setup.openCv, m_takeTurns ? m_cpuTurn : nullptr, this);
    connect(m_cpuLoop, &LessonCpuLoop::frameDone, this, &LessonLiveFrames::onCpuFrame);
    m_cpuLoop->start();
    if (m_setup.hasDevice && !m_deviceWorker) {
        m_deviceWorker = new ComputeWorker(this);
        connect(m_deviceWorker, &ComputeWorker::runFinished, this, &LessonLiveFrames::onDeviceFrame);
    }
    if (m_takeTurns)
        m_cpuTurn->release(); // the CPU code goes first
    else if (m_setup.hasDevice)
        submitDeviceFrame();
}

void LessonLiveFrames::stop()
{
    if (!m_running)
        return;
    m_running = false;
    if (m_cpuLoop) {
        m_cpuLoop->stop();
        m_cpuLoop->wait();
        delete m_cpuLoop;
        m_cpuLoop = nullptr;
    }
    if (m_deviceWorker)
        m_deviceWorker->cancel();
}

void LessonLiveFrames::submitDeviceFrame()
{
    ComputeRequest request;
    request.id = ++m_frameId;
    request.engine.kind = ComputeEngine::OpenCl;
    request.engine.device = m_setup.device;
    request.input = std::make_shared<const Image>(lessonFrame(*m_setup.source, m_deviceFrameCount, kLiveWidth, kLiveHeight));
    request.run.filter = m_setup.filter;
    request.run.variant = m_setup.variant();
    request.run.params = m_setup.params;
    request.run.repeat = 1;
    request.run.warmup = 0;
    request.run.cpuSingle = false;
    request.run.check = false; // no reference per frame: each frame is the device's work alone
    request.run.cpuBaseline = false;
    request.run.openCvCpuBaseline = false;
    m_deviceClock.start();
    m_deviceWorker->submit(request);
}

void LessonLiveFrames::onDeviceFrame(const ComputeResult &result)
{
    if (!m_running || result.id != m_frameId)
        return;
    if (!result.run.ok()) {
        emit deviceFailed(QString::fromStdString(result.run.error));
        return;
    }
    const double wall = double(m_deviceClock.nsecsElapsed()) / 1e6;
    // The first frame also prepares the device's program (once per window): not a frame's time.
    if (result.run.buildOrigin != "compiled" && result.run.buildOrigin != "disk")
        pushDuration(m_deviceDurations, wall);
    ++m_deviceFrameCount;
    emit deviceFrame(result.output);
    if (m_takeTurns)
        m_cpuTurn->release();
    else
        submitDeviceFrame();
}

void LessonLiveFrames::onCpuFrame(const QImage &frame, double ms)
{
    if (!m_running)
        return;
    ++m_cpuFrameCount;
    pushDuration(m_cpuDurations, ms);
    emit cpuFrame(frame);
    if (m_takeTurns && m_setup.hasDevice)
        submitDeviceFrame();
    else if (m_takeTurns)
        m_cpuTurn->release();
}

void LessonLiveFrames::pushDuration(std::deque<double> &durations, double ms)
{
    durations.push_back(ms);
    while (durations.size() > 30) // the rate of the last 30 frames
        durations.pop_front();
}

double LessonLiveFrames::fps(const std::deque<double> &durations)
{
    double sum = 0;
    for (double d : durations)
        sum += d;
    return sum > 0 ? 1000.0 * double(durations.size()) / sum : 0;
}

} // namespace fwb
