// RacePresentation: the race in large type, full screen (see RacePresentation.h).
#include "RacePresentation.h"
#include "UiText.h"

#include "Catalogue.h"
#include "ImageFileIo.h"
#include "MeasurementRecord.h"
#include "RaceChart.h"
#include "RaceVerdict.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QVBoxLayout>

#include <algorithm>

namespace fwb {

QPixmap previewPixmap(const QImage &image, int side)
{
    if (image.isNull())
        return {};
    return QPixmap::fromImage(image.scaled(side, side, Qt::KeepAspectRatio, Qt::SmoothTransformation));
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
    // The question comes from the filter (issue 24: every race was "Which way of blurring ...").
    m_title = new QLabel(this);
    m_title->setObjectName("presentTitle");
    m_title->setWordWrap(true);
    scaled(m_title, 2.4, true);
    // A teacher starts the race from here (issue 24: the empty state asked for a race and nothing here
    // could start one): a button a class can see, and Space or Enter.
    m_start = new QPushButton(tr("Start the race"), this);
    m_start->setObjectName("presentStart");
    m_start->setFocusPolicy(Qt::NoFocus); // Space is the window's shortcut, never a second click
    m_start->setToolTip(tr("Space or Enter"));
    scaled(m_start, 1.8, true);
    m_start->setMinimumHeight(m_start->fontMetrics().height() * 2);
    connect(m_start, &QPushButton::clicked, this, &RacePresentation::startRequested);
    m_device = new QLabel(this);
    m_device->setObjectName("presentDevice");
    m_device->setWordWrap(true);
    scaled(m_device, 1.4);
    // Without a GPU, what a real one measured (issue 24: honest without a GPU), always marked as recorded.
    m_recorded = new QLabel(this);
    m_recorded->setObjectName("presentRecorded");
    m_recorded->setWordWrap(true);
    m_recorded->setVisible(false);
    scaled(m_recorded, 1.2);
    m_winner = new QLabel(this);
    m_winner->setObjectName("presentWinner");
    m_winner->setWordWrap(true);
    scaled(m_winner, 1.8);
    m_status = new QLabel(this);
    m_status->setObjectName("presentStatus");
    m_status->setWordWrap(true);
    scaled(m_status, 1.4);
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

    auto *hint = new QLabel(tr("Space or Enter starts a race · Esc or F11 to leave"), this);
    hint->setObjectName("presentHint");
    hint->setAlignment(Qt::AlignRight);
    hint->setForegroundRole(QPalette::PlaceholderText);
    scaled(hint, 1.2);

    auto *lesson = new QPushButton(tr("Show the lesson (L)"), this); // the guided lesson (ui/lesson)
    lesson->setObjectName("presentLesson");
    lesson->setFocusPolicy(Qt::NoFocus);
    scaled(lesson, 1.4);
    connect(lesson, &QPushButton::clicked, this, &RacePresentation::lessonRequested);
    auto *head = new QHBoxLayout;
    head->addWidget(m_title, 1);
    head->addWidget(m_start, 0, Qt::AlignTop);
    head->addWidget(lesson, 0, Qt::AlignTop);
    auto *body = new QHBoxLayout;
    body->addWidget(scroll, 3); // the bars first: their sentences wrap less
    body->addLayout(pictures, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(head);
    layout->addWidget(m_device);
    layout->addWidget(m_recorded);
    layout->addWidget(m_winner);
    layout->addWidget(m_status);
    layout->addLayout(body, 1);
    layout->addWidget(hint);

    auto key = [this](const QKeySequence &sequence, auto slot) {
        auto *shortcut = new QShortcut(sequence, this);
        connect(shortcut, &QShortcut::activated, this, slot);
    };
    for (const QKeySequence &start : {QKeySequence(Qt::Key_Space), QKeySequence(Qt::Key_Return),
                                      QKeySequence(Qt::Key_Enter), raceShortcut})
        key(start, [this] { emit startRequested(); });
    for (const QKeySequence &leave : {QKeySequence(Qt::Key_Escape), QKeySequence(Qt::Key_F11)})
        key(leave, [this] { emit leaveRequested(); });
    key(QKeySequence(Qt::Key_L), [this] { emit lessonRequested(); });
}

QString RacePresentation::title() const
{
    return m_title->text();
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
    m_start->setEnabled(enabled);
    m_start->setText(racing ? tr("Racing…") : tr("Start the race"));
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
    m_title->setText(filter ? q(raceQuestion(*filter)) : tr("Which way is fastest?"));
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
    static const std::vector<MeasurementRecord> records = loadMeasurementRecords(findMeasurementDir());
    const RecordPair pair = pickRecords(records, filter.name, format);
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
