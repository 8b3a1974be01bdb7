#!/usr/bin/env bash
# Issue 28 on a host with two GPUs: filter-bench apply with one GPU and with both, on a batch that is not
# decode-bound (PNG -> PNG, median 5x5) and on a decode-bound one (JPEG -> JPEG, Gaussian 5x5), and the
# same variant run on GPU 0 and GPU 1 (times and output files compared).
# PARTS=heavy adds a device-bound batch: the naive box blur at radius 50 (10,201 reads a pixel, the
# catalogue's heaviest kernel: about 58 ms a 4000x3000 rgba8888 image on an H100), JPEG -> JPEG and
# PNG -> PNG, the PNGs written at --png-level 0 (stored: the encoder then costs little) and at the
# default level, so the host's share and the devices' share of a batch both show.
# Usage: [PARTS=png,jpg,same,heavy] [WORK=DIR] scripts/two-gpu.sh OUT_DIR FILTER_BENCH GPU0 GPU1 [COUNT] [WxH]
#        (GPU0/GPU1: device specs, e.g. 1:0 1:1; WORK: where the images go, e.g. /dev/shm/w: default OUT_DIR/work)
set -euo pipefail
out="$1"; bench="$2"; g0="$3"; g1="$4"; count="${5:-200}"; size="${6:-4000x3000}"
work="${WORK:-$out/work}"
parts="${PARTS:-png,jpg,same}" # which figures: png, jpg, same (one variant on each GPU)
rm -rf "$work"; mkdir -p "$work/png" "$work/jpg"
python3 - "$work" "$count" "$size" "$parts" <<'PY'
import sys, os, cv2, numpy as np
from concurrent.futures import ThreadPoolExecutor
work, count, parts = sys.argv[1], int(sys.argv[2]), sys.argv[4]
w, h = map(int, sys.argv[3].split('x'))
y, x = np.mgrid[0:h, 0:w].astype(np.float32)
def make(i):
    rng = np.random.default_rng(i)
    img = np.empty((h, w, 3), np.float32)
    for c in range(3):
        img[..., c] = 127 + 60 * np.sin(x / (200 + 37 * c + i) + c) * np.cos(y / (150 + 23 * c))
    img += rng.normal(0, 6, img.shape).astype(np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if 'png' in parts or 'heavy' in parts:
        cv2.imwrite(os.path.join(work, "png", f"img{i:04d}.png"), img, [cv2.IMWRITE_PNG_COMPRESSION, 1])
    cv2.imwrite(os.path.join(work, "jpg", f"img{i:04d}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 75])
with ThreadPoolExecutor(os.cpu_count()) as pool:
    list(pool.map(make, range(count)))
PY
"$bench" devices > "$out/devices.txt" 2>&1
run() { # name, devices, filter, variant, input folder, more apply options...
    rm -rf "$work/out"
    "$bench" apply --filter "$3" --variant "$4" --device "$2" "$work/$5" --out "$work/out" --json "${@:6}" > "$out/$1.jsonl"
    python3 -c "import json,sys; s=[json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]; print(sys.argv[2], json.dumps(s))" "$out/$1.jsonl" "$1"
}
# Build both batches' programs first (one tiny run on each GPU), so that no batch pays a cold build: the
# first measurement (2026-11-26) built the Gaussian inside its one-GPU JPEG batch. PARTS (default png,jpg,same) picks the figures.
for g in "$g0" "$g1"; do
    [[ $parts == *png* ]] && "$bench" run --filter median5x5 --variant forgetful_w16 --format rgba8888 --device "$g" --synthetic 64x64 --repeat 1 > /dev/null
    "$bench" run --filter gaussian5x5 --variant strips --format rgba8888 --device "$g" --synthetic 64x64 --repeat 1 > /dev/null
    [[ $parts == *heavy* ]] && "$bench" run --filter box --variant naive --param radius=50 --format rgba8888 --device "$g" --synthetic 64x64 --repeat 1 > /dev/null
done
if [[ $parts == *heavy* ]]; then
    for src in jpg png; do
        run "heavy-$src-one" "$g0" box naive "$src" --param radius=50 --png-level 0 | tee -a "$out/summary.txt"
        run "heavy-$src-two" "$g0,$g1" box naive "$src" --param radius=50 --png-level 0 | tee -a "$out/summary.txt"
    done
    run heavy-png-default-one "$g0" box naive png --param radius=50 | tee -a "$out/summary.txt"
    run heavy-png-default-two "$g0,$g1" box naive png --param radius=50 | tee -a "$out/summary.txt"
fi
if [[ $parts == *png* ]]; then
    run png-median-one "$g0" median5x5 forgetful_w16 png | tee -a "$out/summary.txt"
    run png-median-two "$g0,$g1" median5x5 forgetful_w16 png | tee -a "$out/summary.txt"
fi
if [[ $parts == *jpg* ]]; then
    run jpg-gauss-one "$g0" gaussian5x5 strips jpg | tee -a "$out/summary.txt"
    run jpg-gauss-two "$g0,$g1" gaussian5x5 strips jpg | tee -a "$out/summary.txt"
    run jpg-gauss-all all gaussian5x5 strips jpg | tee -a "$out/summary.txt" # --device all: every GPU, not PoCL beside them
fi
if [[ $parts == *same* ]]; then
for g in "$g0" "$g1"; do
    "$bench" run --filter gaussian5x5 --variant strips --format rgba8888 --synthetic 6720x4480 --device "$g" \
        --repeat 20 --no-cpu-single --output "$work/gpu-${g/:/_}.png" --overwrite --json > "$out/run-${g/:/_}.json"
done
cmp "$work/gpu-${g0/:/_}.png" "$work/gpu-${g1/:/_}.png" && echo "outputs identical" | tee -a "$out/summary.txt"
python3 - "$out" "${g0/:/_}" "${g1/:/_}" <<'PY' | tee -a "$out/summary.txt"
import json, sys
out, a, b = sys.argv[1:]
ka = json.load(open(f"{out}/run-{a}.json"))["results"][0]["kernel_ms"]["median"]
kb = json.load(open(f"{out}/run-{b}.json"))["results"][0]["kernel_ms"]["median"]
print(f"gaussian5x5 strips rgba8888 6720x4480 kernel median: GPU {a} {ka:.4f} ms, GPU {b} {kb:.4f} ms, ratio {max(ka,kb)/min(ka,kb):.3f}")
PY
fi
rm -rf "$work"
