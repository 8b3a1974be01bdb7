// The builder children's priorities (issue 25): the window's background builder (ui/workers/PrepareAhead)
// starts its children either at the lowest priority (SCHED_IDLE and nice 19: only the cores' idle time,
// for builds only ahead of time) or at nice 5 (builds someone waits for, on a GPU). A race that waits for a
// program an idle child is building raises that child to its own priority for that job (raiseTo: the
// race's nice value, SCHED_OTHER), and the job's end lowers it again (lowerToIdle); PrepareQueue::raise
// does it for the race.
//
// What Linux allows (measured on 6.18 here, the rules of sched(7) and setpriority(2)): lowering a priority
// always; raising one of another process of the same user (or of itself) only within RLIMIT_NICE or with
// CAP_SYS_NICE. Leaving SCHED_IDLE needs RLIMIT_NICE >= 20 - nice (>= 1 at nice 19), and nice 19 -> N
// needs RLIMIT_NICE >= 20 - N. The default RLIMIT_NICE is 0 (soft and hard), so for a user without
// CAP_SYS_NICE both are refused (EPERM, EACCES), by the parent and by the child itself alike; root (our CI)
// may. A start at SCHED_OTHER nice 19 instead of SCHED_IDLE would not help: nice 19 -> 5 is refused the
// same way. So a raise may fail; it is undone then (back to idle), and the caller falls back (BenchWorker:
// it waits only while the child gets CPU time). Linux keeps a priority per thread, not per process: these
// functions set every thread of the process (a PoCL child has its driver's threads beside the one that
// builds).
#pragma once

#include <vector>

namespace fwb {

inline constexpr int kWantedNice = 5; // a build wanted soon: below the window, above everything idle
inline constexpr int kIdleNice = 19;

// In a process for itself (a child before exec): the lowest priority, SCHED_IDLE and nice 19.
void becomeIdle();
// In a process for itself: SCHED_OTHER at nice kWantedNice (a child that starts for a wanted build).
void becomeWanted();

// Every thread of `pid`, a child of this process, at SCHED_OTHER and this nice value. False when not
// allowed (or not our child, or gone): then every thread is back at idle priority.
bool raiseTo(long pid, int nice);
// Every thread of `pid`, a child of this process, at SCHED_IDLE nice 19 (always allowed).
void lowerToIdle(long pid);
// The calling thread's nice value (Linux: per thread).
int currentNice();
// Whether raiseTo(pid, nice) may succeed here: CAP_SYS_NICE, or RLIMIT_NICE >= 20 - nice.
bool mayRaiseTo(int nice);

struct ThreadPriority
{
    int policy = -1; // SCHED_OTHER 0, SCHED_IDLE 5, ...
    int nice = 0;
};
// Each thread's scheduling policy and nice value (from /proc/PID/task/*/stat); empty when gone.
std::vector<ThreadPriority> threadPriorities(long pid);
// The CPU time the process has had so far (all its threads, user and system), seconds; -1 when gone.
double processCpuSeconds(long pid);

} // namespace fwb
