#!/usr/bin/env bash
# One command from a fresh Debian/Ubuntu machine to a green test suite: installs the dependencies,
# builds everything (GUI included), and runs every Qt Test suite through ctest on the default
# OpenCL device (PoCL's CPU device when there is no GPU). Then the Debian package stage
# (scripts/test-package.sh: cpack, dpkg -x into a scratch root, the installed binaries run);
# FWB_PACKAGE=0 skips it. Then the sanitizer stage (scripts/test-sanitizers.sh: ASan+UBSan, clang, in
# build-san/, fourteen suites on PoCL); FWB_SANITIZERS=0 skips it. Then the fuzzing stage
# (scripts/test-fuzz.sh: libFuzzer targets for every parser of outside data, from the same build-san/,
# FWB_FUZZ_SECONDS each, default 20); FWB_FUZZ=0 skips it. Then the ThreadSanitizer stage
# (scripts/test-tsan.sh: the window and worker-thread suites in build-tsan/, on the filter-bench built
# above); FWB_TSAN=0 skips it. Each stage's time is printed at the end.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# Each stage's wall time, printed together at the end (and after a failed stage) for the CI log.
stage_times=()
stage() {
    local name=$1 start=$SECONDS
    shift
    "$@" || { local rc=$?; stage_times+=("$name $((SECONDS - start)) s (failed)"); report_stages; return $rc; }
    stage_times+=("$name $((SECONDS - start)) s")
}
report_stages() {
    echo "test: stage times: $(IFS=';'; echo "${stage_times[*]}" | sed 's/;/, /g'); total ${SECONDS} s"
}
run_ctest() {
    (cd "$root/build" && ctest --output-on-failure --parallel 2 "$@")
}
stage install "$root/scripts/install-deps.sh"
stage build "$root/scripts/build.sh" -DBUILD_TESTING=ON
clinfo -l || true
stage suites run_ctest "$@"
if [ "${FWB_PACKAGE:-1}" != 0 ]; then
    stage package "$root/scripts/test-package.sh" "$root/build"
fi
if [ "${FWB_SANITIZERS:-1}" != 0 ]; then
    stage sanitizers "$root/scripts/test-sanitizers.sh"
fi
if [ "${FWB_FUZZ:-1}" != 0 ]; then
    stage fuzz "$root/scripts/test-fuzz.sh"
fi
if [ "${FWB_TSAN:-1}" != 0 ]; then
    stage tsan "$root/scripts/test-tsan.sh"
fi
report_stages
