#!/bin/bash
# session 21 call 3 (H100): median3x3 `stream` with its two refinements on and off (MD_PAIR_ROWS: two output
# rows a step sharing their common rows; S3_VIEWS_BY_WORDS: the l/r views one byte permute per word), two
# rounds, flushed and not; the SASS of the default program (gray8, harness); the rungs whose source moved
# (ps_prmt / mf_prmt -> fwb_prmt in common.clh; stream3x3.clh's new hooks, off for the others) before/after
# through --kernel-dir (kernels-before/: commit 3c1d352's kernels/, not kept), alternated, two rounds.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c3 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c3; mkdir -p $R
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --check --json"
row() { # LABEL (reads /tmp/m.json)
  python3 - /tmp/m.json "$1" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))["results"][0]
    print("\t".join([sys.argv[2], r["filter"], r["variant"], r["format"], str(r["local"]), str(r.get("block")), "%.4f" % r["kernel_ms"]["median"], "%.0f GB/s" % r["gbps"], "matches %s" % r.get("matches"), str(r.get("error"))]))
except Exception as e:
    print("failed", sys.argv[2], e)
PY
}
ms() { # LABEL DEFINES FORMAT [more]
  local l=$1 d=$2 f=$3; shift 3
  FWB_EXTRA_BUILD_OPTIONS="$d" timeout 90 $B run --filter median3x3 --variant stream --format $f "$@" $D > /tmp/m.json 2>/dev/null
  row "$l $*" | tee -a $R/stream.tsv
}
for round in 1 2; do
  for f in gray8 rgba8888; do
    ms base "-DMD_PAIR_ROWS=0 -DS3_VIEWS_BY_WORDS=0" $f
    ms pair "-DS3_VIEWS_BY_WORDS=0" $f
    ms words "-DMD_PAIR_ROWS=0" $f
    ms both "" $f
    ms base "-DMD_PAIR_ROWS=0 -DS3_VIEWS_BY_WORDS=0" $f --flush-cache
    ms both "" $f --flush-cache
  done
done
for loc in 32x4 16x16; do ms both "" gray8 --local $loc; ms both "" rgba8888 --local $loc; done
ms both "" gray8 --block 16x8; ms both "" rgba8888 --block 4x4
stamp stream
g++ -O2 -std=c++20 -I$PWD/.devdeps/sys/usr/include -I/usr/local/cuda/include scripts/stencil-probe/st.cpp -o /tmp/st -lOpenCL -L/usr/local/cuda/lib64 2>&1 | tail -3
K="-DCHANNELS=1 -DBORDER=1 -DMEDIAN_SIZE=3 -DBLOCK_W=16 -DBLOCK_H=4 -DFWB_ONLY_ENTRIES -DFWB_WANT_median_stream -DWRAP_STREAM -I$PWD/kernels/shared -I$PWD/kernels/median"
printf '%s\n' "s_both wrap \"$K\" 16 8 4 16 3" "s_base wrap \"$K -DMD_PAIR_ROWS=0 -DS3_VIEWS_BY_WORDS=0\" 16 8 4 16 3" > /tmp/cfg.txt
mkdir -p /tmp/ptx
DUMP=/tmp/ptx timeout 200 /tmp/st 1 0 scripts/stencil-probe/wrapmedian.cl /tmp/cfg.txt > $R/st.txt 2>&1; cat $R/st.txt
for p in s_both s_base; do
  tr -d '\0' < /tmp/ptx/$p.ptx > /tmp/$p.ptx
  /usr/local/cuda/bin/ptxas -arch=sm_90 -v /tmp/$p.ptx -o /tmp/$p.cubin > $R/$p.ptxas.txt 2>&1
  /usr/local/cuda/bin/cuobjdump -sass /tmp/$p.cubin > /tmp/$p.sass
  grep -oE '^\s+/\*[0-9a-f]{4}\*/\s+(@!?U?P[0-9T] )?[A-Z0-9_.]+' /tmp/$p.sass | awk '{print $NF}' | sed 's/\..*//' | sort | uniq -c | sort -rn > $R/$p.opcodes.txt
  gzip -c /tmp/$p.sass > $R/$p.sass.gz
  echo "$p: $(grep -E 'registers' $R/$p.ptxas.txt | tail -1)"; head -8 $R/$p.opcodes.txt
done
stamp harness
KB="$PWD/docs/data/session21-2026-11-27/c3/kernels-before"
KA="$PWD/kernels"
ab() { # LABEL DIR FILTER VARIANT FORMAT [PARAM]
  local pa=(); [ -n "$6" ] && pa=(--param "$6")
  timeout 90 $B run --filter $3 --variant $4 --format $5 "${pa[@]}" --kernel-dir $2 $D > /tmp/m.json 2>/dev/null
  row "$1" | tee -a $R/before-after.tsv
}
for round in 1 2; do
  for spec in "erode packed gray8 radius=1" "box packed gray8 radius=1" "median3x3 forgetful_u16x2_ptx gray8" "median3x3 forgetful_u16x2_ptx rgba8888" "median5x5 forgetful_u16x2_ptx gray8" "median5x5 forgetful_u16x2_ptx rgba8888" "erode stream gray8 radius=1" "gaussian5x5 stream rgba8888"; do
    set -- $spec
    ab before $KB $1 $2 $3 $4
    ab after $KA $1 $2 $3 $4
  done
  stamp "round $round"
done
chk() { # format border size extra
  local xa=(); [ "$4" = "-" ] || xa=("$4")
  echo "$* $(timeout 60 $B run --device 1:0 --filter median3x3 --variant stream --format $1 --border $2 --synthetic $3 "${xa[@]}" --check --no-cpu-single --no-baselines --repeat 2 --warmup 0 2>&1 | grep -oE 'ok \(max diff [0-9]+\)|MISMATCH.*|rror.*' | head -1)"
}
{
for sz in 1x1 33x6 203x97 6719x4481; do for x in - --tile=100x37; do for fmt in gray8 rgba8888; do
  for b in replicate reflect101 constant; do chk $fmt $b $sz $x; done
done; done; done
} > $R/checks.txt
echo "checks ok: $(grep -c 'ok (max diff 0)' $R/checks.txt) of $(wc -l < $R/checks.txt)"; grep -v 'ok (max diff 0)' $R/checks.txt | head
stamp checks
