// LabPage: controls, the ladder and animation views, and the hand-off to its LabWorkers (see LabPage.h).
#include "LabPage.h"
#include "UiText.h"

#include "ClBlastBaseline.h"
#include "ComboBoxes.h"
#include "Workload.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace fwb {

LabPage::LabPage(QWidget *parent) : WorkbenchPage(parent), m_devices(listDevices())
{
    setObjectName(QStringLiteral("labPage"));
    buildUi();
    workloadChanged();
}

LabPage::~LabPage()
{
    // The worker's destructor stops its loop and waits for it (a child would go too late: after this
    // page's views, which its queued rows name).
    delete m_deviceWorker;
}

void LabPage::buildUi()
{
    auto *layout = new QVBoxLayout(this);
    auto *controls = new QHBoxLayout;
    m_workloadBox = new QComboBox(this);
    m_workloadBox->setObjectName(QStringLiteral("labWorkload"));
    m_workloadBox->addItem(tr("Matrix multiplication (seed 003's ladder)"));
    m_workloadBox->addItem(tr("N-body simulation (seed 002)"));
    m_deviceBox = new QComboBox(this);
    m_deviceBox->setObjectName(QStringLiteral("labDevice"));
    for (const DeviceInfo &d : m_devices)
        m_deviceBox->addItem(q(d.name) + QStringLiteral(" (") + q(d.spec()) + QLatin1Char(')'), q(d.spec()));
    // Default: the best GPU, as filter-bench picks.
    if (!m_devices.empty())
        setDeviceSpec(q(selectDevice(m_devices, "").spec()));
    m_sizeLabel = new QLabel(this);
    m_sizeBox = new QSpinBox(this);
    m_sizeBox->setObjectName(QStringLiteral("labSize"));
    m_sizeBox->setRange(1, 16384);
    m_sizeBox->setAccelerated(true);
    m_nbodyVariantBox = new QComboBox(this);
    m_nbodyVariantBox->setObjectName(QStringLiteral("labNBodyVariant"));
    for (const VariantSpec &v : findWorkload("nbody")->variants)
        m_nbodyVariantBox->addItem(q(v.name));
    m_nbodyVariantBox->setCurrentText(QStringLiteral("tiled_local"));
    m_nbodyVariantBox->setToolTip(tr("The device's kernel; the CPU side always runs the host reference"));
    m_fastMath = new QCheckBox(tr("Fast math"), this);
    m_runButton = new QPushButton(this);
    m_runButton->setObjectName(QStringLiteral("labRun"));
    controls->addWidget(new QLabel(tr("Workload"), this));
    controls->addWidget(m_workloadBox);
    controls->addWidget(new QLabel(tr("Device"), this));
    controls->addWidget(m_deviceBox, 1);
    controls->addWidget(m_sizeLabel);
    controls->addWidget(m_sizeBox);
    controls->addWidget(m_nbodyVariantBox);
    controls->addWidget(m_fastMath);
    controls->addWidget(m_runButton);
    layout->addLayout(controls);

    auto *body = new QHBoxLayout;
    m_variantList = new QListWidget(this);
    m_variantList->setObjectName(QStringLiteral("labVariants"));
    m_variantList->setMaximumWidth(230);
    m_variantList->setToolTip(tr("Rungs to run, in ladder order"));
    body->addWidget(m_variantList);
    m_stack = new QStackedWidget(this);
    m_ladder = new LadderChart(m_stack);
    m_ladder->setSeedLegend(tr("dashed ghosts: the seeds' GPU figures (seed 003: Radeon HD 4870, n = 2000)"));
    auto *nbodyPane = new QWidget(m_stack);
    auto *nbodyLayout = new QVBoxLayout(nbodyPane);
    nbodyLayout->setContentsMargins(0, 0, 0, 0);
    m_nbody = new NBodyDemo(nbodyPane);
    nbodyLayout->addWidget(m_nbody, 1);
    auto *seed = new QLabel(tr("Seed 002 at 10,000 bodies: 2.5 steps/s on the CPU, 160 on the GPU (64x). Both "
                               "sides start from the same cloud and integrate the same equations."),
                            nbodyPane);
    seed->setWordWrap(true);
    nbodyLayout->addWidget(seed);
    connect(m_nbody, &NBodyDemo::framePainted, this, &LabPage::framePainted);
    connect(m_nbody, &NBodyDemo::failed, this, [this](const QString &m) {
        setStatus(m);
        emit labFailed(m);
    });
    m_stack->addWidget(m_ladder);
    m_stack->addWidget(nbodyPane);
    body->addWidget(m_stack, 1);
    layout->addLayout(body, 1);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("labStatus"));
    m_status->setWordWrap(true);
    layout->addWidget(m_status);

    connect(m_workloadBox, &QComboBox::currentIndexChanged, this, [this] { workloadChanged(); });
    connect(m_deviceBox, &QComboBox::currentIndexChanged, this, [this] { deviceChanged(); });
    connect(m_runButton, &QPushButton::clicked, this, [this] {
        if (m_running && workload() == Workload::NBody)
            stop();
        else
            start();
    });
    connect(m_sizeBox, &QSpinBox::valueChanged, this, [this](int value) {
        (workload() == Workload::Matmul ? m_matmulSize : m_bodies) = value;
    });
}

LabPage::Workload LabPage::workload() const
{
    return m_workloadBox->currentIndex() == 1 ? Workload::NBody : Workload::Matmul;
}

void LabPage::setWorkload(Workload w)
{
    m_workloadBox->setCurrentIndex(w == Workload::NBody ? 1 : 0);
}

void LabPage::setSize(int size)
{
    m_sizeBox->setValue(size);
}

int LabPage::size() const
{
    return m_sizeBox->value();
}

void LabPage::setNBodyVariant(const QString &name)
{
    m_nbodyVariantBox->setCurrentText(name);
}

bool LabPage::setDeviceSpec(const QString &spec)
{
    return selectByData(m_deviceBox, spec);
}

bool LabPage::setVariants(const QStringList &names)
{
    bool any = false;
    for (int i = 0; i < m_variantList->count(); ++i) {
        QListWidgetItem *item = m_variantList->item(i);
        const bool on = names.contains(item->text());
        any = any || on;
        item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
    }
    return any;
}

QStringList LabPage::checkedVariants() const
{
    QStringList names;
    for (int i = 0; i < m_variantList->count(); ++i)
        if (m_variantList->item(i)->checkState() == Qt::Checked)
            names << m_variantList->item(i)->text();
    return names;
}

void LabPage::fillVariantList()
{
    m_variantList->clear();
    for (const VariantSpec &v : findWorkload("matmul")->variants) {
        auto *item = new QListWidgetItem(q(v.name), m_variantList);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
        item->setToolTip(q(v.title) + QStringLiteral("\n\n") + q(v.description) + QStringLiteral("\n\n") + q(v.seedNote));
    }
    if (haveClBlast()) {
        auto *item = new QListWidgetItem(QStringLiteral("clblast"), m_variantList);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
        item->setToolTip(tr("CLBlast's tuned SGEMM on the same device and queue: the OpenCL BLAS to beat"));
    }
}

void LabPage::workloadChanged()
{
    stop();
    const bool matmul = workload() == Workload::Matmul;
    if (m_variantList->count() == 0)
        fillVariantList();
    m_variantList->setVisible(matmul);
    m_nbodyVariantBox->setVisible(!matmul);
    m_fastMath->setVisible(!matmul);
    m_sizeLabel->setText(matmul ? tr("n") : tr("Bodies"));
    // The size this workload keeps, read before the new range can clamp the box: a clamping setRange()
    // emits valueChanged, which stored the clamped value as the workload's size (issue 24: the ladder
    // started at n = 16 instead of 512).
    const int size = matmul ? m_matmulSize : m_bodies;
    {
        const QSignalBlocker quiet(m_sizeBox);
        m_sizeBox->setRange(16, matmul ? 8192 : 262144);
        m_sizeBox->setSingleStep(matmul ? 64 : 1024);
    }
    m_sizeBox->setValue(size);
    (matmul ? m_matmulSize : m_bodies) = m_sizeBox->value();
    m_stack->setCurrentIndex(matmul ? 0 : 1);
    m_runButton->setText(matmul ? tr("Run ladder") : tr("Start"));
    setStatus(matmul ? tr("Runs each checked rung at n x n on the device, checks it against a double-precision host "
                          "product, and measures the device's FP32 peak with an FMA kernel.")
                     : tr("Animates the same cloud on the CPU and on the device at once, each as fast as it can."));
}

void LabPage::deviceChanged()
{
    stop();
    delete m_deviceWorker; // waits for its thread; the next run opens a session on the new device
    m_deviceWorker = nullptr;
    m_ladder->setPeak(0, QString());
}

LabWorker *LabPage::deviceWorker()
{
    if (!m_deviceWorker && !m_devices.empty()) {
        const QString spec = m_deviceBox->currentData().toString();
        const DeviceInfo device = selectDevice(m_devices, spec.toStdString());
        m_deviceWorker = new LabWorker(device, false, this);
        connect(m_deviceWorker, &LabWorker::rowReady, this, [this](const LabRow &row) {
            m_ladder->setResult(row);
            setStatus(tr("%1 at n = %2: %3").arg(row.variant).arg(row.n)
                          .arg(row.ok ? tr("%1 GFLOPS").arg(row.gflops, 0, 'f', 1) : row.error));
        });
        connect(m_deviceWorker, &LabWorker::peakMeasured, this, [this, name = q(device.name)](double gflops, const QString &note) {
            m_ladder->setPeak(gflops, name);
            if (gflops <= 0)
                setStatus(note);
        });
        connect(m_deviceWorker, &LabWorker::ladderFinished, this, [this] {
            ladderEnded(tr("Ladder done: hover a rung's name on the left for what it changes and what the seed measured."));
            emit ladderFinished();
        });
        connect(m_deviceWorker, &LabWorker::failed, this, [this](const QString &m) {
            ladderEnded(m);
            emit labFailed(m);
        });
    }
    return m_deviceWorker;
}

void LabPage::start()
{
    if (m_devices.empty()) {
        setStatus(tr("No OpenCL device: the Compute Lab needs one."));
        return;
    }
    if (workload() == Workload::NBody) {
        m_nbody->setDevice(selectDevice(m_devices, m_deviceBox->currentData().toString().toStdString()));
        m_nbody->setBodies(m_sizeBox->value());
        m_nbody->setVariant(m_nbodyVariantBox->currentText());
        m_nbody->setFastMath(m_fastMath->isChecked());
        m_running = m_nbody->start();
        if (m_running)
            m_runButton->setText(tr("Stop"));
        setStatus(tr("%1 bodies, all pairs: %2 interactions per step on each side.")
                      .arg(m_sizeBox->value()).arg(double(m_sizeBox->value()) * m_sizeBox->value(), 0, 'g', 3));
        return;
    }
    LabWorker *worker = deviceWorker();
    LabRequest request;
    request.kind = LabRequest::Ladder;
    request.n = m_sizeBox->value();
    request.variants = checkedVariants();
    if (request.variants.isEmpty()) {
        setStatus(tr("Check at least one rung."));
        return;
    }
    QVector<LadderChart::Rung> rungs;
    const WorkloadSpec &matmul = *findWorkload("matmul");
    for (const QString &name : request.variants) {
        LadderChart::Rung rung;
        rung.variant = name;
        if (const VariantSpec *v = matmul.variant(name.toStdString())) {
            rung.title = q(v->title);
            rung.seedGflops = seedGflopsFromNote(q(v->seedNote));
        }
        rungs.append(rung);
    }
    m_ladder->setRungs(rungs);
    m_ladder->setRunning(true);
    m_runButton->setEnabled(false);
    setStatus(tr("Running %1 rungs at n = %2 on %3…").arg(request.variants.size()).arg(request.n)
                  .arg(worker->engineName()));
    m_running = true;
    worker->submit(request);
}

void LabPage::stop()
{
    if (m_deviceWorker)
        m_deviceWorker->stop();
    if (m_nbody)
        m_nbody->stop();
    m_running = false;
    if (m_runButton) {
        m_runButton->setEnabled(true);
        m_runButton->setText(workload() == Workload::Matmul ? tr("Run ladder") : tr("Start"));
    }
    if (m_ladder)
        m_ladder->setRunning(false);
}

void LabPage::setStatus(const QString &text)
{
    m_status->setText(text);
}

void LabPage::ladderEnded(const QString &status)
{
    m_running = false;
    m_ladder->setRunning(false);
    m_runButton->setEnabled(true);
    setStatus(status);
}

QString LabPage::statusText() const
{
    return m_status->text();
}

std::optional<ScreenshotJob> LabPage::screenshotJob(const ScreenshotPlan &plan)
{
    if (!plan.lab)
        return std::nullopt;
    ScreenshotJob job;
    job.afterRun = false;
    job.waitingFor = QStringLiteral("the Compute Lab");
    job.timeoutMs = 600000;
    job.start = [this](ScreenshotJob::Done done) {
        connect(this, &LabPage::ladderFinished, this, [done] { done({}); });
        connect(this, &LabPage::labFailed, this, done);
        if (workload() == Workload::NBody)
            whenAnimated(
                this, [this] { return cpuView()->stepsPerSecond() > 0 && deviceView()->stepsPerSecond() > 0; }, done,
                QStringLiteral("the N-body animation had no rate on both sides after 30 s"));
        QTimer::singleShot(0, this, [this] { start(); });
        return true;
    };
    return job;
}

} // namespace fwb
