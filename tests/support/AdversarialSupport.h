// The adversarial suites' tools: filter-bench started with raw byte arguments (fork/exec: QProcess
// would re-encode them) in a folder of its own, files read and written as bytes, and a folder's
// snapshot to compare before and after.
#pragma once

#include <QImage>
#include <QTemporaryDir>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fwb::test::adversarial {

namespace fs = std::filesystem;

struct Outcome
{
    int code = -1; // -2: killed by a signal (a crash), -1: did not finish in time
    std::string out, err;
};

inline std::string readAll(const fs::path &path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

inline void writeAll(const fs::path &path, const std::string &bytes)
{
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), std::streamsize(bytes.size()));
}

// filter-bench with these exact bytes as arguments, in `cwd`; stdout to `stdoutPath` when given.
inline Outcome bench(const std::vector<std::string> &args, const fs::path &cwd, const std::vector<std::string> &env = {},
              const std::string &stdoutPath = {}, int timeoutS = 60)
{
    static QTemporaryDir capture; // outside `cwd`: the rows compare every file there
    const fs::path outFile = capture.filePath("stdout").toStdString(), errFile = capture.filePath("stderr").toStdString();
    const pid_t pid = fork();
    if (pid == 0) {
        if (::chdir(cwd.c_str()) != 0)
            _exit(127);
        const int out = ::open(stdoutPath.empty() ? outFile.c_str() : stdoutPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        const int err = ::open(errFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (out < 0 || err < 0)
            _exit(127);
        dup2(out, 1);
        dup2(err, 2);
        for (const std::string &e : env)
            putenv(const_cast<char *>(e.c_str()));
        std::vector<char *> argv{const_cast<char *>(FWB_FILTER_BENCH)};
        for (const std::string &a : args)
            argv.push_back(const_cast<char *>(a.c_str()));
        argv.push_back(nullptr);
        execv(FWB_FILTER_BENCH, argv.data());
        _exit(127);
    }
    Outcome o;
    int status = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeoutS);
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return o;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    o.code = WIFEXITED(status) ? WEXITSTATUS(status) : -2;
    o.out = stdoutPath.empty() ? readAll(outFile) : std::string();
    o.err = readAll(errFile);
    fs::remove(outFile);
    fs::remove(errFile);
    return o;
}

// Every entry under `dir`: its kind and bytes (a link: its target), to compare before and after.
inline std::map<std::string, std::string> snapshot(const fs::path &dir)
{
    std::map<std::string, std::string> files;
    for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator(); ++it) {
        const std::string name = it->path().lexically_relative(dir).string();
        if (it->is_symlink())
            files[name] = "link:" + fs::read_symlink(it->path()).string();
        else if (it->is_regular_file())
            files[name] = "file:" + readAll(it->path());
        else if (it->is_directory())
            files[name] = "dir";
        else
            files[name] = "other:" + std::to_string(int(it->status().type()));
    }
    return files;
}

inline std::string pngBytes()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("p.png");
    QImage image(8, 8, QImage::Format_Grayscale8);
    image.fill(77);
    image.save(path);
    return readAll(path.toStdString());
}

} // namespace fwb::test::adversarial
