#!/bin/bash
# session 24 call 1 (H200): Sobel's 16-bit signed outputs (3 = gx, 4 = gy, gray8), what NPP writes, beside NPP in
# one command (scripts/npp-compare.sh, usual and L2-flushed, two rounds); GPU checks of every variant at outputs 3
# and 4; and that the stream3x3.clh / sobel.cl change leaves the other programs as they were: the PTX of each
# stream rung and of Sobel's 8-bit outputs before (kb: the files as the session found them) and after, compared.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c1 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c1; mkdir -p $R
KB="$PWD/docs/data/session24-2026-11-28/c1/kb"
grep -E "NPP|npp" $OUT/cmake.txt | head -3 > $R/npp-found.txt
# 1. PTX before/after (comments stripped), and the kernel time of each for the record.
ptx() { python3 - "$1" <<'PY'
import sys, glob, hashlib, re
for e in sorted(glob.glob(sys.argv[1] + '/*')):
    b = open(e, 'rb').read()
    i = b.find(b'.version')
    if i < 0: continue
    j = b.find(b'\0', i)
    t = b[i:j if j > 0 else len(b)].decode('latin1')
    t = '\n'.join(l for l in t.splitlines() if not l.strip().startswith('//'))
    print(hashlib.md5(t.encode()).hexdigest(), len(t))
PY
}
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --check --json"
n=0
for row in "sobel stream output=0" "sobel stream output=2" "sobel strips output=0" "sobel naive output=0" \
           "gaussian5x5 stream -" "box stream radius=1" "erode stream radius=1" "box3x3_interior stream -" "median3x3 stream -"; do
  read -r f v p <<<"$row"; pa=(); [ "$p" != - ] && pa=(--param $p)
  for fmt in gray8 rgba8888; do
    n=$((n+1))
    rm -rf /tmp/pb-$n /tmp/pa-$n
    record_time_row "before $f $v $p $fmt" $D --filter $f --variant $v --format $fmt "${pa[@]}" --kernel-dir $KB --cache-dir /tmp/pb-$n
    record_time_row "after  $f $v $p $fmt" $D --filter $f --variant $v --format $fmt "${pa[@]}" --cache-dir /tmp/pa-$n
    b=$(ptx /tmp/pb-$n); a=$(ptx /tmp/pa-$n)
    echo "$f $v $p $fmt: $([ "$a" = "$b" ] && echo "PTX identical ($a)" || echo "PTX DIFFERS: before $b after $a")" | tee -a $R/ptx-identity.txt
  done
done
stamp ptx
# 2. The 16-bit outputs beside NPP, both rounds usual then flushed; output 0 (8-bit |gx|) beside for the ratio.
for round in 1 2; do
  scripts/npp-compare.sh $B $R/npp-r$round --device 1:0 --only 'sobel' > $R/npp-r$round.txt 2>&1
  scripts/npp-compare.sh $B $R/npp-flushed-r$round --device 1:0 --only 'sobel' --flush > $R/npp-flushed-r$round.txt 2>&1
done
cat $R/npp-r1/npp.md
stamp npp
# 3. GPU checks: every variant at outputs 3 and 4, every border, odd sizes, rows padded (pinned) and packed (zero copy).
chk() { echo "$* $(timeout 60 $B run --device 1:0 "$@" --check --no-cpu-single --no-baselines --repeat 2 --warmup 0 2>&1 | grep -oE 'ok \(max diff [0-9]+\)|MISMATCH.*|rror.*|navailable.*' | head -1)"; }
{
for v in naive local_tiled separable strips stream; do for o in 3 4; do for b in replicate reflect101 constant; do
  for sz in 1x1 17x3 203x97 6719x4481; do chk --filter sobel --variant $v --param output=$o --format gray8 --border $b --synthetic $sz; done
  chk --filter sobel --variant $v --param output=$o --format gray8 --border $b --synthetic 203x97 --transfer zero_copy
  chk --filter sobel --variant $v --param output=$o --format gray8 --border $b --synthetic 203x97 --transfer pinned
done; done; done
} > $R/checks.txt
echo "checks ok: $(grep -c 'ok (max diff 0)' $R/checks.txt) of $(wc -l < $R/checks.txt)"; grep -v 'ok (max diff 0)' $R/checks.txt | head -20
stamp checks
tar -C $R -czf $OUT/c1.tgz . && ls -la $OUT
