#include "ChildProcess.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace fwb {

namespace {

// The argument and environment arrays posix_spawn takes: our environment with extraEnv added (or
// replacing a variable of the same name).
struct SpawnArrays
{
    std::vector<std::string> env;
    std::vector<char *> argv, envp;

    SpawnArrays(const std::vector<std::string> &args, const std::vector<std::string> &extraEnv)
    {
        for (char **e = environ; *e; ++e) {
            const std::string entry = *e;
            const std::string name = entry.substr(0, entry.find('='));
            bool replaced = false;
            for (const std::string &extra : extraEnv)
                replaced = replaced || extra.substr(0, extra.find('=')) == name;
            if (!replaced)
                env.push_back(entry);
        }
        env.insert(env.end(), extraEnv.begin(), extraEnv.end());
        for (const std::string &a : args)
            argv.push_back(const_cast<char *>(a.c_str()));
        argv.push_back(nullptr);
        for (const std::string &e : env)
            envp.push_back(const_cast<char *>(e.c_str()));
        envp.push_back(nullptr);
    }
};

// posix_spawn with `stdinFd` / `stdoutFd` (-1: ours) as the child's standard input and output and its stderr
// on /dev/null when asked; 0 or the error number.
int spawnWith(const std::string &exe, SpawnArrays &arrays, int stdinFd, int stdoutFd, bool quietStderr, pid_t &pid)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (stdinFd >= 0)
        posix_spawn_file_actions_adddup2(&actions, stdinFd, STDIN_FILENO);
    if (stdoutFd >= 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutFd, STDOUT_FILENO);
    if (quietStderr)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    const int spawned = posix_spawn(&pid, exe.c_str(), &actions, nullptr, arrays.argv.data(), arrays.envp.data());
    posix_spawn_file_actions_destroy(&actions);
    return spawned;
}

// How a child ended (waitpid's status), into `outcome`.
void readStatus(int status, ChildOutcome &outcome)
{
    if (WIFEXITED(status))
        outcome.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        outcome.signal = WTERMSIG(status);
}

void reap(pid_t pid, ChildOutcome &outcome)
{
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    readStatus(status, outcome);
}

} // namespace

ChildOutcome runChild(const std::string &exe, const std::vector<std::string> &args, const ChildOptions &options)
{
    ChildOutcome outcome;
    SpawnArrays arrays(args, options.extraEnv);
    int fds[2] = {-1, -1};
    if (options.captureStdout && pipe2(fds, O_CLOEXEC) != 0) {
        outcome.startError = std::string("pipe failed: ") + std::strerror(errno);
        return outcome;
    }
    pid_t pid = 0;
    const int spawned = spawnWith(exe, arrays, -1, options.captureStdout ? fds[1] : -1, options.quietStderr, pid);
    if (options.captureStdout)
        close(fds[1]);
    if (spawned != 0) {
        if (options.captureStdout)
            close(fds[0]);
        outcome.startError = std::strerror(spawned);
        return outcome;
    }
    outcome.started = true;
    if (options.captureStdout) {
        char buffer[65536];
        for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) != 0;) {
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                break;
            outcome.out.append(buffer, std::size_t(n));
        }
        close(fds[0]);
    }
    reap(pid, outcome);
    return outcome;
}

// ---- ServingChild ----------------------------------------------------------------------------

ServingChild::~ServingChild()
{
    stop(0);
}

bool ServingChild::start(const std::string &exe, const std::vector<std::string> &args, const ChildOptions &options,
                         std::string *error)
{
    stop(0);
    m_pending.clear();
    SpawnArrays arrays(args, options.extraEnv);
    // Close-on-exec: another thread's child must not inherit the child's end, or this child's death
    // would never read as the end of its output.
    int fds[2] = {-1, -1};
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
        if (error)
            *error = std::string("socketpair failed: ") + std::strerror(errno);
        return false;
    }
    pid_t pid = 0;
    const int spawned = spawnWith(exe, arrays, fds[1], fds[1], options.quietStderr, pid);
    close(fds[1]);
    if (spawned != 0) {
        close(fds[0]);
        if (error)
            *error = std::strerror(spawned);
        return false;
    }
    m_pid = pid;
    m_fd = fds[0];
    return true;
}

bool ServingChild::sendLine(const std::string &line)
{
    if (m_fd < 0)
        return false;
    const std::string text = line + '\n';
    for (std::size_t sent = 0; sent < text.size();) {
        const ssize_t n = send(m_fd, text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        sent += std::size_t(n);
    }
    return true;
}

std::optional<std::string> ServingChild::readLine(int timeoutMs, bool *timedOut)
{
    if (timedOut)
        *timedOut = false;
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    for (;;) {
        if (const std::size_t end = m_pending.find('\n'); end != std::string::npos) {
            std::string line = m_pending.substr(0, end);
            m_pending.erase(0, end + 1);
            return line;
        }
        if (m_fd < 0)
            return std::nullopt;
        int wait = -1;
        if (timeoutMs >= 0) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
            wait = int(std::max<long long>(0, left.count()));
        }
        pollfd p{m_fd, POLLIN, 0};
        const int ready = poll(&p, 1, wait);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0) {
            if (timedOut)
                *timedOut = true;
            return std::nullopt;
        }
        char buffer[65536];
        const ssize_t n = ready < 0 ? -1 : read(m_fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return std::nullopt; // it ended (or the socket failed): what came without a line end is no answer
        m_pending.append(buffer, std::size_t(n));
    }
}

ChildOutcome ServingChild::stop(int graceMs)
{
    ChildOutcome outcome;
    if (m_pid <= 0)
        return outcome;
    outcome.started = true;
    shutdown(m_fd, SHUT_WR); // its end of input
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(graceMs);
    int status = 0;
    pid_t gone = 0;
    while ((gone = waitpid(m_pid, &status, WNOHANG)) == 0 && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (gone == m_pid) {
        readStatus(status, outcome);
    } else {
        kill(m_pid, SIGKILL); // still there (or the wait failed): killed and reaped, never left running
        reap(m_pid, outcome);
    }
    close(m_fd);
    m_fd = -1;
    m_pid = -1;
    m_pending.clear();
    return outcome;
}

void dieWithParentFromEnvironment()
{
    const char *parent = std::getenv("FWB_PARENT_PID");
    if (!parent || !*parent)
        return;
    char *end = nullptr;
    const long pid = std::strtol(parent, &end, 10);
    unsetenv("FWB_PARENT_PID"); // not inherited by this child's own children
    if (!end || *end || pid <= 0)
        return;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != pid) // the parent went before prctl: go too
        _exit(1);
}

} // namespace fwb
