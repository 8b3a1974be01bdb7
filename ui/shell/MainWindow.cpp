// MainWindow: the shell: actions and menus, docks, run scheduling (debounce + worker), handing requests
// and results to the pages, the run log and settings; opening and saving: MainWindowFiles.cpp.
#include "MainWindow.h"

#include "DuelPage.h"
#include "RacePage.h"
#include "ReportExport.h"
#include "SweepPage.h"
#include "TransferComparePage.h"
#include "TunerPage.h"

#include "Catalogue.h"
#include "ComparePage.h"
#include "ControlPanel.h"
#include "ElidedLabel.h"
#include "ErrorBanner.h"
#include "HelpDialog.h"
#include "lesson/LessonWindow.h"
#include "LabPage.h"
#include "KernelEditorDock.h"
#include "PrepareAhead.h"
#include "ImageFileIo.h"
#include "RecentFilesMenu.h"
#include "StartupTrace.h"
#include "TimingPanel.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QLoggingCategory>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QShowEvent>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>

Q_LOGGING_CATEGORY(lcUi, "fwb.ui")

namespace fwb {

namespace {

constexpr int kDebounceMs = 150; // long enough to let a dragged slider settle, short enough to feel live

} // namespace

MainWindow::MainWindow(bool useSettings, QWidget *parent)
    : QMainWindow(parent), m_useSettings(useSettings), m_devices(listDevices())
{
    traceStartup("window: constructing (devices listed)");
    setWindowTitle(tr("OpenCL Filter Workbench"));
    setAcceptDrops(true);
    m_worker = new ComputeWorker(this);
    connect(m_worker, &ComputeWorker::runStarted, this, &MainWindow::onRunStarted);
    connect(m_worker, &ComputeWorker::runFinished, this, &MainWindow::onRunFinished);
    connect(m_worker, &ComputeWorker::firstPicture, this, &MainWindow::onFirstPicture);
    connect(m_worker, &ComputeWorker::copyBandwidthMeasured, this, [this](quint64 id, double gbps) {
        if (!m_hasResult || m_result.id != id || !m_result.copyBandwidthPending)
            return;
        m_result.copyBandwidthGBps = gbps;
        m_result.copyBandwidthPending = false;
        m_timing->setCopyBandwidth(gbps);
        emit copyBandwidthShown();
    });
    m_firstPictureHold.setSingleShot(true);
    m_firstPictureHold.setInterval(kFirstPictureHoldMs);
    connect(&m_firstPictureHold, &QTimer::timeout, this, [this] { showFirstPicture(m_heldPicture); });
    connect(m_worker, &ComputeWorker::launchChecked, this, &MainWindow::onLaunchChecked);

    // Central area: the banner above the pages. Document mode and an auto-hidden tab bar: with one
    // page there is no tab and no frame, just the page.
    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 4);
    m_banner = new ErrorBanner(central);
    m_pageTabs = new QTabWidget(central);
    m_pageTabs->setObjectName("pageTabs");
    m_pageTabs->setDocumentMode(true);
    m_pageTabs->setTabBarAutoHide(true);
    layout->addWidget(m_banner);
    layout->addWidget(m_pageTabs, 1);
    setCentralWidget(central);

    // Pages in tab order; the next ones plug in here, one line each, e.g.
    // addPage(new RacePage(m_pageTabs)); (createActions() then adds their actions).
    addPage(m_comparePage = new ComparePage(m_pageTabs));
    addPage(new LabPage(m_pageTabs));
    auto *race = new RacePage(m_pageTabs);
    addPage(race);
    connect(race, &RacePage::lessonRequested, this, [this] { showLesson(true); }); // present mode's L
    auto *tuner = new TunerPage(m_pageTabs);
    addPage(tuner);
    // Apply Best: the tuned shape is what auto launches, so a shape typed in the controls would hide it
    // (issue 24): back to auto, and run again to show the applied shape's numbers.
    connect(tuner, &TunerPage::bestApplied, this, [this] {
        m_controls->setLocalSizeText(QStringLiteral("auto"));
        startRun();
    });
    addPage(new SweepPage(m_pageTabs));
    addPage(new DuelPage(m_pageTabs));
    addPage(new TransferComparePage(m_pageTabs)); // Run ▸ Compare Transfer Modes

    m_statusLabel = new ElidedLabel(tr("Ready"), this);
    m_statusLabel->setObjectName("runStatus");
    m_pixelLabel = new QLabel(this);
    m_pixelLabel->setObjectName("pixelReadout");
    m_pixelLabel->setMinimumWidth(360);
    statusBar()->addWidget(m_statusLabel, 1);
    statusBar()->addPermanentWidget(m_pixelLabel);

    connect(m_comparePage, &ComparePage::pixelTextChanged, m_pixelLabel, &QLabel::setText);

    // The controls run the full height of the window: at 1000 pixels high the work-group and run
    // boxes were otherwise below the fold of a dock squeezed above the timing panel.
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    createDocks();
    KernelEditorDock::install(this, [this] { return makeRequest(); }); // "Kernel source" dock
    fitShortScreen();
    m_prepare = new PrepareAhead(this);
    m_prepare->setEnabled(PrepareAhead::allowedByEnvironment());
    createActions();

    m_debounce.setSingleShot(true);
    m_debounce.setInterval(kDebounceMs);
    connect(&m_debounce, &QTimer::timeout, this, [this] { startRun(); });
    connect(m_controls, &ControlPanel::requestChanged, this, &MainWindow::scheduleRun);
    connect(m_controls, &ControlPanel::requestChanged, this, &MainWindow::sendRequestToPages);
    connect(m_controls, &ControlPanel::requestChanged, this, &MainWindow::syncPrepareAhead);
    connect(m_controls, &ControlPanel::shapeChanged, this, &MainWindow::validateShape);
    connect(m_controls, &ControlPanel::runClicked, this, [this] { startRun(); });
    connect(m_controls, &ControlPanel::cancelClicked, this, &MainWindow::cancelRun);
    connect(m_controls, &ControlPanel::autoRunPicked, this, [this](bool on) {
        m_autoRunChoice = on ? 1 : 0;
        m_autoRunPaused = false;
    });

    if (m_devices.empty())
        m_banner->showMessage(ErrorBanner::Kind::Info, tr("No OpenCL device found"),
                              tr("Only the CPU reference engines are available. Install an OpenCL "
                                 "driver (for example PoCL) to run the kernels."));
    // Fits a small screen (a 1366x768 laptop) instead of hanging off it.
    const QSize available = screen() ? screen()->availableGeometry().size() : QSize(1500, 950);
    resize(std::min(1500, available.width()), std::min(950, available.height()));
    sendRequestToPages();
    if (m_useSettings)
        readSettings();
    validateShape();
    updateActions();
    syncPrepareAhead();
    traceStartup("window: constructed");
}

MainWindow::~MainWindow()
{
    // The worker's destructor aborts the run in progress, wakes the thread and waits for it.
    delete m_worker;
    m_worker = nullptr;
}

void MainWindow::addPage(WorkbenchPage *page)
{
    m_pages.append(page);
    m_pageTabs->addTab(page, page->title());
    connect(page, &WorkbenchPage::statusMessage, this, &MainWindow::setStatus);
}

void MainWindow::fitShortScreen()
{
    // On a short screen (a 1366x768 laptop) the tallest page and the tallest bottom dock must not set
    // the window's minimum height, or the window hangs off the screen with Run and the timing below
    // it. An explicit minimum overrides their hints: they clip (or scroll) instead.
    if (!screen() || screen()->availableGeometry().height() >= 900)
        return;
    m_pageTabs->setMinimumSize(320, 260);
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        if (dockWidgetArea(dock) == Qt::BottomDockWidgetArea && dock->widget())
            dock->widget()->setMinimumHeight(std::min(dock->widget()->minimumSizeHint().height(), 120));
}

void MainWindow::createDocks()
{
    m_controls = new ControlPanel(m_devices, this); // scrolls itself, with Run kept in view
    auto *controlDock = new QDockWidget(tr("Controls"), this);
    controlDock->setObjectName("controlsDock");
    controlDock->setWidget(m_controls);
    addDockWidget(Qt::RightDockWidgetArea, controlDock);

    // The timing panel scrolls inside its dock: its summary and bars are at the top, and its full
    // height must not set the window's minimum (a 1366x768 screen could not fit the window).
    m_timing = new TimingPanel(this);
    auto *timingScroll = new QScrollArea(this);
    timingScroll->setWidget(m_timing);
    timingScroll->setWidgetResizable(true);
    timingScroll->setFrameShape(QFrame::NoFrame);
    auto *timingDock = new QDockWidget(tr("Timing"), this);
    timingDock->setObjectName("timingDock");
    timingDock->setWidget(timingScroll);
    addDockWidget(Qt::BottomDockWidgetArea, timingDock);
    const int screenHeight = screen() ? screen()->availableGeometry().height() : 1000;
    resizeDocks({timingDock}, {screenHeight < 900 ? 200 : 330}, Qt::Vertical);
}

void MainWindow::createActions()
{
    QMenu *fileMenu = menuBar()->addMenu(tr("&File"));
    QToolBar *toolBar = addToolBar(tr("Main"));
    toolBar->setObjectName("mainToolBar");
    toolBar->setToolButtonStyle(Qt::ToolButtonTextOnly);

    QAction *openAct = fileMenu->addAction(tr("&Open…"), this, &MainWindow::open);
    openAct->setShortcut(QKeySequence::Open);
    QAction *cardAct = fileMenu->addAction(tr("Open &Test Card"), this, [this] { openTestCard(); });
    m_recentMenu = new RecentFilesMenu(tr("Open &Recent"), fileMenu);
    connect(m_recentMenu, &RecentFilesMenu::fileTriggered, this, &MainWindow::loadFile);
    fileMenu->addMenu(m_recentMenu);
    fileMenu->addSeparator();
    m_saveAct = fileMenu->addAction(tr("&Save Result As…"), this, &MainWindow::saveAs);
    m_saveAct->setShortcut(QKeySequence::SaveAs);
    m_exportAct = fileMenu->addAction(tr("&Export Run Log…"), this, &MainWindow::exportLog);
    fileMenu->addAction(tr("Export &Report…"), this, [this] { exportReportInteractively(this); })
        ->setObjectName("exportReportAction");
    fileMenu->addSeparator();
    QAction *quitAct = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
    quitAct->setShortcut(QKeySequence::Quit);

    // The View menu and the middle of the tool bar hold the pages' own actions.
    QMenu *viewMenu = menuBar()->addMenu(tr("&View"));

    QMenu *runMenu = menuBar()->addMenu(tr("&Run"));
    m_runAct = runMenu->addAction(tr("&Run Now"), this, [this] { startRun(); });
    m_runAct->setShortcuts({QKeySequence(Qt::Key_F5), QKeySequence(Qt::CTRL | Qt::Key_R)});
    m_cancelAct = runMenu->addAction(tr("&Cancel"), this, &MainWindow::cancelRun);
    m_cancelAct->setShortcut(QKeySequence(Qt::Key_Escape));
    runMenu->addSeparator();
    for (WorkbenchPage *page : std::as_const(m_pages))
        runMenu->addActions(page->runMenuActions()); // Race All Variants, Tune, Sweep, Duel

    QMenu *helpMenu = menuBar()->addMenu(tr("&Help"));
    QAction *helpAct = helpMenu->addAction(tr("&What Am I Looking At?"), this, &MainWindow::showHelp);
    helpAct->setShortcut(QKeySequence::HelpContents);
    helpMenu->addAction(tr("Show the &Lesson"), this, [this] { showLesson(); })->setObjectName("showLessonAction");
    helpMenu->addAction(tr("&About"), this, &MainWindow::about);

    toolBar->addAction(openAct);
    toolBar->addAction(cardAct);
    toolBar->addAction(m_saveAct);
    toolBar->addSeparator();
    for (WorkbenchPage *page : std::as_const(m_pages)) {
        viewMenu->addActions(page->viewMenuActions());
        toolBar->addActions(page->toolBarActions());
    }
    toolBar->addSeparator();
    toolBar->addAction(m_runAct);
    toolBar->addAction(m_cancelAct);
    toolBar->addSeparator();
    toolBar->addAction(helpAct);
    m_prepare->attach(statusBar(), viewMenu);
}

void MainWindow::updateActions()
{
    m_saveAct->setEnabled(m_hasResult && !m_firstPictureOnScreen); // it saves m_result: the picture must be its
    m_exportAct->setEnabled(!m_runLog.isEmpty());
    m_runAct->setEnabled(bool(m_input));
    m_cancelAct->setEnabled(m_running);
    m_controls->setRunning(m_running);
}

// ---- Status bar ----------------------------------------------------------------------------

QString MainWindow::pixelText() const
{
    return m_pixelLabel->text();
}

void MainWindow::setStatus(const QString &text)
{
    m_statusLabel->setText(text); // and its tooltip: the whole text where the line is too narrow
}

QString MainWindow::statusText() const
{
    return m_statusLabel->text();
}

QStringList MainWindow::recentFiles() const
{
    return m_recentMenu->files();
}

// ---- Help ----------------------------------------------------------------------------------

LessonWindow *MainWindow::lessonWindow() const
{
    return m_lesson;
}

LessonWindow *MainWindow::showLesson(bool fullScreen)
{
    if (!m_lesson) {
        const ComputeRequest request = makeRequest();
        LessonWindow::Setup setup;
        setup.hasDevice = !request.engine.isCpu() && request.engine.device.platformIndex >= 0;
        setup.device = request.engine.device;
        setup.picture = m_input;
        setup.pictureName = !m_input ? QString() : m_inputPath.isEmpty() ? tr("test card") : QFileInfo(m_inputPath).fileName();
        setup.format = request.run.params.format;
        m_lesson = new LessonWindow(setup, this);
        m_lesson->resize(std::min(1280, screen() ? screen()->availableGeometry().width() : 1280),
                         std::min(800, screen() ? screen()->availableGeometry().height() - 60 : 800));
    }
    if (fullScreen)
        m_lesson->showFullScreen();
    else
        m_lesson->show();
    m_lesson->raise();
    m_lesson->activateWindow();
    return m_lesson;
}

void MainWindow::showHelp()
{
    auto *dialog = new HelpDialog(m_controls->filter(), m_controls->variant(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show(); // non-modal: read it while clicking through the variants
}

void MainWindow::about()
{
    QMessageBox::about(this, tr("About OpenCL Filter Workbench"),
                       tr("<p><b>OpenCL Filter Workbench</b> %1</p><p>Compare image-filter kernel "
                          "variants on any OpenCL device, checked against a CPU reference.</p>")
                           .arg(QCoreApplication::applicationVersion()));
}

// ---- Settings ------------------------------------------------------------------------------

void MainWindow::readSettings()
{
    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    restoreState(settings.value("window/state").toByteArray());
    m_recentMenu->setFiles(settings.value("recentFiles").toStringList());
    m_controls->setDeviceSpec(settings.value("run/device").toString());
    m_controls->setFilterName(settings.value("run/filter").toString());
    m_controls->setVariantName(settings.value("run/variant").toString());
    const QString shape = settings.value("run/workGroup").toString();
    if (!shape.isEmpty())
        m_controls->setLocalSizeText(shape);
    m_controls->setRepeat(settings.value("run/repeat", 5).toInt());
    if (settings.contains("run/autoRun")) {
        m_autoRunChoice = settings.value("run/autoRun").toBool() ? 1 : 0;
        m_controls->setAutoRun(m_autoRunChoice == 1);
    }
    if (PrepareAhead::allowedByEnvironment())
        m_prepare->setEnabled(settings.value("prepare/ahead", true).toBool());
    ViewMode mode;
    if (parseViewMode(settings.value("view/mode").toString(), &mode))
        m_comparePage->setViewMode(mode);
}

void MainWindow::writeSettings()
{
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    settings.setValue("recentFiles", m_recentMenu->files());
    settings.setValue("run/device", m_controls->deviceSpec());
    settings.setValue("run/filter", m_controls->filterName());
    settings.setValue("run/variant", m_controls->variantName());
    settings.setValue("run/workGroup", m_controls->localSizeText());
    settings.setValue("run/repeat", m_controls->repeat());
    if (m_autoRunChoice >= 0)
        settings.setValue("run/autoRun", m_autoRunChoice == 1);
    settings.setValue("view/mode", viewModeName(viewMode()));
    if (PrepareAhead::allowedByEnvironment()) // FWB_PREPARE_AHEAD=0 is not the user's choice
        settings.setValue("prepare/ahead", m_prepare->isEnabled());
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    traceStartup("window: shown");
    // Offscreen (tests, --screenshot) there is no window manager and the "screen" is an arbitrary 800x800:
    // the size asked for is the size wanted.
    if (event->spontaneous() || QGuiApplication::platformName() == QLatin1String("offscreen"))
        return;
    // The window manager adds its frame after the window is mapped: fit now and once the frame is known.
    QTimer::singleShot(0, this, &MainWindow::fitOnScreen);
    QTimer::singleShot(600, this, &MainWindow::fitOnScreen);
}

void MainWindow::fitOnScreen()
{
    if (!screen() || isMaximized() || isFullScreen())
        return;
    const QRect available = screen()->availableGeometry();
    const QSize frame = frameGeometry().size() - size(); // title bar and borders; 0 without a manager
    const QSize fit = size().boundedTo(available.size() - frame).expandedTo(minimumSizeHint());
    if (fit != size())
        resize(fit);
    QRect outer = frameGeometry();
    if (!available.contains(outer)) {
        outer.moveRight(std::min(outer.right(), available.right()));
        outer.moveBottom(std::min(outer.bottom(), available.bottom()));
        outer.moveLeft(std::max(outer.left(), available.left()));
        outer.moveTop(std::max(outer.top(), available.top()));
        move(outer.topLeft());
    }
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_useSettings)
        writeSettings();
    m_debounce.stop();
    m_worker->cancel(); // the destructor then aborts and waits; cancelling first makes it quick
    m_prepare->stop();  // the background builds: children killed and reaped
    event->accept();
}

} // namespace fwb

