#!/usr/bin/env bash
# The window's first use on an empty cache (issue 25: "from launch on an empty cache to the first result
# <= 3 s on PoCL, and a race started 10 s after launch shows every bar without a build stall").
#   scripts/window-first-use.sh BUILD_DIR [TRIALS] [RACE_AFTER_S] [OUT_DIR]
# Each launch gets a home of its own, emptied first: the settings, the program cache and PoCL's kernel
# cache (POCL_CACHE_DIR) are empty, nothing is built. TRIALS launches (default 3) time, from the process's
# start, the first picture on screen and the first complete result (the window's FWB_TRACE milestones,
# ui/widgets/StartupTrace.h) with the default filter and variant. One more launch starts a race
# RACE_AFTER_S seconds after launch (default 10; FWB_TEST_RACE_AFTER_MS, ui/shell/WorkbenchCommandLine.h)
# and waits for its end, then the same race again in the same home (every program built): a bar whose time
# from its step to its bar exceeds the warm race's by more than STALL_MS (default 500 ms) waited on a build
# (on PoCL most of a program's cost is at its first launch, not in clBuildProgram); and whether the race
# said so ("Compiling…", "building…") before that bar. The window runs on $DISPLAY when set, else on an Xvfb of its own
# (with openbox when installed). OUT_DIR (optional) keeps each launch's trace and the table.
set -euo pipefail
build=${1:?build folder}; trials=${2:-3}; race_after=${3:-10}; out=${4:-}
stall_ms=${STALL_MS:-500}
exe=$(realpath "$build/filter-workbench")
work=$(mktemp -d /tmp/window-first-use.XXXXXX)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
if [[ -z ${DISPLAY:-} ]]; then
    display=:$((90 + RANDOM % 100))
    Xvfb "$display" -screen 0 1366x768x24 -nolisten tcp >/dev/null 2>&1 &
    pids+=($!)
    export DISPLAY=$display
    sleep 1
    if command -v openbox >/dev/null; then openbox >/dev/null 2>&1 & pids+=($!); sleep 0.5; fi
fi
[[ -n $out ]] && mkdir -p "$out"

# launch NAME UNTIL_PATTERN LIMIT_S [ENV...]: one launch on an empty home (KEEP_HOME=DIR: that home as an
# earlier launch left it), until the trace has the pattern.
launch() {
    local name=$1 until=$2 limit=$3; shift 3
    local home=${KEEP_HOME:-$work/$name}
    [[ -z ${KEEP_HOME:-} ]] && rm -rf "$home"
    mkdir -p "$home/pocl"
    local trace=$home/trace-$name.txt
    local start; start=$(date +%s%3N)
    env -u FWB_CACHE_DIR -u FWB_PREPARE_AHEAD HOME="$home" XDG_CONFIG_HOME="$home/.config" \
        XDG_CACHE_HOME="$home/.cache" POCL_CACHE_DIR="$home/pocl" FWB_TRACE="$trace" QT_QPA_PLATFORM=xcb \
        QT_LOGGING_RULES="fwb.prepare.debug=true" "$@" "$exe" >"$home/log-$name.txt" 2>&1 &
    local pid=$!
    for _ in $(seq $((limit * 10))); do
        grep -q "$until" "$trace" 2>/dev/null && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    awk -v t0="$start" '{ printf "%9.0f %s\n", $1 - t0, substr($0, index($0, " ") + 1) }' "$trace" >"$home/$name.txt" 2>/dev/null || true
    [[ -n $out ]] && cp "$home/$name.txt" "$out/$name.txt" && cp "$home/log-$name.txt" "$out/log-$name.txt"
    echo "$home/$name.txt"
}

ms_of() { awk -v e="$2" 'index($0, e) { print $1; exit }' "$1"; }

{
echo "# window-first-use: $(date -u +%FT%TZ), $(nproc) cores, $(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null)"
echo
echo "| trial | first picture (ms after launch) | first complete result (ms) |"
echo "|---|---|---|"
for t in $(seq "$trials"); do
    f=$(launch "first-$t" "result: complete" 300)
    echo "| $t | $(ms_of "$f" "picture: shown") | $(ms_of "$f" "result: complete") |"
done
echo
f=$(launch race "race: finished" 1800 FWB_TEST_RACE_AFTER_MS=$((race_after * 1000)))
started=$(ms_of "$f" "race: started"); finished=$(ms_of "$f" "race: finished")
echo "Cold race: started at ${started:-?} ms after launch, finished at ${finished:-?} ms ($((${finished:-0} - ${started:-0})) ms)."
# The same race again in the same home, every program built: each bar's time from its step without a build.
w=$(KEEP_HOME=$work/race launch warm-race "race: finished" 1800 FWB_TEST_RACE_AFTER_MS=$((race_after * 1000)))
wstarted=$(ms_of "$w" "race: started"); wfinished=$(ms_of "$w" "race: finished")
echo "Warm race (the same home again): $((${wfinished:-0} - ${wstarted:-0})) ms."
echo
echo "| bar | cold: its step to its bar (ms) | warm (ms) | waited (cold - warm, ms) | build in the race (ms, origin) | waited on a build | said before it |"
echo "|---|---|---|---|---|---|---|"
awk -v stall="$stall_ms" '
    FILENAME == ARGV[1] && / race: bar / { warm[$5] = $7; next }
    FILENAME == ARGV[1] { next }
    / race: said / { said[++nsaid] = substr($0, index($0, "race: said ") + 11) }
    / race: bar / {
        n = $4; name = $5; wall = $7; ms = $9; origin = $11
        title = substr($0, index($0, " title ") + 7); text = "-"
        for (i = 1; i <= nsaid; i++)
            if (index(said[i], title " (") && (text == "-" || index(said[i], "Compiling"))) text = said[i]
        waitedMs = (name in warm) ? wall - warm[name] : -1
        waited = waitedMs > stall ? "yes" : "no"
        if (waited == "yes") { stalls++; stall_total += waitedMs; if (text !~ /Compiling|building|Waiting/) silent++ }
        printf "| %s %s | %s | %s | %s | %s (%s) | %s | %s |\n", n, name, wall, (name in warm) ? warm[name] : "-", waitedMs, ms, origin, waited, text
        entries++
    }
    END { printf "\nRace: %d bars, %d waited on a build over %d ms (%.0f ms in all), %d of them without saying so.\n", entries, stalls, stall, stall_total, silent }
' "$w" "$f"
echo
echo "Said during the race (ms after launch):"
grep -E "race: said|prepare: " "$f" | awk -v s="${started:-0}" '$1 >= s - 1000' | head -60
} | tee "${out:+$out/table.md}"
