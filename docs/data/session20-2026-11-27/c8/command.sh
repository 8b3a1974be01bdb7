#!/bin/bash
# session 20 call 8 (H100): the sigma-2 Gaussian's new strips_half2 (the column pass on 16-bit pairs)
# beside strips, block shapes and row unrolls, with and without the cache flushed; GPU checks at odd sizes.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c8 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c8; mkdir -p $R
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --check --json"
one() { # VARIANT FORMAT UNROLL BLOCK-or-auto FLUSH
  local opt=""; [ "$3" != full ] && opt="-DSS_ROW_UNROLL=$3"
  local blk=(); [ "$4" != auto ] && blk=(--block $4)
  FWB_EXTRA_BUILD_OPTIONS="$opt" timeout 60 $B run --filter gaussian --param sigma=2 --variant $1 --format $2 "${blk[@]}" $5 $D > /tmp/g.json 2>/dev/null
  python3 - /tmp/g.json "$3" "$4" "$5" <<'PY' | tee -a $R/sigma2.tsv
import json, sys
try:
    r = json.load(open(sys.argv[1]))["results"][0]
    print("\t".join([r["variant"], r["format"], "unroll " + sys.argv[2], "block " + sys.argv[3], sys.argv[4] or "-", str(r["local"]), "%.4f" % r["kernel_ms"]["median"], "matches %s" % r.get("matches"), str(r.get("max_abs_diff")), str(r.get("error"))]))
except Exception as e:
    print("failed", sys.argv[2], sys.argv[3], e)
PY
}
for f in gray8 rgba8888; do
  one strips $f full auto
  for u in full 2; do one strips_half2 $f $u auto; done
done
for blk in 16x16 16x64 32x32 8x32; do one strips_half2 gray8 full $blk; done
for blk in 4x16 4x64 8x32 2x32; do one strips_half2 rgba8888 full $blk; done
for f in gray8 rgba8888; do one strips $f full auto --flush-cache; one strips_half2 $f full auto --flush-cache; done
stamp sigma2
chk() { # format border size transfer-or-dash sigma
  local xa=(); [ "$4" = "-" ] || xa=("$4")
  echo "$* $(timeout 60 $B run --device 1:0 --filter gaussian --param sigma=$5 --variant strips_half2 --format $1 --border $2 --synthetic $3 "${xa[@]}" --check --no-cpu-single --no-baselines --repeat 2 --warmup 0 2>&1 | grep -oE 'ok \(max diff [0-9]+\)' | head -1)"
}
{
for sz in 1x1 33x6 35x9 203x97 6719x4481; do for x in - --transfer=zero_copy --tile=512x256; do for fmt in gray8 rgba8888; do
  chk $fmt reflect101 $sz $x 2; chk $fmt constant $sz $x 1.3
done; done; done
} > $R/checks.txt
echo "checks ok: $(grep -c 'ok (max' $R/checks.txt) of $(wc -l < $R/checks.txt)"; grep -v 'ok (max' $R/checks.txt | head
stamp checks
