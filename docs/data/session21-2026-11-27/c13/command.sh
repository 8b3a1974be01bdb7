#!/bin/bash
# session 21 call 13 (H100; c12 again after the window went straight into floats): the catalogue's new gaussian tiled_half2 (gray8, sigma <= 2) beside strips_half2
# and the best 5x5 (gaussian5x5 stream), two rounds alternated, flushed and not; work-group shapes; GPU checks
# at odd sizes, every border, tiles, zero copy and sigmas 0.5-2.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c13 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c13; mkdir -p $R
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --check --json"
one() { # FILTER VARIANT [more]
  local f=$1 v=$2; shift 2
  timeout 90 $B run --filter $f --variant $v --format gray8 "$@" $D > /tmp/m.json 2>/dev/null
  python3 - /tmp/m.json "$*" <<'PY' | tee -a $R/sigma2.tsv
import json, sys
try:
    r = json.load(open(sys.argv[1]))["results"][0]
    print("\t".join([r["filter"], r["variant"], sys.argv[2] or "-", str(r["local"]), "%.4f" % r["kernel_ms"]["median"], "%.0f GB/s" % r["gbps"], "matches %s" % r.get("matches"), str(r.get("max_abs_diff")), str(r.get("error"))]))
except Exception as e:
    print("failed", sys.argv[2], e)
PY
}
for round in 1 2; do
  for fl in "" --flush-cache; do
    one gaussian strips_half2 --param sigma=2 $fl; one gaussian tiled_half2 --param sigma=2 $fl; one gaussian5x5 stream $fl
  done
done
for loc in 64x1 128x1 256x1 64x2 96x2; do one gaussian tiled_half2 --param sigma=2 --local $loc; done
one gaussian tiled_half2 --param sigma=1; one gaussian strips_half2 --param sigma=1
stamp timing
chk() { # border size extra sigma
  local xa=(); [ "$3" = "-" ] || xa=("$3")
  echo "$* $(timeout 60 $B run --device 1:0 --filter gaussian --param sigma=$4 --variant tiled_half2 --format gray8 --border $1 --synthetic $2 "${xa[@]}" --check --no-cpu-single --no-baselines --repeat 2 --warmup 0 2>&1 | grep -oE 'ok \(max diff [0-9]+\)|MISMATCH.*|rror.*' | head -1)"
}
{
for sz in 1x1 33x6 203x97 6719x4481; do for x in - --tile=100x37 --transfer=zero_copy; do
  chk reflect101 $sz $x 2; chk replicate $sz $x 1.5; chk constant $sz $x 0.7
done; done
} > $R/checks.txt
echo "checks ok: $(grep -c 'ok (max diff [01])' $R/checks.txt) of $(wc -l < $R/checks.txt)"; grep -v 'ok (max diff [01])' $R/checks.txt | head
stamp checks
