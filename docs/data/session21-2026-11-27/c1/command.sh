#!/bin/bash
# session 21 call 1 (H100): why median3x3 gray8 (forgetful_u16x2_ptx) runs at 36% of the copy speed.
# (1) the issue rate of the min/max forms a byte median can use (scripts/tools/minmax-rate.py, CuPy, inline PTX);
# (2) the rung's program as the harness builds it (scripts/stencil-probe, op 3 = median 3x3, replicate), with
#     min.u16x2 (as catalogued) and with min.f16x2 (-DMF_F16_MINMAX=1: the halves 0..255 read as subnormal
#     halves, ordered as the integers), on one buffer pair and rotated over 8 (DRAM-bound), checked against a
#     CPU median; registers (ptxas -v) and the SASS opcode mix of each;
# (3) filter-bench: the catalogue's rung with and without -DMF_F16_MINMAX=1, two rounds alternated, flushed and not.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c1 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c1; mkdir -p $R
timeout 120 python3 scripts/tools/minmax-rate.py > $R/minmax-rate.txt 2>&1; cat $R/minmax-rate.txt
stamp minmax
g++ -O2 -std=c++20 -I$PWD/.devdeps/sys/usr/include -I/usr/local/cuda/include scripts/stencil-probe/st.cpp -o /tmp/st -lOpenCL -L/usr/local/cuda/lib64 2>&1 | tail -3
K="-DCHANNELS=1 -DBORDER=1 -DMEDIAN_SIZE=3 -DBLOCK_H=8 -DMEDIAN_PACKED=2 -DFWB_ONLY_ENTRIES -DFWB_WANT_median_forgetful -I$PWD/kernels/shared -I$PWD/kernels/median"
: > /tmp/cfg.txt
for mm in u16 f16; do
  o="$K -DBLOCK_W=32"; [ $mm = f16 ] && o="$o -DMF_F16_MINMAX=1"
  for l in "16 8" "32 4" "64 2" "32 8"; do echo "m_${mm}_${l/ /x} wrap \"$o\" $l 8 32 3" >> /tmp/cfg.txt; done
done
mkdir -p $R/ptx
DUMP=$R/ptx timeout 200 /tmp/st 1 0 scripts/stencil-probe/wrapmedian.cl /tmp/cfg.txt > $R/st.txt 2>&1; cat $R/st.txt
for p in m_u16_16x8 m_f16_16x8; do
  tr -d '\0' < $R/ptx/$p.ptx > /tmp/$p.ptx
  /usr/local/cuda/bin/ptxas -arch=sm_90 -v /tmp/$p.ptx -o /tmp/$p.cubin > $R/$p.ptxas.txt 2>&1
  /usr/local/cuda/bin/cuobjdump -sass /tmp/$p.cubin > /tmp/$p.sass
  grep -oE '^\s+/\*[0-9a-f]{4}\*/\s+(@!?U?P[0-9T] )?[A-Z0-9_.]+' /tmp/$p.sass | awk '{print $NF}' | sed 's/\..*//' | sort | uniq -c | sort -rn > $R/$p.opcodes.txt
  echo "$p: $(grep -E 'registers' $R/$p.ptxas.txt)"; head -14 $R/$p.opcodes.txt
done
rm -f $R/ptx/*.ptx; rmdir $R/ptx
stamp harness
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --check --json"
one() { # LABEL EXTRA-DEFINES FLUSH
  FWB_EXTRA_BUILD_OPTIONS="$2" timeout 90 $B run --filter median3x3 --variant forgetful_u16x2_ptx --format gray8 $3 $D > /tmp/m.json 2>/dev/null
  python3 - /tmp/m.json "$1" "$3" <<'PY' | tee -a $R/median3.tsv
import json, sys
try:
    r = json.load(open(sys.argv[1]))["results"][0]
    print("\t".join([sys.argv[2], sys.argv[3] or "-", str(r["local"]), "%.4f" % r["kernel_ms"]["median"], "matches %s" % r.get("matches"), str(r.get("error"))]))
except Exception as e:
    print("failed", sys.argv[2], e)
PY
}
for round in 1 2; do
  for fl in "" --flush-cache; do one u16 "" $fl; one f16 "-DMF_F16_MINMAX=1" $fl; done
done
stamp filter-bench
