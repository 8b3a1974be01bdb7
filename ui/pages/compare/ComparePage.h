// ComparePage: the original next to the result of the last run, in three view modes (side by
// side, split wipe, difference heat map), with synchronised zoom and a pixel readout.
#pragma once

#include "WorkbenchPage.h"

#include <QImage>
#include <QPoint>

class QSplitter;

namespace fwb {

class ImageView;

class ComparePage : public WorkbenchPage
{
    Q_OBJECT

public:
    enum class ViewMode { SideBySide, Split, Difference };

    explicit ComparePage(QWidget *parent = nullptr);

    QString title() const override { return tr("Compare"); }
    void setInput(const std::shared_ptr<const Image> &image, const QString &description) override;
    void setRequest(const ComputeRequest &request) override;
    void showResult(const ComputeResult &result) override;
    // The view modes (Ctrl+1..3), zoom, fit, actual size and the pixel grid; the tool bar gets
    // the modes, fit and actual size.
    QList<QAction *> viewMenuActions() const override { return m_menuActions; }
    QList<QAction *> toolBarActions() const override { return m_toolBarActions; }

    ViewMode viewMode() const { return m_viewMode; }
    void setViewMode(ViewMode mode);
    static QString viewModeName(ViewMode mode);
    static bool parseViewMode(const QString &name, ViewMode *mode);

    // Zoom and pan act on the left view; the right one follows.
    void zoomBy(double factor);
    void fitToWindow();
    void setActualSize();
    void setPixelGridEnabled(bool on);

    ImageView *originalView() const { return m_originalView; }
    ImageView *resultView() const { return m_resultView; }
    // "x 10, y 30 — original 128 · result 127" for the pixel under the pointer; empty off the image.
    QString pixelText() const { return m_pixelText; }

signals:
    void pixelTextChanged(const QString &text);

private:
    void createActions();
    void updateViews();
    // The input as the kernel receives it (converted to the run's pixel format), for display.
    QImage displayedInput() const;
    PixelFormat displayedFormat() const;
    // Side by side with a transposed result: pixel (x, y) on the left is (y, x) on the right.
    bool viewsTransposed() const;
    void syncResultView();
    void onPixelHovered(ImageView *view, const QPoint &pixel);
    void setPixelText(const QString &text);

    QSplitter *m_splitter = nullptr;
    ImageView *m_originalView = nullptr;
    ImageView *m_resultView = nullptr;

    std::shared_ptr<const Image> m_input;
    QImage m_inputQImage;
    mutable QImage m_inputConverted; // m_input in m_inputConvertedFormat, made on first use
    mutable PixelFormat m_inputConvertedFormat = PixelFormat::Gray8;
    QString m_inputDescription;
    PixelFormat m_requestedFormat = PixelFormat::Gray8; // what the next run reads
    ComputeResult m_result;
    bool m_hasResult = false;
    ViewMode m_viewMode = ViewMode::SideBySide;
    bool m_syncing = false;
    QString m_pixelText;
    QAction *m_modeActs[3] = {nullptr, nullptr, nullptr};
    QList<QAction *> m_menuActions;
    QList<QAction *> m_toolBarActions;
};

} // namespace fwb
