// MainWindow: actions and menus, loading and saving, run scheduling (debounce + worker), showing
// results in the three view modes, the run log, settings and the plain-words help.
#include "MainWindow.h"

#include "Catalogue.h"
#include "ControlPanel.h"
#include "ErrorBanner.h"
#include "ImageFileIo.h"
#include "ImageView.h"
#include "Json.h"
#include "TimingPanel.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QImageReader>
#include <QImageWriter>
#include <QLabel>
#include <QLoggingCategory>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSaveFile>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTextBrowser>
#include <QToolBar>
#include <QVBoxLayout>

Q_LOGGING_CATEGORY(lcUi, "fwb.ui")

namespace fwb {

namespace {

constexpr int kMaxRecentFiles = 8;
constexpr int kDebounceMs = 150; // long enough to let a dragged slider settle, short enough to feel live

QString q(const std::string &text)
{
    return QString::fromStdString(text);
}

QString csvField(const QString &text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')))
        return text;
    QString escaped = text;
    escaped.replace(QLatin1Char('"'), QLatin1String("\"\""));
    return QLatin1Char('"') + escaped + QLatin1Char('"');
}

QString pixelString(const QImage &image, const QPoint &p)
{
    if (image.isNull() || !image.rect().contains(p))
        return QStringLiteral("—");
    const QRgb rgb = image.pixel(p);
    if (image.format() == QImage::Format_Grayscale8)
        return QString::number(qGray(rgb));
    return QStringLiteral("%1,%2,%3").arg(qRed(rgb)).arg(qGreen(rgb)).arg(qBlue(rgb));
}

} // namespace

MainWindow::MainWindow(bool useSettings, QWidget *parent)
    : QMainWindow(parent), m_useSettings(useSettings), m_devices(listDevices())
{
    setWindowTitle(tr("OpenCL Filter Workbench"));
    setAcceptDrops(true);
    m_worker = new ComputeWorker(this);
    connect(m_worker, &ComputeWorker::runStarted, this, &MainWindow::onRunStarted);
    connect(m_worker, &ComputeWorker::runFinished, this, &MainWindow::onRunFinished);
    connect(m_worker, &ComputeWorker::launchChecked, this, &MainWindow::onLaunchChecked);

    // Central area: the banner above two synchronised views.
    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 4);
    m_banner = new ErrorBanner(central);
    m_splitter = new QSplitter(Qt::Horizontal, central);
    m_originalView = new ImageView(m_splitter);
    m_resultView = new ImageView(m_splitter);
    m_originalView->setObjectName("originalView");
    m_resultView->setObjectName("resultView");
    m_resultView->setPlaceholder(tr("The filtered image appears here after a run."));
    m_originalView->setPlaceholder(tr("No image open.\nFile ▸ Open… (or drop an image file here), or File ▸ "
                                      "Open Test Card."));
    m_splitter->addWidget(m_originalView);
    m_splitter->addWidget(m_resultView);
    layout->addWidget(m_banner);
    layout->addWidget(m_splitter, 1);
    setCentralWidget(central);

    // Zoom and pan follow each other: looking at the same pixel on both sides is the point. A
    // transposed result has its pixel (x, y) at (y, x): mirror the centre through the diagonal.
    auto mirror = [this](ImageView *to) {
        return [this, to](double zoom, const QPointF &center, bool fit) {
            if (m_syncing)
                return;
            m_syncing = true;
            to->setView(zoom, viewsTransposed() ? QPointF(center.y(), center.x()) : center, fit);
            m_syncing = false;
        };
    };
    connect(m_originalView, &ImageView::viewChanged, this, mirror(m_resultView));
    connect(m_resultView, &ImageView::viewChanged, this, mirror(m_originalView));
    connect(m_originalView, &ImageView::pixelHovered, this,
            [this](const QPoint &pixel) { onPixelHovered(m_originalView, pixel); });
    connect(m_resultView, &ImageView::pixelHovered, this,
            [this](const QPoint &pixel) { onPixelHovered(m_resultView, pixel); });

    m_statusLabel = new QLabel(tr("Ready"), this);
    m_statusLabel->setObjectName("runStatus");
    m_pixelLabel = new QLabel(this);
    m_pixelLabel->setObjectName("pixelReadout");
    m_pixelLabel->setMinimumWidth(360);
    statusBar()->addWidget(m_statusLabel, 1);
    statusBar()->addPermanentWidget(m_pixelLabel);

    // The controls run the full height of the window: at 1000 pixels high the work-group and run
    // boxes were otherwise below the fold of a dock squeezed above the timing panel.
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    createDocks();
    createActions();

    m_debounce.setSingleShot(true);
    m_debounce.setInterval(kDebounceMs);
    connect(&m_debounce, &QTimer::timeout, this, [this] { startRun(); });
    connect(m_controls, &ControlPanel::requestChanged, this, &MainWindow::scheduleRun);
    // Without a result the original follows the chosen pixel format at once (with one it stays
    // paired with the result's format until the next run lands).
    connect(m_controls, &ControlPanel::requestChanged, this, [this] {
        if (!m_hasResult && m_input)
            updateViews();
    });
    connect(m_controls, &ControlPanel::shapeChanged, this, &MainWindow::validateShape);
    connect(m_controls, &ControlPanel::runClicked, this, [this] { startRun(); });
    connect(m_controls, &ControlPanel::cancelClicked, this, &MainWindow::cancelRun);

    if (m_devices.empty())
        m_banner->showMessage(ErrorBanner::Kind::Info, tr("No OpenCL device found"),
                              tr("Only the CPU reference engines are available. Install an OpenCL "
                                 "driver (for example PoCL) to run the kernels."));
    resize(1500, 950);
    if (m_useSettings)
        readSettings();
    setViewMode(m_viewMode);
    validateShape();
    updateActions();
}

MainWindow::~MainWindow()
{
    // The worker's destructor aborts the run in progress, wakes the thread and waits for it.
    delete m_worker;
    m_worker = nullptr;
}

void MainWindow::createDocks()
{
    m_controls = new ControlPanel(m_devices, this);
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(m_controls);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(m_controls->sizeHint().width() + 24);
    auto *controlDock = new QDockWidget(tr("Controls"), this);
    controlDock->setObjectName("controlsDock");
    controlDock->setWidget(scroll);
    addDockWidget(Qt::RightDockWidgetArea, controlDock);

    m_timing = new TimingPanel(this);
    auto *timingDock = new QDockWidget(tr("Timing"), this);
    timingDock->setObjectName("timingDock");
    timingDock->setWidget(m_timing);
    addDockWidget(Qt::BottomDockWidgetArea, timingDock);
    resizeDocks({timingDock}, {330}, Qt::Vertical);
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
    m_recentMenu = fileMenu->addMenu(tr("Open &Recent"));
    fileMenu->addSeparator();
    m_saveAct = fileMenu->addAction(tr("&Save Result As…"), this, &MainWindow::saveAs);
    m_saveAct->setShortcut(QKeySequence::SaveAs);
    m_exportAct = fileMenu->addAction(tr("&Export Run Log…"), this, &MainWindow::exportLog);
    fileMenu->addSeparator();
    QAction *quitAct = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
    quitAct->setShortcut(QKeySequence::Quit);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_viewGroup = new QActionGroup(this);
    const QString modeNames[3] = {tr("&Side by Side"), tr("S&plit (wipe)"), tr("&Difference")};
    for (int i = 0; i < 3; ++i) {
        m_viewActs[i] = m_viewMenu->addAction(modeNames[i]);
        m_viewActs[i]->setCheckable(true);
        m_viewActs[i]->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
        m_viewGroup->addAction(m_viewActs[i]);
        connect(m_viewActs[i], &QAction::triggered, this, [this, i] { setViewMode(ViewMode(i)); });
    }
    m_viewMenu->addSeparator();
    QAction *zoomIn = m_viewMenu->addAction(tr("Zoom &In"), this, [this] { m_originalView->zoomBy(1.25); });
    zoomIn->setShortcut(QKeySequence::ZoomIn);
    QAction *zoomOut = m_viewMenu->addAction(tr("Zoom &Out"), this, [this] { m_originalView->zoomBy(0.8); });
    zoomOut->setShortcut(QKeySequence::ZoomOut);
    QAction *fit = m_viewMenu->addAction(tr("&Fit to Window"), this, [this] { m_originalView->fitToWindow(); });
    fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    QAction *actual = m_viewMenu->addAction(tr("&Actual Size (100%)"), this,
                                            [this] { m_originalView->setActualSize(); });
    actual->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_0));
    m_gridAct = m_viewMenu->addAction(tr("Pixel &Grid When Zoomed In"));
    m_gridAct->setCheckable(true);
    m_gridAct->setChecked(true);
    connect(m_gridAct, &QAction::toggled, this, [this](bool on) {
        m_originalView->setPixelGridEnabled(on);
        m_resultView->setPixelGridEnabled(on);
    });

    QMenu *runMenu = menuBar()->addMenu(tr("&Run"));
    m_runAct = runMenu->addAction(tr("&Run Now"), this, [this] { startRun(); });
    m_runAct->setShortcuts({QKeySequence(Qt::Key_F5), QKeySequence(Qt::CTRL | Qt::Key_R)});
    m_cancelAct = runMenu->addAction(tr("&Cancel"), this, &MainWindow::cancelRun);
    m_cancelAct->setShortcut(QKeySequence(Qt::Key_Escape));

    QMenu *helpMenu = menuBar()->addMenu(tr("&Help"));
    QAction *helpAct = helpMenu->addAction(tr("&What Am I Looking At?"), this, &MainWindow::showHelp);
    helpAct->setShortcut(QKeySequence::HelpContents);
    helpMenu->addAction(tr("&About"), this, &MainWindow::about);

    toolBar->addAction(openAct);
    toolBar->addAction(cardAct);
    toolBar->addAction(m_saveAct);
    toolBar->addSeparator();
    for (QAction *act : m_viewActs)
        toolBar->addAction(act);
    toolBar->addAction(fit);
    toolBar->addAction(actual);
    toolBar->addSeparator();
    toolBar->addAction(m_runAct);
    toolBar->addAction(m_cancelAct);
    toolBar->addSeparator();
    toolBar->addAction(helpAct);
    updateRecentMenu();
}

void MainWindow::updateActions()
{
    m_saveAct->setEnabled(m_hasResult);
    m_exportAct->setEnabled(!m_runLog.empty());
    m_runAct->setEnabled(bool(m_input));
    m_cancelAct->setEnabled(m_running);
    m_controls->setRunning(m_running);
}

// ---- Loading -------------------------------------------------------------------------------

bool MainWindow::loadFile(const QString &path)
{
    QImage image;
    QString error;
    if (!readImageFile(path, image, error)) {
        // The current image stays: a failed open must not cost the user their work.
        const QString message = tr("Cannot load %1: %2").arg(QDir::toNativeSeparators(path), error);
        m_banner->showMessage(ErrorBanner::Kind::Error, tr("Cannot open the image"), message);
        setStatus(message);
        return false;
    }
    const Image converted = imageFromQImage(image);
    setInput(converted, QFileInfo(path).absoluteFilePath(),
             tr("%1 — %2×%3").arg(QFileInfo(path).fileName()).arg(image.width()).arg(image.height()));
    addRecentFile(QFileInfo(path).absoluteFilePath());
    return true;
}

void MainWindow::openTestCard(int width, int height)
{
    setInput(makeTestCard(width, height, PixelFormat::Rgba8888), QString(),
             tr("Test card — %1×%2").arg(width).arg(height));
}

void MainWindow::setInput(const Image &image, const QString &path, const QString &description)
{
    m_input = std::make_shared<const Image>(image);
    m_inputQImage = qimageFromImage(image);
    m_inputConverted = QImage();
    m_inputPath = path;
    m_inputDescription = description;
    m_hasResult = false;
    m_result = ComputeResult();
    m_originalView->fitToWindow();
    updateViews();
    setWindowTitle(tr("%1 — OpenCL Filter Workbench").arg(description));
    setStatus(tr("Loaded %1").arg(description));
    updateActions();
    validateShape();
    emit imageLoaded();
    if (m_controls->autoRun())
        scheduleRun();
}

void MainWindow::open()
{
    QStringList patterns;
    for (const QByteArray &format : QImageReader::supportedImageFormats())
        patterns << QStringLiteral("*.") + QString::fromLatin1(format);
    const QString dir = m_inputPath.isEmpty() ? QString() : QFileInfo(m_inputPath).absolutePath();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Image"), dir,
        tr("Images (%1);;All files (*)").arg(patterns.join(QLatin1Char(' '))));
    if (!path.isEmpty())
        loadFile(path);
}

void MainWindow::addRecentFile(const QString &path)
{
    m_recentFiles.removeAll(path);
    m_recentFiles.prepend(path);
    while (m_recentFiles.size() > kMaxRecentFiles)
        m_recentFiles.removeLast();
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    for (const QString &path : m_recentFiles) {
        m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] { loadFile(path); })
            ->setToolTip(path);
    }
    m_recentMenu->setEnabled(!m_recentFiles.isEmpty());
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.front().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.front().isLocalFile()) {
        loadFile(urls.front().toLocalFile());
        event->acceptProposedAction();
    }
}

// ---- Running -------------------------------------------------------------------------------

ComputeRequest MainWindow::makeRequest() const
{
    ComputeRequest request;
    request.engine = m_controls->engine();
    request.input = m_input;
    request.run = m_controls->runRequest();
    return request;
}

void MainWindow::scheduleRun()
{
    if (m_controls->autoRun() && m_input)
        m_debounce.start();
}

void MainWindow::validateShape()
{
    const ComputeEngine engine = m_controls->engine();
    if (engine.isCpu()) {
        m_controls->setShapeStatus(QString());
        return;
    }
    // Device limits first, right here: instant feedback while typing, no worker round trip.
    const std::string deviceProblem = localSizeProblem(engine.device, m_controls->localSize(), {});
    if (!deviceProblem.empty()) {
        ++m_latestCheckId; // an answer still on its way is now stale
        m_controls->setShapeStatus(q(deviceProblem));
        return;
    }
    if (!m_controls->variant() || !m_input) {
        m_controls->setShapeStatus(QString());
        return;
    }
    // Kernel limits (work-group size, local memory) need the built program: ask the worker.
    ComputeRequest request = makeRequest();
    request.id = m_latestCheckId = ++m_nextId;
    m_controls->setShapeStatus(QString(), true);
    m_worker->checkLaunch(request);
}

void MainWindow::onLaunchChecked(quint64 id, const QString &problem, double checkMs)
{
    if (id == m_latestCheckId)
        m_controls->setShapeStatus(problem, false, checkMs);
}

bool MainWindow::startRun()
{
    m_debounce.stop();
    if (!m_input) {
        setStatus(tr("Open an image or the test card first."));
        return false;
    }
    if (!m_controls->variant()) {
        setStatus(tr("No variant of this filter can run on this device and pixel format."));
        return false;
    }
    const ComputeEngine engine = m_controls->engine();
    if (!engine.isCpu()) {
        QString problem = m_controls->shapeProblem();
        if (problem.isEmpty())
            problem = q(localSizeProblem(engine.device, m_controls->localSize(), {}));
        if (!problem.isEmpty()) {
            // Most reasons already start with "work-group WxH"; do not say it twice.
            const QString shape = m_controls->localSizeText();
            setStatus(problem.contains(shape) ? tr("Not launched: %1").arg(problem)
                                              : tr("Not launched: work-group %1 — %2").arg(shape, problem));
            return false;
        }
    }
    ComputeRequest request = makeRequest();
    request.id = m_latestRunId = ++m_nextId;
    m_running = true;
    setStatus(tr("Queued %1 / %2 on %3…")
                  .arg(m_controls->filterName(), m_controls->variantName(), engine.label()));
    m_worker->submit(request);
    updateActions();
    return true;
}

void MainWindow::cancelRun()
{
    m_debounce.stop();
    if (!m_running)
        return;
    m_worker->cancel();
    setStatus(tr("Cancelling…"));
}

void MainWindow::onRunStarted(quint64 id)
{
    if (id == m_latestRunId)
        setStatus(tr("Running %1 / %2…").arg(m_controls->filterName(), m_controls->variantName()));
}

void MainWindow::onRunFinished(const ComputeResult &result)
{
    if (result.superseded || result.id != m_latestRunId)
        return; // a newer request is already queued; its result is the one that matters
    m_running = false;
    const RunResult &r = result.run;
    ComputeResult logged = result;
    logged.outputImage.reset();
    logged.output = QImage();
    logged.heatMap = QImage();
    logged.heatMapLevels.clear();
    logged.convertedInput = QImage();

    if (r.cancelled) {
        setStatus(tr("Cancelled. The previous result stays on screen."));
        m_timing->setNote(tr("<i>The last run was cancelled.</i>"));
        updateActions();
        emit runFailed(result);
        return;
    }
    m_runLog.push_back(logged);
    if (!r.ok()) {
        const QString code = r.errorCode.empty() ? QString() : q(r.errorCode);
        if (r.expectedFailure) {
            m_banner->showMessage(ErrorBanner::Kind::Expected,
                                  tr("Expected failure (%1): this is the lesson of this variant")
                                      .arg(code.isEmpty() ? tr("no error code") : code),
                                  q(r.error));
        } else if (r.unavailable) {
            m_banner->showMessage(ErrorBanner::Kind::Info, tr("This variant cannot run here"), q(r.error));
        } else {
            const QString title = code.isEmpty() ? tr("The run failed")
                                                 : tr("The run failed: %1").arg(code);
            QString detail = q(r.error);
            if (result.sessionReset)
                detail += tr(" The device connection will be re-created for the next run.");
            m_banner->showMessage(ErrorBanner::Kind::Error, title, detail, q(r.buildLog));
        }
        // Only claim "the numbers below" when there are some: a first run that fails has none.
        m_timing->setNote(m_timing->hasNumbers()
                              ? tr("<span style='color:#c62828'>Last run: %1</span> — the numbers below "
                                   "are from the previous successful run.")
                                    .arg(q(r.error).toHtmlEscaped())
                              : tr("<span style='color:#c62828'>Last run: %1</span>")
                                    .arg(q(r.error).toHtmlEscaped()));
        setStatus(tr("%1 / %2 on %3: %4")
                      .arg(q(r.filter), q(r.variant), result.engine.label(), q(r.error)));
        updateActions();
        emit runFailed(result);
        return;
    }

    m_banner->dismiss();
    m_result = result;
    m_hasResult = true;
    updateViews();
    m_timing->setResult(result);

    QStringList parts;
    parts << tr("Ran on %1").arg(q(r.device));
    if (!result.engine.isCpu()) {
        if (r.buildOrigin == "compiled")
            parts << tr("program built (%1 ms)").arg(r.buildMs, 0, 'f', 0);
        else
            parts << tr("program from %1 cache").arg(q(r.buildOrigin));
        parts << (r.reuploaded ? tr("image uploaded each repeat") : tr("image reused on the device"));
        parts << (r.matches ? tr("matches the CPU reference (max diff %1)").arg(r.maxAbsDiff)
                            : tr("DIFFERS from the CPU reference (max diff %1 > %2)")
                                  .arg(r.maxAbsDiff)
                                  .arg(r.tolerance));
    }
    parts << (result.engine.isCpu() ? tr("CPU filter %1 ms") : tr("kernel %1 ms"))
                 .arg(r.kernelMs.median, 0, 'f', 3);
    setStatus(parts.join(QStringLiteral(" · ")));
    updateActions();
    emit resultShown(result);
}

// ---- Views ---------------------------------------------------------------------------------

QString MainWindow::viewModeName(ViewMode mode)
{
    switch (mode) {
    case ViewMode::Split: return QStringLiteral("split");
    case ViewMode::Difference: return QStringLiteral("diff");
    case ViewMode::SideBySide: break;
    }
    return QStringLiteral("side");
}

bool MainWindow::parseViewMode(const QString &name, ViewMode *mode)
{
    for (ViewMode m : {ViewMode::SideBySide, ViewMode::Split, ViewMode::Difference}) {
        if (viewModeName(m) == name) {
            *mode = m;
            return true;
        }
    }
    return false;
}

void MainWindow::setViewMode(ViewMode mode)
{
    m_viewMode = mode;
    m_viewActs[int(mode)]->setChecked(true);
    updateViews();
}

PixelFormat MainWindow::displayedFormat() const
{
    // Paired with the result on screen; before any result, with the format about to be used.
    return m_hasResult ? m_result.request.params.format : m_controls->params().format;
}

QImage MainWindow::displayedInput() const
{
    if (!m_input)
        return {};
    const PixelFormat format = displayedFormat();
    if (m_input->format() == format)
        return m_inputQImage;
    if (m_hasResult && !m_result.convertedInput.isNull())
        return m_result.convertedInput; // converted by the worker: no 12-Mpixel pass on this thread
    // A colour original next to a gray8 result made the filter look like it removed the colour,
    // and the split wipe compared colour with gray: show what the kernel actually read.
    if (m_inputConverted.isNull() || m_inputConvertedFormat != format) {
        m_inputConverted = qimageFromImage(m_input->convertedTo(format));
        m_inputConvertedFormat = format;
    }
    return m_inputConverted;
}

bool MainWindow::viewsTransposed() const
{
    if (m_viewMode != ViewMode::SideBySide || !m_hasResult)
        return false;
    const FilterSpec *filter = findFilter(m_result.run.filter);
    return filter && filter->transposesOutput;
}

void MainWindow::syncResultView()
{
    const QPointF c = m_originalView->center();
    m_resultView->setView(m_originalView->zoom(), viewsTransposed() ? QPointF(c.y(), c.x()) : c,
                          m_originalView->isFitting());
}

void MainWindow::updateViews()
{
    const QImage result = m_hasResult ? m_result.output : QImage();
    const QImage input = displayedInput();
    const QString format = QString::fromLatin1(formatName(displayedFormat()));
    QString resultCaption = tr("Result");
    if (m_hasResult && m_result.engine.isCpu())
        // The CPU reference ignores the variant: naming one would claim a kernel ran.
        resultCaption = tr("Result — %1, %2").arg(m_result.engine.label(), format);
    else if (m_hasResult)
        resultCaption = tr("Result — %1, %2 on %3")
                            .arg(q(m_result.run.variant), format, m_result.engine.label());
    QString inputCaption = m_input ? tr("Original — %1").arg(m_inputDescription) : QString();
    if (m_input && m_input->format() != displayedFormat())
        inputCaption += tr(", as %1 (what the filter reads)").arg(format);
    m_resultView->setVisible(m_viewMode != ViewMode::Split);
    m_originalView->setWipeImage(QImage());
    switch (m_viewMode) {
    case ViewMode::SideBySide:
        m_originalView->setImage(input);
        m_originalView->setCaption(inputCaption);
        m_resultView->setImage(result);
        m_resultView->setCaption(resultCaption);
        m_resultView->setPlaceholder(tr("The filtered image appears here after a run."));
        break;
    case ViewMode::Split:
        // One view, two images: drag the divider to wipe between them.
        m_originalView->setImage(input);
        m_originalView->setWipeImage(result);
        m_originalView->setCaption(m_hasResult ? tr("◀ Original") : inputCaption,
                                   m_hasResult ? tr("%1 ▶").arg(resultCaption) : QString());
        break;
    case ViewMode::Difference:
        m_originalView->setImage(result.isNull() ? input : result);
        m_originalView->setCaption(result.isNull() ? (m_input ? tr("Original (no result yet)") : QString())
                                                   : resultCaption);
        // Max-pooled levels: zoomed out to fit, a handful of differing pixels would otherwise be
        // averaged into black and the map would claim "identical" while the caption says max 1.
        m_resultView->setImage(m_hasResult ? m_result.heatMap : QImage(),
                               m_hasResult ? m_result.heatMapLevels : std::vector<QImage>());
        if (m_hasResult && !m_result.heatMap.isNull()) {
            const double pixels = double(m_result.heatMap.width()) * m_result.heatMap.height();
            if (m_result.maxDiff <= 0)
                m_resultView->setCaption(tr("Difference |result − CPU reference|: none, every pixel "
                                            "is identical"));
            else
                m_resultView->setCaption(
                    tr("Difference |result − CPU reference|: max %1 (tolerance %2) in %3 of %4 pixels "
                       "(%5%)\nblack = identical, white = %1; zoomed out, each dot keeps the largest "
                       "difference under it")
                        .arg(m_result.maxDiff)
                        .arg(m_result.run.tolerance)
                        .arg(m_result.diffPixels)
                        .arg(qint64(pixels))
                        .arg(100.0 * double(m_result.diffPixels) / pixels, 0, 'g', 2));
        } else {
            m_resultView->setCaption(tr("Difference"));
        }
        m_resultView->setPlaceholder(tr("Run a variant to see where it differs from the CPU reference."));
        break;
    }
    // Keep both views on the same zoom/pan after swapping images.
    syncResultView();
    if (m_originalView->isFitting())
        QTimer::singleShot(0, m_originalView, &ImageView::fitToWindow);
}

void MainWindow::onPixelHovered(ImageView *view, const QPoint &pixel)
{
    if (pixel.x() < 0) {
        m_pixelLabel->clear();
        return;
    }
    // Which image's coordinates the pointer is in: the result's geometry on the right, and on the
    // left in the difference view (which shows the result there).
    const bool onResult = view == m_resultView || m_viewMode == ViewMode::Difference;
    const FilterSpec *filter = m_hasResult ? findFilter(m_result.run.filter) : nullptr;
    const bool transposed = filter && filter->transposesOutput && m_viewMode != ViewMode::Split;
    const QPoint swapped(pixel.y(), pixel.x());
    const QPoint inPixel = onResult && transposed ? swapped : pixel;
    const QPoint outPixel = !onResult && transposed ? swapped : pixel;
    const QImage result = m_hasResult ? m_result.output : QImage();
    QString text;
    if (inPixel == outPixel)
        text = tr("x %1, y %2 — original %3 · result %4")
                   .arg(pixel.x())
                   .arg(pixel.y())
                   .arg(pixelString(displayedInput(), inPixel), pixelString(result, outPixel));
    else
        text = tr("original x %1, y %2: %3 · result x %4, y %5: %6")
                   .arg(inPixel.x())
                   .arg(inPixel.y())
                   .arg(pixelString(displayedInput(), inPixel))
                   .arg(outPixel.x())
                   .arg(outPixel.y())
                   .arg(pixelString(result, outPixel));
    if (m_viewMode == ViewMode::Difference && m_hasResult && m_result.heatMap.rect().contains(outPixel)) {
        // The heat map is scaled to the maximum: recover the level from the red/green/blue ramp.
        const QRgb rgb = m_result.heatMap.pixel(outPixel);
        const double t = (qRgb(0, 0, 0) == (rgb & 0xffffff) ? 0.0
                                                               : (qRed(rgb) + qGreen(rgb) + qBlue(rgb)) / 765.0);
        text += tr(" · |diff| ≈ %1").arg(qRound(t * m_result.maxDiff));
    }
    m_pixelLabel->setText(text);
}

QString MainWindow::pixelText() const
{
    return m_pixelLabel->text();
}

void MainWindow::setStatus(const QString &text)
{
    m_statusLabel->setText(text);
    m_statusLabel->setToolTip(text);
}

QString MainWindow::statusText() const
{
    return m_statusLabel->text();
}

// ---- Saving --------------------------------------------------------------------------------

bool MainWindow::saveResult(const QString &path, bool overwriteConfirmed, QString *error)
{
    auto fail = [&](const QString &why) {
        if (error)
            *error = why;
        setStatus(why);
        return false;
    };
    if (!m_hasResult)
        return fail(tr("There is no result to save yet."));
    const QFileInfo target(path);
    if (!m_inputPath.isEmpty()) {
        const QFileInfo original(m_inputPath);
        const bool same = target.exists() && original.exists()
                              ? target.canonicalFilePath() == original.canonicalFilePath()
                              : target.absoluteFilePath() == original.absoluteFilePath();
        if (same)
            return fail(tr("Refusing to overwrite the opened original %1; choose another name.")
                            .arg(QDir::toNativeSeparators(path)));
    }
    if (target.exists() && !overwriteConfirmed)
        return fail(tr("%1 already exists; not overwritten.").arg(QDir::toNativeSeparators(path)));
    QString why;
    // The kernel's own pixels (alpha included), not the opaque display copy.
    const QImage pixels = m_result.outputImage ? qimageFromImage(*m_result.outputImage) : m_result.output;
    if (!writeImageFile(path, pixels, why))
        return fail(tr("Cannot save %1: %2").arg(QDir::toNativeSeparators(path), why));
    setStatus(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

void MainWindow::saveAs()
{
    QString suggestion = m_inputPath.isEmpty() ? QStringLiteral("test-card") : QFileInfo(m_inputPath).completeBaseName();
    suggestion += QStringLiteral("-%1-%2.png").arg(q(m_result.run.filter), q(m_result.run.variant));
    if (!m_inputPath.isEmpty())
        suggestion = QFileInfo(m_inputPath).absoluteDir().filePath(suggestion);
    // We ask about overwriting ourselves so that the original-file rule is checked first.
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Result As"), suggestion,
                                                      tr("PNG image (*.png);;JPEG image (*.jpg);;"
                                                         "BMP image (*.bmp);;TIFF image (*.tif)"),
                                                      nullptr, QFileDialog::DontConfirmOverwrite);
    if (path.isEmpty())
        return;
    QString error;
    bool confirmed = false;
    if (QFileInfo::exists(path) && !m_inputPath.isEmpty()
        && QFileInfo(path).canonicalFilePath() == QFileInfo(m_inputPath).canonicalFilePath()) {
        saveResult(path, false, &error);
        QMessageBox::warning(this, tr("Save Result As"), error);
        return;
    }
    if (QFileInfo::exists(path)) {
        confirmed = QMessageBox::question(this, tr("Save Result As"),
                                          tr("%1 already exists. Replace it?")
                                              .arg(QDir::toNativeSeparators(path)))
                    == QMessageBox::Yes;
        if (!confirmed)
            return;
    }
    if (!saveResult(path, confirmed, &error))
        QMessageBox::warning(this, tr("Save Result As"), error);
}

bool MainWindow::exportRunLog(const QString &path, QString *error)
{
    QByteArray data;
    if (path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) {
        JsonWriter json;
        json.beginObject();
        json.key("tool").value("filter-workbench");
        json.key("runs").beginArray();
        for (const ComputeResult &entry : m_runLog)
            writeRunResultJson(json, entry.run);
        json.endArray();
        json.endObject();
        data = QByteArray::fromStdString(json.str()) + '\n';
    } else {
        QStringList lines;
        lines << QStringLiteral("run,filter,variant,engine,device,work_group,format,repeats,build_ms,"
                                "build_origin,upload_ms,kernel_ms_median,kernel_ms_min,kernel_ms_max,"
                                "download_ms,total_ms,mpix_per_s,gb_per_s,cpu_single_ms,cpu_multi_ms,"
                                "max_abs_diff,matches,error_code,error");
        int index = 0;
        for (const ComputeResult &entry : m_runLog) {
            const RunResult &r = entry.run;
            QStringList f;
            f << QString::number(++index) << q(r.filter) << q(r.variant) << entry.engine.label()
              << q(r.device) << q(r.local.toString()) << QString::fromLatin1(formatName(entry.request.params.format))
              << QString::number(entry.request.repeat) << QString::number(r.buildMs, 'f', 3)
              << q(r.buildOrigin) << QString::number(r.uploadMs, 'f', 4)
              << QString::number(r.kernelMs.median, 'f', 4) << QString::number(r.kernelMs.min, 'f', 4)
              << QString::number(r.kernelMs.max, 'f', 4) << QString::number(r.downloadMs, 'f', 4)
              << QString::number(r.totalMs, 'f', 4) << QString::number(r.mpixPerS, 'f', 2)
              << QString::number(r.gbps, 'f', 3) << QString::number(r.cpuSingleMs, 'f', 3)
              << QString::number(r.cpuMultiMs, 'f', 3) << QString::number(r.maxAbsDiff)
              << (r.matches ? QStringLiteral("yes") : QStringLiteral("no")) << q(r.errorCode)
              << q(r.error);
            for (QString &field : f)
                field = csvField(field);
            lines << f.join(QLatin1Char(','));
        }
        data = lines.join(QLatin1Char('\n')).toUtf8() + '\n';
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit()) {
        if (error)
            *error = tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    setStatus(tr("Exported %1 runs to %2").arg(m_runLog.size()).arg(QDir::toNativeSeparators(path)));
    return true;
}

void MainWindow::exportLog()
{
    QString selected;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Run Log"), QStringLiteral("runs.csv"),
                                                      tr("CSV table (*.csv);;JSON (*.json)"), &selected);
    if (path.isEmpty())
        return;
    QString error;
    if (!exportRunLog(path, &error))
        QMessageBox::warning(this, tr("Export Run Log"), error);
}

// ---- Help ----------------------------------------------------------------------------------

void MainWindow::showHelp()
{
    const FilterSpec *f = m_controls->filter();
    const VariantSpec *v = m_controls->variant();
    QString html = tr("<h2>What am I looking at?</h2>");
    html += tr("<p>The left picture is your <b>original</b>. The right picture is the same image after "
               "a <b>filter</b> ran on the chosen <b>device</b> (a graphics card or the processor, "
               "through OpenCL). Every run is checked against plain, slow C++ code on the processor — "
               "the <b>CPU reference</b>.</p>");
    if (f)
        html += tr("<h3>The filter: %1</h3><p>%2</p>").arg(q(f->title).toHtmlEscaped(), q(f->description).toHtmlEscaped());
    if (v) {
        html += tr("<h3>The variant: %1</h3><p>%2</p>").arg(q(v->title).toHtmlEscaped(), q(v->description).toHtmlEscaped());
        if (!v->seedNote.empty())
            html += tr("<p><i>What was measured before:</i> %1</p>").arg(q(v->seedNote).toHtmlEscaped());
        html += tr("<p>All variants compute the same picture. They differ only in <i>how</i> the work "
                   "is laid out for the device, which is why their times differ.</p>");
    }
    html += tr("<h3>The numbers</h3><ul>"
               "<li><b>Build</b>: turning the kernel's source text into device code. Paid once; "
               "later runs take the program from a cache.</li>"
               "<li><b>Upload</b> / <b>Download</b>: copying the picture to the device and the result "
               "back. On a graphics card this trip can cost more than the filter itself.</li>"
               "<li><b>Kernel time</b>: the filter itself, measured by the device's own clock; the "
               "middle value (median) of the repeats, after one untimed warm-up.</li>"
               "<li><b>Mpix/s</b>: millions of pixels filtered per second.</li>"
               "<li><b>GB/s</b>: bytes the filter must read and write, per second. Compared with the "
               "device's copy speed it says how close the filter is to the memory's limit.</li>"
               "<li><b>Speed-up</b>: CPU reference time divided by kernel time; 10× means ten times "
               "faster than the processor with one thread (or with all its threads), and below 1× the "
               "device was slower.</li>"
               "<li><b>Matches CPU reference</b>: the largest per-pixel difference; a difference of 1 "
               "is rounding, allowed by the filter's tolerance.</li>"
               "<li><b>Work-group</b>: how many pixels one group of device threads handles together "
               "(e.g. 16×16). Some shapes are faster; some are too big for the device and are "
               "refused with the reason.</li></ul>"
               "<h3>Views</h3><p><b>Side by side</b> shows both pictures with the same zoom; the "
               "original is shown in the pixel format the filter reads (gray8 shows it in gray). A "
               "transposed result is shown turned, and zoom and pan follow it. "
               "<b>Split</b> lays the result over the original; drag the white divider. "
               "<b>Difference</b> paints where the result differs from the CPU reference: black is "
               "identical, red to white is different. Zoomed out, each dot keeps the largest "
               "difference under it, so even one differing pixel shows.</p>");
    auto *dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("What am I looking at?"));
    auto *layout = new QVBoxLayout(dialog);
    auto *browser = new QTextBrowser(dialog);
    browser->setHtml(html);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    layout->addWidget(browser);
    layout->addWidget(buttons);
    dialog->resize(640, 620);
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
    m_recentFiles = settings.value("recentFiles").toStringList();
    updateRecentMenu();
    m_controls->setDeviceSpec(settings.value("run/device").toString());
    m_controls->setFilterName(settings.value("run/filter").toString());
    m_controls->setVariantName(settings.value("run/variant").toString());
    const QString shape = settings.value("run/workGroup").toString();
    if (!shape.isEmpty())
        m_controls->setLocalSizeText(shape);
    m_controls->setRepeat(settings.value("run/repeat", 5).toInt());
    ViewMode mode;
    if (parseViewMode(settings.value("view/mode").toString(), &mode))
        m_viewMode = mode;
}

void MainWindow::writeSettings()
{
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    settings.setValue("recentFiles", m_recentFiles);
    settings.setValue("run/device", m_controls->deviceSpec());
    settings.setValue("run/filter", m_controls->filterName());
    settings.setValue("run/variant", m_controls->variantName());
    settings.setValue("run/workGroup", m_controls->localSizeText());
    settings.setValue("run/repeat", m_controls->repeat());
    settings.setValue("view/mode", viewModeName(m_viewMode));
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_useSettings)
        writeSettings();
    m_debounce.stop();
    m_worker->cancel(); // the destructor then aborts and waits; cancelling first makes it quick
    event->accept();
}

} // namespace fwb
