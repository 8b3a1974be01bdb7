// prepare's children that stay (see PrepareChild.h).
#include "PrepareChild.h"

#include "JsonIo.h"
#include "Verb.h" // keepRunSessions

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>
#include <utility>

namespace fwb::cli {

namespace {

double steadySeconds()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool writeAll(int fd, const std::string &text)
{
    for (std::size_t done = 0; done < text.size();) {
        const ssize_t n = write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += std::size_t(n);
    }
    return true;
}

// The next line of standard input without its '\n' (read straight from the descriptor: nothing of the
// next job waits in a stdio buffer); false at its end.
bool readJobLine(std::string &pending, std::string &line)
{
    for (;;) {
        if (const std::size_t end = pending.find('\n'); end != std::string::npos) {
            line = pending.substr(0, end);
            pending.erase(0, end + 1);
            return true;
        }
        char buffer[4096];
        const ssize_t n = read(STDIN_FILENO, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        pending.append(buffer, std::size_t(n));
    }
}

// The value after `option` in a command line, or "".
std::string optionValue(const std::vector<std::string> &args, const std::string &option)
{
    for (std::size_t i = 0; i + 1 < args.size(); ++i)
        if (args[i] == option)
            return args[i + 1];
    return {};
}

// FWB_PREPARE_CHILD_FAULT for this job: "die" or "hang" when it names the job's program, else "".
std::string faultFor(const std::vector<std::string> &args)
{
    const char *spec = std::getenv("FWB_PREPARE_CHILD_FAULT");
    if (!spec || !*spec)
        return {};
    const std::string text = spec;
    const std::size_t colon = text.find(':');
    const std::string program = optionValue(args, "--filter") + "/" + optionValue(args, "--variant") + "/"
                                + optionValue(args, "--format");
    if (colon == std::string::npos || text.substr(colon + 1) != program)
        return {};
    return text.substr(0, colon);
}

// Everything written to `fd` (a memory file) since it was emptied.
std::string readCaptured(int fd)
{
    std::string out;
    char buffer[65536];
    for (off_t at = 0;;) {
        const ssize_t n = pread(fd, buffer, sizeof buffer, at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return out;
        out.append(buffer, std::size_t(n));
        at += n;
    }
}

} // namespace

int servePrepareJobs(const RunCommand &run)
{
    // The answers go where our standard output went (the parent's socket); the runs' own standard
    // output goes into a memory file, read back after each: whatever a run or its driver prints cannot
    // break the one-line answers.
    std::fflush(stdout);
    const int answers = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    const int capture = memfd_create("filter-bench-prepare-job", MFD_CLOEXEC);
    if (answers < 0 || capture < 0 || dup2(capture, STDOUT_FILENO) < 0) {
        std::fprintf(stderr, "filter-bench: prepare --serve: cannot capture standard output\n");
        return 1;
    }
    // One OpenCL context for all of this child's jobs (Verb.h), released on the way out, not by a static
    // destructor after main.
    struct KeepSessions
    {
        KeepSessions() { keepRunSessions(true); }
        ~KeepSessions() { keepRunSessions(false); }
    } keepSessions;
    std::string pending, line;
    while (readJobLine(pending, line)) {
        int status = 2;
        std::string out;
        const std::optional<Json> j = parseJson(line, "prepare job");
        std::vector<std::string> args;
        if (j && j->is_array())
            for (const Json &a : *j)
                if (a.is_string())
                    args.push_back(a.get<std::string>());
        if (args.size() >= 2 && args[1] == "run" && j->size() == args.size()) {
            const std::string fault = faultFor(args);
            if (fault == "die")
                kill(getpid(), SIGKILL);
            while (fault == "hang")
                pause();
            std::fflush(stdout);
            if (ftruncate(capture, 0) != 0 || lseek(STDOUT_FILENO, 0, SEEK_SET) != 0)
                return 1;
            status = run(args);
            std::fflush(stdout);
            std::clearerr(stdout);
            out = readCaptured(capture);
        } else {
            std::fprintf(stderr, "filter-bench: prepare --serve: not a run command line: %s\n", line.c_str());
        }
        if (!writeAll(answers, dumpJson(Json{{"status", status}, {"out", out}}) + "\n"))
            return 1;
    }
    return 0;
}

// ---- the parent's side -------------------------------------------------------------------------

PrepareChild::PrepareChild(DeviceInfo device, std::string cacheDir, double jobTimeoutS)
    : m_device(std::move(device)), m_cacheDir(std::move(cacheDir)), m_jobTimeoutS(jobTimeoutS)
{
}

PrepareChild::~PrepareChild()
{
    stop();
}

ChildOutcome PrepareChild::endChild(int graceMs)
{
    const bool running = m_child.running();
    const ChildOutcome outcome = m_child.stop(graceMs);
    if (running)
        m_childSeconds += steadySeconds() - m_childStart;
    return outcome;
}

void PrepareChild::stop()
{
    endChild(2000); // an idle child exits at the end of its input at once
}

PreparedBuild PrepareChild::build(const PrepareJob &job)
{
    const double start = steadySeconds();
    auto finished = [&](PreparedBuild b) {
        b.wallMs = (steadySeconds() - start) * 1000.0;
        return b;
    };
    if (!m_child.running()) {
        ChildOptions options;
        options.quietStderr = true;
        options.extraEnv = {"FWB_PARENT_PID=" + std::to_string(getpid())}; // the builds go if prepare is killed
        if (!m_child.start("/proc/self/exe", {"filter-bench", "prepare", "--serve"}, options))
            return finished(preparedBuildFromRun(job, {}, -1, m_device));
        m_childStart = start;
        ++m_started;
    }
    bool timedOut = false;
    std::optional<std::string> answer;
    if (m_child.sendLine(prepareServeLine(job, m_device.spec(), m_cacheDir)))
        answer = m_child.readLine(m_jobTimeoutS > 0 ? int(m_jobTimeoutS * 1000) : -1, &timedOut);
    if (answer)
        if (std::optional<PreparedBuild> build = preparedBuildFromAnswer(job, *answer, m_device))
            return finished(std::move(*build));
    // It died, answered what is no answer, or ran out of time: this job fails as a child `run` that
    // ended so would have, and the next job gets a new child.
    const ChildOutcome ended = endChild(0);
    const int status = ended.signal ? 128 + ended.signal : ended.exitCode;
    PreparedBuild failed = preparedBuildFromRun(job, {}, status, m_device);
    if (timedOut)
        failed.error = "no answer within " + std::to_string(int(m_jobTimeoutS)) + " s: its filter-bench was killed";
    return finished(failed);
}

double prepareJobTimeoutS()
{
    const char *env = std::getenv("FWB_PREPARE_JOB_TIMEOUT_S");
    if (env && *env) {
        char *end = nullptr;
        const double value = std::strtod(env, &end);
        if (end && !*end && value >= 0)
            return value;
    }
    return 900;
}

} // namespace fwb::cli
