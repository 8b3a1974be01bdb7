#!/usr/bin/env bash
# Issue 27's table: our best rung of each filter beside NVIDIA's NPP (the `npp` baseline row, built
# in where CMake finds the CUDA toolkit with NPP) in the same command, both pixel layouts, replicate
# border (NPP's border functions replicate), kernel medians, every row checked against the reference.
#
#   scripts/npp-compare.sh BENCH OUT_DIR [--size WxH] [--repeat N] [--device SPEC] [--only REGEX] [--flush]
#
# --only keeps the rows whose "filter variant" matches the extended regular expression (e.g. 'packed|erode').
# --flush: every launch of ours and NPP's finds none of the image in the GPU's cache (filter-bench
# run --flush-cache): the DRAM-bound figures beside the usual ones (the H100's 50 MB L2 holds much of a
# gray8 picture and its result between repeats).
#
# Writes OUT_DIR/<filter>-<variant>-<format>.json (filter-bench's JSON) and OUT_DIR/npp.md (the table).
set -uo pipefail
bench="${1:?usage: npp-compare.sh BENCH OUT_DIR [--size WxH] [--repeat N] [--device SPEC]}"
out="${2:?usage: npp-compare.sh BENCH OUT_DIR [--size WxH] [--repeat N] [--device SPEC]}"
shift 2
size=6720x4480 repeat=20 device="" only="" flush=""
. "$(dirname "$0")/lib/options.sh"
parse_options npp-compare size repeat device only flush! -- "$@"
mkdir -p "$out"
devargs=()
[ -n "$device" ] && devargs=(--device "$device")
# filter variant [param] per format: the best rungs of the last roofline suite (docs/MEASUREMENTS.md).
rows=(
    "gaussian5x5 strips -"
    "gaussian5x5 strips_half2 -"
    "gaussian5x5 stream -"
    "box strips radius=1"
    "box packed radius=1"
    "box stream radius=1"
    "erode strips radius=1"
    "dilate strips radius=1"
    "erode packed radius=1"
    "dilate packed radius=1"
    "erode stream radius=1"
    "dilate stream radius=1"
    "sobel strips output=0"
    "sobel stream output=0"
    "sobel strips output=3"
    "sobel stream output=3"
    "transpose register_blocks -"
    "transpose local -"
    "transpose word_blocks -"
    "box3x3_interior strips -"
    "box3x3_interior stream -"
    "median3x3 forgetful_u16x2_ptx -"
    "median3x3 stream -"
    "median5x5 forgetful_u16x2_ptx -"
)
for format in gray8 rgba8888; do
    for row in "${rows[@]}"; do
        read -r filter variant param <<<"$row"
        [ -n "$only" ] && ! grep -qE -- "$only" <<<"$filter $variant" && continue
        [ "$variant" = packed ] && [ "$format" != gray8 ] && continue # the packed rung is gray8 only
        [ "$variant" = word_blocks ] && [ "$format" != rgba8888 ] && continue # rgba8888 only
        [ "$param" = output=3 ] && [ "$format" != gray8 ] && continue # Sobel's 16-bit gx (NPP's output): gray8 only
        args=(run --filter "$filter" --variant "$variant" --baselines --format "$format" --synthetic "$size"
              --border replicate --repeat "$repeat" --no-cpu-single --check "${devargs[@]}" ${flush:+--flush-cache})
        [ "$param" != "-" ] && args+=(--param "$param")
        echo "== filter-bench ${args[*]}"
        name="$filter-$variant-$format"
        [ "$param" = output=3 ] && name="$filter-$variant-16bit-$format"
        "$bench" "${args[@]}" --json-file "$out/$name.json" --overwrite \
            > "$out/$name.txt" 2>&1 || echo "   (exit $?, see $name.txt)"
    done
done
python3 - "$out" <<'PY' | tee "$out/npp.md"
import glob, json, os, sys
out = sys.argv[1]
print("| filter | format | ours (variant) ms | NPP ms | ours / NPP speed | NPP check | NPP call |")
print("|---|---|---:|---:|---:|---|---|")
for path in sorted(glob.glob(os.path.join(out, "*.json"))):
    d = json.load(open(path))
    rows = {r["variant"]: r for r in d["results"]}
    ours = [r for r in d["results"] if not r.get("baseline") and r["variant"] not in ("opencv_cpu", "opencv_tapi", "npp")]
    npp = rows.get("npp")
    if not ours:
        continue
    o = ours[0]
    om = o["kernel_ms"]["median"] if o.get("kernel_ms") else None
    if o.get("output_note"):  # Sobel's 16-bit gx: NPP's own output
        o["variant"] += ", 16-bit out"
    if npp is None or npp.get("error"):
        why = (npp or {}).get("error") or "no npp row"
        print(f"| {o['filter']} | {o['format']} | {om:.4f} ({o['variant']}) | - | - | {why} | |")
        continue
    nm = npp["kernel_ms"]["median"]
    check = f"max diff {npp['max_abs_diff']} (tol {npp['tolerance']})" if npp.get("checked") else "not checked"
    print(f"| {o['filter']} | {o['format']} | {om:.4f} ({o['variant']}) | {nm:.4f} | {nm / om:.2f}x | {check} | {npp.get('baseline_call', '')} |")
PY
