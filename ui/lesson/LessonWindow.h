// LessonWindow: Help ▸ Show the Lesson (and L in present mode). Six steps retell seed 004 on the
// catalogue's lesson filter (FilterSpec::lessonFilter) with numbers measured here and now, on the current device and picture: the plain port
// against the best CPU code, the slow private list and its fix, the copies against the computing
// (ordinary and page-locked memory), the rung that reaches the memory limit, the verdict from picture
// to picture, and a live step where the picture moves and each side shows its frames per second.
// Beside the live column, a recorded column shows a real GPU's kept results (data/measurements),
// always marked "recorded on ..., not measured on this computer".
//
// Measurements go through LessonMeasurement (a BenchWorker's two races: ordinary copies, then page-locked
// memory), the live step's frames through LessonLiveFrames (the device's on a ComputeWorker of its own,
// the CPU's on a plain CPU thread, LessonCpuLoop): OpenCL never runs on the GUI thread, and every wait
// says what it waits for.
#pragma once

#include "Devices.h"
#include "Image.h"
#include "lesson/LessonLiveFrames.h"
#include "lesson/LessonMeasurement.h"
#include "lesson/LessonSteps.h"

#include <QElapsedTimer>
#include <QWidget>

#include <memory>

class QLabel;
class QPushButton;
class QTimer;

namespace fwb {

class LessonChart;

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

    bool hasDevice() const { return m_setup.hasDevice; } // an OpenCL device to measure on
    int step() const { return m_step; }
    int stepCount() const { return kLessonStepCount; }
    void setStep(int step);

    // The measurement on this computer: two races on the BenchWorker. False when it cannot start.
    bool startMeasuring();
    bool isMeasuring() const { return m_measurement->isMeasuring(); }
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
    bool isAnimating() const { return m_frames->isRunning(); }
    // Frames per second of each side over its last frames (each frame's own time: on one processor the
    // sides take turns, so idle time waiting for the other's turn is not counted).
    double cpuAloneMs() const { return m_cpuOnlyMs; } // no device: the best CPU code's time here
    double cpuFps() const { return m_frames->cpuFps(); }
    double deviceFps() const { return m_frames->deviceFps(); }
    int cpuFrames() const { return m_frames->cpuFrames(); }
    int deviceFrames() const { return m_frames->deviceFrames(); }
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
    void buildUi();
    void refresh();
    void setStatus(const QString &text);
    void onMeasurementStep(const RaceEntry &upcoming, int index, int total, bool firstBuild);
    void finishMeasuring();
    void startAnimation();
    void stopAnimation();
    void updateFpsLabels();
    void timeCpuAlone(); // no device: this computer's best CPU code on the picture, on a plain thread
    QString capitalisedDevice() const; // "The graphics card", "The device"
    FilterParams lessonParams() const;
    std::shared_ptr<const Image> picture() const;

    Setup m_setup;
    LessonPlan m_plan;
    LessonFigures m_live;
    LessonFigures m_recorded;
    bool m_recordFormatDiffers = false;
    int m_step = 0;
    bool m_measuredOnce = false;
    QElapsedTimer m_waitClock; // how long the current wait has lasted
    QString m_waitingFor;

    LessonMeasurement *m_measurement = nullptr;
    LessonLiveFrames *m_frames = nullptr; // the live step's two sides
    double m_cpuOnlyMs = -1;       // no device: the best CPU code's time on the picture (-1: not yet)
    std::string m_cpuOnlyTitle;    // "OpenCV on 2 CPU threads"

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
