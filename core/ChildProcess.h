// runChild: another program (usually this one again, /proc/self/exe) in a process of its own, waited
// for. The one launcher for child processes that the caller waits on (a lab verb's edited kernels, a
// verb in its own process); ServingChild: one that stays and answers a line for each line it is sent
// (prepare's builds); the helper process with its job folder and time limit is core/WorkerProcess.h.
#pragma once

#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace fwb {

struct ChildOptions
{
    bool captureStdout = false; // into ChildOutcome::out (else the child writes to ours)
    bool quietStderr = false;   // the child's stderr to /dev/null (else to ours)
    std::vector<std::string> extraEnv; // NAME=VALUE added to (or replacing in) our environment
};

struct ChildOutcome
{
    bool started = false;
    std::string startError; // why it did not start
    int exitCode = -1;      // when it exited
    int signal = 0;         // when a signal ended it
    std::string out;        // its stdout, with captureStdout
};

// Never throws. exe "/proc/self/exe" starts this program again; args[0] is the name it sees.
ChildOutcome runChild(const std::string &exe, const std::vector<std::string> &args, const ChildOptions &options = {});

// A child that stays: one socket is both its standard input and its standard output, so its owner sends
// it a line (a job) and reads its answer line, as often as it likes, paying its start once (`filter-bench
// prepare --serve`, cli/PrepareChild.h). A socket, not two pipes: a line sent to a child that has just
// died fails with EPIPE (MSG_NOSIGNAL) instead of a SIGPIPE that would kill the owner. One owner thread;
// never throws. With FWB_PARENT_PID in extraEnv the child dies with the thread that started it
// (PR_SET_PDEATHSIG follows the starting thread, not the process), so start it on the thread that owns it.
class ServingChild
{
public:
    ServingChild() = default;
    ~ServingChild(); // stop(0)
    ServingChild(const ServingChild &) = delete;
    ServingChild &operator=(const ServingChild &) = delete;

    // Starts it (captureStdout is implied; quietStderr and extraEnv as for runChild); false with the
    // reason in *error when it did not start.
    bool start(const std::string &exe, const std::vector<std::string> &args, const ChildOptions &options,
               std::string *error = nullptr);
    bool running() const { return m_pid > 0; }
    pid_t pid() const { return m_pid; }
    // One line to its standard input ('\n' added; `line` must hold none); false when it is gone.
    bool sendLine(const std::string &line);
    // Its next line of standard output without the '\n'; none when it closed its output (it ended) or
    // timeoutMs (>= 0) passed first, with *timedOut set.
    std::optional<std::string> readLine(int timeoutMs = -1, bool *timedOut = nullptr);
    // Ends it and reaps it: its input closed (a serving child exits at EOF), up to graceMs for it to go,
    // then SIGKILL. How it ended (started false when none was running).
    ChildOutcome stop(int graceMs = 0);

private:
    pid_t m_pid = -1;
    int m_fd = -1;
    std::string m_pending; // read past the last line handed out
};

// A child started by runChild with FWB_PARENT_PID=<pid> in extraEnv calls this first: it dies with that
// parent (SIGKILL when the parent goes, even by SIGKILL) instead of running on under init.
void dieWithParentFromEnvironment();

} // namespace fwb
