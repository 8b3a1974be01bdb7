// Atomic file writes: temp file + rename (see AtomicFile.h).
#include "AtomicFile.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <random>
#include <thread>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fwb {

std::string replaceProblem(const std::filesystem::path &path)
{
    struct stat st{};
    if (::lstat(path.c_str(), &st) != 0)
        return errno == ENOENT ? std::string() : std::string(std::strerror(errno));
    if (S_ISREG(st.st_mode))
        return {};
    const char *kind = S_ISLNK(st.st_mode)   ? "a symbolic link"
                       : S_ISDIR(st.st_mode) ? "a folder"
                       : S_ISCHR(st.st_mode) ? "a character device"
                       : S_ISBLK(st.st_mode) ? "a block device"
                       : S_ISFIFO(st.st_mode) ? "a FIFO"
                                              : "not a regular file";
    return std::string("is ") + kind + ", not a regular file; refusing to replace it";
}

bool readRegularFile(const std::filesystem::path &path, std::uint64_t maxBytes, std::string &bytes, std::string *error)
{
    auto fail = [&](const std::string &why) {
        if (error)
            *error = why;
        return false;
    };
    bytes.clear();
    // O_NONBLOCK: opening a FIFO without a writer must not wait; the type is checked before reading.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return fail(std::strerror(errno));
    struct stat st{};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        const bool fifo = S_ISFIFO(st.st_mode), device = S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode);
        ::close(fd);
        return fail(fifo ? "is a FIFO, not a regular file" : device ? "is a device, not a regular file"
                         : S_ISDIR(st.st_mode) ? "is a folder, not a file" : "is not a regular file");
    }
    if (std::uint64_t(st.st_size) > maxBytes) {
        ::close(fd);
        return fail("larger than " + std::to_string(maxBytes) + " bytes");
    }
    bytes.resize(std::size_t(st.st_size));
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            const std::string why = std::strerror(errno);
            ::close(fd);
            return fail(why);
        }
        if (n == 0)
            break; // shrunk meanwhile
        done += std::size_t(n);
    }
    bytes.resize(done);
    ::close(fd);
    return true;
}

bool writeFileAtomically(const std::filesystem::path &path, const void *data, std::size_t size, std::string *error)
{
    namespace fs = std::filesystem;
    auto fail = [&](const std::string &why) {
        if (error)
            *error = "cannot write " + path.string() + ": " + why;
        return false;
    };
    if (std::string problem = replaceProblem(path); !problem.empty())
        return fail(problem);
    std::error_code ec;
    if (path.has_parent_path())
        fs::create_directories(path.parent_path(), ec);
    // A unique temp name: two processes may write the same cache entry at once. A long file name is
    // shortened in the temp name, which must itself fit the 255-byte limit of a name.
    std::string base = path.filename().string();
    if (base.size() > 200)
        base = ".fwb-" + base.substr(0, 180);
    const fs::path temp = path.parent_path() / (base + ".tmp" + std::to_string(std::random_device{}()));
    // O_EXCL: never write through something placed at the temp name.
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0)
        return fail(std::strerror(errno));
    bool written = true;
    const auto *p = static_cast<const char *>(data);
    for (std::size_t done = 0; done < size;) {
        const ssize_t n = ::write(fd, p + done, size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            written = false;
            break;
        }
        done += std::size_t(n);
    }
    const bool closed = ::close(fd) == 0;
    if (!written || !closed) {
        fs::remove(temp, ec);
        return fail("the write did not complete (disk full?)");
    }
    // Checked again just before the rename: something may have appeared meanwhile.
    if (std::string problem = replaceProblem(path); !problem.empty()) {
        fs::remove(temp, ec);
        return fail(problem);
    }
    fs::rename(temp, path, ec);
    if (ec) {
        const std::string why = ec.message();
        fs::remove(temp, ec);
        return fail(why);
    }
    return true;
}

FileLock::FileLock(const std::filesystem::path &lockPath, int timeoutMs)
{
    // Its folder made first, as writeFileAtomically() makes the file's: on a fresh machine the cache folder does
    // not exist until something is saved in it (a first `filter-bench tune` said "cannot open .../tuning.json.lock").
    std::error_code ec;
    if (lockPath.has_parent_path())
        std::filesystem::create_directories(lockPath.parent_path(), ec);
    // O_NOFOLLOW: a link placed at the lock's name is refused, never followed to create a file elsewhere.
    const int fd = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
    if (fd < 0) {
        m_error = "cannot open " + lockPath.string() + ": " + std::strerror(errno);
        return;
    }
    // Polled, not a blocking flock: a holder that hangs must not hang the window's thread with it.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const int why = errno;
        if ((why != EWOULDBLOCK && why != EINTR) || std::chrono::steady_clock::now() >= deadline) {
            m_error = why == EWOULDBLOCK ? lockPath.string() + " is held by another process"
                                           : "cannot lock " + lockPath.string() + ": " + std::strerror(why);
            ::close(fd);
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    m_fd = fd;
}

FileLock::~FileLock()
{
    if (m_fd >= 0)
        ::close(m_fd); // closing the last descriptor of the open file releases the lock
}

} // namespace fwb
