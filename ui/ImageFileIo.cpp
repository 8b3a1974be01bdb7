// Image file reading/writing for the Qt builds of filter-bench and filter-workbench.
#include "ImageFileIo.h"

#include "AtomicFile.h"
#include "HeadlessImageIo.h"
#include "JpegMarkers.h"

#include <QFile>
#include <QFileInfo>
#include <QImageReader>
#include <QImageWriter>
#include <QSaveFile>
#include <QStringList>

#include <algorithm>
#include <filesystem>
#include <cstdint>
#include <cstring>

namespace fwb {

Image imageFromQImage(const QImage &qimage)
{
    if (qimage.format() == QImage::Format_Grayscale8) {
        Image image(qimage.width(), qimage.height(), PixelFormat::Gray8);
        for (int y = 0; y < qimage.height(); ++y)
            std::memcpy(image.row(y), qimage.constScanLine(y), std::size_t(qimage.width()));
        return image;
    }
    const QImage rgba = qimage.convertToFormat(QImage::Format_RGBA8888);
    Image image(rgba.width(), rgba.height(), PixelFormat::Rgba8888);
    for (int y = 0; y < rgba.height(); ++y)
        std::memcpy(image.row(y), rgba.constScanLine(y), std::size_t(rgba.width()) * 4);
    return image;
}

QImage qimageFromImage(const Image &image)
{
    if (image.isNull())
        return {};
    QImage::Format format = image.format() == PixelFormat::Gray8    ? QImage::Format_Grayscale8
                            : image.format() == PixelFormat::Rgb888 ? QImage::Format_RGB888
                                                                    : QImage::Format_RGBA8888;
    QImage out(image.width(), image.height(), format);
    const std::size_t rowBytes = std::size_t(image.width()) * std::size_t(image.channels());
    for (int y = 0; y < image.height(); ++y)
        std::memcpy(out.scanLine(y), image.row(y), rowBytes);
    return out;
}

namespace {

bool jpegIsComplete(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return true; // it was just read: nothing new to say
    const qint64 size = file.size();
    if (size < 4)
        return false;
    if (const uchar *mapped = file.map(0, size))
        return jpegHasEnd(mapped, std::size_t(size));
    const QByteArray bytes = file.readAll();
    return jpegHasEnd(reinterpret_cast<const uchar *>(bytes.constData()), std::size_t(bytes.size()));
}

} // namespace

bool readImageFile(const QString &path, QImage &out, QString &error)
{
    // PNG and JPEG (by contents, as Qt picks its decoder) through the headless reader: the same pixels,
    // and the same decoder in both front ends and in the Qt-free build.
    const std::string bytes = QFile::encodeName(path).toStdString();
    if (headlessReads(sniffImageFile(bytes))) {
        Image image;
        std::string reason;
        if (!HeadlessImageIo().load(bytes, image, reason)) {
            error = QString::fromStdString(reason);
            return false;
        }
        out = qimageFromImage(image);
        return true;
    }
    return readImageFileWithQt(path, out, error);
}

bool readImageFileWithQt(const QString &path, QImage &out, QString &error)
{
    const QFileInfo file(path);
    if (!file.exists()) {
        error = QStringLiteral("file does not exist");
        return false;
    }
    if (file.isDir()) {
        error = QStringLiteral("is a folder, not an image file");
        return false;
    }
    if (!file.isReadable()) {
        error = QStringLiteral("permission denied (this user may not read the file)");
        return false;
    }
    QImageReader reader(path);
    reader.setAutoTransform(true);
    // The decoders' own guard (Qt's allocateImage) at the same bound as ours, for the formats that do not
    // declare a size before decoding: a third of the memory this program may use.
    reader.setAllocationLimit(int(std::clamp<std::uint64_t>(imageMemoryLimitBytes() >> 20, 1, 1u << 30))); // MiB
    const QSize size = reader.size();
    if (size.isValid()) {
        // Checked as the 4-channel image it becomes (imageFromQImage), or as what the decoder fills first
        // where that is wider (16-bit channels: 8 bytes a pixel), the memory bound included, before any
        // pixel is decoded: a small file declaring a huge size costs nothing.
        const QImage::Format decoded = reader.imageFormat();
        const int depthBytes = decoded == QImage::Format_Invalid ? 4 : QImage::toPixelFormat(decoded).bitsPerPixel() / 8;
        if (std::string problem = imageSizeProblem(size.width(), size.height(), std::max(4, depthBytes)); !problem.empty()) {
            error = QString::fromStdString(problem);
            return false;
        }
    }
    const QByteArray format = reader.format(); // read() forgets it
    QImage image = reader.read();
    if (image.isNull()) {
        const QFileInfo info(path);
        const QByteArray suffix = info.suffix().toLower().toLatin1();
        const bool knownSuffix = !suffix.isEmpty() && QImageReader::supportedImageFormats().contains(suffix);
        if (info.size() == 0) {
            error = QStringLiteral("the file is empty");
        } else if (reader.error() == QImageReader::UnsupportedFormatError && knownSuffix) {
            // Qt says "Unsupported image format" for a text file named .png, which reads as if PNG
            // itself were unsupported: say that the contents are the problem.
            error = QStringLiteral("the contents are not %1 image data (a damaged file, or another kind "
                                   "of file with a .%2 name)")
                        .arg(QString::fromLatin1(suffix).toUpper(), QString::fromLatin1(suffix));
        } else if (reader.error() == QImageReader::UnsupportedFormatError) {
            QStringList formats;
            for (const QByteArray &format : QImageReader::supportedImageFormats())
                formats << QString::fromLatin1(format);
            error = QStringLiteral("not an image format this build can read (it reads %1)")
                        .arg(formats.join(QStringLiteral(", ")));
        } else if (reader.error() == QImageReader::InvalidDataError) {
            // "Unable to read image data" alone does not say whose fault it is.
            const QByteArray kind = !reader.format().isEmpty() ? reader.format()
                                    : knownSuffix                ? suffix
                                                                 : QByteArray("image");
            error = QStringLiteral("the %1 data is damaged or cut short (%2)")
                        .arg(QString::fromLatin1(kind == "image" ? kind : kind.toUpper()), reader.errorString());
        } else {
            error = reader.errorString();
            if (error.isEmpty() || error == QLatin1String("Unknown error"))
                error = QStringLiteral("not a readable image (corrupt or unsupported format)");
        }
        return false;
    }
    if (std::string problem = imageSizeProblem(image.width(), image.height(), 4); !problem.empty()) {
        error = QString::fromStdString(problem);
        return false;
    }
    if (format == "jpeg" && !jpegIsComplete(path)) {
        error = QStringLiteral("the JPEG data is cut short (the file ends before the image does; the "
                               "decoder would fill the rest with grey)");
        return false;
    }
    out = image;
    return true;
}

bool writeImageFile(const QString &path, const QImage &image, QString &error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        error = file.errorString();
        return false;
    }
    QImageWriter writer(&file, QFileInfo(path).suffix().toLatin1());
    if (!writer.write(image)) {
        // On a full disk libpng says "Write Error" and QImageWriter "Unknown error": the file's own
        // error names the cause ("No space left on device").
        error = file.error() != QFileDevice::NoError ? file.errorString() : writer.errorString();
        if (error.isEmpty() || error == QLatin1String("Unknown error"))
            error = QStringLiteral("the write did not complete (disk full?)");
        file.cancelWriting();
        return false;
    }
    // flush() first: Qt 6.4's commit() returns true when the last buffered write fails (ENOSPC on a
    // full disk) and puts an empty file in place of the old one.
    if (!file.flush()) {
        error = file.errorString();
        file.cancelWriting();
        return false;
    }
    if (!file.commit()) {
        error = file.errorString();
        return false;
    }
    return true;
}

std::string QtImageIo::pathProblem(const std::string &path) const
{
    const QByteArray bytes = QByteArray::fromStdString(path);
    if (QFile::encodeName(QFile::decodeName(bytes)) != bytes)
        return "'" + QFile::decodeName(bytes).toStdString()
               + "': the file name is not valid UTF-8 (it would be read or written under another name); rename it";
    return {};
}

std::string QtImageIo::saveProblem(const std::string &path) const
{
    if (std::string problem = pathProblem(path); !problem.empty())
        return problem;
    const QByteArray suffix = QFileInfo(QFile::decodeName(QByteArray::fromStdString(path))).suffix().toLower().toLatin1();
    if (suffix.isEmpty() || !QImageWriter::supportedImageFormats().contains(suffix))
        return path + ": unsupported output format '." + suffix.toStdString() + "' (use .png, .bmp, .jpg, .tiff, ...)";
    return {};
}

bool QtImageIo::load(const std::string &path, Image &image, std::string &error)
{
    if (std::string problem = pathProblem(path); !problem.empty()) {
        error = problem;
        return false;
    }
    // A FIFO would block the reader forever, a device would be read without end: image files only.
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)
        && !std::filesystem::is_directory(status)) {
        error = std::filesystem::is_fifo(status) ? "is a FIFO, not an image file" : "is not a regular file (a device?)";
        return false;
    }
    if (headlessReads(sniffImageFile(path))) // PNG and JPEG: decoded without a QImage in between
        return HeadlessImageIo().load(path, image, error);
    QImage qimage;
    QString qerror;
    if (!readImageFileWithQt(QFile::decodeName(QByteArray::fromStdString(path)), qimage, qerror)) {
        error = qerror.toStdString();
        return false;
    }
    image = imageFromQImage(qimage);
    return true;
}

bool QtImageIo::loadInto(const std::string &path, const Allocate &allocate, Image &image, std::string &error)
{
    if (std::string problem = pathProblem(path); !problem.empty()) {
        error = problem;
        return false;
    }
    if (headlessReads(sniffImageFile(path))) // straight into the caller's storage
        return HeadlessImageIo().loadInto(path, allocate, image, error);
    return ImageIo::loadInto(path, allocate, image, error); // Qt's formats: load, then one copy
}

bool QtImageIo::save(const std::string &path, const Image &image, std::string &error)
{
    if (std::string problem = pathProblem(path); !problem.empty()) {
        error = problem;
        return false;
    }
    if (std::string problem = replaceProblem(path); !problem.empty()) { // QSaveFile would write through a link
        error = problem;
        return false;
    }
    if (HeadlessImageIo::writes(path)) { // .png, .jpg, .jpeg: the same encoder as the Qt-free build
        HeadlessImageIo headless;
        headless.setPngLevel(pngLevel());
        return headless.save(path, image, error);
    }
    QString qerror;
    const QString qpath = QFile::decodeName(QByteArray::fromStdString(path));
    const QByteArray suffix = QFileInfo(qpath).suffix().toLower().toLatin1();
    if (suffix.isEmpty() || !QImageWriter::supportedImageFormats().contains(suffix)) {
        error = "unsupported output format '." + suffix.toStdString() + "' (use .png, .bmp, .jpg, .tiff, ...)";
        return false;
    }
    if (!writeImageFile(qpath, qimageFromImage(image), qerror)) {
        error = qerror.toStdString();
        return false;
    }
    return true;
}

} // namespace fwb
