# session 15 call 1: the H100 measurement records again, with this build's filter-bench (OpenCV rows in it)
set -u
t0=$(date +%s)
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
mkdir -p /tmp/w && tar xJf .devdeps/window.tar.xz -C /tmp/w
B=/tmp/w/bench.sh
R=/tmp/r1; mkdir -p $R
nproc > $R/machine.txt; nvidia-smi --query-gpu=name,driver_version --format=csv >> $R/machine.txt; lscpu | grep 'Model name' >> $R/machine.txt
$B devices > $R/devices.txt 2>&1
$B run --filter gaussian5x5 --variant roofline_half2 --format gray8 --synthetic 640x480 --device 1:0 --baselines > $R/probe.txt 2>&1
timeout 200 $B prepare --filter all --format gray8,rgba8888 --device 1:0 --jobs 16 > $R/prepare.txt 2>&1
echo "prepared $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
timeout 330 scripts/record-measurements.sh $B $R/measurements --device 1:0 > $R/record.txt 2>&1
echo "recorded rc=$? $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
tar czf $OUT/r1.tgz -C /tmp r1
