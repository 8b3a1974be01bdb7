#!/usr/bin/env bash
# Writes the measurement records the window shows as "recorded on <device>" (data/measurements/):
# for each filter and pixel layout, every variant of the family with OpenCV's rows, once with
# pageable copies and once with the image page-locked, on one device. Each file is exactly the JSON
# object `filter-bench run --json-file` writes, plus a top-level "record" {commit, date, command}.
#
#   scripts/record-measurements.sh BENCH OUT_DIR [--device SPEC] [--size WxH] [--repeat N] [--filters a,b]
#
# --filters: which filters (default: every filter of the catalogue, as `filter-bench list` names them).
#
# OUT_DIR/<device-slug>/<filter>-<format>-<transfer>.json; the slug is the device name in lower case
# with runs of other characters as one '-' ("NVIDIA H100 80GB HBM3" -> nvidia-h100-80gb-hbm3).
# The record names the machine (device, driver) and the commit, never how the machine was reached.
set -euo pipefail
bench="${1:?usage: record-measurements.sh BENCH OUT_DIR [--device SPEC] [--size WxH] [--repeat N]}"
out="${2:?usage: record-measurements.sh BENCH OUT_DIR [--device SPEC] [--size WxH] [--repeat N]}"
shift 2
device="" size=1920x1080 repeat=20 filters=""
. "$(dirname "$0")/lib/options.sh"
parse_options record-measurements device size repeat filters -- "$@"
root="$(cd "$(dirname "$0")/.." && pwd)"
commit="$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
[ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ] && commit="$commit-dirty"
date="$(date -u +%Y-%m-%d)"
devargs=()
[ -n "$device" ] && devargs=(--device "$device")
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
[ -n "$filters" ] || filters="$("$bench" list --json | python3 -c "import json,sys; print(','.join(f['name'] for f in json.load(sys.stdin)['filters']))")"
for filter in ${filters//,/ }; do
    for format in gray8 rgba8888; do
        for transfer in pageable pinned; do
            args=(run --filter "$filter" --variant all --format "$format" --synthetic "$size" --repeat "$repeat"
                  --transfer "$transfer" "${devargs[@]}")
            echo "== filter-bench ${args[*]}"
            "$bench" "${args[@]}" --json-file "$tmp/run.json" --overwrite > "$tmp/run.txt" 2>&1 \
                || { echo "   (exit $?; rows that failed are recorded as failed)"; tail -3 "$tmp/run.txt"; }
            [ -f "$tmp/run.json" ] || continue
            python3 - "$tmp/run.json" "$out" "$filter" "$format" "$transfer" "$commit" "$date" \
                "filter-bench ${args[*]}" <<'PY'
import json, os, re, sys
src, out, filt, fmt, transfer, commit, date, command = sys.argv[1:]
d = json.load(open(src))
slug = re.sub(r"[^a-z0-9]+", "-", d["device"]["name"].lower()).strip("-")
d["record"] = {"commit": commit, "date": date, "command": command}
os.makedirs(os.path.join(out, slug), exist_ok=True)
path = os.path.join(out, slug, f"{filt}-{fmt}-{transfer}.json")
json.dump(d, open(path, "w"), indent=1)
print("   wrote", path)
PY
            rm -f "$tmp/run.json"
        done
    done
done
