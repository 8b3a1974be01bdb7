#!/usr/bin/env bash
# Sanitizer stage (scripts/test.sh runs it after the suite; FWB_SANITIZERS=0 skips it): builds the core,
# the CLI and a chosen set of Qt Test suites with AddressSanitizer + UndefinedBehaviorSanitizer into
# build-san/ (clang, shared with the fuzzing stage: scripts/sanitizer-build.sh; no GUI, no OpenCV:
# neither is our code to check) and runs those suites on PoCL.
# Any report fails the stage: UBSan does not recover, LeakSanitizer runs at every exit.
# Suppressions (scripts/sanitizers/*.supp) name only frames inside PoCL, LLVM, the ICD loader or Qt.
# The suites are picked to cover every layer in about 5 minutes on 2 cores: PoCL compiles under an
# instrumented host, and our CPU references run 2-3x slower.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
. "$root/scripts/sanitizer-build.sh"
build="$san_build"
suites=(tst_programcache tst_faults tst_cli tst_json tst_image tst_inspector tst_workgroup tst_box3x3_interior
        tst_transpose tst_workload tst_bad_input tst_adversarial plain_tileplan plain_session)
start=$SECONDS
san_configure
cmake --build "$build" --parallel "$(nproc)" --target filter-bench "${suites[@]}"
echo "sanitizers: built in $((SECONDS - start)) s"

supp="$root/scripts/sanitizers"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1:detect_stack_use_after_return=0:strict_string_checks=1:check_initialization_order=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$supp/ubsan.supp"
# use_tls=0: LeakSanitizer's tracer crashed (signal 11) scanning the threads' thread-local storage at a suite's exit
# (session 26, deterministic for tst_transpose); without TLS roots a block reached only from TLS reads as a leak, so
# this can only add reports, never hide one: GLib's per-thread data is the one (lsan.supp).
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0:use_tls=0"
regex="^($(IFS='|'; echo "${suites[*]}"))\$"
cd "$build"
ctest --output-on-failure --parallel "$(nproc)" -R "$regex" "$@"
echo "sanitizers: done in $((SECONDS - start)) s"
