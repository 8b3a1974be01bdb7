#!/bin/bash
# session 29 call 5 (issue 27): the halves as landed (box, box3x3_interior, Sobel outputs 0-2, erode/dilate and
# median3x3, gray8 on NVIDIA): median3x3 before/after (c4's kernels-before.tgz through --kernel-dir), two rounds;
# every stream rung beside NPP (scripts/npp-compare.sh, usual and L2 flushed); the PTX of the programs that must
# not change; the GPU checks of the changed ones (odd sizes, every border, rows padded and packed, two work-groups).
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c5 -DCUDAToolkit_ROOT=/usr/local/cuda
OLD=/tmp/before/kernels
rm -rf /tmp/before && mkdir -p /tmp/before && tar xzf docs/data/session29-2026-11-28/c4/kernels-before.tgz -C /tmp/before
mkdir -p $R/json $R/chk
export FWB_CACHE_DIR=/tmp/c5-cache
t() { local label=$1; shift
  timeout 120 $B run --device 1:0 --format gray8 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --border replicate --check --synthetic 6720x4480 "$@" --json > $R/json/6720x4480-$label.json 2>$R/json/$label.err || echo "FAILED $label"
}
for round in 1 2; do for fl in "" "--flush-cache"; do fn=${fl:+-flushed}
  t median3x3$fn-before-r$round --filter median3x3 --variant stream --kernel-dir $OLD $fl
  t median3x3$fn-after-r$round --filter median3x3 --variant stream $fl
  t median3x3-ptx$fn-r$round --filter median3x3 --variant forgetful_u16x2_ptx $fl
done; done
record_copy_share $R/json > $R/share.txt; cat $R/share.txt
stamp median
scripts/npp-compare.sh $B $R/npp --device 1:0 --only 'stream' > $R/npp-log.txt 2>&1
scripts/npp-compare.sh $B $R/npp-flush --device 1:0 --only 'stream' --flush > $R/npp-flush-log.txt 2>&1
cat $R/npp/npp.md $R/npp-flush/npp.md
stamp npp
for f in "sobel --param output=3" "sobel --param output=4" "box --param radius=1" "box3x3_interior" "sobel --param output=0" "erode --param radius=1" "dilate --param radius=1" "median3x3" "gaussian5x5"; do
  for fmt in gray8 rgba8888; do
    case "$fmt/$f" in gray8/box*|gray8/sobel*output=0|gray8/erode*|gray8/dilate*|gray8/median3x3) continue;; rgba8888/sobel*output=[34]) continue;; esac
    for k in new old; do
      rm -rf /tmp/ptx-$k; kd=(); [ $k = old ] && kd=(--kernel-dir $OLD)
      timeout 60 $B run --device 1:0 --filter $f --variant stream --format $fmt --synthetic 64x64 --repeat 1 --no-cpu-single --no-baselines --cache-dir /tmp/ptx-$k "${kd[@]}" > /dev/null 2>&1
      cat /tmp/ptx-$k/* 2>/dev/null | python3 -c "import sys; b=sys.stdin.buffer.read(); i=b.find(b'.version'); sys.stdout.buffer.write(b[i:].split(b'\0')[0])" > /tmp/ptx-$k.txt
    done
    echo "$f $fmt: $(wc -l < /tmp/ptx-new.txt) lines, $(cmp -s /tmp/ptx-new.txt /tmp/ptx-old.txt && echo identical || echo DIFFERENT)" | tee -a $R/ptx-identity.txt
  done
done
stamp ptx
for f in "box --param radius=1" "box3x3_interior" "sobel --param output=0" "sobel --param output=1" "sobel --param output=2" "erode --param radius=1" "dilate --param radius=1" "median3x3"; do
  for b in reflect101 replicate constant; do for sz in 1x1 17x3 33x7 259x37 6719x45; do
    for lt in 16x8/pinned 32x4/zero_copy; do l=${lt%/*}; tr=${lt#*/}
      out=$(timeout 60 $B run --device 1:0 --filter $f --variant stream --format gray8 --border $b --synthetic $sz --local $l --transfer $tr --repeat 1 --warmup 0 --no-cpu-single --no-baselines --check 2>&1) \
        && echo "ok $f $b $sz $l $tr" >> $R/chk/ok.txt || echo "FAIL $f $b $sz $l $tr: $(echo "$out" | grep -iE 'differ|match|error' | head -2)" | tee -a $R/chk/fail.txt
    done
  done; done
done
echo "checks ok: $(wc -l < $R/chk/ok.txt), failed: $(cat $R/chk/fail.txt 2>/dev/null | wc -l)" | tee $R/chk/summary.txt
stamp done
record_pack
