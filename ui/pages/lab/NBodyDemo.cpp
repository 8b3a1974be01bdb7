// NBodyDemo: the two N-body engines, their views and the headline (see NBodyDemo.h).
#include "NBodyDemo.h"

#include "LabViews.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <thread>

namespace fwb {

namespace {

int cpuThreads()
{
    return int(std::max(1u, std::thread::hardware_concurrency()));
}

} // namespace

NBodyDemo::NBodyDemo(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("nbodyDemo"));
    m_headline = new QLabel(this);
    m_headline->setObjectName(QStringLiteral("nbodyHeadline"));
    m_headline->setAlignment(Qt::AlignCenter);
    m_headline->setWordWrap(true);
    auto *views = new QHBoxLayout;
    // The CPU side is NBodyLive's host stepping on every hardware thread: our best CPU code for it.
    m_cpuView = new NBodyView(tr("Our C++ code on %1 CPU threads").arg(cpuThreads()), QColor(250, 170, 60), this);
    m_cpuView->setObjectName(QStringLiteral("nbodyCpuView"));
    m_deviceView = new NBodyView(QString(), QColor(90, 190, 255), this);
    m_deviceView->setObjectName(QStringLiteral("nbodyDeviceView"));
    views->addWidget(m_cpuView, 1);
    views->addWidget(m_deviceView, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_headline);
    layout->addLayout(views, 1);
    setLarge(false);

    m_cpuWorker = new LabWorker(DeviceInfo{}, true, this);
    connect(m_cpuWorker, &LabWorker::frameReady, this, [this](const LabFrame &f) { onFrame(true, f); });
    connect(m_cpuWorker, &LabWorker::failed, this, [this](const QString &m) {
        m_cpuView->setMessage(m);
        emit failed(m);
    });
}

NBodyDemo::~NBodyDemo()
{
    // The workers' destructors stop their loops and wait for them (as children they would go after the
    // views, which their queued frames name).
    delete m_deviceWorker;
    delete m_cpuWorker;
}

void NBodyDemo::setLarge(bool large)
{
    m_large = large;
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * (large ? 2.0 : 1.5));
    f.setBold(true);
    m_headline->setFont(f);
    m_cpuView->setLarge(large);
    m_deviceView->setLarge(large);
}

void NBodyDemo::setDevice(const DeviceInfo &device)
{
    if (device.spec() == m_device.spec() && device.name == m_device.name)
        return;
    stop();
    delete m_deviceWorker; // waits for its thread; the next start opens a session on the new device
    m_deviceWorker = nullptr;
    m_device = device;
    m_sameProcessorNote = QString::fromStdString(sameProcessorNote(device));
}

LabWorker *NBodyDemo::deviceWorker()
{
    if (!m_deviceWorker && !m_device.name.empty()) {
        m_deviceWorker = new LabWorker(m_device, false, this);
        connect(m_deviceWorker, &LabWorker::frameReady, this, [this](const LabFrame &f) { onFrame(false, f); });
        connect(m_deviceWorker, &LabWorker::failed, this, [this](const QString &m) {
            m_deviceView->setMessage(m);
            emit failed(m);
        });
    }
    return m_deviceWorker;
}

bool NBodyDemo::start()
{
    LabWorker *worker = deviceWorker();
    m_cpuView->clear();
    m_deviceView->clear();
    m_headline->clear();
    if (!worker) {
        m_deviceView->setMessage(tr("No OpenCL device: pick one to race the CPU."));
        return false;
    }
    LabRequest request;
    request.kind = LabRequest::NBody;
    request.bodies = m_bodies;
    request.nbodyVariant = m_variant;
    request.fastMath = m_fastMath;
    m_deviceView->setEngine(m_large ? QString::fromStdString(m_device.name)
                                    : worker->engineName() + QStringLiteral(" · ") + m_variant);
    m_running = true;
    worker->submit(request);
    m_cpuWorker->submit(request);
    emit runningChanged(true);
    return true;
}

void NBodyDemo::stop()
{
    if (m_deviceWorker)
        m_deviceWorker->stop();
    m_cpuWorker->stop();
    if (m_running) {
        m_running = false;
        emit runningChanged(false);
    }
}

void NBodyDemo::onFrame(bool cpu, const LabFrame &frame)
{
    if (!m_running)
        return;
    NBodyView *view = cpu ? m_cpuView : m_deviceView;
    view->setFrame(frame);
    view->repaint(); // painted now, so the worker learns the window has caught up
    (cpu ? m_cpuWorker : m_deviceWorker)->frameShown();
    updateHeadline();
    emit framePainted(cpu);
}

void NBodyDemo::updateHeadline()
{
    const double cpu = m_cpuView->stepsPerSecond(), device = m_deviceView->stepsPerSecond();
    if (cpu <= 0 || device <= 0)
        return;
    // Names the CPU code compared with (every hardware thread, NBodyLive's default), and on a CPU device
    // (PoCL) says that both sides are the same chip (issue 24: "2.2x faster than the CPU" on PoCL).
    const double x = device / cpu;
    QString text = x >= 1 ? tr("The device steps %1× faster than our C++ code on %2 CPU threads")
                          : tr("The device steps %1× slower than our C++ code on %2 CPU threads");
    const double shown = x >= 1 ? x : 1 / x;
    text = text.arg(shown, 0, 'f', shown < 10 ? 1 : 0).arg(cpuThreads());
    if (!m_sameProcessorNote.isEmpty())
        text += QStringLiteral("\n") + m_sameProcessorNote;
    m_headline->setText(text);
}

QString NBodyDemo::headline() const
{
    return m_headline->text();
}

} // namespace fwb
