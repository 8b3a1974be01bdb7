# session 14: issue 28 on two H100s: clean one/two/all-GPU JPEG figure, device-bound heavy batches, GPU0 vs GPU1
set -u
t0=$(date +%s)
mv .devdeps/window.tar.xz /tmp/ 2>/dev/null
bash .bench/setup.sh
. .bench/env.sh
B=$PWD/build-dev/filter-bench
R=/tmp/r6; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv > $R/gpus.txt 2>&1
git log -1 --format='%H %s' > $R/commit.txt 2>/dev/null || echo "no git" > $R/commit.txt
nproc > $R/nproc.txt
echo "setup $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
PARTS=jpg,heavy WORK=/dev/shm/w bash scripts/two-gpu.sh $R $B 1:0 1:1 200 4000x3000 > $R/two-gpu.log 2>&1
echo "two-gpu rc=$? $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
echo "race $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
cat $R/summary.txt | cut -c1-700
tar czf $OUT/r6.tgz -C /tmp r6
