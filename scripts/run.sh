#!/usr/bin/env bash
# One command from a fresh Debian/Ubuntu machine to a running workbench: installs the dependencies,
# builds, and opens filter-workbench on the default OpenCL device with the test card. Without a
# display (or without the GUI built) it runs the filter-bench demo on the test card instead.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
if [ -x "$root/build/filter-workbench" ] && [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    exec "$root/build/filter-workbench" "$@"
fi
echo "(no display: running the command-line demo; filter-workbench needs a desktop session)"
"$root/build/filter-bench" devices
exec "$root/build/filter-bench" run --filter gaussian5x5 --variant all --synthetic 1920x1080 --check "$@"
