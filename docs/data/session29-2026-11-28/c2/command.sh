#!/bin/bash
# session 29 call 2 (issue 27): c1 found the shuffle and the rolled forms slower, and -cl-nv-maxrregcount=64/72 3%
# faster on box gray8. Here: the register cap on every stream rung, both layouts, two rounds; the registers and
# SASS of box gray8 at each cap; the PTX of the default form against the tree before s3_load was split.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c2 -DCUDAToolkit_ROOT=/usr/local/cuda
D=docs/data/session29-2026-11-28/c1
mkdir -p $R/json
export FWB_CACHE_DIR=/tmp/c2-cache
t() { # label size format filter-args... ; FWB_EXTRA_BUILD_OPTIONS from the caller
  local label=$1 size=$2 fmt=$3; shift 3
  timeout 120 $B run --device 1:0 --format $fmt --repeat 20 --no-cpu-single --no-baselines --transfer pinned --border replicate --check --synthetic $size "$@" --json > $R/json/$size-$label.json 2>$R/json/$size-$label.err || echo "FAILED $label"
}
for round in 1 2; do
for f in "box --param radius=1" "erode --param radius=1" "dilate --param radius=1" "sobel" "box3x3_interior" "median3x3" "gaussian5x5"; do
  name=${f%% *}
  for fmt in gray8 rgba8888; do
    t $name-$fmt-base-r$round 6720x4480 $fmt --filter $f --variant stream
    for n in 56 64 72; do FWB_EXTRA_BUILD_OPTIONS="-cl-nv-maxrregcount=$n" t $name-$fmt-rreg$n-r$round 6720x4480 $fmt --filter $f --variant stream; done
  done
done
stamp round$round
done
record_copy_share $R/json > $R/share.txt
# registers and SASS: box gray8 at each cap
for o in "" "-cl-nv-maxrregcount=64" "-cl-nv-maxrregcount=72"; do
  n=$(echo "x$o" | tr -c 'a-zA-Z0-9' '_'); rm -rf /tmp/sc-$n
  FWB_EXTRA_BUILD_OPTIONS="$o" timeout 60 $B run --device 1:0 --filter box --variant stream --param radius=1 --border replicate --format gray8 --synthetic 64x64 --repeat 1 --no-cpu-single --no-baselines --cache-dir /tmp/sc-$n > /dev/null 2>&1
  record_sass /tmp/sc-$n box$n box_stream | tee -a $R/regs.txt
done
# the default form's PTX against the tree before the split of s3_load (must be identical)
rm -rf /tmp/oldk && cp -r kernels /tmp/oldk && cp $D/stream3x3-before.clh /tmp/oldk/shared/stream3x3.clh
for f in "box --param radius=1" "sobel" "gaussian5x5" "median3x3" "erode --param radius=1"; do
  for fmt in gray8 rgba8888; do for k in new old; do
    rm -rf /tmp/ptx-$k; kd=(); [ $k = old ] && kd=(--kernel-dir /tmp/oldk)
    timeout 60 $B run --device 1:0 --filter $f --variant stream --format $fmt --synthetic 64x64 --repeat 1 --no-cpu-single --no-baselines --cache-dir /tmp/ptx-$k "${kd[@]}" > /dev/null 2>&1
    cat /tmp/ptx-$k/* 2>/dev/null | python3 -c "import sys; b=sys.stdin.buffer.read(); i=b.find(b'.version'); sys.stdout.buffer.write(b[i:].split(b'\0')[0])" > /tmp/ptx-$k.txt
  done
  echo "${f%% *} $fmt: $(wc -l < /tmp/ptx-new.txt) lines, $(cmp -s /tmp/ptx-new.txt /tmp/ptx-old.txt && echo identical || echo DIFFERENT)" | tee -a $R/ptx-identity.txt
  done
done
stamp done
record_pack
python3 - $R/share.txt <<'PY'
import re, sys, collections
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) < 3 or p[2] != 'ms': continue
    key = re.sub(r'-r[12]$', '', p[0].split('-', 1)[1])
    rows[key].append(float(p[1]))
for k in sorted(rows): print('%-40s %s' % (k, ' '.join('%.4f' % v for v in rows[k])))
PY
