// KernelEditorDock: the dock's widgets and state: the tabs of code views, the defines line, the
// toolbar, Build/Run through EditorJobRunner and diagnostics. Revert, user variants and the recovery
// file: KernelEditorDockKeeping.cpp.
#include "KernelEditorDock.h"
#include "UiText.h"

#include "BenchWorker.h" // workbenchTuningDb()
#include "BuildDiagnostics.h"
#include "Catalogue.h"
#include "CodeEditor.h"
#include "ControlPanel.h"
#include "DiagnosticsList.h"
#include "EditorJobRunner.h"
#include "EditorResultPanel.h"
#include "KernelSources.h"
#include "MainWindow.h"
#include "RecoveryBar.h"
#include "TuningDb.h"
#include "VariantPicker.h"
#include "WorkerProcess.h"

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QApplication>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSplitter>
#include <QTabWidget>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>

namespace fwb {

KernelEditorDock::KernelEditorDock(QWidget *parent) : QDockWidget(tr("Kernel source"), parent)
{
    setObjectName(QStringLiteral("kernelEditorDock"));
    m_jobs = new EditorJobRunner(this);
    connect(m_jobs, &EditorJobRunner::finished, this, &KernelEditorDock::finishJob);
    createWidgets();
    m_autosave.setSingleShot(true);
    m_autosave.setInterval(1500);
    connect(&m_autosave, &QTimer::timeout, this, &KernelEditorDock::writeRecovery);
    refreshUserVariants();
    updateActions();
}

KernelEditorDock::~KernelEditorDock()
{
    delete m_jobs; // kills any helper still running and waits for the threads that watch them
    m_jobs = nullptr;
    if (m_autosave.isActive())
        writeRecovery();
}

KernelEditorDock *KernelEditorDock::install(MainWindow *window, std::function<ComputeRequest()> currentRequest)
{
    auto *dock = new KernelEditorDock(window);
    ControlPanel *controls = dock->m_controls = window->controls();
    window->addDockWidget(Qt::BottomDockWidgetArea, dock);
    const QList<QDockWidget *> docks = window->findChildren<QDockWidget *>();
    for (QDockWidget *other : docks)
        if (other != dock && window->dockWidgetArea(other) == Qt::BottomDockWidgetArea) {
            window->tabifyDockWidget(other, dock);
            other->raise(); // the timing panel stays in front until the user picks the editor
            break;
        }
    // User variants are listed in the window's variant list too: a save or delete here refreshes it,
    // a delete there refreshes the editor's own list.
    if ((dock->m_picker = controls->findChild<VariantPicker *>())) {
        connect(dock, &KernelEditorDock::userVariantsChanged, dock->m_picker, &VariantPicker::refreshUserVariants);
        connect(dock->m_picker, &VariantPicker::userVariantsChanged, dock, &KernelEditorDock::refreshUserVariants);
    }
    connect(dock, &QDockWidget::visibilityChanged, dock, [dock, window](bool visible) {
        if (visible && !dock->isFloating()) // after the tab switch has laid the dock out
            QTimer::singleShot(0, dock, [dock, window] { dock->makeRoomForCode(window); });
    });
    auto feed = [dock, currentRequest] { dock->setRequest(currentRequest()); };
    connect(controls, &ControlPanel::requestChanged, dock, feed);
    connect(window, &MainWindow::imageLoaded, dock, feed);
    QTimer::singleShot(0, dock, feed);
    return dock;
}

void KernelEditorDock::makeRoomForCode(MainWindow *window)
{
    constexpr int kMinCodeLines = 10;
    if (isFloating() || !isVisible() || m_code->visibleLines() >= kMinCodeLines)
        return;
    const int perLine = m_code->lineHeight();
    const int missing = (kMinCodeLines - m_code->visibleLines()) * perLine + perLine / 2;
    const int target = std::min(height() + missing, window->height() * 55 / 100);
    if (target <= height())
        return;
    // resizeDocks sizes the dock area, which holds the tab bar of the docks tabbed with this one too:
    // once laid out, whatever that took is added once more.
    window->resizeDocks({this}, {target}, Qt::Vertical);
    QTimer::singleShot(0, this, [this, window, target] {
        if (height() < target)
            window->resizeDocks({this}, {std::min(2 * target - height(), window->height() * 55 / 100)}, Qt::Vertical);
    });
}

int KernelEditorDock::visibleCodeLines() const
{
    return m_code->visibleLines();
}

void KernelEditorDock::createWidgets()
{
    auto *root = new QWidget(this);
    auto *layout = new QVBoxLayout(root);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setSpacing(3);

    auto *toolbar = new QToolBar(root);
    toolbar->setIconSize(QSize(16, 16));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_buildAct = toolbar->addAction(tr("Build"), this, &KernelEditorDock::build);
    m_buildAct->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    m_buildAct->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_buildAct->setToolTip(tr("Compile the edited kernel with the variant's options (Ctrl+B)"));
    m_runAct = toolbar->addAction(tr("Run"), this, &KernelEditorDock::run);
    m_runAct->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_runAct->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_runAct->setToolTip(tr("Run the edited kernel and the unedited variant in the helper process (Ctrl+R)"));
    // Ctrl+B and Ctrl+R wherever the focus is in the dock, docked or floating: see eventFilter().
    qApp->installEventFilter(this);
    toolbar->addSeparator();
    m_saveAct = toolbar->addAction(tr("Save As User Variant..."), this, [this] { saveAsUserVariant(); });
    m_revertAct = toolbar->addAction(tr("Revert"), this, &KernelEditorDock::revert);
    m_logAct = toolbar->addAction(tr("Raw log"), this, &KernelEditorDock::showRawLog);
    toolbar->addSeparator();
    toolbar->addWidget(new QLabel(tr(" Limit "), toolbar));
    m_timeout = new QDoubleSpinBox(toolbar);
    m_timeout->setObjectName(QStringLiteral("editorTimeout"));
    m_timeout->setRange(0.5, 600);
    m_timeout->setDecimals(1);
    m_timeout->setSuffix(tr(" s"));
    m_timeout->setValue(kDefaultWorkerTimeoutS);
    m_timeout->setToolTip(tr("The helper process is stopped when the kernel runs longer than this"));
    toolbar->addWidget(m_timeout);
    toolbar->addSeparator();
    m_userVariants = new QComboBox(toolbar);
    m_userVariants->setObjectName(QStringLiteral("userVariants"));
    m_userVariants->setMinimumContentsLength(14);
    m_userVariants->setToolTip(tr("Your saved kernels (user variants)"));
    toolbar->addWidget(m_userVariants);
    toolbar->addAction(tr("Open"), this, [this] { openUserVariant(m_userVariants->currentData().toString()); });
    toolbar->addAction(tr("Delete"), this, [this] { deleteUserVariant(m_userVariants->currentData().toString()); });
    layout->addWidget(toolbar);

    m_recoveryBar = new RecoveryBar(root);
    connect(m_recoveryBar, &RecoveryBar::restoreClicked, this, &KernelEditorDock::restoreRecovery);
    connect(m_recoveryBar, &RecoveryBar::discardClicked, this, &KernelEditorDock::discardRecovery);
    layout->addWidget(m_recoveryBar);

    m_fileLabel = new QLabel(root);
    m_fileLabel->setObjectName(QStringLiteral("editorFile"));
    layout->addWidget(m_fileLabel);
    // One line, scrolled by the cursor (and whole in its tooltip): wrapped, a filter's weights took eight
    // lines, and docked at 1366x768 the code was left about one (issue 24).
    m_defines = new QLineEdit(root);
    m_defines->setObjectName(QStringLiteral("editorDefines"));
    m_defines->setReadOnly(true);
    m_defines->setFrame(false);
    m_defines->setStyleSheet(
        QStringLiteral("color: #555; font-family: monospace; font-size: 9pt; background: transparent;"));
    layout->addWidget(m_defines);

    auto *split = new QSplitter(Qt::Horizontal, root);
    m_tabs = new QTabWidget(split);
    m_tabs->setDocumentMode(true);
    m_code = new CodeEditor(false, m_tabs);
    m_code->setObjectName(QStringLiteral("kernelCode"));
    m_tabs->addTab(m_code, tr("kernel"));
    connect(m_code, &CodeEditor::textChanged, this, [this] {
        scheduleAutosave();
        updateActions();
    });

    auto *side = new QWidget(split);
    auto *sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(4, 0, 0, 0);
    m_status = new QLabel(tr("Edit the kernel, then Build (Ctrl+B) or Run (Ctrl+R)."), side);
    m_status->setObjectName(QStringLiteral("editorStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    sideLayout->addWidget(m_status);
    m_diagnostics = new DiagnosticsList(side);
    m_diagnostics->setMaximumHeight(110);
    connect(m_diagnostics, &DiagnosticsList::lineActivated, this, &KernelEditorDock::goToLine);
    sideLayout->addWidget(m_diagnostics);
    m_result = new EditorResultPanel(side);
    sideLayout->addWidget(m_result);
    sideLayout->addStretch(1);
    split->addWidget(m_tabs);
    split->addWidget(side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    setWidget(root);
}

// ---- State ----------------------------------------------------------------------------------------

QString KernelEditorDock::variantKey() const
{
    return q(m_request.run.filter) + QLatin1Char('/') + q(m_request.run.variant);
}

QString KernelEditorDock::source() const
{
    return m_code->text();
}

void KernelEditorDock::setSource(const QString &text)
{
    m_code->setText(text);
}

bool KernelEditorDock::isModified() const
{
    return !m_loadedKey.isEmpty() && source() != m_shippedSource;
}

double KernelEditorDock::timeoutS() const
{
    return m_timeout->value();
}

void KernelEditorDock::setTimeoutS(double seconds)
{
    m_timeout->setValue(seconds);
}

bool KernelEditorDock::eventFilter(QObject *watched, QEvent *e)
{
    // Issue 24: Ctrl+B and Ctrl+R did nothing while the dock floated. The actions lived on the tool bar
    // (the focused code view is no child of it), and Ctrl+R is also the window's Run, which stays live
    // while a floating dock of the window is active: two matches, which Qt runs neither of. With the
    // focus anywhere in the dock, the dock claims both keys (ShortcutOverride) and runs its own action,
    // before the code view (QScintilla takes the key presses it is sent) sees them.
    if ((e->type() == QEvent::ShortcutOverride || e->type() == QEvent::KeyPress) && watched->isWidgetType()
        && (watched == this || isAncestorOf(static_cast<QWidget *>(watched)))) {
        auto *key = static_cast<QKeyEvent *>(e);
        const QKeySequence pressed(key->keyCombination());
        QAction *action = pressed == m_buildAct->shortcut() ? m_buildAct
                          : pressed == m_runAct->shortcut() ? m_runAct
                                                            : nullptr;
        if (action) {
            e->accept();
            if (e->type() == QEvent::KeyPress && action->isEnabled())
                action->trigger();
            return true;
        }
    }
    return QDockWidget::eventFilter(watched, e);
}

int KernelEditorDock::cursorLine() const
{
    return m_code->line();
}

int KernelEditorDock::firstVisibleLine() const
{
    return m_code->firstVisibleLine();
}

QString KernelEditorDock::statusText() const
{
    return m_status->text();
}

QStringList KernelEditorDock::diagnosticTexts() const
{
    return m_diagnostics->texts();
}

QStringList KernelEditorDock::tabTitles() const
{
    QStringList out;
    for (int i = 0; i < m_tabs->count(); ++i)
        out << m_tabs->tabText(i);
    return out;
}

QString KernelEditorDock::definesText() const
{
    return m_defines->text();
}

std::string KernelEditorDock::baseVariantName() const
{
    return m_userVariant ? m_userVariant->baseVariant : m_request.run.variant;
}

void KernelEditorDock::setRequest(const ComputeRequest &request)
{
    m_request = request;
    if (variantKey() != m_loadedKey)
        loadVariantFiles();
    else if (const FilterSpec *filter = findFilter(request.run.filter)) {
        // Same variant, other parameters: the defines may have changed.
        const PreparedFilter prepared = filter->prepare(request.run.params);
        QStringList defines;
        const VariantSpec *variant = filter->variant(baseVariantName());
        if (variant)
            for (const std::string &d : m_userVariant ? m_userVariant->defines : variant->defines)
                defines << QStringLiteral("-D") + q(d);
        for (const std::string &d : prepared.defines)
            defines << q(d);
        m_defines->setText(tr("Built with: %1").arg(defines.join(QLatin1Char(' '))));
        m_defines->setCursorPosition(0);
        m_defines->setToolTip(defines.join(QLatin1Char('\n')));
    }
    updateActions();
}

void KernelEditorDock::loadVariantFiles()
{
    if (!m_loadedKey.isEmpty() && isModified())
        m_edits[m_loadedKey] = source();
    // A user variant ("user:NAME") shows its own source over its base variant's headers.
    m_userVariant.reset();
    if (const std::optional<std::string> user = userVariantNameOf(m_request.run.variant)) {
        try {
            m_userVariant = loadUserVariant(*user);
        } catch (const std::exception &e) {
            setStatus(q(e.what()), true);
        }
    }
    const FilterSpec *filter = findFilter(m_request.run.filter);
    const VariantSpec *variant = filter ? filter->variant(baseVariantName()) : nullptr;
    while (m_tabs->count() > 1) {
        QWidget *tab = m_tabs->widget(1);
        m_tabs->removeTab(1);
        delete tab;
    }
    if (!variant) {
        m_loadedKey.clear();
        m_fileLabel->setText(tr("No variant selected"));
        return;
    }
    m_loadedKey = variantKey();
    m_fileName = q(m_userVariant ? m_userVariant->kernelFileName() : variant->kernelFile);
    try {
        m_shippedSource = m_userVariant ? q(m_userVariant->source) : q(rawKernelFile(variant->kernelFile));
        const KernelSource assembled = loadKernelSource(variant->kernelFile);
        for (const std::string &header : assembled.includes) {
            auto *view = new CodeEditor(true, m_tabs);
            view->setText(q(rawKernelFile(header)));
            m_tabs->addTab(view, q(header) + tr(" (read-only)"));
        }
    } catch (const std::exception &e) {
        m_shippedSource.clear();
        setStatus(q(e.what()), true);
    }
    m_tabs->setTabText(0, m_fileName);
    QStringList entries;
    for (std::size_t i = 0; i < variant->passes.size(); ++i)
        entries << q(m_userVariant && i < m_userVariant->entryPoints.size() ? m_userVariant->entryPoints[i]
                                                                            : variant->passes[i].entry);
    const QString name = m_userVariant ? tr("%1 (user, based on %2)").arg(q(m_userVariant->name), q(variant->name))
                                       : q(variant->name);
    m_fileLabel->setText(tr("<b>%1</b> - %2/%3, entry %4").arg(m_fileName, q(filter->name), name,
                                                               entries.join(QStringLiteral(", "))));
    setRequest(m_request); // the defines line
    setSource(m_edits.value(m_loadedKey, m_shippedSource));
    // Open at the variant's entry kernel, not at the top of the file (issue 24: the file opened at
    // gaussian5x5's private_array kernel, so an edit there changed nothing the variant runs).
    m_entryLine = 0;
    if (!entries.isEmpty()) {
        const QRegularExpression entry(QStringLiteral("\\b(__)?kernel\\s+void\\s+%1\\s*\\(")
                                           .arg(QRegularExpression::escape(entries.first())));
        const QString text = source();
        if (const QRegularExpressionMatch m = entry.match(text); m.hasMatch()) {
            m_entryLine = 1 + int(text.left(m.capturedStart()).count(QLatin1Char('\n')));
            m_code->showLine(m_entryLine);
        }
    }
    m_code->markLines({});
    m_diagnostics->clear();
    checkRecovery();
}

void KernelEditorDock::updateActions()
{
    const bool ready = !m_loadedKey.isEmpty() && !m_busy;
    m_buildAct->setEnabled(ready);
    m_runAct->setEnabled(ready && m_request.input);
    m_saveAct->setEnabled(!m_loadedKey.isEmpty());
    m_revertAct->setEnabled(isModified());
    m_logAct->setEnabled(!m_buildLog.isEmpty());
}

void KernelEditorDock::setStatus(const QString &text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
}

UserVariant KernelEditorDock::editedKernel() const
{
    const FilterSpec *filter = findFilter(m_request.run.filter);
    UserVariant kernel = m_userVariant ? *m_userVariant
                                       : userVariantFrom(*filter, *filter->variant(baseVariantName()), "edited", {});
    kernel.name = "edited";
    kernel.source = source().toStdString();
    kernel.kernelFile = m_fileName.toStdString(); // diagnostics name the file being edited
    kernel.title = "edited";
    return kernel;
}

// ---- Build and run ---------------------------------------------------------------------------------

void KernelEditorDock::build()
{
    startJob(false);
}

void KernelEditorDock::run()
{
    startJob(true);
}

void KernelEditorDock::startJob(bool runIt)
{
    if (m_busy || m_loadedKey.isEmpty() || (runIt && !m_request.input))
        return;
    m_busy = true;
    updateActions();
    writeRecovery();
    setStatus(runIt ? tr("Running the original and the edited kernel in the helper process...")
                    : tr("Building in the helper process..."));

    WorkerJob job;
    job.op = runIt ? WorkerJob::Op::Run : WorkerJob::Op::Build;
    job.request = m_request.run;
    job.request.variant = baseVariantName(); // the original bar: the catalogue variant the kernel stands in for
    job.request.keepOutput = true;
    job.request.cpuSingle = false;
    job.request.openCvCpuBaseline = false;
    if (m_request.engine.kind == ComputeEngine::OpenCl)
        job.deviceSpec = m_request.engine.device.spec();
    job.tuningDb = workbenchTuningDb()->path().string(); // auto launches take the tuned shape, as in the window
    job.kernel = editedKernel();
    const std::shared_ptr<const Image> input = m_request.input;
    if (input)
        job.input = runIt ? *input : Image(std::max(1, input->width()), std::max(1, input->height()), input->format());
    else
        job.input = Image(64, 64, m_request.run.params.format);
    WorkerOptions options;
    options.timeoutS = timeoutS();
    m_jobs->start(job, options, input, runIt);
}

void KernelEditorDock::showDiagnostics(const std::string &log, const std::string &error)
{
    m_buildLog = q(log);
    m_code->markLines(m_diagnostics->showLog(log, error, m_fileName.toStdString()));
}

void KernelEditorDock::finishJob(const EditorJobResult &job)
{
    m_busy = false;
    const RunResult &r = job.edited.result;
    showDiagnostics(r.buildLog, r.error);
    const bool buildFailed = !r.ok() && (r.errorCode == "CL_BUILD_PROGRAM_FAILURE" || !r.buildLog.empty());
    if (job.edited.timedOut) {
        setStatus(q(r.error) + tr(" (the helper process was killed; the window and your source are fine)"), true);
    } else if (job.edited.crashed) {
        setStatus(q(r.error), true);
    } else if (buildFailed) {
        const std::string first = firstBuildError(r.buildLog);
        setStatus(tr("Build failed: %1").arg(q(first.empty() ? r.error : first)), true);
        for (int i = 0; i < m_diagnostics->count(); ++i) // the first error in the user's file, in view
            if (const int line = m_diagnostics->item(i)->data(Qt::UserRole).toInt(); line > 0) {
                goToLine(line);
                break;
            }
    } else if (!r.ok()) {
        setStatus(q(r.error), true);
    } else if (!job.runIt) {
        setStatus(tr("Built %1 on %2 in %3 ms.").arg(m_fileName, q(r.device)).arg(job.edited.runMs, 0, 'f', 0));
    } else {
        // A good run: race, result and difference replace the last good ones (a failed build never does).
        m_result->showRun(job, m_request.run.repeat);
        const bool matches = m_result->editedMatches();
        setStatus(matches ? tr("Run finished on %1.").arg(q(r.device))
                          : tr("Run finished on %1: the output does not match.").arg(q(r.device)),
                  !matches);
    }
    updateActions();
    if (job.runIt)
        emit runFinished(r.ok() && !job.edited.timedOut);
    else
        emit buildFinished(r.ok());
}

void KernelEditorDock::goToLine(int line)
{
    if (line > 0) {
        m_tabs->setCurrentIndex(0);
        m_code->goToLine(line);
    }
}

void KernelEditorDock::showRawLog()
{
    DiagnosticsList::showRawLog(this, tr("Build log of %1").arg(m_fileName), m_buildLog);
}

} // namespace fwb
