// MainWindow's files (see MainWindow.h): opening a picture (the dialog, a drop, the recent files, the
// test card) and handing it to the pages, saving the result and exporting the run log. A part of the
// shell's own class: every step reads and sets the shell's input, result and status line.
#include "MainWindow.h"
#include "UiText.h"

#include "ControlPanel.h"
#include "ErrorBanner.h"
#include "ImageFileIo.h"
#include "RecentFilesMenu.h"
#include "WorkbenchPage.h"

#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFile>
#include <QFileInfo>
#include <QImageReader>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStandardPaths>

#include <cstdint>

namespace fwb {

namespace {

// True when every pixel has red = green = blue: a grey picture, whatever layout it was stored in.
bool isGreyImage(const Image &image)
{
    const int channels = image.channels();
    if (channels < 3)
        return true;
    for (int y = 0; y < image.height(); ++y) {
        const std::uint8_t *p = image.row(y);
        for (int x = 0; x < image.width(); ++x, p += channels)
            if (p[0] != p[1] || p[1] != p[2])
                return false;
    }
    return true;
}

} // namespace

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
    m_recentMenu->addFile(QFileInfo(path).absoluteFilePath());
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
    m_inputPath = path;
    m_hasResult = false;
    m_result = ComputeResult();
    m_firstPictureOnScreen = false; // the pages drop their result with the old picture
    m_firstPictureHold.stop();
    // A newcomer's colour photo must not come out grey: the format follows the image until picked.
    m_controls->suggestPixelFormat(isGreyImage(image) ? PixelFormat::Gray8 : PixelFormat::Rgba8888);
    if (m_autoRunPaused && m_autoRunChoice < 0)
        m_controls->setAutoRun(true); // paused for the last (slow) image, not for this one
    m_autoRunPaused = false;
    validateShape(); // first: the worker builds the program (if new) while the pages take the picture in
    for (WorkbenchPage *page : std::as_const(m_pages))
        page->setInput(m_input, description);
    sendRequestToPages(); // the pages' requests carry the new input
    setWindowTitle(tr("%1 — OpenCL Filter Workbench").arg(description));
    setStatus(tr("Loaded %1").arg(description));
    updateActions();
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
    // The kernel's own pixels (alpha included), not the opaque display copy; PNG and JPEG through the
    // headless writer filter-bench uses (the same bytes, written atomically), other formats through Qt's.
    Image fromDisplay;
    if (!m_result.outputImage)
        fromDisplay = imageFromQImage(m_result.output);
    const Image &pixels = m_result.outputImage ? *m_result.outputImage : fromDisplay;
    std::string why;
    if (!QtImageIo().save(QFile::encodeName(path).toStdString(), pixels, why))
        return fail(tr("Cannot save %1: %2").arg(QDir::toNativeSeparators(path), QString::fromStdString(why)));
    setStatus(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    QSettings().setValue(QStringLiteral("files/lastSaveDir"), target.absolutePath());
    return true;
}

QString MainWindow::saveSuggestion() const
{
    QString name = m_inputPath.isEmpty() ? QStringLiteral("test-card") : QFileInfo(m_inputPath).completeBaseName();
    name += QStringLiteral("-%1-%2.png").arg(q(m_result.run.filter), q(m_result.run.variant));
    // Issue 24: the dialog opened in the input photo's folder, next to the photo itself.
    QString folder = QSettings().value(QStringLiteral("files/lastSaveDir")).toString();
    if (folder.isEmpty() || !QFileInfo(folder).isDir())
        folder = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    if (folder.isEmpty() || !QFileInfo(folder).isDir())
        folder = QDir::homePath();
    return QDir(folder).filePath(name);
}

void MainWindow::saveAs()
{
    const QString suggestion = saveSuggestion();
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
    if (!m_runLog.write(path, error))
        return false;
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

} // namespace fwb
