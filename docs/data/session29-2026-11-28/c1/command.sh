#!/bin/bash
# session 29 call 1 (issue 27): the gray8 streaming rungs' time beyond their loads (session 28's c2: box stream
# 59% of copy, its loads alone 75%). Three forms of stream3x3.clh, each through FWB_EXTRA_BUILD_OPTIONS:
#   -DS3_SHFL=1      the neighbours' words by warp shuffle instead of two more 16-byte loads a row;
#   -DS3_UNROLL_ROWS=0 -DS3_PREFETCH=P   the rows in one rolled loop (as on CPUs), each row's loads issued P rows
#                    ahead, at taller blocks (fewer halo rows, fewer registers, more warps);
#   -cl-nv-maxrregcount=N   the unrolled form held to N registers (more warps resident).
# 6720x4480 gray8, pinned, replicate, median of 20, --check; the before-tree's PTX compared with this one's default.
# Two runs: `command.sh time` (record c1), then `command.sh check` (record c1b: the shuffle's checks, PTX, registers).
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
STAGE=${1:-time}
record_start $([ $STAGE = time ] && echo c1 || echo c1b) -DCUDAToolkit_ROOT=/usr/local/cuda
D=docs/data/session29-2026-11-28/c1
mkdir -p $R/json $R/chk
export FWB_CACHE_DIR=/tmp/c1-cache
common=(--device 1:0 --format gray8 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --border replicate --check --synthetic 6720x4480)
t() { # label filter-args... ; FWB_EXTRA_BUILD_OPTIONS from the caller
  local label=$1; shift
  timeout 120 $B run "${common[@]}" "$@" --json > $R/json/6720x4480-$label.json 2>$R/json/$label.err || echo "FAILED $label"
}
BOX=(--filter box --variant stream --param radius=1)
if [ $STAGE = time ]; then
# box: every form
t box-base "${BOX[@]}"
for h in 2 4 8; do FWB_EXTRA_BUILD_OPTIONS="-DS3_SHFL=1" t box-shfl-16x$h "${BOX[@]}" --block 16x$h; done
for n in 64 72 80; do FWB_EXTRA_BUILD_OPTIONS="-cl-nv-maxrregcount=$n" t box-rreg$n "${BOX[@]}"; done
for p in 0 1 2 4; do for h in 8 16 32; do
  FWB_EXTRA_BUILD_OPTIONS="-DS3_UNROLL_ROWS=0 -DBOX_SWAR=1 -DS3_PREFETCH=$p" t box-roll-p$p-16x$h "${BOX[@]}" --block 16x$h
  FWB_EXTRA_BUILD_OPTIONS="-DS3_UNROLL_ROWS=0 -DBOX_SWAR=1 -DS3_PREFETCH=$p -DS3_SHFL=1" t box-rollshfl-p$p-16x$h "${BOX[@]}" --block 16x$h
done; done
for h in 16 32; do FWB_EXTRA_BUILD_OPTIONS="-DS3_UNROLL_ROWS=0 -DBOX_SWAR=1 -DS3_PREFETCH=2 -DS3_SHFL=1" t box-rollshfl-p2-16x$h-l32x4 "${BOX[@]}" --block 16x$h --local 32x4; done
stamp box
# the other gray8 stream rungs: default, shuffle, rolled with prefetch
for f in "erode --param radius=1" "dilate --param radius=1" "sobel" "box3x3_interior" "median3x3" "gaussian5x5"; do
  set -- $f; name=$1
  t $name-base --filter $f --variant stream
  [ $name = gaussian5x5 ] || FWB_EXTRA_BUILD_OPTIONS="-DS3_SHFL=1" t $name-shfl --filter $f --variant stream
  for h in 8 16 32; do
    FWB_EXTRA_BUILD_OPTIONS="-DS3_UNROLL_ROWS=0 -DS3_PREFETCH=2" t $name-roll-p2-16x$h --filter $f --variant stream --block 16x$h
    [ $name = gaussian5x5 ] || FWB_EXTRA_BUILD_OPTIONS="-DS3_UNROLL_ROWS=0 -DS3_PREFETCH=2 -DS3_SHFL=1" t $name-rollshfl-p2-16x$h --filter $f --variant stream --block 16x$h
  done
done
stamp others
record_copy_share $R/json | tee $R/share.txt
record_pack
exit 0
fi
# the shuffle's correctness where lanes meet other paths: odd sizes, every border, both layouts, three work-groups
for f in "box --param radius=1" "erode --param radius=1" "sobel" "box3x3_interior" "median3x3"; do
  for opt in "-DS3_SHFL=1" "-DS3_UNROLL_ROWS=0 -DS3_PREFETCH=2 -DS3_SHFL=1"; do
  for fmt in gray8 rgba8888; do for b in reflect101 replicate constant; do for sz in 33x7 1000x13 6719x45; do
    for l in 16x8 $([ "${f%% *}" = box ] && echo 32x4 8x16); do
      out=$(FWB_EXTRA_BUILD_OPTIONS="$opt" timeout 60 $B run --device 1:0 --filter $f --variant stream --format $fmt --border $b --synthetic $sz --local $l --repeat 1 --warmup 0 --no-cpu-single --no-baselines --check 2>&1) \
        && echo "ok $f [$opt] $fmt $b $sz $l" >> $R/chk/ok.txt || echo "FAIL $f [$opt] $fmt $b $sz $l: $(echo "$out" | grep -i -E 'differ|match|error' | head -2)" | tee -a $R/chk/fail.txt
    done
  done; done; done; done; done
echo "checks ok: $(wc -l < $R/chk/ok.txt), failed: $(cat $R/chk/fail.txt 2>/dev/null | wc -l)" | tee $R/chk/summary.txt
stamp checks
# the default form's PTX against the tree before the split of s3_load (must be identical)
rm -rf /tmp/oldk && cp -r kernels /tmp/oldk && cp $D/stream3x3-before.clh /tmp/oldk/shared/stream3x3.clh
for f in "box --param radius=1" "sobel" "gaussian5x5" "median3x3"; do set -- $f
  for fmt in gray8 rgba8888; do for k in new old; do
    rm -rf /tmp/ptx-$k; kd=(); [ $k = old ] && kd=(--kernel-dir /tmp/oldk)
    timeout 60 $B run --device 1:0 --filter $f --variant stream --format $fmt --synthetic 64x64 --repeat 1 --no-cpu-single --no-baselines --cache-dir /tmp/ptx-$k "${kd[@]}" > /dev/null 2>&1
    cat /tmp/ptx-$k/* 2>/dev/null | python3 -c "import sys; b=sys.stdin.buffer.read(); i=b.find(b'.version'); sys.stdout.buffer.write(b[i:].split(b'\0')[0])" > /tmp/ptx-$k.txt
  done
  echo "$1 $fmt: $(wc -l < /tmp/ptx-new.txt) lines, $(cmp -s /tmp/ptx-new.txt /tmp/ptx-old.txt && echo identical || echo DIFFERENT)" | tee -a $R/ptx-identity.txt
  done
done
# registers of the forms (box gray8)
for o in "" "-DS3_SHFL=1" "-DS3_UNROLL_ROWS=0 -DBOX_SWAR=1 -DS3_PREFETCH=2" "-DS3_UNROLL_ROWS=0 -DBOX_SWAR=1 -DS3_PREFETCH=2 -DS3_SHFL=1"; do
  n=$(echo "x$o" | tr -c 'a-zA-Z0-9' '_'); rm -rf /tmp/sc-$n
  FWB_EXTRA_BUILD_OPTIONS="$o" timeout 60 $B run --device 1:0 "${BOX[@]}" --format gray8 --synthetic 64x64 --block 16x16 --repeat 1 --no-cpu-single --no-baselines --cache-dir /tmp/sc-$n > /dev/null 2>&1
  record_sass /tmp/sc-$n box$n box_stream | tee -a $R/regs.txt
done
stamp done
record_pack
