# session 14 call 7: apply (jobs first, --format rgb888) against OpenCV on the 16-core H100 host (issue 26)
set -u
t0=$(date +%s)
mv .devdeps/window.tar.xz /tmp/ 2>/dev/null
source .bench/setup.sh
. .bench/env.sh
B=$PWD/build-dev/filter-bench
R=/tmp/r7; mkdir -p $R
echo "setup $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
sed -i 's/^rm -rf "\$work"$/: keep work/' scripts/apply-vs-opencv.sh
APPLY_ARGS="--format rgb888" bash scripts/apply-vs-opencv.sh /tmp/a 200 $B > $R/apply-rgb888.txt 2>&1
$B run --filter gaussian5x5 --variant roofline --format rgb888 --synthetic 64x64 --repeat 1 > /dev/null
for round in 1 2 3; do for f in rgb888 rgba8888; do rm -rf /tmp/a/work/ours; mkdir -p /tmp/a/work/ours
  $B apply --filter gaussian5x5 --variant roofline --param sigma=1 --border reflect101 /tmp/a/work/in --out /tmp/a/work/ours --json --format $f > $R/$f-r$round.jsonl
  echo "round $round $f $(tail -1 $R/$f-r$round.jsonl)" >> $R/rounds.txt
done
python3 - /tmp/a/work/in /tmp/a/work/cv <<'PY' | tee -a $R/rounds.txt
import sys, os, time, cv2
from concurrent.futures import ThreadPoolExecutor
src, dst = sys.argv[1], sys.argv[2]
names = sorted(os.listdir(src)); cv2.setNumThreads(1)
def one(n):
    img = cv2.imread(os.path.join(src, n), cv2.IMREAD_UNCHANGED)
    cv2.imwrite(os.path.join(dst, n), cv2.GaussianBlur(img, (5, 5), 1.0, 1.0, borderType=cv2.BORDER_REFLECT_101), [cv2.IMWRITE_JPEG_QUALITY, 75])
t = time.perf_counter()
with ThreadPoolExecutor(os.cpu_count()) as p: list(p.map(one, names))
s = time.perf_counter() - t; print(f"opencv: {len(names)/s:.2f} images/s")
PY
done
echo "done $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
tar czf $OUT/r7.tgz -C /tmp r7
