// ImageView: painting only the visible part of the image (big images stay responsive), wheel zoom
// around the cursor, panning, the wipe divider and the pixel grid.
#include "ImageView.h"

#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace fwb {

namespace {
constexpr double kMinZoom = 1.0 / 64.0;
constexpr double kMaxZoom = 64.0;
constexpr double kGridZoom = 8.0; // a grid line every pixel only once pixels are big enough
} // namespace

ImageView::ImageView(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumSize(160, 120);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void ImageView::setImage(const QImage &image)
{
    setImage(image, {});
}

void ImageView::setImage(const QImage &image, const std::vector<QImage> &levels)
{
    const bool sizeChanged = image.size() != m_image.size();
    m_image = image;
    m_levels = levels;
    if (sizeChanged && m_fit)
        fitToWindow();
    else if (sizeChanged)
        m_center = QPointF(image.width() / 2.0, image.height() / 2.0);
    update();
}

void ImageView::setWipeImage(const QImage &image)
{
    m_wipeImage = image;
    update();
}

void ImageView::setWipePosition(double fraction)
{
    m_wipe = std::clamp(fraction, 0.0, 1.0);
    update();
}

void ImageView::setCaption(const QString &left, const QString &right)
{
    m_captionLeft = left;
    m_captionRight = right;
    if (m_fit)
        fit(); // the picture moves below a caption that grew or shrank
    update();
}

void ImageView::setPlaceholder(const QString &text)
{
    m_placeholder = text;
    update();
}

void ImageView::setView(double zoom, const QPointF &center, bool fit)
{
    m_fit = fit;
    if (fit) {
        // Fitting is about this view's image: a transposed result fits its own H x W, not the
        // original's W x H at the original's zoom (which cut it off at the top and bottom).
        this->fit();
    } else {
        m_zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
        m_center = center;
    }
    update();
}

int ImageView::drawnLevel() const
{
    // The finest level drawn at least 1:1 (zoom * 2^k >= 1): every pixel of it reaches the screen,
    // none is skipped or averaged away by the scaling.
    int level = 0;
    while (level < int(m_levels.size()) && m_zoom * double(1 << level) < 1.0 - 1e-9)
        ++level;
    return level;
}

void ImageView::setPixelGridEnabled(bool enabled)
{
    m_grid = enabled;
    update();
}

double ImageView::fitZoom() const
{
    if (m_image.isNull() || width() < 2 || height() < 2)
        return 1.0;
    const int band = captionBand();
    return std::clamp(std::min(double(width() - 8) / m_image.width(),
                               double(std::max(8, height() - 8 - band)) / m_image.height()),
                      kMinZoom, kMaxZoom);
}

// Issue 24: the result's caption covered the top of the fitted picture. The fitted picture keeps the band
// the captions take (when the view is tall enough to afford it: at least half its height stays).
int ImageView::captionBand() const
{
    const int band = std::max(captionRect(false).bottom(), captionRect(true).bottom()) + 4;
    return band > 4 && band < height() / 2 ? band : 0;
}

QPointF ImageView::fitCenter() const
{
    // The picture's middle at the middle of the room below the band: the widget's centre is band/2 above.
    return QPointF(m_image.width() / 2.0, m_image.height() / 2.0 - captionBand() / (2.0 * m_zoom));
}

void ImageView::fit()
{
    m_zoom = fitZoom();
    m_center = fitCenter();
}

QRect ImageView::captionRect(bool right) const
{
    const QString &text = right ? m_captionRight : m_captionLeft;
    if (text.isEmpty())
        return {};
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics metrics(bold);
    QRect box = metrics.boundingRect(QRect(0, 0, std::max(40, width() / (m_captionRight.isEmpty() ? 1 : 2) - 16), 1000),
                                     Qt::TextWordWrap, text)
                    .adjusted(-6, -3, 6, 3);
    box.moveTop(6);
    if (right)
        box.moveRight(width() - 7);
    else
        box.moveLeft(7);
    return box;
}

void ImageView::fitToWindow()
{
    m_fit = true;
    fit();
    update();
    emitView();
}

void ImageView::setActualSize()
{
    m_fit = false;
    m_zoom = 1.0;
    update();
    emitView();
}

void ImageView::zoomBy(double factor)
{
    zoomAround(m_zoom * factor, QPointF(width() / 2.0, height() / 2.0));
}

void ImageView::zoomAround(double newZoom, const QPointF &widgetPos)
{
    // The image point under the cursor stays under the cursor.
    const QPointF anchor = mapToImage(widgetPos);
    m_zoom = std::clamp(newZoom, kMinZoom, kMaxZoom);
    m_fit = false;
    m_center = anchor - (widgetPos - QPointF(width() / 2.0, height() / 2.0)) / m_zoom;
    update();
    emitView();
}

void ImageView::emitView()
{
    emit viewChanged(m_zoom, m_center, m_fit);
}

QPointF ImageView::mapToImage(const QPointF &widgetPos) const
{
    return (widgetPos - QPointF(width() / 2.0, height() / 2.0)) / m_zoom + m_center;
}

QPointF ImageView::mapFromImage(const QPointF &imagePos) const
{
    return (imagePos - m_center) * m_zoom + QPointF(width() / 2.0, height() / 2.0);
}

int ImageView::wipeX() const
{
    return int(std::lround(m_wipe * width()));
}

QBrush ImageView::checkerboardBrush()
{
    static const QBrush brush = [] {
        QPixmap tile(16, 16);
        tile.fill(QColor(255, 255, 255));
        QPainter p(&tile);
        p.fillRect(0, 0, 8, 8, QColor(204, 204, 204));
        p.fillRect(8, 8, 8, 8, QColor(204, 204, 204));
        return QBrush(tile);
    }();
    return brush;
}

void ImageView::drawImagePart(QPainter &painter, const QImage &full, const QRectF &clip, int level)
{
    // A reduced level stands for the full image: its pixel (x, y) covers scale x scale pixels.
    const QImage &image = level > 0 ? m_levels[std::size_t(level - 1)] : full;
    const double scale = double(1 << level);
    // Source rectangle = the visible part only: drawing a scaled 12-Mpixel image whole on every
    // repaint would stall the GUI thread for tens of milliseconds.
    const QRectF imageRect = QRectF(mapFromImage(QPointF(0, 0)),
                                    mapFromImage(QPointF(full.width(), full.height())));
    const QRectF visible = imageRect.intersected(clip);
    if (visible.isEmpty())
        return;
    QRectF source(mapToImage(visible.topLeft()) / scale, mapToImage(visible.bottomRight()) / scale);
    // Snap to whole source pixels so that zoomed-in pixels stay square and aligned to the grid.
    const QRect whole = source.toAlignedRect().intersected(image.rect());
    const QRectF target(mapFromImage(QPointF(whole.topLeft()) * scale),
                        mapFromImage(QPointF(whole.bottomRight() + QPoint(1, 1)) * scale));
    painter.save();
    painter.setClipRect(clip.intersected(imageRect));
    // Transparent pictures on a light checkerboard, not on the dark background (issue 24: black text of
    // a transparent logo vanished; a transparent result looked like an empty view).
    if (image.hasAlphaChannel())
        painter.fillRect(target.intersected(clip), checkerboardBrush());
    // A level is already reduced for this zoom: smoothing it again would blur the peaks it keeps.
    painter.setRenderHint(QPainter::SmoothPixmapTransform, level == 0 && m_zoom < 1.0);
    painter.drawImage(target, image, whole);
    painter.restore();
}

void ImageView::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.fillRect(rect(), QColor(48, 48, 52));
    if (m_image.isNull()) {
        painter.setPen(QColor(220, 220, 220));
        painter.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, m_placeholder);
    } else {
        const bool wipe = !m_wipeImage.isNull();
        const QRectF all = rect();
        if (!wipe) {
            drawImagePart(painter, m_image, all, drawnLevel());
        } else {
            const int x = wipeX();
            drawImagePart(painter, m_image, QRectF(0, 0, x, height()));
            drawImagePart(painter, m_wipeImage, QRectF(x, 0, width() - x, height()));
        }
        if (m_grid && m_zoom >= kGridZoom) {
            painter.setPen(QColor(0, 0, 0, 90));
            const QPointF topLeft = mapToImage(QPointF(0, 0));
            const QPointF bottomRight = mapToImage(QPointF(width(), height()));
            const int x0 = std::max(0, int(std::floor(topLeft.x())));
            const int x1 = std::min(m_image.width(), int(std::ceil(bottomRight.x())));
            const int y0 = std::max(0, int(std::floor(topLeft.y())));
            const int y1 = std::min(m_image.height(), int(std::ceil(bottomRight.y())));
            const double top = mapFromImage(QPointF(0, y0)).y();
            const double bottom = mapFromImage(QPointF(0, y1)).y();
            const double left = mapFromImage(QPointF(x0, 0)).x();
            const double right = mapFromImage(QPointF(x1, 0)).x();
            for (int x = x0; x <= x1; ++x) {
                const double px = mapFromImage(QPointF(x, 0)).x();
                painter.drawLine(QPointF(px, top), QPointF(px, bottom));
            }
            for (int y = y0; y <= y1; ++y) {
                const double py = mapFromImage(QPointF(0, y)).y();
                painter.drawLine(QPointF(left, py), QPointF(right, py));
            }
        }
        if (wipe) {
            const int x = wipeX();
            painter.setPen(QPen(QColor(255, 255, 255), 2));
            painter.drawLine(x, 0, x, height());
            painter.setBrush(QColor(255, 255, 255));
            painter.drawEllipse(QPoint(x, height() / 2), 7, 7);
        }
    }
    // Captions in a translucent box so they stay readable over any image.
    auto caption = [&](const QString &text, bool right) {
        if (text.isEmpty())
            return;
        QFont font = painter.font();
        font.setBold(true);
        painter.setFont(font);
        const QRect box = captionRect(right);
        painter.setPen(Qt::NoPen);
        painter.setBrush(QColor(0, 0, 0, 170));
        painter.drawRoundedRect(box, 4, 4);
        painter.setPen(Qt::white);
        painter.drawText(box.adjusted(6, 3, -6, -3), Qt::TextWordWrap, text);
    };
    caption(m_captionLeft, false);
    caption(m_captionRight, true);
}

void ImageView::resizeEvent(QResizeEvent *)
{
    if (m_fit)
        fit();
}

void ImageView::wheelEvent(QWheelEvent *event)
{
    if (m_image.isNull())
        return;
    const double steps = event->angleDelta().y() / 120.0;
    zoomAround(m_zoom * std::pow(1.25, steps), event->position());
    event->accept();
}

void ImageView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton)
        return;
    m_lastMouse = event->position();
    if (!m_wipeImage.isNull() && std::abs(event->position().x() - wipeX()) <= 8) {
        m_drag = Drag::Wipe;
        setCursor(Qt::SplitHCursor);
    } else {
        m_drag = Drag::Pan;
        setCursor(Qt::ClosedHandCursor);
    }
}

void ImageView::mouseMoveEvent(QMouseEvent *event)
{
    const QPointF pos = event->position();
    if (m_drag == Drag::Wipe) {
        setWipePosition(width() > 0 ? pos.x() / width() : 0.5);
        emit wipeMoved(m_wipe);
    } else if (m_drag == Drag::Pan) {
        m_center -= (pos - m_lastMouse) / m_zoom;
        m_fit = false;
        m_lastMouse = pos;
        update();
        emitView();
    } else if (!m_wipeImage.isNull()) {
        setCursor(std::abs(pos.x() - wipeX()) <= 8 ? Qt::SplitHCursor : Qt::ArrowCursor);
    }
    const QPointF p = mapToImage(pos);
    const QPoint pixel(int(std::floor(p.x())), int(std::floor(p.y())));
    emit pixelHovered(m_image.rect().contains(pixel) ? pixel : QPoint(-1, -1));
}

void ImageView::mouseReleaseEvent(QMouseEvent *)
{
    m_drag = Drag::None;
    unsetCursor();
}

void ImageView::leaveEvent(QEvent *)
{
    emit pixelHovered(QPoint(-1, -1));
}

} // namespace fwb
