// LessonWindow: Help ▸ Show the Lesson (and L in present mode). Six steps retell seed 004 on the 5x5
// Gaussian with numbers measured here and now, on the current device and picture: the plain port
// against the best CPU code, the slow private list and its fix, the copies against the computing
// (ordinary and page-locked memory), the rung that reaches the memory limit, the verdict from picture
// to picture, and a live step where the picture moves and each side shows its frames per second.
// Beside the live column, a recorded column shows a real GPU's kept results (data/measurements),
// always marked "recorded on ..., not measured on this computer".
//
// Measurements go through a BenchWorker (two races: ordinary copies, then page-locked memory), the live
// step's device frames through a ComputeWorker of its own and its CPU frames through a plain CPU thread
// (LessonCpuLoop): OpenCL never runs on the GUI thread, and every wait says what it waits for.
#pragma once

#include "Devices.h"
#include "Image.h"
#include "lesson/LessonSteps.h"

#include <QElapsedTimer>
#include <QThread>
#include <QWidget>

#include <atomic>
#include <deque>
#include <memory>

class QLabel;
class QSemaphore;
class QPushButton;
class QTimer;

namespace fwb {

class BenchWorker;
class ComputeWorker;
struct ComputeResult;
class LessonChart;

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

class LessonWindow : public QWidget
{
    Q_OBJECT

public:
    struct Setup
    {
        bool hasDevice = false;  // an OpenCL device to measure on
        DeviceInfo device;
        std::shared_ptr<const Image> picture; // the window's picture (null: a test card)
        QString pictureName;     // "Test card — 1200×800", a file name
        PixelFormat format = PixelFormat::Gray8;
        bool measureOnShow = true; // start measuring when first shown (tests turn it off)
        bool loadRecords = true;   // look for kept records (findMeasurementDir)
    };

    explicit LessonWindow(const Setup &setup, QWidget *parent = nullptr);
    ~LessonWindow() override;

    int step() const { return m_step; }
    int stepCount() const { return kLessonStepCount; }
    void setStep(int step);

    // The measurement on this computer: two races on the BenchWorker. False when it cannot start.
    bool startMeasuring();
    bool isMeasuring() const { return m_phase != Phase::Idle; }
    void setLiveFigures(const LessonFigures &figures);
    void setRecordedFigures(const LessonFigures &figures);
    const LessonFigures &liveFigures() const { return m_live; }
    const LessonFigures &recordedFigures() const { return m_recorded; }

    QString stepTitle() const;
    QString liveSentence() const;
    QString liveNote() const;
    QString recordedSentence() const;
    QString recordedNote() const;
    QString recordedHeading() const; // "Recorded on ..., not measured on this computer"
    QString statusText() const;
    LessonChart *liveChart() const { return m_liveChart; }
    LessonChart *recordedChart() const { return m_recordedChart; }

    // The live step: both sides filtering the moving picture.
    bool isAnimating() const { return m_animating; }
    // Frames per second of each side over its last frames (each frame's own time: on one processor the
    // sides take turns, so idle time waiting for the other's turn is not counted).
    double cpuAloneMs() const { return m_cpuOnlyMs; } // no device: the best CPU code's time here
    double cpuFps() const { return fps(m_cpuDurations); }
    double deviceFps() const { return fps(m_deviceDurations); }
    int cpuFrames() const { return m_cpuFrameCount; }
    int deviceFrames() const { return m_deviceFrameCount; }
    QString liveFpsSentence() const;

signals:
    void stepChanged(int step);
    void measured(); // both races done (or the first failed), the live column updated
    void liveFrame(); // a frame of the live step arrived (either side)

protected:
    void showEvent(QShowEvent *event) override;
    void closeEvent(QCloseEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    enum class Phase { Idle, Pageable, Pinned };
    void buildUi();
    void refresh();
    void setStatus(const QString &text);
    void startPinned();
    void finishMeasuring();
    void startAnimation();
    void stopAnimation();
    void submitDeviceFrame();
    void onDeviceFrame(const ComputeResult &result);
    void onCpuFrame(const QImage &frame, double ms);
    void updateFpsLabels();
    void timeCpuAlone(); // no device: this computer's best CPU code on the picture, on a plain thread
    QString capitalisedDevice() const; // "The graphics card", "The device"
    static double fps(const std::deque<double> &durations);
    static void pushDuration(std::deque<double> &durations, double ms);
    FilterParams lessonParams() const;
    std::shared_ptr<const Image> picture() const;

    Setup m_setup;
    LessonPlan m_plan;
    LessonFigures m_live;
    LessonFigures m_recorded;
    bool m_recordFormatDiffers = false;
    RaceResult m_pageableRace;
    int m_step = 0;
    Phase m_phase = Phase::Idle;
    bool m_measuredOnce = false;
    QElapsedTimer m_waitClock; // how long the current wait has lasted
    QString m_waitingFor;

    BenchWorker *m_bench = nullptr;
    ComputeWorker *m_deviceWorker = nullptr;
    LessonCpuLoop *m_cpuLoop = nullptr;
    QThread *m_cpuOnlyThread = nullptr;
    double m_cpuOnlyMs = -1;       // no device: the best CPU code's time on the picture (-1: not yet)
    std::string m_cpuOnlyTitle;    // "OpenCV on 2 CPU threads"
    bool m_animating = false;
    quint64 m_frameId = 0;
    bool m_takeTurns = false;               // device and CPU code on one processor: a frame each in turn
    std::shared_ptr<QSemaphore> m_cpuTurn;  // the CPU loop's token
    QElapsedTimer m_deviceClock;            // since the device frame was submitted
    std::deque<double> m_cpuDurations, m_deviceDurations; // each frame's time, ms (the last 30)
    int m_cpuFrameCount = 0, m_deviceFrameCount = 0;
    std::shared_ptr<const Image> m_liveSource; // the picture in the lesson's format, for the frames

    QLabel *m_title = nullptr;
    QLabel *m_stepLabel = nullptr;
    QLabel *m_liveHeading = nullptr;
    LessonChart *m_liveChart = nullptr;
    QLabel *m_liveSentence = nullptr;
    QLabel *m_liveNote = nullptr;
    QLabel *m_recordedHeading = nullptr;
    LessonChart *m_recordedChart = nullptr;
    QLabel *m_recordedSentence = nullptr;
    QLabel *m_recordedNote = nullptr;
    QWidget *m_liveStage = nullptr; // the live step's two moving pictures
    QLabel *m_cpuPicture = nullptr;
    QLabel *m_devicePicture = nullptr;
    QLabel *m_cpuFpsLabel = nullptr;
    QLabel *m_deviceFpsLabel = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_back = nullptr;
    QPushButton *m_next = nullptr;
    QPushButton *m_measure = nullptr;
    QTimer *m_tick = nullptr; // refreshes the waiting text and the frames-per-second labels
};

} // namespace fwb
