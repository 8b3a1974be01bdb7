#!/bin/bash
# session 27 call 2 (H200): the landed tensor_f16 at its new default shapes (128x1 at 64 rows, both layouts): checks,
# the same bytes on the tensor cores / tiles / PoCL, times beside the 5x5 stream (usual and flushed, two rounds);
# the gray8 streaming rungs at 6720x4480 and at 4x the pixels (13440x8960) beside a device copy of each size (is the
# copy-share miss the picture's size?); the catalogue prepared cold 4 at a time (each program's build time nearly
# alone on the 16-core host).
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c2 -DCUDAToolkit_ROOT=/usr/local/cuda
chk() { echo "$* $(timeout 90 $B run --device 1:0 "$@" --check --no-cpu-single --no-baselines --repeat 2 --warmup 0 2>&1 | grep -oE 'ok \(max diff [0-9]+\)|MISMATCH.*|rror.*|navailable.*' | head -1)"; }
export FWB_CACHE_DIR=/tmp/c2-cache
{
for f in gray8 rgba8888; do for b in replicate reflect101 constant; do
  for sz in 1x1 17x33 1283x719 6719x4481; do chk --filter gaussian --variant tensor_f16 --param sigma=2 --format $f --border $b --synthetic $sz; done
  chk --filter gaussian --variant tensor_f16 --param sigma=1 --format $f --border $b --synthetic 1283x719
done; done
} > $R/checks.txt
echo "checks ok: $(grep -c 'ok (max diff' $R/checks.txt) of $(wc -l < $R/checks.txt)"; grep -v 'ok (max diff' $R/checks.txt | head
common="--filter gaussian --variant tensor_f16 --repeat 1 --no-cpu-single --no-baselines --check --synthetic 1283x719 --overwrite"
for f in gray8 rgba8888; do for s in 2 1.3; do
  timeout 60 $B run --device 1:0 $common --format $f --param sigma=$s --output /tmp/nv-$f-$s.png > /dev/null 2>&1; a=$?
  timeout 60 $B run --device 1:0 $common --format $f --param sigma=$s --tile 40x24 --output /tmp/nvt-$f-$s.png > /dev/null 2>&1; b=$?
  timeout 120 $B run --device cpu $common --format $f --param sigma=$s --output /tmp/cpu-$f-$s.png > /dev/null 2>&1; c=$?
  cmp /tmp/nv-$f-$s.png /tmp/nvt-$f-$s.png && t=same || t=differ
  cmp /tmp/nv-$f-$s.png /tmp/cpu-$f-$s.png && p=same || p=differ
  echo "$f sigma=$s rc $a $b $c; tiled $t; pocl $p" | tee -a $R/exact.txt
done; done
stamp checks
row() { record_time_row "$@" --device 1:0 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --border replicate --check; }
for round in 1 2; do for f in rgba8888 gray8; do
  row "sigma2-tensor_f16-$f" --synthetic 6720x4480 --filter gaussian --param sigma=2 --variant tensor_f16 --format $f
  row "g5-stream-$f" --synthetic 6720x4480 --filter gaussian5x5 --variant stream --format $f
  row "sigma2-tensor_f16-$f--flush-cache" --synthetic 6720x4480 --filter gaussian --param sigma=2 --variant tensor_f16 --format $f --flush-cache
  row "g5-stream-$f--flush-cache" --synthetic 6720x4480 --filter gaussian5x5 --variant stream --format $f --flush-cache
done; done
stamp times
record_copy_sizes 30.1 60.2 120.4 240.8 268.4
cat $R/copy-size.txt
for size in 6720x4480 13440x8960; do
  for rung in "box stream radius=1" "erode stream radius=1" "dilate stream radius=1" "sobel stream output=0" "gaussian5x5 stream -" "box3x3_interior stream -" "median3x3 stream -" "transpose register_blocks -"; do
    read -r fi va pa <<<"$rung"
    p=(); [ "$pa" != "-" ] && p=(--param "$pa")
    row "gray8-$size-$fi-$va" --synthetic $size --filter $fi --variant $va --format gray8 "${p[@]}"
    row "gray8-$size-$fi-$va--flush-cache" --synthetic $size --filter $fi --variant $va --format gray8 "${p[@]}" --flush-cache
  done
done
stamp gray8-sizes
unset FWB_CACHE_DIR
rm -rf /tmp/c2-prep; CUDA_CACHE_DISABLE=1 timeout 200 $B prepare --device 1:0 --filter all --format gray8,rgba8888 --jobs 4 --cache-dir /tmp/c2-prep --json > $R/prepare-4.json 2> $R/prepare-4.err
python3 - $R/prepare-4.json <<'PY' | tee $R/prepare-4.txt
import json, sys
d = json.load(open(sys.argv[1]))
print('wall_s', d.get('wall_s'), 'programs', d.get('programs'), 'built', d.get('built'), 'failed', d.get('failed'), 'build_s_sum', d.get('build_s_sum'))
rs = sorted(d['results'], key=lambda r: -(r.get('build_ms') or 0))
print('over 3 s:', sum(1 for r in rs if (r.get('build_ms') or 0) > 3000))
for r in rs[:40]:
    print('%-18s %-26s %-9s %8.0f' % (r['filter'], r['variant'], r['format'], r.get('build_ms') or 0))
PY
stamp prepare
record_pack
