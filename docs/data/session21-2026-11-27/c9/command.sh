#!/bin/bash
# session 21 call 9 (H100): sigma-2 strips_half2 after c8's one-instruction packing: register caps
# (-cl-nv-maxrregcount through FWB_EXTRA_BUILD_OPTIONS) and block shapes, 6720x4480, pinned, checked.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c9 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c9; mkdir -p $R
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --check --json"
one() { # FORMAT EXTRA BLOCK-or-auto
  local blk=(); [ "$3" != auto ] && blk=(--block $3)
  FWB_EXTRA_BUILD_OPTIONS="$2" timeout 90 $B run --filter gaussian --param sigma=2 --variant strips_half2 --format $1 "${blk[@]}" $D > /tmp/m.json 2>/dev/null
  python3 - /tmp/m.json "$2" "$3" <<'PY' | tee -a $R/shapes.tsv
import json, sys
try:
    r = json.load(open(sys.argv[1]))["results"][0]
    print("\t".join([r["format"], sys.argv[2] or "-", "block " + str(r.get("block")), str(r["local"]), "%.4f" % r["kernel_ms"]["median"], "matches %s" % r.get("matches"), str(r.get("error"))]))
except Exception as e:
    print("failed", sys.argv[2], sys.argv[3], e)
PY
}
for cap in "" -cl-nv-maxrregcount=128 -cl-nv-maxrregcount=96 -cl-nv-maxrregcount=80; do one gray8 "$cap" auto; done
for blk in 16x32 16x128 8x64 8x128; do one gray8 "" $blk; done
for cap in "" -cl-nv-maxrregcount=128 -cl-nv-maxrregcount=96; do one rgba8888 "$cap" auto; done
for blk in 4x64 4x16 8x32; do one rgba8888 "" $blk; done
one gray8 "" auto
stamp done
