// RacePage: the race of every variant, as bars (see RacePage.h).
#include "RacePage.h"
#include "CpuTimingsWatch.h"
#include "UiText.h"

#include "ImageFileIo.h"
#include "NBodyDemo.h"
#include "LabViews.h"
#include "Report.h"
#include "RaceChart.h"
#include "RacePresentation.h"
#include "RaceVerdict.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>

namespace fwb {

RacePage::RacePage(QWidget *parent) : JobPage(parent)
{
    setObjectName("racePage");
    // A later measurement of the same CPU work (a run, another race) changes the CPU to beat: the bars, the
    // verdict and the report show the store's figure (CpuTimings.h), the one the timing panel shows.
    connect(CpuTimingsWatch::instance(), &CpuTimingsWatch::changed, this, [this] {
        if (m_race.refreshCpuFigures()) {
            showRace();
            updateWinner();
        }
    });
    createJobControls({tr("Race All Variants"), "raceAction",
                       tr("Run every variant of this filter, the CPU and OpenCV on this picture, fastest first"),
                       tr("Race All Variants"), "raceButton", "raceCancel", "raceProgress", tr("%v of %m runs")});
    m_startAct->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    m_cancelAct->setText(tr("Cancel Race"));
    m_progress->setValue(0);
    m_presentAct = new QAction(tr("Present"), this);
    m_presentAct->setObjectName("presentAction");
    m_presentAct->setShortcut(QKeySequence(Qt::Key_F11));
    m_presentAct->setCheckable(true);
    connect(m_presentAct, &QAction::toggled, this, &RacePage::setPresenting);

    m_metric = new QComboBox(this);
    m_metric->setObjectName("raceMetric");
    // The versions differ by their filtering; the copies cost them all the same (issue 24: on an H100 the
    // end-to-end ranking was copy noise). The end-to-end comparison with the CPU is under the bars.
    m_metric->addItem(tr("Filtering time (copies shown once, below)"));
    m_metric->addItem(tr("Each version end to end (copies included)"));
    m_metric->setToolTip(tr("Filtering time: the device's versions ranked by their computing alone; moving the "
                            "picture to the device and back costs every version the same and is shown once, "
                            "under the bars, with the end-to-end comparison against the CPU. End to end: every "
                            "run by the time a user waits, copies included."));
    connect(m_metric, &QComboBox::currentIndexChanged, this, [this](int index) {
        const RaceMetric metric = index == 1 ? RaceMetric::EndToEnd : RaceMetric::KernelOnly;
        m_chart->setMetric(metric);
        m_verdict->setRankedByFiltering(metric == RaceMetric::KernelOnly);
        if (m_presentation) {
            m_presentation->chart()->setMetric(metric);
            m_presentation->verdict()->setRankedByFiltering(metric == RaceMetric::KernelOnly);
        }
        updateWinner();
    });

    m_heading = new QLabel(this);
    m_heading->setObjectName("raceHeading");
    m_heading->setWordWrap(true);
    m_winner = new QLabel(this);
    m_winner->setObjectName("raceWinner");
    m_winner->setWordWrap(true);
    // The winner's line in the page's own type (bold name): at 1366x768 every line above the chart is a
    // bar fewer in view.
    m_chart = new RaceChart(this);
    m_verdict = new RaceVerdict(this);
    connect(m_chart, &RaceChart::entryClicked, this, [this](int entry) {
        showEntry(entry);
        showPreview();
    });

    m_outputView = new QLabel(this);
    m_outputView->setObjectName("raceOutput");
    m_outputView->setAlignment(Qt::AlignCenter);
    m_outputView->setMinimumSize(200, 150);
    m_diffView = new QLabel(this);
    m_diffView->setObjectName("raceDiff");
    m_diffView->setAlignment(Qt::AlignCenter);
    m_diffView->setMinimumSize(200, 150);
    m_details = new QLabel(tr("Click a bar to see that run's picture and how far it is from the checking reference's."), this);
    m_details->setObjectName("raceDetails");
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);

    QHBoxLayout *top = createJobBar();
    top->addWidget(new QLabel(tr("Time:"), this));
    top->addWidget(m_metric);
    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_outputView);
    bottom->addWidget(m_diffView);
    bottom->addWidget(m_details, 1);
    m_preview = new QWidget(this);
    m_preview->setObjectName("racePreview");
    m_preview->setLayout(bottom);
    auto *bars = new QWidget(this); // the ranking, and under it the end-to-end story; they scroll together
    auto *barsLayout = new QVBoxLayout(bars);
    barsLayout->setContentsMargins(0, 0, 0, 0);
    barsLayout->setSpacing(2);
    barsLayout->addWidget(m_chart);
    barsLayout->addWidget(m_verdict);
    barsLayout->addStretch(1);
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(bars);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_split = new QSplitter(Qt::Vertical, this);
    m_split->setObjectName("raceSplit");
    m_split->addWidget(scroll);
    m_split->addWidget(m_preview);
    m_split->setStretchFactor(0, 1);
    m_split->setStretchFactor(1, 0);
    m_split->setCollapsible(0, false);
    m_split->setCollapsible(1, true);
    m_split->installEventFilter(this);
    connect(m_split, &QSplitter::splitterMoved, this, [this] {
        if (!m_fitting)
            m_splitByUser = true;
    });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->setSpacing(4);
    layout->addLayout(top);
    layout->addWidget(m_heading);
    layout->addWidget(m_winner);
    layout->addWidget(m_split, 1);

    createBenchWorker();
    updateActions();
}

void RacePage::showFailure(const QString &message)
{
    clearPending();
    m_winner->setText(tr("The race could not start: %1").arg(message));
    m_progress->setFormat(tr("%v of %m runs"));
    if (m_presentation)
        m_presentation->setStatusText(tr("The race could not start: %1").arg(message));
    emit statusMessage(tr("The race could not start: %1").arg(message));
}

RacePage::~RacePage()
{
    delete m_presentation;
}

void RacePage::setInput(const std::shared_ptr<const Image> &image, const QString &)
{
    m_input = image;
    updateActions();
}

void RacePage::setRequest(const ComputeRequest &request)
{
    m_request = request;
    if (request.input)
        m_input = request.input;
    updateActions();
    updateTitles();
}

QList<QAction *> RacePage::viewMenuActions() const
{
    return {m_presentAct};
}

QList<QAction *> RacePage::toolBarActions() const
{
    return {m_startAct};
}

bool RacePage::canStart() const
{
    return m_input && !m_request.engine.isCpu() && !m_request.run.filter.empty();
}

void RacePage::updateActions()
{
    JobPage::updateActions();
    if (m_request.engine.isCpu())
        m_startButton->setToolTip(tr("Pick an OpenCL device in the controls to race the variants"));
    if (m_presentation)
        m_presentation->setStartState(m_startButton->isEnabled(), isBusy());
}

bool RacePage::startJob()
{
    if (isBusy() || !canStart())
        return false;
    const FilterSpec *filter = findFilter(m_request.run.filter);
    if (!filter)
        return false;
    raiseTab();
    BenchJob job = benchJob();
    job.input = m_input; // the request's, or the last one that came with one
    job.run.keepOutput = true;
    job.run.local = LocalSize{}; // every variant at its own best launch (auto, tuned where known)
    m_race = RaceResult{};
    m_race.filter = filter->name;
    m_race.deviceName = job.device.name;
    m_race.deviceKind = job.device.kind;
    m_race.platformName = job.device.platformName;
    clearPending();
    showRace();
    m_chart->setSelected(-1);
    m_progress->setRange(0, raceEntryCount(*filter, job.run.params, job.race));
    m_progress->setValue(0);
    m_splitByUser = false;
    m_heading->setText(tr("<b>%1</b> on %2, %3×%4 %5")
                           .arg(q(filter->title).toHtmlEscaped(), q(job.device.name).toHtmlEscaped())
                           .arg(m_input->width())
                           .arg(m_input->height())
                           .arg(formatName(job.run.params.format)));
    m_winner->setText(tr("Racing…"));
    if (m_presentation)
        m_presentation->setWinnerText(tr("Racing…"));
    const QString starting = tr("Starting the race on %1…").arg(q(job.device.name));
    m_progress->setFormat(starting);
    if (m_presentation)
        m_presentation->setStatusText(starting);
    emit statusMessage(starting);
    updateTitles();
    const bool started = startBenchJob(job, &BenchWorker::raceJob);
    updatePresentPictures();
    return started;
}

void RacePage::benchProgress(const BenchProgress &progress)
{
    if (const auto *step = std::get_if<BenchProgress::RaceStep>(&progress.what))
        onStep(step->upcoming, progress.done, progress.total, step->firstBuild);
    else if (const auto *entry = std::get_if<RaceEntry>(&progress.what))
        onProgress(*entry, progress.done, progress.total);
}

void RacePage::benchFinished(const BenchResult &result)
{
    onFinished(std::get<RaceResult>(result.what));
}

void RacePage::onStep(const RaceEntry &upcoming, int index, int total, bool firstBuild)
{
    // Every wait says what it waits for (issue 24: nothing did during a first run's builds). The numbers
    // count the runs that race: the checking reference is not one of them (issue 24: "8 runs", 7 bars).
    QString text;
    if (upcoming.isCheckingReference()) {
        text = tr("Preparing the checking reference (computed once for this picture)…");
    } else if (index == 0) {
        text = tr("Measuring %1…").arg(q(upcoming.title));
    } else {
        const bool reference = !m_race.entries.empty() && m_race.entries.front().isCheckingReference();
        const QString what = firstBuild ? tr("Compiling and running %1").arg(q(upcoming.title))
                                        : tr("Running %1").arg(q(upcoming.title));
        text = tr("%1 (%2 of %3)…").arg(what).arg(index - (reference ? 1 : 0)).arg(total - (reference ? 1 : 0));
    }
    m_progress->setFormat(text); // titles hold no %v, %m or %p
    if (m_presentation)
        m_presentation->setStatusText(text);
    emit statusMessage(text);
    // The chart says it too, in the row the version's bar will take (its result clears it).
    m_chart->setPending(upcoming, firstBuild);
    if (m_presentation)
        m_presentation->chart()->setPending(upcoming, firstBuild);
}

void RacePage::clearPending()
{
    m_chart->clearPending();
    if (m_presentation)
        m_presentation->chart()->clearPending();
}

void RacePage::showRace()
{
    m_chart->setRace(m_race);
    m_verdict->setRace(m_race);
    if (m_presentation) {
        m_presentation->chart()->setRace(m_race);
        m_presentation->verdict()->setRace(m_race);
    }
}

QString RacePage::runsText() const
{
    int device = 0, cpu = 0;
    for (const RaceEntry &e : m_race.entries)
        if (e.ok() && !e.isCheckingReference())
            ++(e.onDevice() ? device : cpu);
    const QString onDevice = device == 1 ? tr("1 version on the device") : tr("%1 versions on the device").arg(device);
    if (cpu == 0)
        return onDevice;
    return tr("%1 and %2 on the CPU").arg(onDevice, cpu == 1 ? tr("1") : QString::number(cpu));
}

void RacePage::onProgress(const RaceEntry &entry, int done, int total)
{
    m_race.entries.push_back(entry);
    m_race.refreshCpuFigures(); // until the race ends: the fastest real CPU row so far (never the reference)
    m_race.measureSharedCopy();
    showRace();
    m_progress->setMaximum(total);
    m_progress->setValue(done);
    updateWinner();
    updatePresentPictures(); // the winner so far
    fitChart();
}

void RacePage::onFinished(const RaceResult &race)
{
    clearPending(); // a cancelled race leaves its next version unbuilt
    m_race = race;
    m_race.refreshCpuFigures(); // as the store has them now
    updateTitles();
    showRace();
    // What is said counts what is drawn: the racers on the device and on the CPU, not the checking
    // reference (issue 24: "8 runs" beside 7 bars in present mode).
    const QString runs = runsText();
    m_progress->setFormat(race.cancelled ? tr("cancelled: %1").arg(runs) : runs);
    updateWinner();
    const int win = m_race.winner(m_chart->metric());
    QString status = race.cancelled ? tr("Race cancelled after %1.").arg(runs) : tr("Race finished: %1.").arg(runs);
    if (win >= 0)
        status += m_chart->metric() == RaceMetric::KernelOnly
                      ? tr(" Fastest version: %1, filtering in %2.").arg(q(m_race.entries[win].title),
                                                                       msText(m_race.entries[win].timeMs(RaceMetric::KernelOnly)))
                      : tr(" Fastest: %1, %2.").arg(q(m_race.entries[win].title), msText(m_race.entries[win].timeMs(m_chart->metric())));
    if (m_presentation)
        m_presentation->setStatusText(status);
    emit statusMessage(status);
    if (win >= 0)
        showEntry(win);
    finishJob();
    updatePresentPictures();
    fitChart();
}

void RacePage::updateWinner()
{
    const RaceMetric metric = m_chart->metric();
    const int win = m_race.winner(metric);
    if (win < 0)
        return;
    const RaceEntry &e = m_race.entries[win];
    QString text;
    if (metric == RaceMetric::KernelOnly) {
        // The versions against each other by their filtering; the verdict against the CPU is end to end.
        text = tr("<b>Fastest version: %1</b> — filtering in %2<br/><i>%3</i>")
                   .arg(q(e.title).toHtmlEscaped(), msText(e.timeMs(metric)), q(raceWhy(m_race.filter, e)).toHtmlEscaped());
    } else {
        // A CPU row winning is not "about as fast as the CPU": it is the CPU, and nothing on the device beat it.
        const bool cpuWins = e.baseline && e.name != "opencv_tapi";
        const std::string words = cpuWins ? std::string("none of the device's versions beat it here")
                                          : m_race.speedupSentence(e, metric);
        text = tr("<b>Winner: %1</b> — %2%3<br/><i>%4</i>")
                   .arg(q(e.title).toHtmlEscaped(), msText(e.timeMs(metric)),
                        words.empty() ? QString() : QStringLiteral(", ") + q(words).toHtmlEscaped(),
                        q(raceWhy(m_race.filter, e)).toHtmlEscaped());
    }
    // The end-to-end verdict against the CPU, always in view beside the ranking (the stacked bars under the
    // ranking may need scrolling: 10 versions at 1366x768).
    if (const std::string verdict = m_race.endToEndSentence(); !verdict.empty())
        text += QStringLiteral("<br/>") + q(verdict).toHtmlEscaped();
    // On a CPU device (PoCL) "faster than OpenCV on the CPU" is the same chip against itself: say so
    // (the presentation says it on its device line, right above).
    if (m_presentation)
        m_presentation->setWinnerText(text);
    if (const std::string note = m_race.sameProcessorNote(); !note.empty())
        text += QStringLiteral("<br/><b>%1</b>").arg(q(note).toHtmlEscaped());
    m_winner->setText(text);
}

void RacePage::showEntry(int index)
{
    if (index < 0 || index >= int(m_race.entries.size()))
        return;
    m_chart->setSelected(index);
    const RaceEntry &e = m_race.entries[index];
    const RunResult &r = e.result;
    m_outputView->setPixmap(previewPixmap(qimageFromImage(r.output), 260));
    const Image *reference = nullptr;
    for (const RaceEntry &other : m_race.entries)
        if (other.name == "cpu_single" && !other.result.output.isNull())
            reference = &other.result.output;
    int maxDiff = -1;
    double meanDiff = 0;
    QImage diff;
    if (reference && !r.output.isNull())
        diff = differenceHeatMap(r.output, *reference, &maxDiff, &meanDiff);
    m_diffView->setPixmap(previewPixmap(diff, 260));
    QString text = QStringLiteral("<b>%1</b> <code>%2</code><br/>").arg(q(e.title).toHtmlEscaped(), q(e.name));
    text += q(raceWhy(m_race.filter, e)).toHtmlEscaped() + QStringLiteral("<br/>");
    text += tr("End to end %1, kernel %2").arg(msText(e.timeMs(RaceMetric::EndToEnd)), msText(e.timeMs(RaceMetric::KernelOnly)));
    if (!e.onHost && !e.baseline)
        text += tr(", work-group %1").arg(q(launchShapeLabel(r.local, r.localSource)));
    text += QStringLiteral("<br/>");
    if (maxDiff >= 0)
        text += maxDiff == 0 ? tr("Identical to the checking reference's picture (right: the difference, all black).")
                             : tr("Largest difference from the checking reference's picture: %1 of 255 (allowed: %2).")
                                   .arg(maxDiff)
                                   .arg(r.tolerance);
    m_details->setText(text);
}

void RacePage::setPresenting(bool on)
{
    if (!on) {
        if (m_presentation)
            m_presentation->hide();
        if (m_presentAct->isChecked())
            m_presentAct->setChecked(false);
        return;
    }
    if (!m_presentAct->isChecked()) {
        m_presentAct->setChecked(true); // toggled() comes back here
        return;
    }
    if (!m_presentation)
        createPresentation();
    showRace();
    updateTitles();
    updateWinner();
    updatePresentPictures();
    updateActions();
    m_presentation->showFullScreen();
    m_presentation->activateWindow(); // its keys (Space, Esc) work at once
}

void RacePage::createPresentation()
{
    m_presentation = new RacePresentation(m_chart->metric(), m_startAct->shortcut());
    m_presentation->installEventFilter(this);
    connect(m_presentation, &RacePresentation::startRequested, this, [this] { startJob(); });
    connect(m_presentation, &RacePresentation::leaveRequested, this, [this] { setPresenting(false); });
    connect(m_presentation, &RacePresentation::lessonRequested, this, &RacePage::lessonRequested);
}

void RacePage::fitChart()
{
    const int total = m_split->height() - m_split->handleWidth();
    if (m_splitByUser || total <= 0)
        return;
    // While racing, room for every bar still to come (a row each), so that the picture does not shrink
    // bar by bar.
    const int coming = isBusy() ? std::max(0, m_progress->maximum() - int(m_race.entries.size())) : 0;
    const int chart = m_chart->minimumSizeHint().height() + coming * m_chart->rowHeight()
                      + m_verdict->heightForWidth(std::max(300, m_verdict->width())) + 2;
    int preview = total - chart;
    if (preview < m_preview->minimumSizeHint().height())
        preview = 0; // collapsed: the handle at the bottom brings it back, and so does a click on a bar
    m_fitting = true;
    m_split->setSizes({total - preview, preview});
    m_fitting = false;
}

void RacePage::showPreview()
{
    const QList<int> sizes = m_split->sizes();
    const int want = m_preview->minimumSizeHint().height();
    if (sizes.size() == 2 && sizes[1] < want) {
        m_fitting = true;
        m_split->setSizes({std::max(0, sizes[0] + sizes[1] - want), want});
        m_fitting = false;
        m_splitByUser = true; // the user asked for the picture: it stays until the next race
    }
}

bool RacePage::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_presentation && event->type() == QEvent::Resize)
        updatePresentPictures();
    else if (watched == m_split && event->type() == QEvent::Resize)
        fitChart();
    return JobPage::eventFilter(watched, event);
}

void RacePage::updatePresentPictures()
{
    if (!m_presentation)
        return;
    const int win = m_race.winner(m_chart->metric());
    m_presentation->setPictures(m_input.get(), win >= 0 ? &m_race.entries[win] : nullptr, isBusy());
}

void RacePage::updateTitles()
{
    if (!m_presentation)
        return;
    const FilterSpec *filter = findFilter(!m_race.filter.empty() ? m_race.filter : m_request.run.filter);
    m_presentation->setTitles(filter, m_race, m_request);
}

RaceChart *RacePage::presentChart() const
{
    return m_presentation ? m_presentation->chart() : nullptr;
}

RaceVerdict *RacePage::presentVerdict() const
{
    return m_presentation ? m_presentation->verdict() : nullptr;
}

QWidget *RacePage::presentation() const
{
    return m_presentation;
}

QString RacePage::presentTitle() const
{
    return m_presentation ? m_presentation->title() : QString();
}

void RacePage::addToReport(ReportData &data) const
{
    if (m_race.entries.empty())
        return;
    data.race = m_race;
    data.metric = m_chart ? m_chart->metric() : RaceMetric::EndToEnd;
    const int win = m_race.winner(data.metric);
    if (win >= 0 && !m_race.entries[win].result.output.isNull())
        addReportImage(data, "Race winner: " + m_race.entries[win].name, qimageFromImage(m_race.entries[win].result.output));
}

std::optional<ScreenshotJob> RacePage::screenshotJob(const ScreenshotPlan &plan)
{
    if (plan.presentNBody) {
        ScreenshotJob job;
        job.afterRun = false;
        NBodyDemo *demo = m_presentation ? m_presentation->nbodyDemo() : nullptr;
        if (!demo) {
            job.refusal = QStringLiteral("present mode is not available");
            return job;
        }
        // Taken once both sides have a rate and the stars have moved a few seconds.
        job.start = [this, demo](ScreenshotJob::Done done) {
            connect(demo, &NBodyDemo::failed, this, done);
            whenAnimated(
                this,
                [demo] { return demo->cpuView()->stepsPerSecond() > 0 && demo->deviceView()->stepsPerSecond() > 0; },
                done, QStringLiteral("the N-body demo had no rate on both sides after 30 s"));
            return true;
        };
        return job;
    }
    if (!plan.race)
        return std::nullopt;
    return jobScreenshot([this] {
        return m_race.winner(RaceMetric::EndToEnd) < 0 ? QStringLiteral("no variant finished the race") : QString();
    });
}

QWidget *RacePage::screenshotWidget() const
{
    return m_presentation && m_presentation->isVisible() ? m_presentation : nullptr;
}

} // namespace fwb
