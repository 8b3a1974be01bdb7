// HeadlessImageIo: the file side (checks, mapping, choosing the decoder by contents, atomic writes).
#include "HeadlessImageIo.h"

#include "AtomicFile.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fwb {

namespace {

std::string lowerSuffix(const std::string &path)
{
    std::string suffix = std::filesystem::path(path).extension().string();
    if (!suffix.empty())
        suffix.erase(0, 1);
    std::transform(suffix.begin(), suffix.end(), suffix.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return suffix;
}

std::string upper(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return char(std::toupper(c)); });
    return text;
}

const char *kindName(ImageFileKind kind)
{
    switch (kind) {
    case ImageFileKind::Png: return "PNG";
    case ImageFileKind::Jpeg: return "JPEG";
    case ImageFileKind::Gif: return "GIF";
    case ImageFileKind::Bmp: return "BMP";
    case ImageFileKind::Tiff: return "TIFF";
    case ImageFileKind::Webp: return "WebP";
    case ImageFileKind::Unknown: break;
    }
    return "unknown";
}

// A read-only mapping of a whole regular file (a photo of hundreds of MB is not copied to be decoded).
class MappedFile
{
public:
    ~MappedFile()
    {
        if (m_data && m_size)
            munmap(const_cast<std::uint8_t *>(m_data), m_size);
    }
    // The checks and messages of the Qt reader (ui/ImageFileIo), in its order.
    bool open(const std::string &path, std::string &error)
    {
        struct stat info{};
        if (::stat(path.c_str(), &info) != 0) {
            error = errno == EACCES ? "permission denied (this user may not read the file)" : "file does not exist";
            return false;
        }
        if (S_ISDIR(info.st_mode)) {
            error = "is a folder, not an image file";
            return false;
        }
        if (!S_ISREG(info.st_mode)) { // a FIFO would block the reader forever, a device be read without end
            error = S_ISFIFO(info.st_mode) ? "is a FIFO, not an image file" : "is not a regular file (a device?)";
            return false;
        }
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0) {
            error = errno == EACCES ? "permission denied (this user may not read the file)" : std::strerror(errno);
            return false;
        }
        struct stat opened{};
        const bool ok = ::fstat(fd, &opened) == 0 && S_ISREG(opened.st_mode);
        m_size = ok ? std::size_t(opened.st_size) : 0;
        if (ok && m_size) {
            void *mapped = ::mmap(nullptr, m_size, PROT_READ, MAP_PRIVATE, fd, 0);
            m_data = mapped == MAP_FAILED ? nullptr : static_cast<const std::uint8_t *>(mapped);
        }
        ::close(fd);
        if (!ok) {
            error = "is not a regular file";
            return false;
        }
        if (m_size == 0) {
            error = "the file is empty";
            return false;
        }
        if (!m_data) {
            error = std::string("cannot map the file: ") + std::strerror(errno);
            return false;
        }
        return true;
    }
    const std::uint8_t *data() const { return m_data; }
    std::size_t size() const { return m_size; }

private:
    const std::uint8_t *m_data = nullptr;
    std::size_t m_size = 0;
};

} // namespace

ImageFileKind sniffImageFile(const std::uint8_t *data, std::size_t size)
{
    auto starts = [&](const char *magic, std::size_t length, std::size_t at = 0) {
        return size >= at + length && std::memcmp(data + at, magic, length) == 0;
    };
    if (starts("\x89PNG\r\n\x1a\n", 8))
        return ImageFileKind::Png;
    if (starts("\xff\xd8", 2)) // what Qt's JPEG reader asks of a file
        return ImageFileKind::Jpeg;
    if (starts("GIF8", 4))
        return ImageFileKind::Gif;
    if (starts("BM", 2))
        return ImageFileKind::Bmp;
    if (starts("II*\0", 4) || starts("MM\0*", 4))
        return ImageFileKind::Tiff;
    if (starts("RIFF", 4) && starts("WEBP", 4, 8))
        return ImageFileKind::Webp;
    return ImageFileKind::Unknown;
}

ImageFileKind sniffImageFile(const std::string &path)
{
    std::uint8_t head[12] = {};
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return ImageFileKind::Unknown;
    struct stat info{};
    ssize_t got = 0;
    if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode))
        got = ::read(fd, head, sizeof head);
    ::close(fd);
    return got > 0 ? sniffImageFile(head, std::size_t(got)) : ImageFileKind::Unknown;
}

bool headlessReads(ImageFileKind kind)
{
#ifdef FWB_HAVE_SPNG
    if (kind == ImageFileKind::Png)
        return true;
#endif
#ifdef FWB_HAVE_TURBOJPEG
    if (kind == ImageFileKind::Jpeg)
        return true;
#endif
    return false;
}

std::string headlessMissing(ImageFileKind kind)
{
    if (headlessReads(kind))
        return {};
    if (kind == ImageFileKind::Png)
        return "PNG files need libspng (Debian package libspng-dev), which this build was made without";
    if (kind == ImageFileKind::Jpeg)
        return "JPEG files need TurboJPEG (Debian package libturbojpeg0-dev), which this build was made without";
    return std::string(kindName(kind)) + " images need a build with Qt (FWB_WITH_QT=ON); this one reads PNG and JPEG";
}

bool HeadlessImageIo::load(const std::string &path, Image &image, std::string &error)
{
    return loadInto(path, plainImage, image, error);
}

bool HeadlessImageIo::loadInto(const std::string &path, const Allocate &allocate, Image &image, std::string &error)
{
    MappedFile file;
    if (!file.open(path, error))
        return false;
    const ImageFileKind kind = sniffImageFile(file.data(), file.size());
    if (kind == ImageFileKind::Png && headlessReads(kind))
        return decodePng(file.data(), file.size(), allocate, image, error);
    if (kind == ImageFileKind::Jpeg && headlessReads(kind))
        return decodeJpeg(file.data(), file.size(), allocate, image, error);
    if (kind != ImageFileKind::Unknown) {
        error = headlessMissing(kind);
        return false;
    }
    const std::string suffix = lowerSuffix(path);
    if (suffix == "png" || suffix == "jpg" || suffix == "jpeg") // Qt's wording for a misnamed or damaged file
        error = "the contents are not " + upper(suffix) + " image data (a damaged file, or another kind of file with a ."
                + suffix + " name)";
    else
        error = "not an image format this build can read (it reads png, jpg, jpeg)";
    return false;
}

bool HeadlessImageIo::writes(const std::string &path)
{
    const std::string suffix = lowerSuffix(path);
    if (suffix == "png")
        return headlessReads(ImageFileKind::Png);
    if (suffix == "jpg" || suffix == "jpeg")
        return headlessReads(ImageFileKind::Jpeg);
    return false;
}

std::string HeadlessImageIo::saveProblem(const std::string &path) const
{
    if (writes(path))
        return {};
    const std::string suffix = lowerSuffix(path);
    if (suffix == "png" || suffix == "jpg" || suffix == "jpeg")
        return path + ": " + headlessMissing(suffix == "png" ? ImageFileKind::Png : ImageFileKind::Jpeg);
    return path + ": unsupported output format '." + suffix + "' (this build writes .png, .jpg and .jpeg)";
}

bool HeadlessImageIo::save(const std::string &path, const Image &image, std::string &error)
{
    if (std::string problem = saveProblem(path); !problem.empty()) {
        error = problem;
        return false;
    }
    if (std::string problem = replaceProblem(path); !problem.empty()) {
        error = problem;
        return false;
    }
    std::string bytes;
    const bool png = lowerSuffix(path) == "png";
    if (!(png ? encodePng(image, bytes, error, pngLevel()) : encodeJpeg(image, kJpegSaveQuality, bytes, error)))
        return false;
    // Temp file beside the target, renamed into place: no partial file, the old one kept on failure.
    return writeFileAtomically(path, bytes.data(), bytes.size(), &error);
}

} // namespace fwb
