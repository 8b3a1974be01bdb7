// KernelEditorDock: the "Kernel source" dock: the current variant's kernel file in a code editor (its
// headers in read-only tabs, the catalogue's defines above), Build (Ctrl+B) and Run (Ctrl+R) in the
// helper process (core/WorkerProcess.h) with diagnostics in the user's own lines, the edited kernel
// raced against the unedited variant, Save As User Variant, Revert, and a recovery file for edits.
// A user variant chosen in the window's variant list ("user:NAME") opens here with its own source.
// The pieces live beside it: CodeEditor (the code view), DiagnosticsList, EditorJobRunner (the jobs
// in the helper) and EditorResultPanel (the two-bar race).
#pragma once

#include "ComputeWorker.h"
#include "EditorResultPanel.h"
#include "UserVariants.h"

#include <QDockWidget>
#include <QMap>
#include <QTimer>

#include <functional>
#include <optional>

class QAction;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QTabWidget;

namespace fwb {

class CodeEditor;
class ControlPanel;
class DiagnosticsList;
class EditorJobRunner;
class MainWindow;
class RecoveryBar;
class VariantPicker;
struct EditorJobResult;

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
    // Line (1-based) of the variant's entry kernel in the file, 0 when not found; the code view's
    // cursor line and first visible line (the dock opens scrolled to the entry).
    int entryLine() const { return m_entryLine; }
    int cursorLine() const;
    int firstVisibleLine() const;
    int visibleCodeLines() const; // lines of code in view at the dock's height
    QStringList diagnosticTexts() const;    // "gaussian5x5.cl:48:5: error: ..." as listed
    QStringList tabTitles() const;
    QString definesText() const;
    QString rawLog() const { return m_buildLog; }
    bool hasRaceResult() const { return m_result->hasResult(); }
    double originalMs() const { return m_result->originalMs(); }
    double editedMs() const { return m_result->editedMs(); }
    bool editedMatches() const { return m_result->editedMatches(); }
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

protected:
    bool eventFilter(QObject *watched, QEvent *e) override; // Ctrl+B / Ctrl+R, focus anywhere in the dock

signals:
    void buildFinished(bool ok);
    void runFinished(bool ok);
    void userVariantsChanged();

private:
    int m_entryLine = 0;
    void createWidgets();
    // Docked in a short window, the bottom area was the timing panel's ~200 px, which left the code
    // about one line (issue 24): grow the area until ten lines show, up to 55% of the window.
    void makeRoomForCode(MainWindow *window);
    void loadVariantFiles();
    void startJob(bool runIt);
    void finishJob(const EditorJobResult &result);
    void showDiagnostics(const std::string &log, const std::string &error);
    void openUserVariant(const QString &name);
    void deleteUserVariant(const QString &name);
    void setStatus(const QString &text, bool error = false);
    void scheduleAutosave();
    void writeRecovery();
    void checkRecovery();
    void refreshUserVariants();
    void updateActions();
    QString variantKey() const;
    std::string baseVariantName() const; // the catalogue variant the request's variant launches as
    UserVariant editedKernel() const;

    ComputeRequest m_request;
    QString m_loadedKey;      // filter/variant whose files the tabs show
    QString m_shippedSource;  // the file as the catalogue ships it, or the user variant as saved (Revert)
    QString m_fileName;       // "gaussian5x5.cl"
    std::optional<UserVariant> m_userVariant; // the loaded variant is this user variant
    QMap<QString, QString> m_edits; // unsaved edits of other variants in this session
    QString m_buildLog;
    bool m_busy = false;

    CodeEditor *m_code = nullptr; // the editable view
    QTabWidget *m_tabs = nullptr;
    QLabel *m_fileLabel = nullptr;
    QLineEdit *m_defines = nullptr;
    QLabel *m_status = nullptr;
    RecoveryBar *m_recoveryBar = nullptr;
    DiagnosticsList *m_diagnostics = nullptr;
    EditorResultPanel *m_result = nullptr;
    EditorJobRunner *m_jobs = nullptr;
    QDoubleSpinBox *m_timeout = nullptr;
    QComboBox *m_userVariants = nullptr;
    QAction *m_buildAct = nullptr;
    QAction *m_runAct = nullptr;
    QAction *m_saveAct = nullptr;
    QAction *m_revertAct = nullptr;
    QAction *m_logAct = nullptr;
    ControlPanel *m_controls = nullptr;
    VariantPicker *m_picker = nullptr; // the window's variant list (user variants are deleted there)
    QTimer m_autosave;
};

} // namespace fwb
