#!/bin/bash
# session 29 call 4 (issue 27): stream3x3.clh's halves (S3_ROW_HALVES: the row pass from the row's pixels two to a
# word, no l/r views) in box, box3x3_interior and Sobel gray8 (on by default on NVIDIA), and in erode/dilate
# (-DS3_VIEWS_BY_WORDS=1 -DMORPH_HALVES=1, trial). Before (kernels-before.tgz: HEAD's kernels through --kernel-dir)
# and after in one run, interleaved, two rounds; 6720x4480 gray8, pinned, replicate, median of 20, --check; L2
# flushed too. Then the GPU checks (odd sizes, every border, three work-groups) and the PTX of everything else.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
STAGE=${1:-time} # time: the timings, PTX and registers (record c4); check: the GPU checks (record c4b)
record_start $([ $STAGE = time ] && echo c4 || echo c4b) -DCUDAToolkit_ROOT=/usr/local/cuda
D=docs/data/session29-2026-11-28/c4
rm -rf /tmp/before && mkdir -p /tmp/before && tar xzf $D/kernels-before.tgz -C /tmp/before
OLD=/tmp/before/kernels
mkdir -p $R/json $R/chk
export FWB_CACHE_DIR=/tmp/c4-cache
t() { # label filter-args...
  local label=$1; shift
  timeout 120 $B run --device 1:0 --format gray8 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --border replicate --check --synthetic 6720x4480 "$@" --json > $R/json/6720x4480-$label.json 2>$R/json/$label.err || echo "FAILED $label"
}
MH="-DS3_VIEWS_BY_WORDS=1 -DMORPH_HALVES=1"
if [ $STAGE = time ]; then
for round in 1 2; do
  for fl in "" "--flush-cache"; do fn=${fl:+-flushed}
    t box$fn-before-r$round --filter box --param radius=1 --variant stream --kernel-dir $OLD $fl
    t box$fn-after-r$round --filter box --param radius=1 --variant stream $fl
    t interior$fn-before-r$round --filter box3x3_interior --variant stream --kernel-dir $OLD $fl
    t interior$fn-after-r$round --filter box3x3_interior --variant stream $fl
    for o in 0 3; do
      t sobel$o$fn-before-r$round --filter sobel --param output=$o --variant stream --kernel-dir $OLD $fl
      t sobel$o$fn-after-r$round --filter sobel --param output=$o --variant stream $fl
    done
    for m in erode dilate; do
      t $m$fn-before-r$round --filter $m --param radius=1 --variant stream --kernel-dir $OLD $fl
      FWB_EXTRA_BUILD_OPTIONS="$MH" t $m$fn-halves-r$round --filter $m --param radius=1 --variant stream $fl
      FWB_EXTRA_BUILD_OPTIONS="-DS3_VIEWS_BY_WORDS=1" t $m$fn-viewsbywords-r$round --filter $m --param radius=1 --variant stream $fl
    done
  done
  for o in 1 2 4; do
    t sobel$o-before-r$round --filter sobel --param output=$o --variant stream --kernel-dir $OLD
    t sobel$o-after-r$round --filter sobel --param output=$o --variant stream
  done
  stamp round$round
done
record_copy_share $R/json > $R/share.txt
python3 - $R/share.txt <<'PY' | tee $R/summary.txt
import re, sys, collections
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) < 3 or p[2] != 'ms': continue
    rows[re.sub(r'-r[12]$', '', p[0].split('-', 1)[1])].append('%s (%s)' % (p[1], p[9] if len(p) > 9 else '?'))
for k in sorted(rows): print('%-34s %s' % (k, '  '.join(rows[k])))
PY
fi
if [ $STAGE = check ]; then
# GPU checks of the changed programs: odd sizes, every border, rows padded (default) and packed (zero_copy), work-groups
for f in "box --param radius=1" "box3x3_interior" "sobel --param output=0" "sobel --param output=1" "sobel --param output=2" "sobel --param output=3" "sobel --param output=4" "erode --param radius=1" "dilate --param radius=1"; do
  opt=""; case "$f" in erode*|dilate*) opt="$MH";; esac
  for b in reflect101 replicate constant; do for sz in 1x1 17x3 31x5 33x7 100x13 259x37 6719x45; do
    for lt in 16x8/pinned 32x4/zero_copy; do l=${lt%/*}; tr=${lt#*/}
      out=$(FWB_EXTRA_BUILD_OPTIONS="$opt" timeout 60 $B run --device 1:0 --filter $f --variant stream --format gray8 --border $b --synthetic $sz --local $l --transfer $tr --repeat 1 --warmup 0 --no-cpu-single --no-baselines --check 2>&1) \
        && echo "ok $f $b $sz $l $tr" >> $R/chk/ok.txt || echo "FAIL $f [$opt] $b $sz $l $tr: $(echo "$out" | grep -iE 'differ|match|error' | head -2)" | tee -a $R/chk/fail.txt
    done
  done; done
done
echo "checks ok: $(wc -l < $R/chk/ok.txt), failed: $(cat $R/chk/fail.txt 2>/dev/null | wc -l)" | tee $R/chk/summary.txt
stamp checks
record_pack
exit 0
fi
# PTX of the programs that must not change: every rgba8888 stream program, gray8 of the families without halves
for f in "box --param radius=1" "box3x3_interior" "sobel" "gaussian5x5" "median3x3" "erode --param radius=1" "dilate --param radius=1"; do
  for fmt in gray8 rgba8888; do
    case "$fmt/${f%% *}" in gray8/box|gray8/box3x3_interior|gray8/sobel) continue;; esac
    for k in new old; do
      rm -rf /tmp/ptx-$k; kd=(); [ $k = old ] && kd=(--kernel-dir $OLD)
      timeout 60 $B run --device 1:0 --filter $f --variant stream --format $fmt --synthetic 64x64 --repeat 1 --no-cpu-single --no-baselines --cache-dir /tmp/ptx-$k "${kd[@]}" > /dev/null 2>&1
      cat /tmp/ptx-$k/* 2>/dev/null | python3 -c "import sys; b=sys.stdin.buffer.read(); i=b.find(b'.version'); sys.stdout.buffer.write(b[i:].split(b'\0')[0])" > /tmp/ptx-$k.txt
    done
    echo "${f%% *} $fmt: $(wc -l < /tmp/ptx-new.txt) lines, $(cmp -s /tmp/ptx-new.txt /tmp/ptx-old.txt && echo identical || echo DIFFERENT)" | tee -a $R/ptx-identity.txt
  done
done
# registers and SASS of box and erode gray8, before and after
for k in before after; do kd=(); [ $k = before ] && kd=(--kernel-dir $OLD)
  for f in "box --param radius=1" "erode --param radius=1"; do n=${f%% *}; opt=""; [ $n = erode ] && [ $k = after ] && opt="$MH"
    rm -rf /tmp/sc; FWB_EXTRA_BUILD_OPTIONS="$opt" timeout 60 $B run --device 1:0 --filter $f --variant stream --border replicate --format gray8 --synthetic 64x64 --repeat 1 --no-cpu-single --no-baselines --cache-dir /tmp/sc "${kd[@]}" > /dev/null 2>&1
    record_sass /tmp/sc $n-$k | tee -a $R/regs.txt
  done
done
stamp done
record_pack
