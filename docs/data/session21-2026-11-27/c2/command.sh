#!/bin/bash
# session 21 call 2 (H100): median3x3's new `stream` rung (kernels/median/median_stream.clh) beside
# forgetful_u16x2_ptx, both layouts, flushed and not, two rounds alternated; block heights and work-groups;
# registers and SASS opcode mix (stencil-probe harness, gray8); cold build; GPU checks at odd sizes, borders,
# tiles and zero copy.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c2 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c2; mkdir -p $R
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --check --json"
one() { # VARIANT FORMAT FLUSH [more options]
  local v=$1 f=$2 fl=$3; shift 3
  timeout 90 $B run --filter median3x3 --variant $v --format $f $fl "$@" $D > /tmp/m.json 2>/dev/null
  python3 - /tmp/m.json "$fl" "$*" <<'PY' | tee -a $R/median3.tsv
import json, sys
try:
    r = json.load(open(sys.argv[1]))["results"][0]
    print("\t".join([r["variant"], r["format"], sys.argv[2] or "-", sys.argv[3] or "-", str(r["local"]), "%.4f" % r["kernel_ms"]["median"], "%.0f GB/s" % r["gbps"], "matches %s" % r.get("matches"), str(r.get("error"))]))
except Exception as e:
    print("failed", sys.argv[2], e)
PY
}
for round in 1 2; do
  for f in gray8 rgba8888; do
    for fl in "" --flush-cache; do one forgetful_u16x2_ptx $f "$fl"; one stream $f "$fl"; done
  done
done
for blk in 16x8 16x2 16x16; do one stream gray8 "" --block $blk; done
for blk in 4x8 4x2; do one stream rgba8888 "" --block $blk; done
for loc in 32x4 64x2 16x16 32x8; do one stream gray8 "" --local $loc; one stream rgba8888 "" --local $loc; done
stamp timing
g++ -O2 -std=c++20 -I$PWD/.devdeps/sys/usr/include -I/usr/local/cuda/include scripts/stencil-probe/st.cpp -o /tmp/st -lOpenCL -L/usr/local/cuda/lib64 2>&1 | tail -3
K="-DCHANNELS=1 -DBORDER=1 -DMEDIAN_SIZE=3 -DBLOCK_W=16 -DFWB_ONLY_ENTRIES -DFWB_WANT_median_stream -DWRAP_STREAM -I$PWD/kernels/shared -I$PWD/kernels/median"
printf '%s\n' "s_h4 wrap \"$K -DBLOCK_H=4\" 16 8 4 16 3" "s_h8 wrap \"$K -DBLOCK_H=8\" 16 8 8 16 3" > /tmp/cfg.txt
mkdir -p /tmp/ptx
DUMP=/tmp/ptx timeout 200 /tmp/st 1 0 scripts/stencil-probe/wrapmedian.cl /tmp/cfg.txt > $R/st.txt 2>&1; cat $R/st.txt
for p in s_h4; do
  tr -d '\0' < /tmp/ptx/$p.ptx > /tmp/$p.ptx
  /usr/local/cuda/bin/ptxas -arch=sm_90 -v /tmp/$p.ptx -o /tmp/$p.cubin > $R/$p.ptxas.txt 2>&1
  /usr/local/cuda/bin/cuobjdump -sass /tmp/$p.cubin > /tmp/$p.sass
  grep -oE '^\s+/\*[0-9a-f]{4}\*/\s+(@!?U?P[0-9T] )?[A-Z0-9_.]+' /tmp/$p.sass | awk '{print $NF}' | sed 's/\..*//' | sort | uniq -c | sort -rn > $R/$p.opcodes.txt
  echo "$p: $(grep -E 'registers' $R/$p.ptxas.txt)"; head -14 $R/$p.opcodes.txt
done
stamp harness
for f in gray8 rgba8888; do
  rm -rf /tmp/cc; export CUDA_CACHE_PATH=/tmp/cc
  timeout 120 $B run --filter median3x3 --variant stream --format $f --synthetic 64x48 --repeat 1 --no-cpu-single --no-baselines --device 1:0 --cache-dir - --json 2>/dev/null | python3 -c "import json,sys; r=json.load(sys.stdin)['results'][0]; print('cold build', r['variant'], '$f', r['build_ms'], r['build_origin'])" | tee -a $R/build.txt
done
unset CUDA_CACHE_PATH
stamp build
chk() { # format border size extra
  local xa=(); [ "$4" = "-" ] || xa=("$4")
  echo "$* $(timeout 60 $B run --device 1:0 --filter median3x3 --variant stream --format $1 --border $2 --synthetic $3 "${xa[@]}" --check --no-cpu-single --no-baselines --repeat 2 --warmup 0 2>&1 | grep -oE 'ok \(max diff [0-9]+\)|MISMATCH.*|rror.*' | head -1)"
}
{
for sz in 1x1 5x3 17x9 33x6 35x9 203x97 6719x4481; do for x in - --transfer=zero_copy --tile=512x256 --tile=100x37; do for fmt in gray8 rgba8888; do
  for b in replicate reflect101 constant; do chk $fmt $b $sz $x; done
done; done; done
} > $R/checks.txt
echo "checks ok: $(grep -c 'ok (max diff 0)' $R/checks.txt) of $(wc -l < $R/checks.txt)"; grep -v 'ok (max diff 0)' $R/checks.txt | head
stamp checks
