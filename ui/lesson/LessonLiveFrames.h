// LessonLiveFrames: the lesson's live step (LessonWindow's last step) behind its two moving pictures.
// The same moving picture (lessonFrame) filtered over and over by both sides: the device's frames through
// a ComputeWorker of its own (unchecked runs: no difference map), the best CPU code's on LessonCpuLoop, a
// plain thread; each side's frames per second over its last frames. A device that is this same processor
// takes turns with the CPU code, a frame each. OpenCL never runs on the GUI thread.
#pragma once

#include "Catalogue.h"
#include "Devices.h"
#include "Image.h"

#include <QImage>
#include <QElapsedTimer>
#include <QObject>
#include <QThread>

#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <string>

class QSemaphore;

namespace fwb {

class ComputeWorker;
struct ComputeResult;

// The live step's CPU side: the best CPU code of the run (OpenCV's where it was the fastest, else our
// multi-threaded code) filtering moving frames over and over on a thread of its own.
class LessonCpuLoop : public QThread
{
    Q_OBJECT

public:
    // turn: when set, each frame waits for one token of it (the lesson's sides take turns on one processor).
    LessonCpuLoop(std::shared_ptr<const Image> source, FilterParams params, bool openCv,
                  std::shared_ptr<QSemaphore> turn = nullptr, QObject *parent = nullptr);
    ~LessonCpuLoop() override;
    void stop();

signals:
    void frameDone(const QImage &frame, double ms);

protected:
    void run() override;

private:
    std::shared_ptr<const Image> m_source;
    FilterParams m_params;
    bool m_openCv = false;
    std::shared_ptr<QSemaphore> m_turn;
    std::atomic<bool> m_stop{false};
};

// Frame `index` of the moving picture: a width x height window of `source` (in `format`) sliding to the
// right and wrapping around, a few pixels per frame.
Image lessonFrame(const Image &source, int index, int width, int height);

class LessonLiveFrames : public QObject
{
    Q_OBJECT

public:
    struct Setup
    {
        std::shared_ptr<const Image> source; // the picture, already in the lesson's format
        FilterParams params;
        bool openCv = false;    // the CPU side is OpenCV's code (else our multi-threaded code)
        bool hasDevice = false; // else the CPU side runs alone
        DeviceInfo device;
        std::string filter;
        std::function<std::string()> variant; // the device's variant, asked before each of its frames
    };

    explicit LessonLiveFrames(QObject *parent = nullptr);
    ~LessonLiveFrames() override;

    void start(const Setup &setup); // both sides from their first frame, the rates from nothing
    void stop();                    // the CPU loop ended and joined, the device's run cancelled
    bool isRunning() const { return m_running; }
    bool takesTurns() const { return m_takeTurns; } // device and CPU code on one processor

    // Frames per second of each side over its last frames (each frame's own time: on one processor the
    // sides take turns, so idle time waiting for the other's turn is not counted).
    double cpuFps() const { return fps(m_cpuDurations); }
    double deviceFps() const { return fps(m_deviceDurations); }
    int cpuFrames() const { return m_cpuFrameCount; }
    int deviceFrames() const { return m_deviceFrameCount; }

signals:
    void cpuFrame(const QImage &frame);
    void deviceFrame(const QImage &frame); // null when the run kept no output
    void deviceFailed(const QString &error); // the device's side stops there

private:
    void submitDeviceFrame();
    void onDeviceFrame(const ComputeResult &result);
    void onCpuFrame(const QImage &frame, double ms);
    static double fps(const std::deque<double> &durations);
    static void pushDuration(std::deque<double> &durations, double ms);

    Setup m_setup;
    bool m_running = false;
    ComputeWorker *m_deviceWorker = nullptr; // kept from one start to the next: its program stays built
    LessonCpuLoop *m_cpuLoop = nullptr;
    quint64 m_frameId = 0;
    bool m_takeTurns = false;               // device and CPU code on one processor: a frame each in turn
    std::shared_ptr<QSemaphore> m_cpuTurn;  // the CPU loop's token
    QElapsedTimer m_deviceClock;            // since the device frame was submitted
    std::deque<double> m_cpuDurations, m_deviceDurations; // each frame's time, ms (the last 30)
    int m_cpuFrameCount = 0, m_deviceFrameCount = 0;
};

} // namespace fwb
