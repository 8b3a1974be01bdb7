#!/bin/bash
# session 30 call 4 (issue 27): erode/dilate stream gray8 with 2 rows a work-item instead of 4 (c2's sweep: erode
# 0.0207 against 0.0212-0.0214 ms, one round): three rounds interleaved, usual and L2 flushed, 6720x4480,
# replicate, pinned, median of 20, checked; then GPU checks of the 16x2 block at odd sizes and every border.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c4 -DCUDAToolkit_ROOT=/usr/local/cuda
mkdir -p $R/json
export FWB_CACHE_DIR=/tmp/c4-cache
t() { local label=$1; shift
  timeout 60 $B run --device 1:0 --format gray8 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --border replicate --check --synthetic 6720x4480 --variant stream --param radius=1 "$@" --json > $R/json/6720x4480-$label.json 2>$R/json/$label.err || echo "FAILED $label"
}
for round in 1 2 3; do for fl in "" "--flush-cache"; do fn=${fl:+-flushed}
  for f in erode dilate; do
    t $f$fn-b16x4-r$round --filter $f $fl
    t $f$fn-b16x2-r$round --filter $f --block 16x2 $fl
  done
done; done
record_copy_share $R/json > $R/share.txt
record_rounds_summary $R/share.txt | tee $R/rounds.txt
stamp times
for f in erode dilate; do for b in reflect101 replicate constant; do for sz in 1x1 17x3 33x7 259x37 6719x45; do
  record_gpu_check --filter $f --param radius=1 --variant stream --format gray8 --border $b --synthetic $sz --block 16x2
done; done; done
echo "checks ok: $(wc -l < $R/chk/ok.txt), failed: $(cat $R/chk/fail.txt 2>/dev/null | wc -l)" | tee $R/chk/summary.txt
stamp done
record_pack
