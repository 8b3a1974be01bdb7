#include "LessonWindow.h"
#include "UiText.h"

#include "Catalogue.h"
#include "ImageFileIo.h"
#include "MeasurementRecord.h"
#include "lesson/LessonChart.h"
#include "lesson/LessonLiveFrames.h"
#include "lesson/LessonMeasurement.h"

#include <QCloseEvent>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace fwb {

namespace {


void scaleFont(QWidget *w, double factor, bool bold = false)
{
    QFont f = w->font();
    f.setPointSizeF(f.pointSizeF() * factor);
    f.setBold(bold);
    w->setFont(f);
}

QLabel *wrapped(QWidget *parent, const char *name, double factor = 1.0)
{
    auto *label = new QLabel(parent);
    label->setObjectName(name);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    if (factor != 1.0)
        scaleFont(label, factor);
    return label;
}

} // namespace

// ---- the window ----------------------------------------------------------------------------------

LessonWindow::LessonWindow(const Setup &setup, QWidget *parent) : QWidget(parent, Qt::Window), m_setup(setup)
{
    setObjectName("lessonWindow");
    setWindowTitle(tr("The lesson: how fast a picture is filtered, and why"));
    setAttribute(Qt::WA_DeleteOnClose, false);
    m_plan = lessonPlan();
    buildUi();
    m_measurement = new LessonMeasurement(this);
    connect(m_measurement, &LessonMeasurement::step, this, &LessonWindow::onMeasurementStep);
    connect(m_measurement, &LessonMeasurement::measured, this, [this](const LessonFigures &figures, bool finishing) {
        m_live = figures;
        if (!finishing)
            refresh(); // the pageable race's figures while the pinned one runs; finishing refreshes anyway
    });
    connect(m_measurement, &LessonMeasurement::cpuAloneTimed, this, [this](double ms, const std::string &title) {
        m_cpuOnlyMs = ms;
        m_cpuOnlyTitle = title;
        refresh();
    });
    connect(m_measurement, &LessonMeasurement::finished, this, [this](const QString &failure) {
        finishMeasuring();
        if (!failure.isEmpty())
            m_status->setText(tr("The measurement stopped: %1").arg(failure));
    });
    m_frames = new LessonLiveFrames(this);
    connect(m_frames, &LessonLiveFrames::cpuFrame, this, [this](const QImage &frame) {
        m_cpuPicture->setPixmap(
            QPixmap::fromImage(frame).scaled(m_cpuPicture->size(), Qt::KeepAspectRatio, Qt::SmoothTransformation));
        emit liveFrame();
    });
    connect(m_frames, &LessonLiveFrames::deviceFrame, this, [this](const QImage &frame) {
        if (!frame.isNull())
            m_devicePicture->setPixmap(QPixmap::fromImage(frame).scaled(
                m_devicePicture->size(), Qt::KeepAspectRatio, Qt::SmoothTransformation));
        emit liveFrame();
    });
    connect(m_frames, &LessonLiveFrames::deviceFailed, this, [this](const QString &error) {
        m_deviceFpsLabel->setText(tr("The device stopped: %1").arg(error));
    });

    if (m_setup.loadRecords) {
        // The kept records (read once per folder and process); the figures are copied out of them.
        const std::shared_ptr<const std::vector<MeasurementRecord>> records = installedMeasurementRecords();
        const RecordPair pair = pickRecords(*records, m_plan.filter, formatName(m_setup.format));
        m_recordFormatDiffers = pair.found() && !pair.formatMatches;
        if (pair.found())
            m_recorded = lessonFiguresFromRecords(pair);
    }
    refresh();
}

LessonWindow::~LessonWindow()
{
    stopAnimation();
    m_measurement->waitForCpuAlone();
    m_measurement->cancel();
}

std::shared_ptr<const Image> LessonWindow::picture() const
{
    if (m_setup.picture)
        return m_setup.picture;
    static const auto card = std::make_shared<const Image>(makeTestCard(1200, 800, PixelFormat::Rgba8888));
    return card;
}

FilterParams LessonWindow::lessonParams() const
{
    FilterParams p;
    p.format = m_setup.format;
    p.border = BorderMode::Reflect101;
    return p; // sigma: the catalogue's default
}

void LessonWindow::buildUi()
{
    m_title = wrapped(this, "lessonTitle", 2.0);
    QFont tf = m_title->font();
    tf.setBold(true);
    m_title->setFont(tf);
    m_stepLabel = wrapped(this, "lessonStepNumber", 1.1);
    m_stepLabel->setForegroundRole(QPalette::PlaceholderText);

    // Left: this computer, live. Right: the kept record of a real graphics card.
    auto column = [this](QLabel *&heading, LessonChart *&chart, QLabel *&sentence, const char *prefix) {
        auto *box = new QFrame(this);
        box->setObjectName(QString("%1Column").arg(prefix));
        box->setFrameShape(QFrame::StyledPanel);
        heading = wrapped(box, QString("%1Heading").arg(prefix).toLatin1().constData(), 1.15);
        QFont hf = heading->font();
        hf.setBold(true);
        heading->setFont(hf);
        chart = new LessonChart(box);
        chart->setObjectName(QString("%1Chart").arg(prefix));
        scaleFont(chart, 1.1);
        sentence = wrapped(box, QString("%1Sentence").arg(prefix).toLatin1().constData(), 1.35);
        auto *layout = new QVBoxLayout(box);
        layout->addWidget(heading);
        layout->addWidget(chart);
        layout->addWidget(sentence);
        return box;
    };
    QWidget *liveBox = column(m_liveHeading, m_liveChart, m_liveSentence, "live");
    m_liveNote = wrapped(liveBox, "liveNote", 1.1);
    m_liveNote->setForegroundRole(QPalette::PlaceholderText);
    liveBox->layout()->addWidget(m_liveNote);
    static_cast<QVBoxLayout *>(liveBox->layout())->addStretch(1);
    QWidget *recordedBox = column(m_recordedHeading, m_recordedChart, m_recordedSentence, "recorded");
    m_recordedNote = wrapped(recordedBox, "recordedNote", 1.1);
    m_recordedNote->setForegroundRole(QPalette::PlaceholderText);
    recordedBox->layout()->addWidget(m_recordedNote);
    static_cast<QVBoxLayout *>(recordedBox->layout())->addStretch(1);

    // The live step's stage: the same moving picture filtered by both sides, each with its rate.
    m_liveStage = new QWidget(this);
    m_liveStage->setObjectName("lessonLiveStage");
    auto pane = [this](QLabel *&picture, QLabel *&fpsLabel, const char *name) {
        auto *layout = new QVBoxLayout;
        fpsLabel = wrapped(m_liveStage, (std::string(name) + "Fps").c_str(), 1.3);
        QFont f = fpsLabel->font();
        f.setBold(true);
        fpsLabel->setFont(f);
        picture = new QLabel(m_liveStage);
        picture->setObjectName(QString("%1Picture").arg(name));
        picture->setAlignment(Qt::AlignCenter);
        picture->setMinimumSize(240, 135);
        picture->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
        layout->addWidget(fpsLabel);
        layout->addWidget(picture, 1);
        return layout;
    };
    auto *panes = new QHBoxLayout;
    panes->addLayout(pane(m_cpuPicture, m_cpuFpsLabel, "cpu"), 1);
    panes->addLayout(pane(m_devicePicture, m_deviceFpsLabel, "device"), 1);
    auto *stageLayout = new QVBoxLayout(m_liveStage);
    stageLayout->setContentsMargins(0, 0, 0, 0);
    stageLayout->addLayout(panes, 1);

    auto *columns = new QHBoxLayout;
    columns->addWidget(liveBox, 1);
    columns->addWidget(recordedBox, 1);
    auto *body = new QWidget(this);
    auto *bodyLayout = new QVBoxLayout(body);
    bodyLayout->setContentsMargins(0, 0, 0, 0);
    bodyLayout->addWidget(m_liveStage, 1);
    bodyLayout->addLayout(columns);
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(body);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    m_status = wrapped(this, "lessonStatus", 1.1);
    m_back = new QPushButton(tr("◀ Back"), this);
    m_back->setObjectName("lessonBack");
    m_next = new QPushButton(tr("Next ▶"), this);
    m_next->setObjectName("lessonNext");
    m_measure = new QPushButton(tr("Measure again"), this);
    m_measure->setObjectName("lessonMeasure");
    for (QPushButton *b : {m_back, m_next, m_measure}) {
        b->setFocusPolicy(Qt::NoFocus); // the arrow keys belong to the lesson, never to a button
        scaleFont(b, 1.3, true);
        b->setMinimumHeight(b->fontMetrics().height() * 2);
    }
    connect(m_back, &QPushButton::clicked, this, [this] { setStep(m_step - 1); });
    connect(m_next, &QPushButton::clicked, this, [this] { setStep(m_step + 1); });
    connect(m_measure, &QPushButton::clicked, this, [this] { startMeasuring(); });
    m_measure->setEnabled(m_setup.hasDevice);
    if (!m_setup.hasDevice)
        m_measure->setToolTip(tr("No OpenCL device on this computer"));
    auto *hint = wrapped(this, "lessonHint", 1.0);
    hint->setText(tr("← → or the buttons to move · Esc to close"));
    hint->setForegroundRole(QPalette::PlaceholderText);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_back);
    buttons->addWidget(m_next);
    buttons->addSpacing(24);
    buttons->addWidget(m_measure);
    buttons->addStretch(1);
    buttons->addWidget(hint);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_stepLabel);
    layout->addWidget(scroll, 1);
    layout->addWidget(m_status);
    layout->addLayout(buttons);

    auto key = [this](QKeySequence sequence, auto slot) {
        auto *shortcut = new QShortcut(sequence, this);
        shortcut->setContext(Qt::WindowShortcut);
        connect(shortcut, &QShortcut::activated, this, slot);
    };
    for (auto k : {Qt::Key_Right, Qt::Key_PageDown, Qt::Key_Space})
        key(QKeySequence(k), [this] { setStep(m_step + 1); });
    for (auto k : {Qt::Key_Left, Qt::Key_PageUp, Qt::Key_Backspace})
        key(QKeySequence(k), [this] { setStep(m_step - 1); });
    key(QKeySequence(Qt::Key_Home), [this] { setStep(0); });
    key(QKeySequence(Qt::Key_End), [this] { setStep(kLessonStepCount - 1); });
    key(QKeySequence(Qt::Key_Escape), [this] { close(); });

    m_tick = new QTimer(this);
    m_tick->setInterval(250);
    connect(m_tick, &QTimer::timeout, this, [this] {
        if (isMeasuring() && m_waitClock.isValid() && m_waitClock.elapsed() > 500)
            m_status->setText(m_waitingFor);
        if (m_frames->isRunning())
            updateFpsLabels();
    });
    m_tick->start();
}

void LessonWindow::setStep(int step)
{
    step = std::clamp(step, 0, kLessonStepCount - 1);
    if (step == m_step)
        return;
    m_step = step;
    refresh();
    emit stepChanged(m_step);
}

QString LessonWindow::stepTitle() const
{
    return m_title->text();
}
QString LessonWindow::liveSentence() const
{
    return m_liveSentence->text();
}
QString LessonWindow::liveNote() const
{
    return m_liveNote->text();
}
QString LessonWindow::recordedSentence() const
{
    return m_recordedSentence->text();
}
QString LessonWindow::recordedNote() const
{
    return m_recordedNote->text();
}
QString LessonWindow::recordedHeading() const
{
    return m_recordedHeading->text();
}
QString LessonWindow::statusText() const
{
    return m_status->text();
}

void LessonWindow::refresh()
{
    const auto step = LessonStep(m_step);
    m_title->setText(q(lessonStepTitle(step)));
    m_stepLabel->setText(tr("Step %1 of %2 · the 5x5 blur of seed 004 · %3")
                             .arg(m_step + 1)
                             .arg(kLessonStepCount)
                             .arg(m_setup.pictureName.isEmpty() ? tr("test card") : m_setup.pictureName));
    m_back->setEnabled(m_step > 0);
    m_next->setEnabled(m_step + 1 < kLessonStepCount);

    // This computer.
    QString liveHeading;
    if (!m_setup.hasDevice)
        liveHeading = tr("This computer: no OpenCL device to measure on");
    else if (!m_live.empty())
        liveHeading = tr("Measured now on this computer: %1, %2×%3 picture")
                          .arg(q(m_live.deviceName))
                          .arg(m_live.width)
                          .arg(m_live.height);
    else
        liveHeading = tr("This computer: %1").arg(q(m_setup.device.name));
    m_liveHeading->setText(liveHeading);
    if (!m_live.empty()) {
        const LessonStepView view = lessonStep(step, m_live, m_plan);
        m_liveChart->setView(view);
        m_liveSentence->setText(q(view.sentence));
        m_liveNote->setText(q(view.note));
    } else if (!m_setup.hasDevice && m_cpuOnlyMs > 0
               && (step == LessonStep::Port || step == LessonStep::Verdict)) {
        // No OpenCL device: the live column is this computer's best CPU code alone, beside the record.
        LessonStepView view;
        view.title = lessonStepTitle(step);
        LessonBar bar;
        bar.label = "Best CPU code (" + m_cpuOnlyTitle + "), this computer";
        bar.parts.push_back({"", m_cpuOnlyMs});
        view.bars.push_back(bar);
        m_liveChart->setView(view);
        const std::shared_ptr<const Image> pic = picture();
        m_liveSentence->setText(tr("This computer's best CPU code (%1) blurs this %2×%3 picture in %4 milliseconds; "
                                   "with no OpenCL device here, the other side is only the recorded one.")
                                    .arg(q(m_cpuOnlyTitle))
                                    .arg(pic->width())
                                    .arg(pic->height())
                                    .arg(q(lessonMs(m_cpuOnlyMs))));
        m_liveNote->clear();
    } else {
        m_liveChart->setView({});
        m_liveSentence->setText(!m_setup.hasDevice ? tr("Only the recorded figures can be shown here.")
                                : isMeasuring()   ? tr("Measuring… the numbers appear when the runs end.")
                                                  : tr("Press “Measure again” to measure on this computer."));
        m_liveNote->clear();
    }
    m_liveChart->setVisible(!m_live.empty() || !m_liveChart->view().bars.empty());

    // The kept record of a real GPU: never mistaken for this computer.
    if (!m_recorded.empty()) {
        QString heading = tr("Recorded on %1 — not measured on this computer").arg(q(m_recorded.provenance));
        heading += tr(" (%1×%2 picture").arg(m_recorded.width).arg(m_recorded.height);
        if (m_recordFormatDiffers)
            heading += tr(", %1 pixels, not %2 as here").arg(q(m_recorded.format), QString::fromLatin1(formatName(m_setup.format)));
        heading += ")";
        m_recordedHeading->setText(heading);
        const LessonStepView view = lessonStep(step, m_recorded, m_plan);
        m_recordedChart->setView(view);
        m_recordedSentence->setText(tr("Recorded: %1").arg(q(view.sentence)));
        m_recordedNote->setText(q(view.note));
        m_recordedChart->setVisible(true);
    } else {
        m_recordedHeading->setText(tr("No recorded results of a graphics card were found"));
        m_recordedChart->setView({});
        m_recordedChart->setVisible(false);
        m_recordedNote->clear();
        m_recordedSentence->setText(
            tr("The lesson looks for them in data/measurements (or $FWB_MEASUREMENTS_DIR)."));
    }

    const bool live = step == LessonStep::Live;
    m_liveStage->setVisible(live);
    if (live && isVisible())
        startAnimation();
    else if (!live)
        stopAnimation();
    if (live && m_frames->isRunning())
        updateFpsLabels(); // the live column shows the rates as they are now
}

void LessonWindow::setLiveFigures(const LessonFigures &figures)
{
    m_live = figures;
    refresh();
}

void LessonWindow::setRecordedFigures(const LessonFigures &figures)
{
    m_recorded = figures;
    m_recordFormatDiffers = !figures.format.empty() && figures.format != formatName(m_setup.format);
    refresh();
}

void LessonWindow::setStatus(const QString &text)
{
    m_waitingFor = text;
    m_waitClock.start();
    if (text.isEmpty())
        m_status->clear();
}

// ---- measuring -----------------------------------------------------------------------------------

bool LessonWindow::startMeasuring()
{
    if (!m_setup.hasDevice || isMeasuring())
        return false;
    stopAnimation();
    LessonMeasurement::Job job;
    job.device = m_setup.device;
    job.picture = picture();
    job.filter = m_plan.filter;
    job.params = lessonParams();
    job.variants = m_plan.variants();
    setStatus(tr("Starting…"));
    if (!m_measurement->start(job)) {
        m_status->setText(tr("The measurement could not start."));
        return false;
    }
    m_measure->setEnabled(false);
    m_measure->setText(tr("Measuring…"));
    refresh();
    return true;
}

void LessonWindow::onMeasurementStep(const RaceEntry &upcoming, int index, int total, bool firstBuild)
{
    if (upcoming.name == "copy_bandwidth") { // the probe before the runs (index 0)
        setStatus(tr("Measuring how fast the device's memory is, before the runs…"));
        return;
    }
    const QString what = q(upcoming.title);
    const QString phase = m_measurement->phase() == LessonMeasurement::Phase::Pinned
                              ? tr("Page-locked memory: running %1 of %2")
                              : tr("Running %1 of %2");
    setStatus(phase.arg(index).arg(total) + ": " + what + (firstBuild ? tr(" (preparing it first)") : QString()) + "…");
}

void LessonWindow::finishMeasuring()
{
    m_measuredOnce = true;
    setStatus({});
    m_measure->setEnabled(m_setup.hasDevice);
    m_measure->setText(tr("Measure again"));
    refresh();
    emit measured();
}

// ---- the live step -------------------------------------------------------------------------------

void LessonWindow::startAnimation()
{
    if (m_frames->isRunning() || isMeasuring())
        return;
    const std::shared_ptr<const Image> src = picture();
    LessonLiveFrames::Setup frames;
    frames.source = src->format() == m_setup.format ? src
                                                    : std::make_shared<const Image>(src->convertedTo(m_setup.format));
    frames.params = lessonParams();
    frames.openCv = m_live.cpuTitle.rfind("OpenCV", 0) == 0;
    frames.hasDevice = m_setup.hasDevice;
    frames.device = m_setup.device;
    frames.filter = m_plan.filter;
    frames.variant = [this] {
        const RunResult *best = m_live.fastestEndToEnd(false);
        return best ? best->variant : m_plan.port;
    };
    m_frames->start(frames);
    updateFpsLabels();
}

void LessonWindow::stopAnimation()
{
    m_frames->stop();
}

QString LessonWindow::liveFpsSentence() const
{
    const double cpu = cpuFps(), dev = deviceFps();
    const QString cpuName = m_live.cpuTitle.empty() ? tr("the best CPU code")
                                                    : tr("the best CPU code (%1)").arg(q(m_live.cpuTitle));
    auto rate = [](double f) { return QString::number(f, 'f', f >= 10 ? 0 : 1); };
    if (!m_setup.hasDevice)
        return tr("Only the CPU side can run here: %1 filters %2 frames per second of this picture.")
            .arg(cpuName, rate(cpu));
    if (cpu <= 0 || dev <= 0)
        return tr("Both sides are starting…");
    QString s = tr("Filtering the same moving picture over and over, %1 shows %2 frames per second and %3 %4: %1 is "
                   "%5 it.")
                    .arg(q(lessonDeviceWord(m_live)), rate(dev), cpuName, rate(cpu),
                         q(lessonCompare(1000 / dev, 1000 / cpu)));
    if (m_frames->takesTurns())
        s += tr(" Both take turns on this one processor, each rate counted over its own turns.");
    return s;
}

QString LessonWindow::capitalisedDevice() const
{
    QString word = q(lessonDeviceWord(m_live));
    if (!word.isEmpty())
        word[0] = word[0].toUpper();
    return word;
}

void LessonWindow::updateFpsLabels()
{
    const QString cpuName = m_live.cpuTitle.empty() ? tr("Best CPU code") : tr("Best CPU code (%1)").arg(q(m_live.cpuTitle));
    auto rate = [](double f) { return QString::number(f, 'f', f >= 10 ? 0 : 1); };
    m_cpuFpsLabel->setText(tr("%1: %2 frames per second").arg(cpuName, rate(cpuFps())));
    if (m_setup.hasDevice)
        m_deviceFpsLabel->setText(tr("%1 (%2): %3 frames per second, copies included")
                                      .arg(capitalisedDevice(), q(m_setup.device.name), rate(deviceFps())));
    else
        m_deviceFpsLabel->setText(tr("No OpenCL device on this computer"));
    // The live column's chart and sentence are these rates, as they are now.
    LessonStepView view;
    view.title = lessonStepTitle(LessonStep::Live);
    view.unit = "frames per second";
    view.higherIsBetter = true;
    LessonBar cpuBar;
    cpuBar.label = cpuName.toStdString();
    cpuBar.parts.push_back({"", cpuFps()});
    view.bars.push_back(cpuBar);
    if (m_setup.hasDevice) {
        LessonBar devBar;
        devBar.label = (capitalisedDevice() + tr(", copies included")).toStdString();
        devBar.parts.push_back({"", deviceFps()});
        devBar.highlight = true;
        view.bars.push_back(devBar);
    }
    m_liveChart->setView(view);
    m_liveChart->setVisible(true);
    m_liveSentence->setText(liveFpsSentence());
    m_liveNote->setText(q(lessonSameProcessorNote(m_live)));
}

// ---- showing and closing -------------------------------------------------------------------------

void LessonWindow::timeCpuAlone()
{
    // Without an OpenCL device the race cannot run, but this computer's best CPU code can still be timed
    // on the picture (a plain thread: no OpenCL), for the live column beside the record.
    if (!m_setup.measureOnShow)
        return;
    m_measurement->timeCpuAlone(picture(), m_setup.format, lessonParams());
}

void LessonWindow::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (!m_setup.hasDevice)
        timeCpuAlone();
    if (m_setup.measureOnShow && !m_measuredOnce && !isMeasuring())
        QTimer::singleShot(0, this, [this] { startMeasuring(); });
    if (LessonStep(m_step) == LessonStep::Live)
        startAnimation();
}

void LessonWindow::hideEvent(QHideEvent *event)
{
    stopAnimation();
    QWidget::hideEvent(event);
}

void LessonWindow::closeEvent(QCloseEvent *event)
{
    stopAnimation();
    if (m_measurement->isBusy())
        m_measurement->cancel();
    QWidget::closeEvent(event);
}

} // namespace fwb
