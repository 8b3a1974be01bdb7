#!/usr/bin/env bash
# One command from a fresh Debian/Ubuntu machine to a green test suite: installs the dependencies,
# builds everything (GUI included), and runs every Qt Test suite through ctest on the default
# OpenCL device (PoCL's CPU device when there is no GPU). Then the Debian package stage
# (scripts/test-package.sh: cpack, dpkg -x into a scratch root, the installed binaries run);
# FWB_PACKAGE=0 skips it. Then the sanitizer stage (scripts/test-sanitizers.sh: ASan+UBSan build in
# build-asan/, eleven suites on PoCL; about 6 min on 2 cores); FWB_SANITIZERS=0 skips it. Then the
# fuzzing stage (scripts/test-fuzz.sh: libFuzzer targets for every parser of outside data, built with
# clang into build-fuzz/, FWB_FUZZ_SECONDS each, default 60); FWB_FUZZ=0 skips it. Then the
# ThreadSanitizer stage (scripts/test-tsan.sh: the window and worker-thread suites in build-tsan/, on
# the filter-bench built above; a clean build-tsan/ and the five suites took 4 min on 2 idle cores:
# 129 s of build, 109 s of suites); FWB_TSAN=0 skips it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" -DBUILD_TESTING=ON
clinfo -l || true
cd "$root/build"
stage_start=$SECONDS
ctest --output-on-failure --parallel 2 "$@"
echo "test: suite took $((SECONDS - stage_start)) s"
if [ "${FWB_PACKAGE:-1}" != 0 ]; then
    "$root/scripts/test-package.sh" "$root/build"
fi
if [ "${FWB_SANITIZERS:-1}" != 0 ]; then
    "$root/scripts/test-sanitizers.sh"
fi
if [ "${FWB_FUZZ:-1}" != 0 ]; then
    "$root/scripts/test-fuzz.sh"
fi
if [ "${FWB_TSAN:-1}" != 0 ]; then
    "$root/scripts/test-tsan.sh"
fi
