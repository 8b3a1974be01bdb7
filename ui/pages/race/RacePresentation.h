// RacePresentation: the race page's View ▸ Present window (F11), full screen in large type for a class:
// the filter's question, a large "Start the race" button (Space or Enter), the device in plain words,
// the winner and what the race waits for, the bars with the end-to-end story under them, the picture
// before and after (the winner's), and how to leave (Esc or F11). N (or its button) switches to the N-body
// demo and back: the same cloud of stars moved by our C++ code on every CPU thread and by the device, side
// by side in large type, each with its steps and frames per second. RacePage owns it and feeds it the race.
#pragma once

#include "BenchWorker.h"

#include <QKeySequence>
#include <QPixmap>
#include <QWidget>

class QLabel;
class QPushButton;
class QStackedWidget;

namespace fwb {

class NBodyDemo;
class RaceChart;
class RaceVerdict;

// A picture scaled to fit side×side, for the race's previews (null: an empty pixmap); a transparent one on
// a checkerboard.
QPixmap previewPixmap(const QImage &image, int side);

class RacePresentation : public QWidget
{
    Q_OBJECT

public:
    // metric: the page's ranking; raceShortcut: the page's own Race shortcut, which starts a race here too.
    RacePresentation(RaceMetric metric, const QKeySequence &raceShortcut);

    RaceChart *chart() const { return m_chart; }
    RaceVerdict *verdict() const { return m_verdict; }
    QString title() const;
    void setWinnerText(const QString &text);
    void setStatusText(const QString &text);
    // The start button follows the page's: enabled when a race can start, "Racing…" while one runs.
    void setStartState(bool enabled, bool racing);
    // The question (from the filter), the chart's empty text, and the device line in plain words (the
    // race's device once raced, else the request's).
    void setTitles(const FilterSpec *filter, const RaceResult &race, const ComputeRequest &request);
    // Before: the input; after: the winner's output (winner null: none yet; busy: the race is running).
    void setPictures(const Image *input, const RaceEntry *winner, bool busy);
    // On a device that is not a GPU: what a real GPU measured for this filter (the kept record), marked
    // "Recorded on ... not measured on this computer"; empty when shown nothing.
    QString recordedText() const;

    // The N-body demo instead of the race (on: shown and started on the race's device, not while a race
    // runs; off: stopped).
    void showNBody(bool on);
    bool showingNBody() const;
    NBodyDemo *nbodyDemo() const { return m_nbody; }

signals:
    void startRequested(); // the button, Space, Enter or the page's Race shortcut
    void leaveRequested(); // Esc or F11
    void lessonRequested(); // "Show the lesson" or L

protected:
    void hideEvent(QHideEvent *event) override;

private:
    static QString recordedLine(const FilterSpec &filter, const std::string &format);
    void startPressed(); // Space, Enter, the button: a race, or in the N-body demo start or stop it
    void openLesson();   // L or its button: the stars stop, the shell opens the lesson
    void updateMode();   // the title, the start button and the hint for the race or the demo

    RaceChart *m_chart = nullptr;
    RaceVerdict *m_verdict = nullptr;
    QLabel *m_winner = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_device = nullptr;
    QLabel *m_recorded = nullptr;
    QPushButton *m_start = nullptr;
    QLabel *m_before = nullptr;
    QLabel *m_after = nullptr;
    QLabel *m_afterCaption = nullptr;
    QLabel *m_status = nullptr; // what the race waits for now
    QLabel *m_hint = nullptr;
    QStackedWidget *m_pages = nullptr; // the race, or the N-body demo
    NBodyDemo *m_nbody = nullptr;
    QLabel *m_nbodyWhat = nullptr;     // the demo in one plain sentence
    QPushButton *m_nbodyButton = nullptr;
    DeviceInfo m_demoDevice;           // the race's device (the request's): the demo runs there
    QString m_raceTitle;
    bool m_startEnabled = false, m_racing = false;
};

} // namespace fwb
