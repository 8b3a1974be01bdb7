#!/usr/bin/env bash
# Issue 26's batch target: `filter-bench apply` (Gaussian 5x5, sigma 1) over COUNT synthetic 24-megapixel
# JPEGs (6000x4000, made here with OpenCV at quality 75, the quality filter-bench writes), against
# OpenCV's own best CPU loop on the same host: cv2.imread -> GaussianBlur(5x5, sigma 1) -> imwrite
# (quality 75) over a thread pool of one thread per core. Both write every result; images/s compared.
# Needs the Qt-free (or Qt) build's filter-bench and Python with cv2. APPLY_ARGS adds options to apply
# (e.g. APPLY_ARGS="--queues 3 --device all"); APPLY_FORMAT the layout (default rgba8888; rgb888 is a colour
# JPEG's own three channels, as OpenCV's loop reads them).
# Usage: scripts/apply-vs-opencv.sh OUT_DIR [COUNT] [FILTER_BENCH]
set -euo pipefail
out="$1"
count="${2:-200}"
root="$(cd "$(dirname "$0")/.." && pwd)"
bench="${3:-$root/build/filter-bench}"
work="$out/work"
rm -rf "$work"
mkdir -p "$work/in" "$work/ours" "$work/cv"
python3 - "$work/in" "$count" <<'PY'
import sys, os, cv2, numpy as np
from concurrent.futures import ThreadPoolExecutor
folder, count = sys.argv[1], int(sys.argv[2])
h, w = 4000, 6000
y, x = np.mgrid[0:h, 0:w].astype(np.float32)
def make(i):
    rng = np.random.default_rng(i)
    img = np.empty((h, w, 3), np.float32)
    for c in range(3):  # smooth gradients and rings (photo-like, compresses like a photo) plus grain
        img[..., c] = 127 + 60 * np.sin(x / (200 + 37 * c + i) + c) * np.cos(y / (150 + 23 * c))
    img += rng.normal(0, 6, img.shape).astype(np.float32)
    cv2.circle(img, (int(rng.integers(0, w)), int(rng.integers(0, h))), 700, (40, 200, 90), -1)
    cv2.imwrite(os.path.join(folder, f"img{i:04d}.jpg"), np.clip(img, 0, 255).astype(np.uint8),
                [cv2.IMWRITE_JPEG_QUALITY, 75])
with ThreadPoolExecutor(os.cpu_count()) as pool:
    list(pool.map(make, range(count)))
print(f"made {count} JPEGs, {sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder)) / 1e6:.0f} MB")
PY
"$bench" devices > "$out/devices.txt" 2>&1 || true
# The program built first (a tiny run of the same variant and layout: a JPEG decodes to rgba8888), so that the
# batch is timed warm, as OpenCV's loop is; the first measurement (2026-11-26) paid the cold build inside it.
"$bench" run --filter gaussian5x5 --variant strips --format "${APPLY_FORMAT:-rgba8888}" --synthetic 64x64 --repeat 1 ${APPLY_DEVICE:+--device "$APPLY_DEVICE"} > /dev/null
start=$(date +%s%N)
# shellcheck disable=SC2086 # APPLY_ARGS: several words
"$bench" apply --filter gaussian5x5 --variant strips --param sigma=1 --border reflect101 --format "${APPLY_FORMAT:-rgba8888}" "$work/in" \
    --out "$work/ours" --json ${APPLY_ARGS:-} > "$out/apply.jsonl"
ours_ns=$(( $(date +%s%N) - start ))
python3 - "$work/in" "$work/cv" <<'PY' > "$out/opencv.txt"
import sys, os, time, cv2
from concurrent.futures import ThreadPoolExecutor
src, dst = sys.argv[1], sys.argv[2]
names = sorted(os.listdir(src))
cv2.setNumThreads(1)  # one image per thread: the pool is the parallelism
def one(name):
    img = cv2.imread(os.path.join(src, name), cv2.IMREAD_UNCHANGED)
    out = cv2.GaussianBlur(img, (5, 5), 1.0, 1.0, borderType=cv2.BORDER_REFLECT_101)
    cv2.imwrite(os.path.join(dst, name), out, [cv2.IMWRITE_JPEG_QUALITY, 75])
t = time.perf_counter()
with ThreadPoolExecutor(os.cpu_count()) as pool:
    list(pool.map(one, names))
s = time.perf_counter() - t
print(f"opencv {cv2.__version__}: {len(names)} images in {s:.2f} s = {len(names) / s:.2f} images/s ({os.cpu_count()} threads)")
PY
python3 - "$out" "$ours_ns" <<'PY'
import json, sys
out, ns = sys.argv[1], int(sys.argv[2])
lines = [json.loads(l) for l in open(f"{out}/apply.jsonl") if l.strip()]
summary = lines[-1]
print("apply summary:", json.dumps(summary))
stages = ["decode", "upload", "filter", "download", "device_other", "encode"]
print("apply stage seconds (summed over threads): "
      + ", ".join(f"{name.replace('_', ' ')} {summary.get(name + '_s', 0):.2f}" for name in stages))
print(f"apply busy per thread: {summary.get('host_threads')} host threads {summary.get('host_busy_s', 0):.2f} s each "
      f"(decode + encode), {summary.get('device_threads')} device threads {summary.get('device_busy_s', 0):.2f} s each "
      f"(upload + filter + download + other), of {summary['seconds']:.2f} s")
print(f"apply wall (whole process): {ns / 1e9:.2f} s")
print(open(f"{out}/opencv.txt").read().strip())
PY
du -sh "$work/in" "$work/ours" "$work/cv" | tee "$out/sizes.txt"
rm -rf "$work"
