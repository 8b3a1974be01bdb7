#!/bin/bash
# session 21 call 8 (H100): the sigma<=2 Gaussian's strips_half2 (SS_YHALF2) with its row sums packed to 16-bit
# pairs by one cvt.rn.f16x2.f32 (half2.clh's ss_h2pack) instead of ss_f2h's integer rounding; before (the
# previous commit's kernels/, through --kernel-dir: kernels-before/, not kept) and after, alternated, two
# rounds, flushed and not, sigma 2 and 1.5, both layouts; GPU checks at odd sizes, borders, tiles, zero copy.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c8 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c8; mkdir -p $R
KB="$PWD/docs/data/session21-2026-11-27/c8/kernels-before"
KA="$PWD/kernels"
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --check --json"
ab() { # LABEL DIR FORMAT SIGMA [FLUSH]
  timeout 90 $B run --filter gaussian --param sigma=$4 --variant strips_half2 --format $3 --kernel-dir $2 $5 $D > /tmp/m.json 2>/dev/null
  python3 - /tmp/m.json "$1 sigma=$4 $5" <<'PY' | tee -a $R/ab.tsv
import json, sys
try:
    r = json.load(open(sys.argv[1]))["results"][0]
    print("\t".join([sys.argv[2], r["variant"], r["format"], str(r["local"]), str(r.get("block")), "%.4f" % r["kernel_ms"]["median"], "matches %s" % r.get("matches"), str(r.get("max_abs_diff")), str(r.get("error"))]))
except Exception as e:
    print("failed", sys.argv[2], e)
PY
}
for round in 1 2; do
  for f in gray8 rgba8888; do
    for s in 2 1.5; do ab before $KB $f $s; ab after $KA $f $s; done
    ab before $KB $f 2 --flush-cache; ab after $KA $f 2 --flush-cache
  done
  stamp "round $round"
done
chk() { # format border size extra sigma
  local xa=(); [ "$4" = "-" ] || xa=("$4")
  echo "$* $(timeout 60 $B run --device 1:0 --filter gaussian --param sigma=$5 --variant strips_half2 --format $1 --border $2 --synthetic $3 "${xa[@]}" --check --no-cpu-single --no-baselines --repeat 2 --warmup 0 2>&1 | grep -oE 'ok \(max diff [0-9]+\)|MISMATCH.*|rror.*' | head -1)"
}
{
for sz in 1x1 33x6 203x97 6719x4481; do for x in - --tile=100x37 --transfer=zero_copy; do for fmt in gray8 rgba8888; do
  chk $fmt reflect101 $sz $x 2; chk $fmt constant $sz $x 1.3
done; done; done
} > $R/checks.txt
echo "checks ok: $(grep -c 'ok (max diff [01])' $R/checks.txt) of $(wc -l < $R/checks.txt)"; grep -v 'ok (max diff [01])' $R/checks.txt | head
stamp checks
