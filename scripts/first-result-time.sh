#!/usr/bin/env bash
# Launch-to-first-picture time of the window (issue 25's "first result <= 3 s on PoCL"), from the window's
# FWB_TRACE milestones (ui/widgets/StartupTrace.h): starts filter-workbench on the test card (offscreen
# unless QT_QPA_PLATFORM says otherwise) with a home of its own, waits for its first complete result, ends it
# and prints each milestone's time since the launch in seconds.
#   scripts/first-result-time.sh BUILD_DIR HOME_DIR [cold|warm]
# cold (default): HOME_DIR is emptied first (settings, the program cache and PoCL's kernel cache all live
# under it: nothing is built yet); warm: HOME_DIR is kept from an earlier launch (both caches filled).
set -euo pipefail
build=${1:?build folder}; home=${2:?home folder for the launch}; mode=${3:-cold}
if [[ $mode == cold ]]; then rm -rf "$home"; fi
mkdir -p "$home"
trace=$home/trace.txt
rm -f "$trace"
start=$(date +%s%3N)
HOME=$home XDG_CONFIG_HOME=$home/.config XDG_CACHE_HOME=$home/.cache FWB_TRACE=$trace \
    QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen} "$build/filter-workbench" >"$home/log.txt" 2>&1 &
pid=$!
for _ in $(seq 600); do
    grep -q "result: complete" "$trace" 2>/dev/null && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
done
kill "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
awk -v t0="$start" -v mode="$mode" '{ printf "%s %6.2f s  %s\n", mode, ($1 - t0) / 1000, substr($0, index($0, " ") + 1) }' "$trace"
