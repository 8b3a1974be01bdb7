#!/usr/bin/env bash
# The Qt-free build on a bare GPU server, as issue 26 measures it: builds core + CLI without Qt, runs
# the Qt-free suites (tests/plain) on the default device, then times filter-bench on decoded files:
#   - a photo (--input PHOTO, rgba8888, --transfer pinned): staging_ms shows whether the decode went
#     straight into page-locked memory;
#   - the 20000x15000 rgba8888 streamed run (gaussian5x5 strips, --transfer pinned --tile 20000x500,
#     issue 10's setting) from a PNG file, beside the same run on the synthetic test card.
# Usage: scripts/gpu-headless.sh OUT_DIR PHOTO [PREFIX]
#   PREFIX: a folder holding unpacked header/library packages (dpkg -x) when the host lacks them
#   (libcli11-dev, nlohmann-json3-dev, opencl-clhpp-headers, libspng-dev, libturbojpeg0-dev and their
#   runtime packages).
set -euo pipefail
out="$1"
photo="$2"
pfx="${3:-}"
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$out"
args=()
if [ -n "$pfx" ]; then
    . "$root/scripts/lib/device-record.sh"
    devdeps_prefix "$pfx"
    args=("${PREFIX_CMAKE_ARGS[@]}")
fi
build="$root/build-headless"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFWB_WITH_QT=OFF "${args[@]}" | grep -E "without Qt|OpenCV|CLBlast" || true
cmake --build "$build" --parallel "$(nproc)" > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
(cd "$build" && ctest --output-on-failure 2>&1 | tee "$out/ctest.txt" | tail -6)
bench="$build/filter-bench"
"$bench" devices > "$out/devices.txt" 2>&1 || true
"$bench" run --input "$photo" --filter gaussian5x5 --variant strips --format rgba8888 --transfer pinned \
    --repeat 5 --no-cpu-single --json > "$out/photo-pinned.json"
big="$out/../big-20000x15000.png"
start=$SECONDS
"$bench" run --synthetic 20000x15000 --filter gaussian5x5 --variant strips --format rgba8888 --repeat 1 \
    --no-cpu-single --output "$big" --overwrite > /dev/null
echo "wrote $(du -h "$big" | cut -f1) PNG in $((SECONDS - start)) s" | tee "$out/big-png.txt"
for source in "--input $big" "--synthetic 20000x15000"; do
    name=$([ "${source%% *}" = "--input" ] && echo png || echo synthetic)
    # shellcheck disable=SC2086
    "$bench" run $source --filter gaussian5x5 --variant strips --format rgba8888 --transfer pinned \
        --tile 20000x500 --repeat 5 --no-cpu-single --json > "$out/streamed-$name.json"
done
rm -f "$big"
python3 - "$out" <<'PY'
import json, sys, os
out = sys.argv[1]
def row(name):
    d = json.load(open(os.path.join(out, name)))
    r = d["results"][0] if "results" in d else d
    return r
for name in ["photo-pinned.json", "streamed-png.json", "streamed-synthetic.json"]:
    r = row(name)
    print(f"{name}: device {r.get('device')}, end_to_end {r.get('end_to_end_ms')} ms, total {r.get('total_ms')} ms,"
          f" staging {r.get('staging_ms')} ms, up {r.get('upload_gbps')} GB/s, down {r.get('download_gbps')} GB/s,"
          f" tiles {r.get('tiles')}, matches {r.get('matches')}")
PY
