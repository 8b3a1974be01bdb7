// LabWorker: the Compute Lab page's own thread (a SessionWorker, like ComputeWorker): it owns
// a Session for its device and runs the matmul ladder or an N-body animation there, or, as the CPU
// engine, the N-body host reference. Requests go in under a mutex; rows and frames come out as values.
#pragma once

#include "Devices.h"
#include "SessionWorker.h"

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVector>

#include <atomic>

namespace fwb {

struct LabRequest
{
    enum Kind { Idle, Ladder, NBody };
    Kind kind = Idle;
    int n = 512;              // ladder: matrix size
    QStringList variants;     // ladder: in order; "clblast" adds the baseline row when the build has it
    QString nbodyVariant = QStringLiteral("tiled_local");
    int bodies = 4096;
    bool fastMath = false;
    int repeat = 2;
};

// One rung of the ladder as it finished.
struct LabRow
{
    QString variant;
    int n = 0;
    double gflops = 0;
    double kernelMs = 0;
    double pctOfPeak = -1;
    bool ok = false, matches = false, unavailable = false, baseline = false;
    QString error;
    QString local;
};

// One animation frame: x, y, z per body, and how fast the engine is stepping.
struct LabFrame
{
    QVector<float> xyz;
    double stepsPerSecond = 0;
    qint64 steps = 0;
    int bodies = 0;
};

class LabWorker : public SessionWorker
{
    Q_OBJECT

public:
    // cpuEngine: the N-body host reference instead of a device (device ignored).
    LabWorker(const DeviceInfo &device, bool cpuEngine, QObject *parent = nullptr);
    ~LabWorker() override;

    // Replaces what runs now (a ladder in progress stops between rungs, an animation between frames).
    void submit(const LabRequest &request);
    void stop() { submit(LabRequest{}); }
    // The page has painted the last frame: the next may come (frames never queue up behind the GUI).
    void frameShown() { m_frameInFlight = false; }
    QString engineName() const;
    bool isCpuEngine() const { return m_cpuEngine; }

signals:
    void peakMeasured(double gflops, const QString &note);
    void rowReady(const fwb::LabRow &row);
    void ladderFinished();
    void frameReady(const fwb::LabFrame &frame);
    void failed(const QString &message);

private:
    void runJob(const LabRequest &request); // worker thread
    void runLadder(const LabRequest &request);
    void runNBody(const LabRequest &request);
    bool ensureSession(QString *error);
    bool restartWanted() const { return m_cancel.load(); } // a newer request, or the worker's end

    const DeviceInfo m_deviceInfo;
    const bool m_cpuEngine;
    std::atomic<bool> m_frameInFlight{false};
};

} // namespace fwb

Q_DECLARE_METATYPE(fwb::LabRow)
Q_DECLARE_METATYPE(fwb::LabFrame)
