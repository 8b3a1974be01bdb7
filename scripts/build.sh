#!/usr/bin/env bash
# Configures and builds into build/ (Release). Extra arguments go to cmake, e.g. -DFWB_BUILD_GUI=OFF.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [ -f "$root/build/CMakeCache.txt" ]; then
    generator=() # keep whatever generator the existing build dir uses
fi
cmake -S "$root" -B "$root/build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build "$root/build" --parallel "$(nproc)"
