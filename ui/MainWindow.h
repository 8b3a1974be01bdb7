// MainWindow: the workbench window: image views, control and timing docks, menus, settings,
// save/export, and the hand-off of requests to the ComputeWorker.
#pragma once

#include "ComputeWorker.h"
#include "Devices.h"
#include "Image.h"

#include <QMainWindow>
#include <QPoint>
#include <QStringList>
#include <QTimer>

#include <memory>
#include <vector>

class QAction;
class QActionGroup;
class QLabel;
class QMenu;
class QSplitter;

namespace fwb {

class ControlPanel;
class ErrorBanner;
class ImageView;
class TimingPanel;

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    enum class ViewMode { SideBySide, Split, Difference };

    // useSettings = false: start from defaults and persist nothing (screenshots, tests).
    explicit MainWindow(bool useSettings = true, QWidget *parent = nullptr);
    ~MainWindow() override;

    bool loadFile(const QString &path);
    void openTestCard(int width = 1200, int height = 800);
    QString currentFile() const { return m_inputPath; }
    bool hasImage() const { return bool(m_input); }
    std::shared_ptr<const Image> inputImage() const { return m_input; }

    ViewMode viewMode() const { return m_viewMode; }
    void setViewMode(ViewMode mode);
    static QString viewModeName(ViewMode mode);
    static bool parseViewMode(const QString &name, ViewMode *mode);

    // Starts a run now (bypassing the debounce); false + the reason in the status line when the
    // request cannot launch (no image, no usable variant, invalid work-group shape).
    bool startRun();
    void cancelRun();
    bool isRunning() const { return m_running; }
    bool hasResult() const { return m_hasResult; }
    const ComputeResult &lastResult() const { return m_result; }
    int runLogSize() const { return int(m_runLog.size()); }

    // Refuses the opened original always, and an existing file unless overwriteConfirmed.
    bool saveResult(const QString &path, bool overwriteConfirmed, QString *error = nullptr);
    // .json -> JSON array of runs, anything else -> CSV.
    bool exportRunLog(const QString &path, QString *error = nullptr);

    ControlPanel *controls() const { return m_controls; }
    TimingPanel *timingPanel() const { return m_timing; }
    ImageView *originalView() const { return m_originalView; }
    ImageView *resultView() const { return m_resultView; }
    ErrorBanner *banner() const { return m_banner; }
    ComputeWorker *worker() const { return m_worker; }
    QString statusText() const;
    QString pixelText() const;
    QStringList recentFiles() const { return m_recentFiles; }

signals:
    void imageLoaded();
    void resultShown(const fwb::ComputeResult &result); // after the views and panel updated
    void runFailed(const fwb::ComputeResult &result);

protected:
    void closeEvent(QCloseEvent *event) override;
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
    void onLaunchChecked(quint64 id, const QString &problem, double checkMs);
    void onPixelHovered(fwb::ImageView *view, const QPoint &pixel);

private:
    void createActions();
    void updateActions();
    void createDocks();
    void readSettings();
    void writeSettings();
    void addRecentFile(const QString &path);
    void updateRecentMenu();
    void setInput(const Image &image, const QString &path, const QString &description);
    void updateViews();
    // The input as the kernel receives it (converted to the run's pixel format), for display.
    QImage displayedInput() const;
    PixelFormat displayedFormat() const;
    // Side by side with a transposed result: pixel (x, y) on the left is (y, x) on the right.
    bool viewsTransposed() const;
    void syncResultView();
    void setStatus(const QString &text);
    ComputeRequest makeRequest() const;

    bool m_useSettings = true;
    std::vector<DeviceInfo> m_devices;
    ComputeWorker *m_worker = nullptr;
    ControlPanel *m_controls = nullptr;
    TimingPanel *m_timing = nullptr;
    ErrorBanner *m_banner = nullptr;
    QSplitter *m_splitter = nullptr;
    ImageView *m_originalView = nullptr;
    ImageView *m_resultView = nullptr;
    QLabel *m_statusLabel = nullptr;
    QLabel *m_pixelLabel = nullptr;

    std::shared_ptr<const Image> m_input;
    QImage m_inputQImage;
    mutable QImage m_inputConverted; // m_input in m_inputConvertedFormat, made on first use
    mutable PixelFormat m_inputConvertedFormat = PixelFormat::Gray8;
    QString m_inputPath; // empty for the test card
    QString m_inputDescription;
    ComputeResult m_result;
    bool m_hasResult = false;
    std::vector<ComputeResult> m_runLog; // every run this session, output images dropped
    bool m_running = false;
    quint64 m_nextId = 0;
    quint64 m_latestRunId = 0;
    quint64 m_latestCheckId = 0;
    QTimer m_debounce;
    ViewMode m_viewMode = ViewMode::SideBySide;
    bool m_syncing = false;
    QStringList m_recentFiles;

    QAction *m_saveAct = nullptr;
    QAction *m_exportAct = nullptr;
    QAction *m_runAct = nullptr;
    QAction *m_cancelAct = nullptr;
    QAction *m_gridAct = nullptr;
    QActionGroup *m_viewGroup = nullptr;
    QAction *m_viewActs[3] = {nullptr, nullptr, nullptr};
    QMenu *m_recentMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
};

} // namespace fwb
