// RacePresentation: the race in large type, full screen (see RacePresentation.h).
#include "RacePresentation.h"
#include "UiText.h"

#include "Catalogue.h"
#include "ImageFileIo.h"
#include "ImageView.h"
#include "MeasurementRecord.h"
#include "NBodyDemo.h"
#include "RaceChart.h"
#include "RaceVerdict.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace fwb {

QPixmap previewPixmap(const QImage &image, int side)
{
    if (image.isNull())
        return {};
    const QImage scaled = image.scaled(side, side, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    if (!scaled.hasAlphaChannel())
        return QPixmap::fromImage(scaled);
    // A transparent picture on the checkerboard the image views use (issue 24: drawn on the window's
    // colour, a logo's black text and a transparent result were lost).
    QPixmap pixmap(scaled.size());
    QPainter painter(&pixmap);
    painter.fillRect(pixmap.rect(), ImageView::checkerboardBrush());
    painter.drawImage(0, 0, scaled);
    return pixmap;
}

RacePresentation::RacePresentation(RaceMetric metric, const QKeySequence &raceShortcut)
{
    setObjectName("racePresentation");
    setWindowTitle(tr("Race"));
    auto scaled = [](QWidget *w, double factor, bool bold = false) {
        QFont f = w->font();
        f.setPointSizeF(f.pointSizeF() * factor);
        f.setBold(bold);
        w->setFont(f);
    };
    // The big words: a word-wrapped label, its type `factor` times the window's.
    auto words = [this, scaled](const char *name, double factor, bool bold = false) {
        auto *label = new QLabel(this);
        label->setObjectName(name);
        label->setWordWrap(true);
        scaled(label, factor, bold);
        return label;
    };
    // The question comes from the filter (issue 24: every race was "Which way of blurring ...").
    m_title = words("presentTitle", 2.4, true);
    // A teacher starts the race from here (issue 24: the empty state asked for a race and nothing here
    // could start one): a button a class can see, and Space or Enter.
    m_start = new QPushButton(tr("Start the race"), this);
    m_start->setObjectName("presentStart");
    m_start->setFocusPolicy(Qt::NoFocus); // Space is the window's shortcut, never a second click
    m_start->setToolTip(tr("Space or Enter"));
    scaled(m_start, 1.8, true);
    m_start->setMinimumHeight(m_start->fontMetrics().height() * 2);
    connect(m_start, &QPushButton::clicked, this, &RacePresentation::startPressed);
    m_device = words("presentDevice", 1.4);
    // Without a GPU, what a real one measured (issue 24: honest without a GPU), always marked as recorded.
    m_recorded = words("presentRecorded", 1.2);
    m_recorded->setVisible(false);
    m_winner = words("presentWinner", 1.8);
    m_status = words("presentStatus", 1.4);
    m_chart = new RaceChart(this);
    m_chart->setObjectName("presentChart");
    m_chart->setLarge(true);
    m_chart->setShowReference(false); // the checking reference is not a contender
    m_chart->setMetric(metric);
    // Under the ranking by filtering, the end-to-end story: the winner's copies and filtering stacked,
    // page-locked beside ordinary memory, the CPU, and the verdict; the two scroll together.
    m_verdict = new RaceVerdict(this);
    m_verdict->setObjectName("presentVerdict");
    m_verdict->setLarge(true);
    m_verdict->setRankedByFiltering(metric == RaceMetric::KernelOnly);
    auto *bars = new QWidget(this);
    auto *barsLayout = new QVBoxLayout(bars);
    barsLayout->setContentsMargins(0, 0, 0, 0);
    barsLayout->addWidget(m_chart);
    barsLayout->addWidget(m_verdict);
    barsLayout->addStretch(1); // the verdict right under the bars, the room left below it
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(bars);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    // The picture before and after: what the race was about.
    auto caption = [this](const QString &text, const char *name) {
        auto *label = new QLabel(text, this);
        label->setObjectName(name);
        label->setWordWrap(true);
        QFont f = label->font();
        f.setPointSizeF(f.pointSizeF() * 1.3);
        label->setFont(f);
        return label;
    };
    auto picture = [this](const char *name) {
        auto *label = new QLabel(this);
        label->setObjectName(name);
        label->setAlignment(Qt::AlignCenter);
        label->setMinimumSize(160, 110);
        label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored); // the pixmap follows the room
        return label;
    };
    auto *pictures = new QVBoxLayout;
    pictures->addWidget(caption(tr("Before"), "presentBeforeCaption"));
    pictures->addWidget(m_before = picture("presentBefore"), 1);
    pictures->addWidget(m_afterCaption = caption(tr("After"), "presentAfterCaption"));
    pictures->addWidget(m_after = picture("presentAfter"), 1);

    m_hint = new QLabel(this);
    m_hint->setObjectName("presentHint");
    m_hint->setAlignment(Qt::AlignRight);
    m_hint->setForegroundRole(QPalette::PlaceholderText);
    scaled(m_hint, 1.2);

    // The N-body demo (issue 24: the best lay demonstration was buried under Compute Lab ▸ Workload).
    m_nbodyButton = new QPushButton(this);
    m_nbodyButton->setObjectName("presentNBody");
    m_nbodyButton->setFocusPolicy(Qt::NoFocus);
    scaled(m_nbodyButton, 1.4);
    connect(m_nbodyButton, &QPushButton::clicked, this, [this] { showNBody(!showingNBody()); });

    auto *lesson = new QPushButton(tr("Show the lesson (L)"), this); // the guided lesson (ui/lesson)
    lesson->setObjectName("presentLesson");
    lesson->setFocusPolicy(Qt::NoFocus);
    scaled(lesson, 1.4);
    connect(lesson, &QPushButton::clicked, this, [this] { openLesson(); });
    auto *head = new QHBoxLayout;
    head->addWidget(m_title, 1);
    head->addWidget(m_start, 0, Qt::AlignTop);
    head->addWidget(m_nbodyButton, 0, Qt::AlignTop);
    head->addWidget(lesson, 0, Qt::AlignTop);
    auto *racePane = new QWidget(this);
    auto *body = new QHBoxLayout;
    body->addWidget(scroll, 3); // the bars first: their sentences wrap less
    body->addLayout(pictures, 1);
    auto *raceLayout = new QVBoxLayout(racePane);
    raceLayout->setContentsMargins(0, 0, 0, 0);
    raceLayout->addWidget(m_recorded);
    raceLayout->addWidget(m_winner);
    raceLayout->addWidget(m_status);
    raceLayout->addLayout(body, 1);
    auto *nbodyPane = new QWidget(this);
    m_nbodyWhat = new QLabel(nbodyPane);
    m_nbodyWhat->setObjectName("presentNBodyWhat");
    m_nbodyWhat->setWordWrap(true);
    scaled(m_nbodyWhat, 1.4);
    m_nbody = new NBodyDemo(nbodyPane);
    m_nbody->setLarge(true);
    connect(m_nbody, &NBodyDemo::runningChanged, this, [this] { updateMode(); });
    auto *nbodyLayout = new QVBoxLayout(nbodyPane);
    nbodyLayout->setContentsMargins(0, 0, 0, 0);
    nbodyLayout->addWidget(m_nbodyWhat);
    nbodyLayout->addWidget(m_nbody, 1);
    m_pages = new QStackedWidget(this);
    m_pages->addWidget(racePane);
    m_pages->addWidget(nbodyPane);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(head);
    layout->addWidget(m_device);
    layout->addWidget(m_pages, 1);
    layout->addWidget(m_hint);

    auto key = [this](const QKeySequence &sequence, auto slot) {
        auto *shortcut = new QShortcut(sequence, this);
        connect(shortcut, &QShortcut::activated, this, slot);
    };
    for (const QKeySequence &start : {QKeySequence(Qt::Key_Space), QKeySequence(Qt::Key_Return),
                                      QKeySequence(Qt::Key_Enter), raceShortcut})
        key(start, [this] { startPressed(); });
    for (const QKeySequence &leave : {QKeySequence(Qt::Key_Escape), QKeySequence(Qt::Key_F11)})
        key(leave, [this] { emit leaveRequested(); });
    key(QKeySequence(Qt::Key_L), [this] { openLesson(); });
    key(QKeySequence(Qt::Key_N), [this] { showNBody(!showingNBody()); });
    updateMode();
}

QString RacePresentation::title() const
{
    return m_title->text();
}

bool RacePresentation::showingNBody() const
{
    return m_pages->currentIndex() == 1;
}

void RacePresentation::showNBody(bool on)
{
    if (on && m_racing)
        return; // one thing at a time on the device: the stars would slow the race down, and the other way round
    m_pages->setCurrentIndex(on ? 1 : 0);
    if (on) {
        // Enough stars that a GPU has work to do; on a processor, few enough to move at once.
        m_nbody->setBodies(m_demoDevice.kind == DeviceKind::Gpu ? 16384 : 2048);
        m_nbody->setDevice(m_demoDevice);
        m_nbody->start();
    } else {
        m_nbody->stop();
    }
    updateMode();
}

void RacePresentation::openLesson()
{
    showNBody(false); // the lesson measures on the device: the stars stop first
    emit lessonRequested();
}

void RacePresentation::startPressed()
{
    if (!showingNBody())
        emit startRequested();
    else if (m_nbody->isRunning())
        m_nbody->stop();
    else
        m_nbody->start();
}

void RacePresentation::updateMode()
{
    const bool nbody = showingNBody();
    if (nbody) {
        const int n = m_nbody->bodies();
        m_title->setText(tr("%1 stars, each pulled by all the others: which moves them faster?")
                             .arg(QLocale(QLocale::English).toString(n)));
        m_nbodyWhat->setText(
            tr("Every step works out how each star pulls on every other one (%1 million pulls) and moves them "
               "all a little. Left: our C++ code on this computer's processor; right: the device. More steps "
               "per second is faster.")
                .arg(double(n) * n / 1e6, 0, 'f', n * double(n) >= 1e8 ? 0 : 1));
        m_start->setEnabled(!m_demoDevice.name.empty());
        m_start->setText(m_nbody->isRunning() ? tr("Stop the stars") : tr("Start the stars"));
        m_nbodyButton->setText(tr("Back to the race (N)"));
        m_nbodyButton->setEnabled(true);
        m_hint->setText(tr("Space starts or stops the stars · N back to the race · Esc or F11 to leave"));
    } else {
        m_title->setText(m_raceTitle);
        m_start->setEnabled(m_startEnabled);
        m_start->setText(m_racing ? tr("Racing…") : tr("Start the race"));
        m_nbodyButton->setText(tr("N-body demo (N)"));
        m_nbodyButton->setEnabled(!m_racing);
        m_hint->setText(tr("Space or Enter starts a race · N shows the N-body demo · Esc or F11 to leave"));
    }
}

void RacePresentation::hideEvent(QHideEvent *event)
{
    if (showingNBody())
        showNBody(false); // the stars stop with the presentation; it opens on the race again
    QWidget::hideEvent(event);
}

void RacePresentation::setWinnerText(const QString &text)
{
    m_winner->setText(text);
}

void RacePresentation::setStatusText(const QString &text)
{
    m_status->setText(text);
}

void RacePresentation::setStartState(bool enabled, bool racing)
{
    m_startEnabled = enabled;
    m_racing = racing;
    updateMode();
}

void RacePresentation::setPictures(const Image *input, const RaceEntry *winner, bool busy)
{
    // The column beside the chart (a quarter of the width), half its height each.
    const int side = std::max(160, std::min(width() / 4, (height() - 260) / 2));
    m_before->setPixmap(input ? previewPixmap(qimageFromImage(*input), side) : QPixmap());
    if (winner && !winner->result.output.isNull()) {
        m_after->setPixmap(previewPixmap(qimageFromImage(winner->result.output), side));
        m_afterCaption->setText(tr("After: %1").arg(q(winner->title).toHtmlEscaped()));
    } else {
        m_after->setPixmap({});
        m_afterCaption->setText(busy ? tr("After: when the first runs end") : tr("After"));
    }
}

void RacePresentation::setTitles(const FilterSpec *filter, const RaceResult &race, const ComputeRequest &request)
{
    m_raceTitle = filter ? q(raceQuestion(*filter)) : tr("Which way is fastest?");
    m_chart->setEmptyText(
        tr("Press Start the race (or Space): every way the workbench knows of %1 runs on this picture, "
           "and the bars line up fastest first.")
            .arg(filter ? q(filter->plainVerb) : tr("filtering the picture")));
    const bool raced = !race.deviceName.empty();
    const std::string device = raced ? race.deviceName : request.engine.device.name;
    const DeviceKind kind = raced ? race.deviceKind : request.engine.device.kind;
    // In plain words: what the device is, then (a CPU device) that it is the processor it races.
    QString text;
    if (device.empty())
        text = tr("Pick an OpenCL device in the window's controls to race.");
    else if (kind == DeviceKind::Cpu)
        text = tr("On %1, this computer's main processor.").arg(q(device).toHtmlEscaped());
    else if (kind == DeviceKind::Gpu)
        text = tr("On %1, the graphics card (GPU).").arg(q(device).toHtmlEscaped());
    else
        text = tr("On %1, an OpenCL accelerator.").arg(q(device).toHtmlEscaped());
    const std::string note = raced ? race.sameProcessorNote() : sameProcessorNote(request.engine.device);
    if (!note.empty())
        text += QLatin1Char(' ') + q(note).toHtmlEscaped();
    m_device->setText(text);
    const QString recorded = kind == DeviceKind::Gpu || !filter
                                 ? QString()
                                 : recordedLine(*filter, raced ? race.format : formatName(request.run.params.format));
    m_recorded->setText(recorded);
    m_recorded->setVisible(!recorded.isEmpty());
    // The N-body demo runs on the race's device (none: the CPU engine was chosen).
    const DeviceInfo demoDevice = request.engine.isCpu() ? DeviceInfo{} : request.engine.device;
    if (demoDevice.spec() != m_demoDevice.spec() || demoDevice.name != m_demoDevice.name) {
        m_demoDevice = demoDevice;
        if (showingNBody())
            showNBody(true); // restarted on the new device
    }
    updateMode();
}

QString RacePresentation::recordedText() const
{
    return m_recorded->isHidden() ? QString() : m_recorded->text();
}

// The kept record of a real device for this filter (data/measurements): its fastest version's filtering
// time on the recorded picture, and that version end to end with ordinary and page-locked copies. Empty
// when no record fits.
QString RacePresentation::recordedLine(const FilterSpec &filter, const std::string &format)
{
    const std::shared_ptr<const std::vector<MeasurementRecord>> records = installedMeasurementRecords();
    const RecordPair pair = pickRecords(*records, filter.name, format);
    if (!pair.found())
        return {};
    const MeasurementRecord &rec = *pair.pageable;
    const RunResult *best = nullptr;
    for (const RunResult &r : rec.results)
        if (!r.baseline && r.ok() && r.kernelMs.median > 0 && (!best || r.kernelMs.median < best->kernelMs.median))
            best = &r;
    if (!best)
        return {};
    auto ms = [](double v) { return QString::number(v, 'g', 3) + QStringLiteral(" ms"); };
    QString text = tr("Recorded on %1 — not measured on this computer: on a %2×%3 picture (%4) its fastest "
                      "version filtered in %5; with the copies %6")
                       .arg(q(rec.provenance()).toHtmlEscaped())
                       .arg(rec.width)
                       .arg(rec.height)
                       .arg(q(rec.format))
                       .arg(ms(best->kernelMs.median))
                       .arg(ms(best->endToEndMs > 0 ? best->endToEndMs : best->totalMs));
    const RunResult *pinned = pair.pinned ? pair.pinned->result(best->variant) : nullptr;
    if (pinned && pinned->ok())
        text += tr(", from page-locked memory %1").arg(ms(pinned->endToEndMs > 0 ? pinned->endToEndMs : pinned->totalMs));
    return text + QLatin1Char('.');
}

} // namespace fwb
