#include "ChildProcess.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace fwb {

ChildOutcome runChild(const std::string &exe, const std::vector<std::string> &args, const ChildOptions &options)
{
    ChildOutcome outcome;
    std::vector<std::string> env;
    for (char **e = environ; *e; ++e) {
        const std::string entry = *e;
        const std::string name = entry.substr(0, entry.find('='));
        bool replaced = false;
        for (const std::string &extra : options.extraEnv)
            replaced = replaced || extra.substr(0, extra.find('=')) == name;
        if (!replaced)
            env.push_back(entry);
    }
    env.insert(env.end(), options.extraEnv.begin(), options.extraEnv.end());
    std::vector<char *> argv, envp;
    for (const std::string &a : args)
        argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    for (const std::string &e : env)
        envp.push_back(const_cast<char *>(e.c_str()));
    envp.push_back(nullptr);

    int fds[2] = {-1, -1};
    if (options.captureStdout && pipe2(fds, O_CLOEXEC) != 0) {
        outcome.startError = std::string("pipe failed: ") + std::strerror(errno);
        return outcome;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (options.captureStdout)
        posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    if (options.quietStderr)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
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
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status))
        outcome.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        outcome.signal = WTERMSIG(status);
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
