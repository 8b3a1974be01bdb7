#!/bin/bash
# session 17 call: stream rungs with the ends in vector copies (probe + registers, GPU checks, NPP table); prepare with the median's step shapes
cd "$(dirname "$0")/.."
t0=$(date +%s)
source .bench/setup.sh -DCUDAToolkit_ROOT=/usr/local/cuda
echo "setup $(( $(date +%s) - t0 )) s"; git log -1 --format='%h %s' 2>/dev/null | cut -c1-80
g++ -O2 -std=c++20 .bench/st/st.cpp -o /tmp/st -I/usr/local/cuda/include -lOpenCL || exit 1
K=$PWD/kernels
O="-DCHANNELS=1 -DBORDER=1 -DMORPH_RADIUS=1 -DMORPH_DILATE=0 -DBLOCK_W=16 -DFWB_ONLY_ENTRIES -DFWB_WANT_morph_stream -I$K/shared -I$K/morphology"
SO="-DCHANNELS=1 -DBORDER=1 -DBLOCK_W=16 -DFWB_ONLY_ENTRIES -DFWB_WANT_sobel_stream -I$K/shared -I$K/sobel"
: > /tmp/cfg.txt; : > /tmp/cfgs.txt
for h in 4 8; do echo "wrap_h$h wrap \"$O -DBLOCK_H=$h\" 16 8 $h 16 0" >> /tmp/cfg.txt; echo "sobel_h$h wrap \"$SO -DBLOCK_H=$h\" 16 8 $h 16 -1" >> /tmp/cfgs.txt; done
echo 'copy_r8 copy16 "-DH=8" 32 8 8 16 -1' > /tmp/cfgc.txt; echo 'e_halo3_r4 st16 "-DH=4 -DHALO=3" 16 8 4 16 0' >> /tmp/cfgc.txt
mkdir -p $OUT/ptx
/tmp/st 1 0 .bench/st/st.cl /tmp/cfgc.txt 2>&1 | cut -c1-150
DUMP=$OUT/ptx /tmp/st 1 0 .bench/st/wrap.cl /tmp/cfg.txt 2>&1 | cut -c1-150
DUMP=$OUT/ptx /tmp/st 1 0 .bench/st/wrapsobel.cl /tmp/cfgs.txt 2>&1 | cut -c1-150
(cd $OUT && tar czf ptx.tgz ptx && rm -rf ptx)
export FWB_KERNEL_DIR=$K
B=$PWD/build-dev/filter-bench
# GPU checks of the stream rungs: filters x layouts x borders x sizes x (plain, zero-copy, tiles)
for f in "erode radius=1" "dilate radius=1" "box radius=1" "sobel output=0" "sobel output=2"; do for fmt in gray8 rgba8888; do for b in replicate constant reflect101; do for sz in 17x5 33x6 203x97 6719x4481 6720x4480; do for x in "-" "--transfer=zero_copy" "--tile=512x256"; do echo "$f $fmt $b $sz $x"; done; done; done; done; done > /tmp/cases.txt
check() { set -- $1 $2 $3 $4 $5 $6; ex=$6; [ "$ex" = "-" ] && ex=""; o=$($B run --device 1:0 --filter $1 --variant stream --param $2 --format $3 --border $4 --synthetic $5 $ex --check --no-cpu-single --no-baselines --repeat 2 --warmup 0 --cache-dir /tmp/cc 2>&1); grep -q "ok (max diff 0)" <<<"$o" && echo OK || echo "FAIL $*: $(grep -E 'stream|rror' <<<"$o" | head -2 | cut -c1-160)"; }
export -f check; export B
$B run --device 1:0 --filter erode,dilate,box --variant stream --param radius=1 --format gray8,rgba8888 --synthetic 64x64 --cache-dir /tmp/cc > /dev/null 2>&1
$B run --device 1:0 --filter sobel --variant stream --format gray8,rgba8888 --synthetic 64x64 --cache-dir /tmp/cc > /dev/null 2>&1
cat /tmp/cases.txt | xargs -P 8 -I{} bash -c 'check "{}"' > /tmp/checks.txt
echo "checks: $(grep -c OK /tmp/checks.txt) ok of $(wc -l < /tmp/cases.txt)"; grep FAIL /tmp/checks.txt | head -20
echo "checks $(( $(date +%s) - t0 )) s"
bash scripts/npp-compare.sh $B /tmp/npp --device 1:0 --only 'box|erode|dilate|sobel' > /tmp/npp-log.txt 2>&1
cat /tmp/npp/npp.md
(cd /tmp/npp && tar czf $OUT/npp.tgz *.json npp.md)
echo "npp $(( $(date +%s) - t0 )) s"
unset FWB_KERNEL_DIR
# the whole catalogue prepared on an empty cache, the median's step shapes in (built into this binary)
rm -rf /tmp/pc ~/.nv/ComputeCache
$B prepare --device 1:0 --filter all --format gray8,rgba8888 --jobs 16 --cache-dir /tmp/pc --json > $OUT/prepare.json 2> $OUT/prepare.err
python3 - $OUT/prepare.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print({k: v for k, v in d.items() if not isinstance(v, (list, dict))})
rows = d.get('results') or []
rows = sorted(rows, key=lambda r: -(r.get('build_ms') or 0))
for r in rows[:12]:
    print(r.get('filter'), r.get('variant'), r.get('format'), r.get('build_ms'))
PY
echo "prepare $(( $(date +%s) - t0 )) s"
