#!/usr/bin/env bash
# ThreadSanitizer stage (scripts/test.sh runs it; FWB_TSAN=0 skips it): builds the core, the widgets
# and the suites that run work on other threads (the window and its SessionWorker threads: ComputeWorker,
# BenchWorker, LabWorker, the Transfers page's; the kernel editor's helper runs, the bad-input window checks) with
# -fsanitize=thread into build-tsan/ (no OpenCV, no CLBlast: not our code to check) and runs them on
# PoCL. Only those targets: the suites start the filter-bench and filter-worker of the main build
# (FWB_TSAN_BENCH_BUILD, default build/, which test.sh has just built; built here only when there is
# none), so the CLI is not compiled a second time. -g1 (line tables: every frame of a report keeps its
# function, file and line) compiles in about half the time of -g.
# Any report fails the stage (halt_on_error). Suppressions (tests/tsan.supp) name only frames inside
# libraries that are not instrumented - Qt's own and glibc's loader (freeing PoCL's thread-locals of a
# finished, detached QThread) - each with its reason. Our QWaitCondition waits are annotated for TSan (ui/workers/WorkerWait.h).
#   scripts/test-tsan.sh [ctest args]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${FWB_TSAN_BUILD:-$root/build-tsan}"
bench_build="${FWB_TSAN_BENCH_BUILD:-$root/build}"
suites=(tst_gui_worker tst_gui_mainwindow tst_gui_results tst_gui_lab tst_gui_editor tst_gui_transfers tst_bad_input plain_threadpool)
start=$SECONDS
targets=("${suites[@]}")
bench=""
if [ -f "$bench_build/CMakeCache.txt" ]; then
    cmake --build "$bench_build" --parallel "$(nproc)" --target filter-bench filter-worker
    bench="$bench_build/filter-bench"
else
    targets+=(filter-bench filter-worker)
fi
generator=()
command -v ninja >/dev/null && [ ! -f "$build/CMakeCache.txt" ] && generator=(-G Ninja)
mkdir -p "$build"
flags="-fsanitize=thread -fno-omit-frame-pointer -g1 -O1"
cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$flags" \
      -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" \
      -DFWB_WITH_OPENCV=OFF -DFWB_WITH_CLBLAST=OFF -DBUILD_TESTING=ON \
      -DFWB_TEST_FILTER_BENCH="$bench" >"$build/configure.log" 2>&1 \
    || { cat "$build/configure.log"; exit 1; }
cmake --build "$build" --parallel "$(nproc)" --target "${targets[@]}"
echo "tsan: built in $((SECONDS - start)) s"

# second_deadlock_stack: both stacks for a lock-order report. die_after_fork=0: the suites start
# filter-bench and filter-worker through QProcess (fork + exec at once). report_signal_unsafe=0: Qt's and PoCL's
# own signal handlers are not ours to judge. history_size=7 (the most): the other side's stack of a report is kept, so
# a suppression can match it. PoCL's worker threads and Qt's event dispatcher run
# uninstrumented, so every report with our frames on both sides is about our code.
export TSAN_OPTIONS="halt_on_error=1:abort_on_error=0:second_deadlock_stack=1:report_signal_unsafe=0:die_after_fork=0:suppressions=$root/tests/tsan.supp:print_suppressions=0:history_size=7"
# Qt's own event dispatcher instead of glib's: glib's allocator (GSlice) hands memory from one thread
# to another under its own futex locks, which TSan cannot see, and glib is not what this stage checks.
export QT_NO_GLIB=1
# PoCL runs kernels on a pool of its own threads: two, as many as the CI machine has cores.
export POCL_MAX_PTHREAD_COUNT="${POCL_MAX_PTHREAD_COUNT:-2}"
regex="^($(IFS='|'; echo "${suites[*]}"))\$"
cd "$build"
# Every worker's results reach the GUI thread through a mutex-guarded mailbox TSan sees (SessionWorker::
# onGuiThread; session 25), not as queued signal arguments whose copy could lose the other
# side's stack from TSan's history (seen once in 4 runs of tst_gui_results in session 23), so a suite with a
# report is not run a second time: any report fails the stage.
# One suite at a time: two at once on two cores took tst_gui_worker past a 30 s wait (session 26), and the window's
# two largest suites run alone anyway (RUN_SERIAL).
ctest --output-on-failure --parallel 1 -R "$regex" "$@"
echo "tsan: done in $((SECONDS - start)) s"
