// ComparePage: fills the two image views for the chosen view mode, keeps their zoom and pan
// together (mirrored through the diagonal for a transposed result) and reads out the pixel values.
#include "ComparePage.h"
#include "UiText.h"

#include "Catalogue.h"
#include "ImageFileIo.h"
#include "ImageView.h"

#include <QAction>
#include <QActionGroup>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

namespace fwb {

namespace {


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

ComparePage::ComparePage(QWidget *parent) : WorkbenchPage(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_originalView = new ImageView(m_splitter);
    m_resultView = new ImageView(m_splitter);
    m_originalView->setObjectName("originalView");
    m_resultView->setObjectName("resultView");
    m_resultView->setPlaceholder(tr("The filtered image appears here after a run."));
    m_originalView->setPlaceholder(tr("No image open.\nFile ▸ Open… (or drop an image file here), or File ▸ "
                                      "Open Test Card."));
    m_splitter->addWidget(m_originalView);
    m_splitter->addWidget(m_resultView);
    layout->addWidget(m_splitter);

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
    createActions();
    updateViews();
}

void ComparePage::createActions()
{
    auto *modeGroup = new QActionGroup(this);
    const QString modeNames[3] = {tr("&Side by Side"), tr("S&plit (wipe)"), tr("&Difference")};
    for (int i = 0; i < 3; ++i) {
        m_modeActs[i] = new QAction(modeNames[i], this);
        m_modeActs[i]->setCheckable(true);
        m_modeActs[i]->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
        modeGroup->addAction(m_modeActs[i]);
        connect(m_modeActs[i], &QAction::triggered, this, [this, i] { setViewMode(ViewMode(i)); });
    }
    m_modeActs[int(m_viewMode)]->setChecked(true);
    auto *separator = new QAction(this);
    separator->setSeparator(true);
    auto *zoomIn = new QAction(tr("Zoom &In"), this);
    zoomIn->setShortcut(QKeySequence::ZoomIn);
    connect(zoomIn, &QAction::triggered, this, [this] { zoomBy(1.25); });
    auto *zoomOut = new QAction(tr("Zoom &Out"), this);
    zoomOut->setShortcut(QKeySequence::ZoomOut);
    connect(zoomOut, &QAction::triggered, this, [this] { zoomBy(0.8); });
    auto *fit = new QAction(tr("&Fit to Window"), this);
    fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    connect(fit, &QAction::triggered, this, &ComparePage::fitToWindow);
    auto *actual = new QAction(tr("&Actual Size (100%)"), this);
    actual->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_0));
    connect(actual, &QAction::triggered, this, &ComparePage::setActualSize);
    auto *grid = new QAction(tr("Pixel &Grid When Zoomed In"), this);
    grid->setCheckable(true);
    grid->setChecked(true);
    connect(grid, &QAction::toggled, this, &ComparePage::setPixelGridEnabled);

    m_menuActions = {m_modeActs[0], m_modeActs[1], m_modeActs[2], separator, zoomIn, zoomOut, fit,
                     actual, grid};
    m_toolBarActions = {m_modeActs[0], m_modeActs[1], m_modeActs[2], fit, actual};
}

void ComparePage::setInput(const std::shared_ptr<const Image> &image, const QString &description)
{
    m_input = image;
    m_inputQImage = image ? qimageFromImage(*image) : QImage();
    m_inputConverted = QImage();
    m_inputDescription = description;
    m_hasResult = false;
    m_result = ComputeResult();
    m_originalView->fitToWindow();
    updateViews();
}

void ComparePage::setRequest(const ComputeRequest &request)
{
    m_requestedFormat = request.run.params.format;
    // Without a result the original follows the chosen pixel format at once (with one it stays
    // paired with the result's format until the next run lands).
    if (!m_hasResult && m_input)
        updateViews();
}

void ComparePage::showResult(const ComputeResult &result)
{
    m_result = result;
    m_hasResult = true;
    updateViews();
}

void ComparePage::zoomBy(double factor)
{
    m_originalView->zoomBy(factor);
}

void ComparePage::fitToWindow()
{
    m_originalView->fitToWindow();
}

void ComparePage::setActualSize()
{
    m_originalView->setActualSize();
}

void ComparePage::setPixelGridEnabled(bool on)
{
    m_originalView->setPixelGridEnabled(on);
    m_resultView->setPixelGridEnabled(on);
}

QString ComparePage::viewModeName(ViewMode mode)
{
    switch (mode) {
    case ViewMode::Split: return QStringLiteral("split");
    case ViewMode::Difference: return QStringLiteral("diff");
    case ViewMode::SideBySide: break;
    }
    return QStringLiteral("side");
}

bool ComparePage::parseViewMode(const QString &name, ViewMode *mode)
{
    for (ViewMode m : {ViewMode::SideBySide, ViewMode::Split, ViewMode::Difference}) {
        if (viewModeName(m) == name) {
            *mode = m;
            return true;
        }
    }
    return false;
}

void ComparePage::setViewMode(ViewMode mode)
{
    m_viewMode = mode;
    m_modeActs[int(mode)]->setChecked(true);
    updateViews();
}

PixelFormat ComparePage::displayedFormat() const
{
    // Paired with the result on screen; before any result, with the format about to be used.
    return m_hasResult ? m_result.request.params.format : m_requestedFormat;
}

QImage ComparePage::displayedInput() const
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

bool ComparePage::viewsTransposed() const
{
    if (m_viewMode != ViewMode::SideBySide || !m_hasResult)
        return false;
    const FilterSpec *filter = findFilter(m_result.run.filter);
    return filter && filter->transposesOutput;
}

void ComparePage::syncResultView()
{
    const QPointF c = m_originalView->center();
    m_resultView->setView(m_originalView->zoom(), viewsTransposed() ? QPointF(c.y(), c.x()) : c,
                          m_originalView->isFitting());
}

void ComparePage::updateViews()
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

void ComparePage::onPixelHovered(ImageView *view, const QPoint &pixel)
{
    if (pixel.x() < 0) {
        setPixelText(QString());
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
    setPixelText(text);
}

void ComparePage::setPixelText(const QString &text)
{
    m_pixelText = text;
    emit pixelTextChanged(text);
}

} // namespace fwb
