#!/usr/bin/env bash
# The measurement suite behind docs/MEASUREMENTS.md: every filter and variant on one device at one
# image size for each pixel layout, the recursive-vs-separable sigma sweep, a work-group shape sweep
# and seed 001's inspector. Writes a text table and a JSON file per step into OUTDIR.
#
#   scripts/bench-suite.sh OUTDIR [--bench PATH] [--size WxH] [--device SPEC] [--repeat N] [--part P]
#
# --part roofline|layouts|sweeps|all (default all): roofline = issue 9's targets (every family's
# variants with OpenCV's rows, gray8 and rgba8888; where filter-bench was built with NPP, also
# scripts/npp-compare.sh's table in npp/; the default launch at an odd size against the
# even one, gray8 and rgba8888; OpenCV through Python's cv2 where filter-bench was built without OpenCV) and a summary
# (scripts/roofline-summary.py) in roofline.md. The per-layout tables time every filter on the CPU
# too (single-threaded reference), which dominates the wall time on big images; sweeps skip that.
# Example on a bare GPU server (no Qt):
#   ./scripts/build.sh -DFWB_WITH_QT=OFF && ./scripts/bench-suite.sh bench-h100
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:?usage: bench-suite.sh OUTDIR [--bench PATH] [--size WxH] [--device SPEC] [--repeat N]}"
shift
bench="$root/build/filter-bench" size=6720x4480 device="" repeat=10 part=all
. "$(dirname "$0")/lib/options.sh"
parse_options bench-suite bench size device repeat part -- "$@"
mkdir -p "$out"
common=(--synthetic "$size" --repeat "$repeat")
[ -n "$device" ] && common+=(--device "$device")
failed=0

# step NAME filter-bench-args...: the table (and stderr) to NAME.txt, the same run's JSON to NAME.json.
step() {
    local name="$1"; shift
    echo "== $name: filter-bench $*"
    "$bench" "$@" --json-file "$out/$name.json" --overwrite >"$out/$name.txt" 2>&1 \
        || { echo "   (exit $?, see $name.txt)"; failed=1; }
}

"$bench" devices >"$out/devices.txt" 2>&1
"$bench" devices --json >"$out/devices.json" 2>&1
if [ "$part" = all ] || [ "$part" = roofline ]; then
    # The parameters OpenCV is compared at: 3x3 box/erode/dilate, Sobel |gx|, sigma 1 (5x5) and 2.
    for format in gray8 rgba8888; do
        step "all-$format" run --filter all --format "$format" --param radius=1 --param output=0 --no-cpu-single \
            --baselines "${common[@]}"
        # cv::medianBlur replicates the edge pixels only: the median rows OpenCV can be compared on.
        step "median-$format" run --filter median3x3,median5x5 --format "$format" --border replicate \
            --no-cpu-single --baselines "${common[@]}"
    done
    even="$size" odd="$(echo "$size" | awk -Fx '{print $1-1 "x" $2+1}')"
    step default-even run --filter all --no-cpu-single --no-baselines --synthetic "$even" --repeat "$repeat" \
        ${device:+--device "$device"}
    step default-odd run --filter all --no-cpu-single --no-baselines --synthetic "$odd" --repeat "$repeat" \
        ${device:+--device "$device"}
    step default-even-rgba8888 run --filter all --format rgba8888 --no-cpu-single --no-baselines --synthetic "$even" \
        --repeat "$repeat" ${device:+--device "$device"}
    step default-odd-rgba8888 run --filter all --format rgba8888 --no-cpu-single --no-baselines --synthetic "$odd" \
        --repeat "$repeat" ${device:+--device "$device"}
    opencv_rows=$(python3 -c "import json,sys; print(sum(1 for r in json.load(open(sys.argv[1]))['results']
                  if r.get('baseline') and not r.get('error')))" "$out/all-gray8.json" 2>/dev/null || echo 0)
    if [ "$opencv_rows" = 0 ] && python3 -c "import cv2" 2>/dev/null; then
        echo "== opencv-python: filter-bench has no OpenCV rows here; timing Python's cv2 on the same sizes"
        python3 "$root/scripts/opencv-baseline.py" --size "$size" --repeat "$repeat" \
            --json "$out/opencv-python.json" >"$out/opencv-python.txt" 2>&1 || failed=1
    fi
    python3 "$root/scripts/roofline-summary.py" "$out" >"$out/roofline.md" 2>&1 || failed=1
    cat "$out/roofline.md"
    # NVIDIA's NPP beside our best rungs, where this filter-bench was built with NPP (replicate border).
    if "$bench" run --filter erode --variant naive --synthetic 16x16 --repeat 1 --warmup 0 --border replicate \
            --baselines --no-cpu-single ${device:+--device "$device"} --json 2>/dev/null \
        | python3 -c "import json,sys; sys.exit(0 if any(r['variant'] == 'npp' and not r.get('error')
                      for r in json.load(sys.stdin)['results']) else 1)"; then
        echo "== npp: our best rungs beside NVIDIA's NPP (scripts/npp-compare.sh)"
        "$root/scripts/npp-compare.sh" "$bench" "$out/npp" --size "$size" --repeat "$repeat" \
            ${device:+--device "$device"} >"$out/npp-compare.txt" 2>&1 || failed=1
    fi
fi
if [ "$part" = all ] || [ "$part" = layouts ]; then
    for format in gray8 rgba8888 rgb888; do
        step "layout-$format" run --filter all --format "$format" "${common[@]}"
    done
fi
[ "$part" = all ] || [ "$part" = sweeps ] || { echo "bench-suite: results in $out (failures: $failed)"; exit "$failed"; }
for transfer in pageable pinned; do
    for format in gray8 rgba8888; do
        step "transfer-$transfer-$format" run --filter gaussian5x5 --variant unrolled_constant --format "$format" \
            --transfer "$transfer" --no-cpu-single "${common[@]}"
    done
done
step sigma-sweep run --filter recursive_gaussian,gaussian --param sigma=1,2,4,8,16,32,50 --no-cpu-single "${common[@]}"
for shape in auto 8x8 16x16 32x8 8x32 64x4 4x64 256x1 64x16 16x64; do
    step "shape-$shape" run --filter gaussian5x5,box3x3_interior,transpose --variant all --local "$shape" --no-cpu-single "${common[@]}"
done
for args in "" "--local 16x16" "--local 16x16 --cl20"; do
    name="inspect${args// /_}"
    # shellcheck disable=SC2086
    "$bench" inspect $args ${device:+--device "$device"} >"$out/$name.txt" 2>&1
done
echo "bench-suite: results in $out (failures: $failed)"
exit "$failed"
