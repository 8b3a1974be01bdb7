// Atomic file writes for everything core saves (program binaries, JSON reports): the bytes go to a
// temp file beside the target, which is renamed into place, so no reader ever sees a partial file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

namespace fwb {

// Creates missing parent folders. On failure returns false with the reason in `error` (when given)
// and leaves neither the target changed nor a temp file behind. Only a regular file (or nothing) is
// ever replaced: a symbolic link, folder, device node, FIFO or socket at `path` is refused (a rename
// would turn /dev/null into a regular file, or replace a link instead of writing where it points).
bool writeFileAtomically(const std::filesystem::path &path, const void *data, std::size_t size,
                         std::string *error = nullptr);

// "" when `path` names nothing or a regular file; else why a writer must not replace it ("is a
// symbolic link", "is a character device", ...). Does not follow a link at `path` itself.
std::string replaceProblem(const std::filesystem::path &path);

// The reading side for files from outside (JSON databases, cache entries, user variants): only a
// regular file (a link to one is fine), at most maxBytes, never blocking (a FIFO is refused, not
// waited on; /dev/zero is refused, not read until memory runs out). False with the reason in
// `error` ("is a FIFO, not a regular file", "larger than N bytes", the system's message).
bool readRegularFile(const std::filesystem::path &path, std::uint64_t maxBytes, std::string &bytes,
                     std::string *error = nullptr);

// An exclusive lock on a lock file (created when missing, its folder too; never removed) for a read-merge-write of
// a file that several processes update (prepared.json: a window and `filter-bench prepare`): an atomic
// rename alone keeps the file whole but loses the rows of whichever writer read it first. flock(2), so
// the system drops the lock of a writer that dies (no stale lock) and each FileLock (thread or process)
// excludes every other. Waits at most `timeoutMs` for another holder; locked() says whether it got it.
class FileLock
{
public:
    explicit FileLock(const std::filesystem::path &lockPath, int timeoutMs = 10000);
    ~FileLock();
    FileLock(const FileLock &) = delete;
    FileLock &operator=(const FileLock &) = delete;
    bool locked() const { return m_fd >= 0; }
    const std::string &error() const { return m_error; }

private:
    int m_fd = -1;
    std::string m_error;
};

} // namespace fwb
