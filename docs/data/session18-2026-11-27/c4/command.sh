#!/bin/bash
# session 18 call 4 (H100): registers and spills of gaussian5x5's stream rung (ptxas -v on the PTX that
# NVIDIA's OpenCL returned, as kept in the program cache), beside strips_half2 and box's stream rung.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c4 -DCUDAToolkit_ROOT=/usr/local/cuda
export PATH=/usr/local/cuda/bin:$PATH
for spec in "gaussian5x5 stream gray8 -" "gaussian5x5 stream rgba8888 -" "gaussian5x5 strips_half2 gray8 -" \
            "gaussian5x5 strips_half2 rgba8888 -" "box stream gray8 radius=1" "erode stream gray8 radius=1"; do
  set -- $spec
  rm -rf /tmp/cc4 && mkdir -p /tmp/cc4
  pa=(); [ "$4" != "-" ] && pa=(--param "$4")
  $B run --device 1:0 --filter $1 --variant $2 --format $3 "${pa[@]}" --synthetic 64x64 --no-cpu-single --no-baselines --cache-dir /tmp/cc4 > /dev/null 2>&1
  for e in $(find /tmp/cc4 -type f -size +2k); do
    python3 - "$e" /tmp/x.ptx <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
i = d.find(b"//\n// Generated")
if i < 0:
    i = d.find(b".version")
j = d.find(b"\0", i)
open(sys.argv[2], "wb").write(d[i:j if j > 0 else len(d)])
PY
    echo "== $spec: $(ptxas -arch=sm_90 -v /tmp/x.ptx -o /tmp/x.cubin 2>&1 | grep -E 'registers|spill' | tr '\n' ' ')" | tee -a $R/ptxas.txt
    echo "   SASS instructions: $(cuobjdump -sass /tmp/x.cubin | grep -cE '^\s+/\*[0-9a-f]+\*/')" | tee -a $R/ptxas.txt
  done
done
record_pack
