#!/bin/bash
# device call 3: stream rungs with the edge path rolled; registers; NPP beside; harness reference
cd "$(dirname "$0")/../.."
source .bench/setup.sh -DCUDAToolkit_ROOT=/usr/local/cuda > $OUT/setup.log 2>&1
B=build-dev/filter-bench
ls -la $B || exit 1
g++ -O2 -std=c++20 .bench/st/st.cpp -o /tmp/st -I/usr/local/cuda/include -lOpenCL && /tmp/st 1 0 .bench/st/st.cl .bench/st/cfg3.txt > $OUT/harness.txt 2>&1
cat $OUT/harness.txt
# registers
for f in erode box sobel; do p=(); [ $f = sobel ] || p=(--param radius=1)
  for fmt in gray8 rgba8888; do $B run --filter $f --variant stream --format $fmt --border replicate --synthetic 256x64 "${p[@]}" --repeat 1 --no-cpu-single --no-baselines --device 1:0 --cache-dir /tmp/pc > /dev/null 2>&1; done; done
python3 - > $OUT/regs.txt <<'PY'
import glob, re, subprocess, os
for p in glob.glob('/tmp/pc/**/*', recursive=True):
    if os.path.isdir(p): continue
    t = open(p, 'rb').read().decode('latin1')
    i = t.find('.version')
    if i < 0 or '_stream' not in t: continue
    open('/tmp/m.ptx', 'w').write(t[i:])
    r = subprocess.run(['/usr/local/cuda/bin/ptxas', '-arch=sm_90', '-v', '/tmp/m.ptx', '-o', '/tmp/m.cubin'], capture_output=True, text=True)
    print(os.path.basename(p), re.findall(r'_stream', t)[:1], r.stderr.strip().replace('\n', ' | ')[:600])
PY
cat $OUT/regs.txt
scripts/npp-compare.sh $B $OUT/npp --device 1:0 --only 'erode|dilate|box|sobel' > $OUT/npp.log 2>&1
cat $OUT/npp/npp.md
for f in erode sobel box; do for fmt in gray8 rgba8888; do
  p=(); [ $f = sobel ] && p=(--param output=0) || p=(--param radius=1)
  for blk in 16x4 16x8; do for l in 64x2 32x4 16x8; do
    [ $fmt = rgba8888 ] && bb=4x${blk#16x} || bb=$blk
    t=$($B run --filter $f --variant stream --format $fmt --border replicate --synthetic 6720x4480 "${p[@]}" --block $bb --local $l --repeat 20 --no-cpu-single --no-baselines --device 1:0 --json 2>/dev/null | python3 -c "import json,sys; d=json.load(sys.stdin); r=[x for x in d['results'] if x['variant']=='stream'][0]; print(r['kernel_ms']['median'])" 2>&1)
    echo "$f $fmt block $bb local $l $t" >> $OUT/shapes.txt
  done; done; done; done
cat $OUT/shapes.txt
