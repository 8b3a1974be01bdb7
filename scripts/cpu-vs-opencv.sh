#!/usr/bin/env bash
# Issue 24 item 1's CPU bar: our multi-threaded CPU code (each filter's fast CPU path, on the one host thread
# pool) against OpenCV's CPU call for the same filter, parameters, border and format, timed in the same
# process in alternating rounds (`filter-bench cpu-bench`; no OpenCL device involved). For every filter
# OpenCV also has, gray8 and rgba8888. Writes OUT_DIR/table.txt (the verb's table), OUT_DIR/cpu-vs-opencv.json
# (ratio ours/OpenCV per row, threads used) and OUT_DIR/machine.txt. The target: every ratio <= 2.
# Usage: scripts/cpu-vs-opencv.sh OUT_DIR [WxH (default 6720x4480)] [FILTER_BENCH] [extra cpu-bench options]
# e.g. scripts/cpu-vs-opencv.sh /tmp/cpu 3840x2160 build/filter-bench --threads 2 --rounds 3 --repeat 7
set -euo pipefail
out="$1"
size="${2:-6720x4480}"
root="$(cd "$(dirname "$0")/.." && pwd)"
bench="${3:-$root/build/filter-bench}"
shift $(( $# < 3 ? $# : 3 ))
mkdir -p "$out"
{
    echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
    echo "commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
    echo "filter-bench: $("$bench" --version 2>&1 | head -1)"
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ //')"
    echo "hardware threads: $(nproc)"
    echo "load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
} > "$out/machine.txt"
# The catalogue's default parameters (gaussian sigma 2 = radius 6, box radius 3, erode/dilate radius 2,
# sobel magnitude), border reflect101; the medians with replicate, the only border cv::medianBlur has.
"$bench" cpu-bench --synthetic "$size" --json "$@" > "$out/reflect101.json"
"$bench" cpu-bench --synthetic "$size" --json --filter median3x3,median5x5 --border replicate "$@" > "$out/replicate.json"
python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
d = json.load(open(f"{out}/reflect101.json"))
rep = json.load(open(f"{out}/replicate.json"))
for r in d["rows"]:
    r["border"] = d["border"]
for r in rep["rows"]:
    r["border"] = rep["border"]
# A row OpenCV cannot run with reflect101 (the medians) is replaced by its replicate row.
byKey = {(r["filter"], r["format"]): r for r in rep["rows"]}
d["rows"] = [byKey.get((r["filter"], r["format"]), r) if r["opencv_ms"] is None else r for r in d["rows"]]
d["border"] = "reflect101 (medians: replicate)"
json.dump(d, open(f"{out}/cpu-vs-opencv.json", "w"), indent=1)
os.remove(f"{out}/reflect101.json")
os.remove(f"{out}/replicate.json")
lines = [f"{d['image']['width']}x{d['image']['height']} test card, {d['threads']} threads "
         f"({d['hardware_threads']} hardware), {d['border']}, {d['rounds']} rounds x {d['repeat']} repeats, {d['opencv']}",
         f"{'filter':<20} {'format':<9} {'border':<10} {'ours min':>9} {'ours med':>9} {'cv min':>9} {'cv med':>9} {'ratio':>6} {'diff':>5}  verdict"]
for r in d["rows"]:
    o = r["ours_ms"]
    if r["opencv_ms"] is None:
        lines.append(f"{r['filter']:<20} {r['format']:<9} {r['border']:<10} {o['min']:9.2f} {o['median']:9.2f}  no OpenCV row: {r['opencv_call']}")
        continue
    c = r["opencv_ms"]
    ratio = r["ratio_ours_over_opencv"]
    lines.append(f"{r['filter']:<20} {r['format']:<9} {r['border']:<10} {o['min']:9.2f} {o['median']:9.2f} {c['min']:9.2f} {c['median']:9.2f} "
                 f"{ratio:6.2f} {r['max_abs_diff_vs_opencv']:5d}  {'within 2x' if ratio <= 2 else 'MISSES 2x'}")
open(f"{out}/table.txt", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
