// RacePage: Run ▸ Race All Variants. Every variant of the current filter on the current image,
// device, format and parameters, plus the CPU and OpenCV, as bars that appear as each run ends,
// sorted fastest first; end to end (default) or kernel only; the winner with its one-sentence why;
// click a bar for that run's output and its difference from the CPU. View ▸ Present (F11) shows the
// race full screen in large type, for a class: a large "Start the race" button (Space or Enter), the
// device in plain words, the picture before and after (the winner's), the winner's why, and how to
// leave (Esc or F11); that window is RacePresentation, fed by this page.
#pragma once

#include "BenchWorker.h"
#include "JobPage.h"

class QAction;
class QComboBox;
class QLabel;
class QPushButton;
class QSplitter;

namespace fwb {

class RaceChart;
class RacePresentation;
class RaceVerdict;

class RacePage : public JobPage
{
    Q_OBJECT

public:
    explicit RacePage(QWidget *parent = nullptr);
    ~RacePage() override;

    QString title() const override { return tr("Race"); }
    void setInput(const std::shared_ptr<const Image> &image, const QString &description) override;
    void setRequest(const ComputeRequest &request) override;
    QList<QAction *> viewMenuActions() const override;
    QList<QAction *> toolBarActions() const override;
    QList<QAction *> runMenuActions() const override { return {m_startAct, m_cancelAct}; }
    // The race, its metric and the winner's picture.
    void addToReport(ReportData &data) const override;
    // --race: the race; --present --lab nbody: present mode's N-body demo, animated a while.
    std::optional<ScreenshotJob> screenshotJob(const ScreenshotPlan &plan) override;
    QWidget *screenshotWidget() const override; // present mode while it is shown

    RaceChart *chart() const { return m_chart; }
    // The end-to-end story under the bars: the fastest version's copies and filtering stacked, the pinned
    // alternative, the CPU rows, the verdict (the presentation's: presentVerdict(), nullptr before it opened).
    RaceVerdict *verdict() const { return m_verdict; }
    RaceVerdict *presentVerdict() const;
    // What the race ran, as the bars show it: "6 versions on the device and 2 on the CPU" (the checking
    // reference, not in the race, is not counted).
    QString runsText() const;
    const RaceResult &race() const { return m_race; }
    bool isRacing() const { return isBusy(); }
    // Presentation mode's question ("Which way of finding the edges in the picture is fastest?"), empty
    // before View ▸ Present first opened it; its chart (no checking reference), nullptr before then.
    QString presentTitle() const;
    RaceChart *presentChart() const;
    QWidget *presentation() const;

public slots:
    bool startJob() override;
    void setPresenting(bool on);

signals:
    // Present mode's "Show the lesson" button or L: the shell opens the guided lesson.
    void lessonRequested();

protected:
    bool canStart() const override;
    void updateActions() override;
    void showFailure(const QString &message) override;
    void benchProgress(const BenchProgress &progress) override; // onStep, onProgress
    void benchFinished(const BenchResult &result) override;     // onFinished
    // The presentation's pictures follow its size; the splitter's share of the chart follows its own.
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void onStep(const RaceEntry &upcoming, int index, int total, bool firstBuild);
    void clearPending(); // both charts' "compiling…" row
    void showRace(); // the race so far in both charts and both verdicts
    void onProgress(const RaceEntry &entry, int done, int total);
    void onFinished(const RaceResult &race);
    void showEntry(int entry);
    void updateWinner();
    void updateTitles(); // presentation title and device line, from the race's filter and device
    void createPresentation(); // the RacePresentation window, connected to this page
    // The bars first: the splitter gives the chart the height all its bars need (those of the race
    // running, as many as it will have), the picture below the rest, none when that is too little
    // (issue 24: 4 of 8 bars at 1366x768). A handle the user dragged is left alone until the next race.
    void fitChart();
    void showPreview(); // a bar was clicked: its picture in view, even if the bars then scroll
    void updatePresentPictures(); // before: the input; after: the winner's output

    std::shared_ptr<const Image> m_input; // kept when a request comes without one
    RaceResult m_race;
    QAction *m_presentAct;
    QComboBox *m_metric;
    QLabel *m_heading;
    QLabel *m_winner;
    RaceChart *m_chart;
    RaceVerdict *m_verdict;
    QLabel *m_outputView;
    QLabel *m_diffView;
    QLabel *m_details;
    QSplitter *m_split;
    QWidget *m_preview; // the clicked run's picture, its difference and its details, below the chart
    bool m_splitByUser = false;
    bool m_fitting = false;
    RacePresentation *m_presentation = nullptr; // View ▸ Present, created when first shown
};

} // namespace fwb
