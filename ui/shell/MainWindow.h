// MainWindow: the workbench shell: menus and actions, the control and timing docks, the status
// bar, settings, loading and saving, and the hand-off between the ComputeWorker and the pages.
#pragma once

#include "ComparePage.h"
#include "ComputeWorker.h"
#include "Devices.h"
#include "Image.h"
#include "RunLog.h"

#include <QMainWindow>
#include <QPointer>
#include <QStringList>
#include <QTimer>

#include <memory>
#include <vector>

class QAction;
class QLabel;
class QMenu;
class QTabWidget;

namespace fwb {

class ControlPanel;
class ElidedLabel;
class ErrorBanner;
class ImageView;
class RecentFilesMenu;
class TimingPanel;
class WorkbenchPage;
class LessonWindow;
class PrepareAhead;

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    using ViewMode = ComparePage::ViewMode;

    // useSettings = false: start from defaults and persist nothing (screenshots, tests).
    explicit MainWindow(bool useSettings = true, QWidget *parent = nullptr);
    ~MainWindow() override;

    bool loadFile(const QString &path);
    void openTestCard(int width = 1200, int height = 800);
    QString currentFile() const { return m_inputPath; }
    bool hasImage() const { return bool(m_input); }
    std::shared_ptr<const Image> inputImage() const { return m_input; }

    // The compare page's view mode.
    ViewMode viewMode() const { return m_comparePage->viewMode(); }
    void setViewMode(ViewMode mode) { m_comparePage->setViewMode(mode); }
    static QString viewModeName(ViewMode mode) { return ComparePage::viewModeName(mode); }
    static bool parseViewMode(const QString &name, ViewMode *mode)
    {
        return ComparePage::parseViewMode(name, mode);
    }

    // Starts a run now (bypassing the debounce); false + the reason in the status line when the
    // request cannot launch (no image, no usable variant, invalid work-group shape).
    bool startRun();
    void cancelRun();
    bool isRunning() const { return m_running; }
    bool hasResult() const { return m_hasResult; }
    // A run's first launch is on screen while its timings are still coming (or never came: cancelled, failed).
    bool firstPictureOnScreen() const { return m_firstPictureOnScreen; }
    // With a picture on screen, a run's first picture waits this long for the whole result (most runs end
    // sooner: their picture and numbers then change together, without a "timing…" flash in between).
    static constexpr int kFirstPictureHoldMs = 150;
    const ComputeResult &lastResult() const { return m_result; }
    int runLogSize() const { return m_runLog.size(); }
    // A run that keeps the user waiting longer pauses automatic runs unless the user turned them on
    // (default one second; tests lower it).
    void setAutoRunLimitMs(double ms) { m_autoRunLimitMs = ms; }
    const RunLog &runLog() const { return m_runLog; }

    // Refuses the opened original always, and an existing file unless overwriteConfirmed. A save remembers
    // its folder for the next Save Result As.
    bool saveResult(const QString &path, bool overwriteConfirmed, QString *error = nullptr);
    // What Save Result As proposes: "<picture>-<filter>-<variant>.png" in the folder of the last save, else
    // the user's Pictures folder; never in the opened picture's folder by default, never the picture.
    QString saveSuggestion() const;
    // .json -> JSON array of runs, anything else -> CSV.
    bool exportRunLog(const QString &path, QString *error = nullptr);

    // The pages in the central tab widget, in tab order; the compare page is the first.
    QList<WorkbenchPage *> pages() const { return m_pages; }
    ComparePage *comparePage() const { return m_comparePage; }
    ControlPanel *controls() const { return m_controls; }
    TimingPanel *timingPanel() const { return m_timing; }
    ImageView *originalView() const { return m_comparePage->originalView(); }
    ImageView *resultView() const { return m_comparePage->resultView(); }
    ErrorBanner *banner() const { return m_banner; }
    ComputeWorker *worker() const { return m_worker; }
    PrepareAhead *prepareAhead() const { return m_prepare; } // the background builder (PrepareAhead.h)
    QString statusText() const;
    // The status bar's message (also File ▸ Export Report's confirmation).
    void setStatus(const QString &text);
    QString pixelText() const;
    // Shrinks and moves the window so that all of it, the window manager's title bar and borders
    // included, lies in its screen's available area (issue 24: at 1366x768 under a window manager the
    // status bar was below the screen's edge). Called when the window is shown (not offscreen).
    void fitOnScreen();
    QStringList recentFiles() const;
    // Help ▸ Show the Lesson (and L in present mode): the guided lesson on the current device and picture,
    // one window reused; fullScreen from present mode.
    LessonWindow *showLesson(bool fullScreen = false);
    LessonWindow *lessonWindow() const; // nullptr before the lesson first opened

signals:
    void imageLoaded();
    void resultShown(const fwb::ComputeResult &result); // after the views and panel updated
    // The shown result's device copy speed, measured after it (ComputeResult::copyBandwidthPending), is on display.
    void copyBandwidthShown();
    // A run's first launch shown, its timing panel saying "timing…" (ComputeWorker::firstPicture).
    void firstPictureShown(const fwb::ComputeResult &preview);
    void runFailed(const fwb::ComputeResult &result);

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private slots:
    void open();
    void saveAs();
    void exportLog();
    void showHelp();
    void about();
    void scheduleRun();
    void validateShape();
    void onRunStarted(quint64 id);
    void onRunFinished(const fwb::ComputeResult &result);
    void onFirstPicture(const fwb::ComputeResult &preview);
    void onLaunchChecked(quint64 id, const QString &problem, double checkMs);

private:
    // Adds a page as a tab of the central area; the tab bar shows once there are two.
    void addPage(WorkbenchPage *page);
    void createActions();
    void updateActions();
    void createDocks();
    void fitShortScreen();
    void readSettings();
    void writeSettings();
    void setInput(const Image &image, const QString &path, const QString &description);
    ComputeRequest makeRequest() const;
    // Every page hears what the controls describe now (the compare page: which pixel format).
    void sendRequestToPages();
    // The background builder follows the controls' device, filter, variant and format.
    void syncPrepareAhead();
    void showFirstPicture(const ComputeResult &preview);

    bool m_useSettings = true;
    QPointer<LessonWindow> m_lesson;
    std::vector<DeviceInfo> m_devices;
    ComputeWorker *m_worker = nullptr;
    PrepareAhead *m_prepare = nullptr;
    ControlPanel *m_controls = nullptr;
    TimingPanel *m_timing = nullptr;
    ErrorBanner *m_banner = nullptr;
    QTabWidget *m_pageTabs = nullptr;
    QList<WorkbenchPage *> m_pages;
    ComparePage *m_comparePage = nullptr;
    ElidedLabel *m_statusLabel = nullptr;
    QLabel *m_pixelLabel = nullptr;

    std::shared_ptr<const Image> m_input;
    QString m_inputPath; // empty for the test card
    ComputeResult m_result;
    bool m_hasResult = false;
    RunLog m_runLog; // every run this session, output images dropped
    bool m_running = false;
    quint64 m_nextId = 0;
    quint64 m_latestRunId = 0;
    quint64 m_latestCheckId = 0;
    QTimer m_debounce;
    QTimer m_firstPictureHold; // kFirstPictureHoldMs, then m_heldPicture goes on screen
    ComputeResult m_heldPicture;
    bool m_firstPictureOnScreen = false;
    double m_autoRunLimitMs = 1000;
    int m_autoRunChoice = -1;     // the user's own auto-run choice (remembered): -1 none, 0 off, 1 on
    bool m_autoRunPaused = false; // auto-run switched off for this image because a run was slow

    QAction *m_saveAct = nullptr;
    QAction *m_exportAct = nullptr;
    QAction *m_runAct = nullptr;
    QAction *m_cancelAct = nullptr;
    RecentFilesMenu *m_recentMenu = nullptr;
};

} // namespace fwb
