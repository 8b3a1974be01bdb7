#!/usr/bin/env bash
# One command from a fresh Debian/Ubuntu machine to a green test suite: installs the dependencies,
# builds everything (GUI included), and runs every Qt Test suite through ctest on the default
# OpenCL device (PoCL's CPU device when there is no GPU).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" -DBUILD_TESTING=ON
clinfo -l || true
cd "$root/build"
ctest --output-on-failure --parallel 2 "$@"
