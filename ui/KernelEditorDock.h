// KernelEditorDock: the "Kernel source" dock: the current variant's kernel file in a code editor (its
// headers in read-only tabs, the catalogue's defines above), Build (Ctrl+B) and Run (Ctrl+R) in the
// helper process (core/WorkerProcess.h) with diagnostics in the user's own lines, the edited kernel
// raced against the unedited variant, Save As User Variant, Revert, and a recovery file for edits.
#pragma once

#include "ComputeWorker.h"
#include "UserVariants.h"

#include <QDockWidget>
#include <QImage>
#include <QMap>
#include <QPointer>
#include <QTimer>

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

class QAction;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QListWidget;
class QMainWindow;
class QTabWidget;
class QThread;

namespace fwb {

class ControlPanel;
class MainWindow;
class RaceBars;

class KernelEditorDock : public QDockWidget
{
    Q_OBJECT

public:
    explicit KernelEditorDock(QWidget *parent = nullptr);
    ~KernelEditorDock() override;

    // Creates the dock in `window`, tabbed with its bottom docks and fed with the window's current
    // request whenever the controls or the image change: the one line MainWindow needs.
    static KernelEditorDock *install(MainWindow *window, std::function<ComputeRequest()> currentRequest);

    // The run the edited kernel stands in for (filter, variant, parameters, image, device).
    void setRequest(const ComputeRequest &request);

    QString source() const;
    void setSource(const QString &text); // as if typed
    bool isModified() const;
    bool isBusy() const { return m_busy; }
    double timeoutS() const;
    void setTimeoutS(double seconds);
    QString statusText() const;
    QStringList diagnosticTexts() const;    // "gaussian5x5.cl:48:5: error: ..." as listed
    QStringList tabTitles() const;
    QString definesText() const;
    QString rawLog() const { return m_buildLog; }
    bool hasRaceResult() const { return m_hasResult; }
    double originalMs() const { return m_originalMs; }
    double editedMs() const { return m_editedMs; }
    bool editedMatches() const { return m_editedMatches; }
    int currentLine() const; // 1-based cursor line in the editor
    QString recoveryPath() const;
    bool recoveryOffered() const;

public slots:
    void build();
    void run();
    void revert();
    bool saveAsUserVariant(const QString &name = {}); // empty: ask
    void restoreRecovery();
    void discardRecovery();
    void goToLine(int line);
    void showRawLog();

signals:
    void buildFinished(bool ok);
    void runFinished(bool ok);
    void userVariantsChanged();

private:
    struct JobResult;
    void createWidgets();
    void loadVariantFiles();
    void startJob(bool runIt);
    void finishJob(const JobResult &result);
    void showDiagnostics(const std::string &log, const std::string &error);
    void setStatus(const QString &text, bool error = false);
    void scheduleAutosave();
    void writeRecovery();
    void checkRecovery();
    void refreshUserVariants();
    void updateActions();
    QString variantKey() const;
    UserVariant editedKernel() const;

    ComputeRequest m_request;
    QString m_loadedKey;      // filter/variant whose files the tabs show
    QString m_shippedSource;  // the file as the catalogue ships it (Revert)
    QString m_fileName;       // "gaussian5x5.cl"
    QMap<QString, QString> m_edits; // unsaved edits of other variants in this session
    QString m_buildLog;
    bool m_busy = false;
    bool m_hasResult = false;
    double m_originalMs = 0, m_editedMs = 0;
    bool m_editedMatches = false;
    bool m_recoveryOffered = false;
    QString m_pendingUserVariant; // opened from the list; loaded once the controls show its base

    QWidget *m_code = nullptr; // the editable view (QsciScintilla or the plain fallback)
    QTabWidget *m_tabs = nullptr;
    QLabel *m_fileLabel = nullptr;
    QLabel *m_defines = nullptr;
    QLabel *m_status = nullptr;
    QWidget *m_recoveryBar = nullptr;
    QListWidget *m_diagnostics = nullptr;
    RaceBars *m_race = nullptr;
    QLabel *m_resultImage = nullptr;
    QLabel *m_diffImage = nullptr;
    QLabel *m_resultText = nullptr;
    QDoubleSpinBox *m_timeout = nullptr;
    QComboBox *m_userVariants = nullptr;
    QAction *m_buildAct = nullptr;
    QAction *m_runAct = nullptr;
    QAction *m_saveAct = nullptr;
    QAction *m_revertAct = nullptr;
    QAction *m_logAct = nullptr;
    ControlPanel *m_controls = nullptr;
    QTimer m_autosave;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::vector<QThread *> m_threads;
};

} // namespace fwb
