// Fuzz target: image files through the loading path both front ends use. filter-bench's loader is
// QtImageIo::load and the window's MainWindow::loadFile is readImageFile + imageFromQImage: the same
// two calls, made here on a file (QImageReader with our auto-transform and allocation limits, Qt's
// decoders and the image-format plugins) and without a display (QCoreApplication, as filter-bench).
// The file has no suffix, so Qt picks the decoder from the contents as it does for a misnamed file.
// Beyond "no crash": a refusal says why, and a loaded image is within our size limits and complete.
#include "FuzzSupport.h"
#include "ImageFileIo.h"

#include <QCoreApplication>

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    // Image-format plugins (TIFF, WebP, ...) load through the application object.
    static QCoreApplication app(*argc, *argv);
    qInstallMessageHandler([](QtMsgType, const QMessageLogContext &, const QString &) {}); // decoder chatter
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string path = fwb::fuzz::writeInput("input", data, size).string();
    fwb::QtImageIo io;
    fwb::Image image;
    std::string error;
    if (!io.load(path, image, error)) {
        if (error.empty())
            std::abort();
        return 0;
    }
    fwb::fuzz::checkDecodedImage(image);
    return 0;
}
