// LessonMeasurement: the lesson's two races, or its CPU code timed alone (see LessonMeasurement.h).
#include "lesson/LessonMeasurement.h"

#include "BenchWorker.h"
#include "Catalogue.h"
#include "CpuTimings.h"
#include "CpuTimingsWatch.h"
#include "OpenCvBaseline.h"

#include <QCoreApplication>
#include <QPointer>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <thread>

namespace fwb {

LessonMeasurement::LessonMeasurement(QObject *parent) : QObject(parent)
{
    // A later measurement of the same CPU work (the window's runs, its race page) changes the CPU to beat:
    // the figures again, with the store's CPU time, the one the race page and the timing panel show.
    connect(CpuTimingsWatch::instance(), &CpuTimingsWatch::changed, this, [this] {
        if (m_pageableRace.entries.empty() || !m_pageableRace.refreshCpuFigures())
            return;
        m_figures = lessonFiguresFromRaces(m_pageableRace, m_pinnedDone ? &m_pinnedRace : nullptr);
        emit measured(m_figures, false);
    });
}

bool LessonMeasurement::start(const Job &job)
{
    if (!m_bench) {
        m_bench = new BenchWorker(this);
        connect(m_bench, &BenchWorker::progress, this, [this](const BenchProgress &progress) {
            if (const auto *next = std::get_if<BenchProgress::RaceStep>(&progress.what))
                emit step(next->upcoming, progress.done, progress.total, next->firstBuild);
        });
        connect(m_bench, &BenchWorker::finished, this, [this](const BenchResult &result) {
            const RaceResult &race = std::get<RaceResult>(result.what);
            if (m_phase == Phase::Pageable) {
                m_pageableRace = race;
                m_pageableRace.refreshCpuFigures(); // as the CPU timing store has them now
                m_pinnedDone = false;
                m_figures = lessonFiguresFromRaces(m_pageableRace);
                emit measured(m_figures, false);
                if (race.cancelled)
                    finish({});
                else
                    QTimer::singleShot(0, this, [this] { startPinned(); });
            } else {
                m_pinnedRace = race;
                m_pinnedDone = true;
                m_pageableRace.refreshCpuFigures();
                m_figures = lessonFiguresFromRaces(m_pageableRace, &m_pinnedRace);
                emit measured(m_figures, true);
                finish({});
            }
        });
        connect(m_bench, &BenchWorker::failed, this, [this](const QString &message) { finish(message); });
    }
    m_job = job;
    BenchJob bench = raceJob(TransferMode::Pageable, job.variants);
    bench.race.cpuRows = true;   // our multi-threaded code, and the checking reference (never "the CPU")
    bench.race.baselines = true; // OpenCV's CPU code where built: the CPU to beat
    m_phase = Phase::Pageable;
    if (!m_bench->start(bench, &BenchWorker::raceJob)) {
        m_phase = Phase::Idle;
        return false;
    }
    return true;
}

// A race of these variants on the job's device and picture, with the given copies.
BenchJob LessonMeasurement::raceJob(TransferMode transfer, const std::vector<std::string> &variants) const
{
    BenchJob bench;
    bench.device = m_job.device;
    bench.input = m_job.picture;
    bench.run.filter = m_job.filter;
    bench.run.params = m_job.params;
    bench.run.repeat = 3; // few repeats: a lesson, not a benchmark (each figure is still a median)
    bench.run.transfer = transfer;
    bench.race.variants = variants;
    return bench;
}

void LessonMeasurement::startPinned()
{
    // The same race from page-locked memory, for the runs steps 3 and 5 show: the fastest computing and
    // the fastest from picture to picture.
    std::vector<std::string> variants;
    for (const RunResult *r : {m_figures.fastestKernel(), m_figures.fastestEndToEnd(false)})
        if (r && std::find(variants.begin(), variants.end(), r->variant) == variants.end())
            variants.push_back(r->variant);
    BenchJob bench = raceJob(TransferMode::Pinned, variants);
    bench.race.cpuRows = false;
    bench.race.baselines = false;
    bench.race.measureCopyBandwidth = false;
    m_phase = Phase::Pinned;
    if (variants.empty() || !m_bench->start(bench, &BenchWorker::raceJob))
        finish({});
}

void LessonMeasurement::timeCpuAlone(std::shared_ptr<const Image> src, PixelFormat format, FilterParams params)
{
    if (m_cpuOnlyThread)
        return;
    QPointer<LessonMeasurement> self(this);
    m_cpuOnlyThread = QThread::create([self, src, format, params] {
        const FilterSpec *filter = lessonFilter();
        if (!filter)
            return;
        const Image in = src->format() == format ? *src : src->convertedTo(format);
        const int threads = int(std::max(1u, std::thread::hardware_concurrency()));
        std::string title;
        double best = -1;
        // Both measurements go into the CPU timing store; the times said are its figures (CpuTimings.h).
        const std::string work = cpuWorkKey(*filter, params, in.width(), in.height());
        const OpenCvRun cv = runOpenCvCpu(in, *filter, params, threads, 3, 1);
        if (!cv.unavailable && cv.error.empty() && !cv.opMs.empty()) {
            best = cpuTimings().add(work, threads, CpuCode::OpenCv, cv.opMs).ms;
            title = "OpenCV on " + std::to_string(threads) + (threads == 1 ? " CPU thread" : " CPU threads");
        }
        std::vector<double> ours;
        Image out(in.width(), in.height(), in.format());
        for (int i = 0; i < 4; ++i) { // one warm-up, three timed
            const auto start = std::chrono::steady_clock::now();
            filter->cpuReference(in, out, params, threads);
            if (i > 0)
                ours.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        }
        const double oursMs = cpuTimings().add(work, threads, threads > 1 ? CpuCode::Ours : CpuCode::Reference, ours).ms;
        if (best < 0 || (oursMs > 0 && oursMs < best)) {
            best = oursMs;
            title = "our C++ code on " + std::to_string(threads) + (threads == 1 ? " CPU thread" : " CPU threads");
        }
        QMetaObject::invokeMethod(qApp, [self, best, title] {
            if (!self)
                return;
            emit self->cpuAloneTimed(best, title);
        }, Qt::QueuedConnection);
    });
    m_cpuOnlyThread->setParent(this);
    m_cpuOnlyThread->start();
}

void LessonMeasurement::waitForCpuAlone()
{
    if (m_cpuOnlyThread)
        m_cpuOnlyThread->wait();
}

void LessonMeasurement::finish(const QString &failure)
{
    m_phase = Phase::Idle;
    emit finished(failure);
}

} // namespace fwb
