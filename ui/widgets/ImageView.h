// ImageView: zoomable, pannable image display with pixel grid, caption and an optional wipe image.
#pragma once

#include <QBrush>
#include <QImage>
#include <QPointF>
#include <QString>
#include <QWidget>

#include <vector>

namespace fwb {

class ImageView : public QWidget
{
    Q_OBJECT

public:
    explicit ImageView(QWidget *parent = nullptr);

    void setImage(const QImage &image);
    // levels: the image reduced by 2, 4, 8, ... (e.g. max-pooled); drawn instead of the image when
    // zoomed out, so what the reduction keeps (isolated bright pixels) stays visible.
    void setImage(const QImage &image, const std::vector<QImage> &levels);
    QImage image() const { return m_image; }
    // The level drawn at the current zoom: 0 = the image itself, k = reduced by 2^k.
    int drawnLevel() const;
    // Split (wipe) mode: right of the divider shows this image instead; null turns it off.
    void setWipeImage(const QImage &image);
    QImage wipeImage() const { return m_wipeImage; }
    void setWipePosition(double fraction);
    double wipePosition() const { return m_wipe; }
    void setCaption(const QString &left, const QString &right = {});
    void setPlaceholder(const QString &text);

    double zoom() const { return m_zoom; }
    QPointF center() const { return m_center; }
    bool isFitting() const { return m_fit; }
    // Sets the view without emitting viewChanged (used to mirror the other view). fit: fit this
    // view's own image, which may have another size than the mirrored one (a transpose).
    void setView(double zoom, const QPointF &center, bool fit);
    void setPixelGridEnabled(bool enabled);
    bool pixelGridEnabled() const { return m_grid; }

    // Where a caption's box is drawn (empty: no caption on that side). A fitted picture sits below the
    // captions, never under them.
    QRect captionRect(bool right = false) const;

    QPointF mapToImage(const QPointF &widgetPos) const;
    QPointF mapFromImage(const QPointF &imagePos) const;

public slots:
    void fitToWindow();
    void setActualSize();
    void zoomBy(double factor);

signals:
    void viewChanged(double zoom, const QPointF &center, bool fit);
    void pixelHovered(const QPoint &imagePixel); // (-1, -1) when outside the image
    void wipeMoved(double fraction);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
public:
    static QBrush checkerboardBrush(); // light grey and white squares under transparent pictures

private:
    double fitZoom() const;
    int captionBand() const;    // the height the captions take at the top (0: none)
    QPointF fitCenter() const;  // the image point at the widget's centre when fitted below the captions
    void fit();                 // m_zoom and m_center for fitting
    void zoomAround(double newZoom, const QPointF &widgetPos);
    void drawImagePart(QPainter &painter, const QImage &image, const QRectF &clip, int level = 0);
    void emitView();
    int wipeX() const;

    QImage m_image;
    std::vector<QImage> m_levels;
    QImage m_wipeImage;
    QString m_captionLeft;
    QString m_captionRight;
    QString m_placeholder;
    double m_zoom = 1.0;
    QPointF m_center;  // image coordinates shown at the widget centre
    bool m_fit = true; // keep fitting on resize until the user zooms
    bool m_grid = true;
    double m_wipe = 0.5;
    enum class Drag { None, Pan, Wipe } m_drag = Drag::None;
    QPointF m_lastMouse;
};

} // namespace fwb
