// NBodyDemo: the N-body cloud animated at once on the CPU (our multi-threaded C++ code) and on an OpenCL
// device, side by side, each as fast as it can, with each side's steps and frames per second and one
// headline comparing them (on a CPU device: that both sides are this same processor). Two LabWorker
// threads do the work. The Compute Lab's N-body pane and present mode's N-body demo are this widget.
#pragma once

#include "Devices.h"
#include "LabWorker.h"

#include <QWidget>

class QLabel;

namespace fwb {

class NBodyView;

class NBodyDemo : public QWidget
{
    Q_OBJECT

public:
    explicit NBodyDemo(QWidget *parent = nullptr);
    ~NBodyDemo() override;

    // The device side's device (stops a running demo when it changes); an empty name: none.
    void setDevice(const DeviceInfo &device);
    const DeviceInfo &device() const { return m_device; }
    void setBodies(int bodies) { m_bodies = bodies; }
    int bodies() const { return m_bodies; }
    void setVariant(const QString &variant) { m_variant = variant; }
    void setFastMath(bool on) { m_fastMath = on; }
    // Present mode: the headline in large type and the views' captions in plain words.
    void setLarge(bool large);

    // Starts (or restarts) both animations; false (and a message on the device side) without a device.
    bool start();
    void stop();
    bool isRunning() const { return m_running; }

    NBodyView *cpuView() const { return m_cpuView; }
    NBodyView *deviceView() const { return m_deviceView; }
    QString headline() const;

signals:
    void framePainted(bool cpu); // an animation frame reached the screen
    void failed(const QString &message);
    void runningChanged(bool running);

private:
    LabWorker *deviceWorker();
    void onFrame(bool cpu, const LabFrame &frame);
    void updateHeadline();

    DeviceInfo m_device;
    QString m_sameProcessorNote; // the device is this same processor (PoCL), else empty
    QString m_variant = QStringLiteral("tiled_local");
    int m_bodies = 4096;
    bool m_fastMath = false;
    bool m_large = false;
    bool m_running = false;
    QLabel *m_headline = nullptr;
    NBodyView *m_cpuView = nullptr;
    NBodyView *m_deviceView = nullptr;
    LabWorker *m_cpuWorker = nullptr;
    LabWorker *m_deviceWorker = nullptr; // for m_device; replaced when it changes
};

} // namespace fwb
