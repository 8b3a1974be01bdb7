#!/bin/bash
# session 23 call 4 (H100): gaussian tiled_half2 at sigma 2 as it lands: GT_PC 2 (rgba8888) / 1 (gray8), GT_MANT off
# (c3: 8% faster, but its row sums' roundings break the provable ±1 bound). Before (c3/kb, the landed file), the
# default, and the row tasks' span (GT_SPAN 1, 4), GT_PC the other way, GT_MANT on for reference; two rounds, gray8
# and rgba8888, the best 5x5 beside, flushed; GPU checks of the defaults.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c4 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c4; mkdir -p $R
KB="$PWD/docs/data/session23-2026-11-28/c3/kb"
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --check --json"
val() { python3 -c "
import json,sys
try:
    r=json.load(open(sys.argv[1]))['results'][0]
    print('%.4f' % r['kernel_ms']['median'], 'local=%s' % (r.get('local'),), 'matches=%s' % r.get('matches'), 'maxdiff=%s' % r.get('max_abs_diff'), 'build_ms=%s' % r.get('build_ms'), r.get('error') or '')
except Exception as e: print('failed', e)" "$1"; }
t() { # LABEL CACHE OPTS ARGS...
  local l=$1 c=$2 o=$3; shift 3
  FWB_EXTRA_BUILD_OPTIONS="$o" timeout 120 $B run "$@" $D --cache-dir /tmp/pc-$c > /tmp/t.json 2>/tmp/t.err
  echo "$l [$o] $(val /tmp/t.json)" | tee -a $R/times.tsv
}
G="--filter gaussian --param sigma=2 --variant tiled_half2"
for round in 1 2; do
  for f in rgba8888 gray8; do
    t "before-$f" b-$f "" $G --format $f --kernel-dir $KB
    t "default-$f" d-$f "" $G --format $f
    t "span1-$f" s1-$f "-DGT_SPAN=1" $G --format $f
    t "span4-$f" s4-$f "-DGT_SPAN=4" $G --format $f
    pc=1; [ $f = gray8 ] && pc=2
    t "pc$pc-$f" pc-$f "-DGT_PC=$pc" $G --format $f
    t "mant1-$f" m-$f "-DGT_MANT=1" $G --format $f
  done
  t "5x5-stream-rgba8888" s5 "" --filter gaussian5x5 --variant stream --format rgba8888
  t "5x5-stream-gray8" s5 "" --filter gaussian5x5 --variant stream --format gray8
done
stamp ab
for f in rgba8888 gray8; do
  t "before-$f-flushed" b-$f "" $G --format $f --kernel-dir $KB --flush-cache
  t "default-$f-flushed" d-$f "" $G --format $f --flush-cache
  t "5x5-stream-$f-flushed" s5 "" --filter gaussian5x5 --variant stream --format $f --flush-cache
done
stamp flushed
chk() { # ARGS...
  echo "$* $(timeout 60 $B run --device 1:0 "$@" --check --no-cpu-single --no-baselines --repeat 2 --warmup 0 2>&1 | grep -oE 'ok \(max diff [0-9]+\)|MISMATCH.*|rror.*|navailable.*' | head -1)"
}
{
for sz in 1x1 33x6 203x97 6719x4481; do for b in replicate reflect101 constant; do for f in gray8 rgba8888; do for s in 1 2; do
  chk --filter gaussian --param sigma=$s --variant tiled_half2 --format $f --border $b --synthetic $sz
done; done; done; done
for f in gray8 rgba8888; do chk --filter gaussian --param sigma=2 --variant tiled_half2 --format $f --synthetic 203x97 --transfer zero_copy; chk --filter gaussian --param sigma=2 --variant tiled_half2 --format $f --synthetic 203x97 --tile 64x48; done
} > $R/checks.txt
echo "checks ok: $(grep -c 'ok (max diff [01])' $R/checks.txt) of $(wc -l < $R/checks.txt)"; grep -v 'ok (max diff [01])' $R/checks.txt | head -20
stamp checks
