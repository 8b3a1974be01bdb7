// runChild: another program (usually this one again, /proc/self/exe) in a process of its own, waited
// for. The one launcher for child processes that the caller waits on (prepare's builds, a lab verb's
// edited kernels); the helper process with its job folder and time limit is core/WorkerProcess.h.
#pragma once

#include <string>
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

// A child started by runChild with FWB_PARENT_PID=<pid> in extraEnv calls this first: it dies with that
// parent (SIGKILL when the parent goes, even by SIGKILL) instead of running on under init.
void dieWithParentFromEnvironment();

} // namespace fwb
