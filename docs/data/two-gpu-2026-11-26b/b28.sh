# issue 28 on two GPUs: apply one/two/all GPUs (scripts/two-gpu.sh), race on each GPU, the window's duel GPU0 vs GPU1
set -u
t0=$(date +%s)
mv .devdeps/window.tar.xz /tmp/ 2>/dev/null   # keep setup.sh's dpkg loop to the .debs
bash .bench/setup.sh
. .bench/env.sh
B=$PWD/build-dev/filter-bench
R=/tmp/r28; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv > $R/gpus.txt 2>&1
git log -1 --format='%H %s' > $R/commit.txt 2>/dev/null || echo "no git" > $R/commit.txt
echo "setup $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
bash scripts/two-gpu.sh $R $B 1:0 1:1 200 4000x3000 > $R/two-gpu.log 2>&1
echo "two-gpu $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
# --device all (every GPU where there is one) on the decode-bound batch is in two-gpu.log's devices; race on each GPU:
for g in 1:0 1:1; do
  $B race --device $g --filter gaussian5x5 --format rgba8888 --synthetic 6720x4480 --no-cpu --no-baselines --repeat 20 --json > $R/race-${g/:/_}.json 2> $R/race-${g/:/_}.err
done
echo "race $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
# the window's duel, GPU 0 against GPU 1 (the window with its libraries: scripts/window-bundle.sh)
mkdir -p /tmp/w && tar xJf /tmp/window.tar.xz -C /tmp/w
python3 -c "
import cv2, numpy as np
h, w = 4480, 6720
y, x = np.mgrid[0:h, 0:w].astype(np.float32)
img = np.stack([127 + 60*np.sin(x/(200+37*c)+c)*np.cos(y/(150+23*c)) for c in range(3)], -1)
img += np.random.default_rng(1).normal(0, 6, img.shape).astype(np.float32)
cv2.imwrite('/tmp/big.png', np.clip(img, 0, 255).astype(np.uint8), [cv2.IMWRITE_PNG_COMPRESSION, 1])"
timeout 200 /tmp/w/run.sh --image /tmp/big.png --device 1:0 --duel --duel-with 1:1 --filter gaussian5x5 --variant roofline \
   --format rgba8888 --repeat 20 --size 1920x1080 --screenshot $R/duel.png --report $R/duel.html > $R/duel.log 2>&1
echo "duel rc=$? $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
tar czf $OUT/r28.tgz -C /tmp r28
