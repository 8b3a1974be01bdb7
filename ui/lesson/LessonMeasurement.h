// LessonMeasurement: the lesson's measurement on this computer, two races on a BenchWorker of its own.
// First every variant of the lesson's plan with ordinary (pageable) copies, our multi-threaded CPU code,
// the checking reference and OpenCV's CPU code; then, from page-locked memory, the runs steps 3 and 5
// show (the fastest computing and the fastest from picture to picture). Without an OpenCL device, this
// computer's best CPU code timed alone on the picture, on a plain thread. LessonWindow shows the figures
// after each race and says what each wait is for; OpenCL never runs on the GUI thread.
#pragma once

#include "BenchWorker.h"
#include "Devices.h"
#include "Image.h"
#include "Race.h"
#include "lesson/LessonSteps.h"

#include <QObject>
#include <QThread>
#include <QString>

#include <memory>
#include <string>
#include <vector>

namespace fwb {

class LessonMeasurement : public QObject
{
    Q_OBJECT

public:
    enum class Phase { Idle, Pageable, Pinned };

    struct Job
    {
        DeviceInfo device;
        std::shared_ptr<const Image> picture;
        std::string filter;
        FilterParams params;
        std::vector<std::string> variants; // the pageable race's (the plan's)
    };

    explicit LessonMeasurement(QObject *parent = nullptr);

    // The pageable race; false (and Idle again) when it cannot start.
    bool start(const Job &job);
    Phase phase() const { return m_phase; }
    bool isMeasuring() const { return m_phase != Phase::Idle; }
    bool isBusy() const { return m_bench && m_bench->isBusy(); } // a race is running on the BenchWorker
    void cancel()
    {
        if (m_bench)
            m_bench->cancel();
    }

    // No device: the best CPU code (OpenCV's or ours, the faster) on the picture in `format`, a median of
    // three runs, on a plain thread (once); cpuAloneTimed() brings the time back.
    void timeCpuAlone(std::shared_ptr<const Image> picture, PixelFormat format, FilterParams params);
    void waitForCpuAlone(); // the thread ended (the window's last moments)

signals:
    // The race about to run its next entry (phase() says which race).
    void step(const fwb::RaceEntry &upcoming, int index, int total, bool firstBuild);
    // The figures after a race: the pageable one's (finishing false), then with the pinned runs
    // (finishing true: finished() follows at once).
    void measured(const fwb::LessonFigures &figures, bool finishing);
    // Both races done, the first cancelled, or a failure (failure: the worker's message, else empty).
    void finished(const QString &failure);
    // timeCpuAlone()'s result: milliseconds and whose code ("OpenCV on 2 CPU threads").
    void cpuAloneTimed(double ms, const std::string &title);

private:
    void startPinned();
    BenchJob raceJob(TransferMode transfer, const std::vector<std::string> &variants) const;
    void finish(const QString &failure);

    BenchWorker *m_bench = nullptr;
    QThread *m_cpuOnlyThread = nullptr; // timeCpuAlone()'s
    Job m_job;
    Phase m_phase = Phase::Idle;
    RaceResult m_pageableRace;
    RaceResult m_pinnedRace;
    bool m_pinnedDone = false;
    LessonFigures m_figures;
};

} // namespace fwb
