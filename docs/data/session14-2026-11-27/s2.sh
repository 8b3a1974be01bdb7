# session 14 call 2: apply's in-flight sweep on the H100 host (issue 26), with timelines
set -u
t0=$(date +%s)
mv .devdeps/window.tar.xz /tmp/ 2>/dev/null
source .bench/setup.sh -DCUDAToolkit_ROOT=/usr/local/cuda
. .bench/env.sh
B=$PWD/build-dev/filter-bench
R=/tmp/r2; mkdir -p $R
echo "setup $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
sed -i 's/^rm -rf "\$work"$/: keep work/' scripts/apply-vs-opencv.sh
bash scripts/apply-vs-opencv.sh /tmp/a 200 $B > $R/apply-default.txt 2>&1
cp /tmp/a/apply.jsonl $R/default.jsonl
for round in 1 2; do for q in 1 2; do for m in 12 20 32 48; do rm -rf /tmp/a/work/ours; mkdir -p /tmp/a/work/ours
  $B apply --filter gaussian5x5 --variant roofline --param sigma=1 --border reflect101 /tmp/a/work/in --out /tmp/a/work/ours --json --queues $q --max-inflight $m > $R/q$q-m$m-r$round.jsonl
  echo "round $round queues $q inflight $m $(tail -1 $R/q$q-m$m-r$round.jsonl)" >> $R/sweep.txt
done; done; done
python3 - /tmp/a/work/in /tmp/a/work/cv <<'PY' | tee -a $R/sweep.txt
import sys, os, time, cv2
from concurrent.futures import ThreadPoolExecutor
src, dst = sys.argv[1], sys.argv[2]
names = sorted(os.listdir(src)); cv2.setNumThreads(1)
def one(n):
    img = cv2.imread(os.path.join(src, n), cv2.IMREAD_UNCHANGED)
    cv2.imwrite(os.path.join(dst, n), cv2.GaussianBlur(img, (5, 5), 1.0, 1.0, borderType=cv2.BORDER_REFLECT_101), [cv2.IMWRITE_JPEG_QUALITY, 75])
t = time.perf_counter()
with ThreadPoolExecutor(os.cpu_count()) as p: list(p.map(one, names))
s = time.perf_counter() - t; print(f"opencv again: {len(names)/s:.2f} images/s")
PY
python3 - <<'PY' > $R/probe.txt 2>&1
import time, numpy as np, cupy as cp
for mb in (96, 192):
    n = mb << 20
    t = time.perf_counter(); a = cp.cuda.alloc_pinned_memory(n); t1 = time.perf_counter()
    print(f"pinned {mb} MB: {1000*(t1-t):.1f} ms")
PY
echo "done $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
tar czf $OUT/r2.tgz -C /tmp r2
