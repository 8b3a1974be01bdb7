#!/bin/bash
# session 18 call 1 (H100): the new rungs (transpose word_blocks for rgba8888, box3x3_interior stream)
# checked on the GPU and timed beside NPP; word_blocks' work-group shapes; does NVIDIA's OpenCL build
# programs in parallel inside one process (scripts/build-threads-probe)?
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c1 -DCUDAToolkit_ROOT=/usr/local/cuda
D="--device 1:0"
# GPU checks: every size x transfer (x border for the box, whose kernel is built per border)
for sz in 1x1 3x5 17x5 33x6 203x97 6719x4481 6720x4480; do for x in "-" "--transfer=zero_copy" "--tile=512x256"; do
  xa=$([ "$x" = "-" ] || echo "$x")
  echo "transpose word_blocks rgba8888 replicate $sz $x $($B run $D --filter transpose --variant word_blocks --format rgba8888 --synthetic $sz $xa --check --no-cpu-single --no-baselines --repeat 2 --warmup 0 2>&1 | grep -oE 'ok \(max diff 0\)' | head -1)"
  for fmt in gray8 rgba8888; do for b in replicate constant reflect101; do
    echo "box3x3_interior stream $fmt $b $sz $x $($B run $D --filter box3x3_interior --variant stream --format $fmt --border $b --synthetic $sz $xa --check --no-cpu-single --no-baselines --repeat 2 --warmup 0 2>&1 | grep -oE 'ok \(max diff 0\)' | head -1)"
  done; done
done; done > $R/checks.txt
echo "checks ok: $(grep -c 'ok (max' $R/checks.txt) of $(wc -l < $R/checks.txt)"; grep -v 'ok (max' $R/checks.txt | head
stamp checks
# word_blocks' shapes, beside the other rgba8888 transpose rungs, and the interior box's rungs
for l in 8x8 4x16 16x4 8x4 4x8 8x16 32x2 16x8; do
  $B run $D --filter transpose --variant word_blocks --format rgba8888 --synthetic 6720x4480 --local $l --repeat 20 --no-cpu-single --no-baselines --json > $R/tw-$l.json 2>&1
done
for v in local register_blocks; do $B run $D --filter transpose --variant $v --format rgba8888 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --json > $R/t-$v.json 2>&1; done
for fmt in gray8 rgba8888; do for v in strips stream; do
  $B run $D --filter box3x3_interior --variant $v --format $fmt --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --json > $R/bi-$v-$fmt.json 2>&1
done; done
python3 - $R <<'PY' > $R/shapes.txt
import json, glob, sys, os
for p in sorted(glob.glob(sys.argv[1] + "/t*-*.json") + glob.glob(sys.argv[1] + "/bi-*.json")):
    try:
        d = json.load(open(p))
    except Exception as e:
        print(os.path.basename(p), "no json", e); continue
    for r in d["results"]:
        k = r.get("kernel_ms") or {}
        b = 2 * d["image"]["width"] * d["image"]["height"] * (4 if d["image"]["format"] == "rgba8888" else 1)
        ms = k.get("median")
        print(f'{os.path.basename(p):28s} {r["variant"]:16s} local {r.get("local")} {ms} ms  {b / ms / 1e6 if ms else 0:.0f} GB/s  {100 * b / ms / 1e6 / d["copy_gbps"] if ms else 0:.1f}% of copy ({d["copy_gbps"]:.0f})')
PY
cat $R/shapes.txt
stamp shapes
bash scripts/npp-compare.sh $B $R/npp $D --only 'transpose|box3x3_interior|box stream' > $R/npp-log.txt 2>&1
cat $R/npp/npp.md
rm -f $R/npp/*.txt
stamp npp
# Builds in parallel inside one process? box stream gray8 (about 1.3 s cold), 16 builds a round
g++ -O2 -std=c++20 scripts/build-threads-probe/btp.cpp -o /tmp/btp -I.devdeps/sys/usr/include -lOpenCL -pthread
opts=$($B run $D --filter box --variant stream --param radius=1 --format gray8 --synthetic 64x64 --no-cpu-single --no-baselines --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["results"][0]["build_options"])')
echo "options: $opts" | tee $R/btp.txt
CUDA_CACHE_DISABLE=1 /tmp/btp 1 kernels/box/box.cl "$opts -Ikernels/shared -Ikernels/box" 16 2>&1 | tee -a $R/btp.txt
stamp btp
record_pack
