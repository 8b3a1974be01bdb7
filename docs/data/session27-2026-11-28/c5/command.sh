#!/bin/bash
# session 27 call 5 (H200): the rungs whose PoCL loops were rolled this session (gaussian tiled_half2's column rows,
# the 16-bit float strips' rows: gaussian strips_half2, gaussian5x5 strips_half2) keep NVIDIA's source: checked and
# timed beside the kernels before those changes (rolled.patch undone in a copy, --kernel-dir), alternating, two rounds.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c5 -DCUDAToolkit_ROOT=/usr/local/cuda
rm -rf /tmp/kold && mkdir -p /tmp/kold && cp -r kernels /tmp/kold/ && patch -s -R -p1 -d /tmp/kold < docs/data/session27-2026-11-28/c5/rolled.patch && echo "old kernels ready"
row() { # label kernel-dir run-args...
  local label=$1 kd=$2; shift 2
  record_time_row "$label" --device 1:0 --synthetic 6720x4480 --border replicate --repeat 20 --no-cpu-single --no-baselines --transfer pinned --check ${kd:+--kernel-dir $kd} "$@"
}
for round in 1 2; do for f in rgba8888 gray8; do
  row "tiled_half2-$f-new" "" --filter gaussian --variant tiled_half2 --param sigma=2 --format $f
  row "tiled_half2-$f-old" /tmp/kold/kernels --filter gaussian --variant tiled_half2 --param sigma=2 --format $f
  row "strips_half2-$f-new" "" --filter gaussian --variant strips_half2 --param sigma=2 --format $f
  row "strips_half2-$f-old" /tmp/kold/kernels --filter gaussian --variant strips_half2 --param sigma=2 --format $f
  row "g5-strips_half2-$f-new" "" --filter gaussian5x5 --variant strips_half2 --format $f
  row "g5-strips_half2-$f-old" /tmp/kold/kernels --filter gaussian5x5 --variant strips_half2 --format $f
done; done
stamp times
record_pack
