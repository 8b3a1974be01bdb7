// The builder children's priorities (see ProcessPriority.h).
#include "ProcessPriority.h"

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

namespace fwb {

namespace {

// The fields of a /proc .../stat file after the command's closing parenthesis (field 3, the state, first):
// the command may hold spaces and parentheses itself.
std::vector<std::string> statFields(const std::string &path)
{
    std::ifstream in(path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::size_t close = text.rfind(')');
    std::vector<std::string> fields;
    if (close == std::string::npos)
        return fields;
    std::istringstream rest(text.substr(close + 1));
    for (std::string f; rest >> f;)
        fields.push_back(f);
    return fields;
}

// proc(5)'s field numbers, counted from 1 as there.
constexpr std::size_t kPpid = 4, kUtime = 14, kStime = 15, kNice = 19, kPolicy = 41;

std::string field(const std::vector<std::string> &fields, std::size_t number)
{
    return number - 3 < fields.size() ? fields[number - 3] : std::string();
}

bool isOurChild(long pid)
{
    return pid > 0 && field(statFields("/proc/" + std::to_string(pid) + "/stat"), kPpid) == std::to_string(getpid());
}

std::vector<long> threadIds(long pid)
{
    std::vector<long> ids;
    std::error_code ec;
    for (const auto &entry : std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task", ec))
        try {
            ids.push_back(std::stol(entry.path().filename().string()));
        } catch (const std::exception &) {
        }
    return ids;
}

bool setThread(long tid, int policy, int nice)
{
    const sched_param none{};
    // Out of SCHED_IDLE first when raising (the nice value is then checked against RLIMIT_NICE), into it
    // last when lowering: either order is allowed for a lowering.
    if (policy == SCHED_OTHER)
        return sched_setscheduler(pid_t(tid), SCHED_OTHER, &none) == 0 && setpriority(PRIO_PROCESS, id_t(tid), nice) == 0;
    const bool niced = setpriority(PRIO_PROCESS, id_t(tid), nice) == 0;
    return sched_setscheduler(pid_t(tid), policy, &none) == 0 && niced;
}

// Every thread of pid at policy and nice; a thread started meanwhile by one not yet set is caught by the
// next pass. False when one was refused (or the process is gone).
bool setProcess(long pid, int policy, int nice)
{
    for (int pass = 0; pass < 3; ++pass) {
        const std::vector<long> ids = threadIds(pid);
        if (ids.empty())
            return false;
        bool changed = false;
        for (long tid : ids) {
            const std::string task = "/proc/" + std::to_string(pid) + "/task/" + std::to_string(tid);
            const std::vector<std::string> f = statFields(task + "/stat");
            if (field(f, kPolicy) == std::to_string(policy) && field(f, kNice) == std::to_string(nice))
                continue;
            std::error_code ec;
            if (!setThread(tid, policy, nice) && std::filesystem::exists(task, ec))
                return false; // refused (a thread that ended meanwhile is no refusal)
            changed = true;
        }
        if (!changed)
            return true;
    }
    return true;
}

} // namespace

void becomeIdle()
{
    const sched_param none{};
    sched_setscheduler(0, SCHED_IDLE, &none);
    setpriority(PRIO_PROCESS, 0, kIdleNice);
}

void becomeWanted()
{
    setpriority(PRIO_PROCESS, 0, kWantedNice);
}

bool raiseTo(long pid, int nice)
{
    if (!isOurChild(pid))
        return false;
    if (setProcess(pid, SCHED_OTHER, nice))
        return true;
    setProcess(pid, SCHED_IDLE, kIdleNice); // a thread raised before the refusal goes back down
    return false;
}

void lowerToIdle(long pid)
{
    if (isOurChild(pid))
        setProcess(pid, SCHED_IDLE, kIdleNice);
}

int currentNice()
{
    errno = 0;
    const int nice = getpriority(PRIO_PROCESS, 0);
    return errno ? 0 : nice;
}

bool mayRaiseTo(int nice)
{
    rlimit limit{};
    if (getrlimit(RLIMIT_NICE, &limit) == 0 && (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur >= rlim_t(20 - nice)))
        return true;
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("CapEff:", 0) == 0)
            try {
                constexpr int kCapSysNice = 23; // linux/capability.h
                return (std::stoull(line.substr(7), nullptr, 16) >> kCapSysNice) & 1;
            } catch (const std::exception &) {
                return false;
            }
    return false;
}

std::vector<ThreadPriority> threadPriorities(long pid)
{
    std::vector<ThreadPriority> threads;
    for (long tid : threadIds(pid)) {
        const std::vector<std::string> f = statFields("/proc/" + std::to_string(pid) + "/task/" + std::to_string(tid) + "/stat");
        try {
            threads.push_back({std::stoi(field(f, kPolicy)), std::stoi(field(f, kNice))});
        } catch (const std::exception &) { // it ended meanwhile
        }
    }
    return threads;
}

double processCpuSeconds(long pid)
{
    const std::vector<std::string> f = statFields("/proc/" + std::to_string(pid) + "/stat");
    try {
        return double(std::stoull(field(f, kUtime)) + std::stoull(field(f, kStime))) / double(sysconf(_SC_CLK_TCK));
    } catch (const std::exception &) {
        return -1;
    }
}

} // namespace fwb
