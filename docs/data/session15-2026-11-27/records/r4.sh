# session 15 call 4: the H100 records again (OpenCV in the build, the CPU baseline warm and one OpenCV time
# per table), and the lesson's steps 1 and 5 on the H100 with them
set -u
t0=$(date +%s)
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
R=/tmp/r4; mkdir -p $R
mkdir -p /tmp/w && tar xJf .devdeps/window.tar.xz -C /tmp/w
nproc > $R/machine.txt; nvidia-smi --query-gpu=name,driver_version --format=csv >> $R/machine.txt; lscpu | grep 'Model name' >> $R/machine.txt
timeout 200 /tmp/w/bench.sh prepare --filter all --format gray8,rgba8888 --device 1:0 --jobs 16 > $R/prepare.txt 2>&1
echo "prepared $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
timeout 260 scripts/record-measurements.sh /tmp/w/bench.sh $R/measurements --device 1:0 > $R/record.txt 2>&1
echo "recorded rc=$? $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
for st in 1 5; do timeout 80 /tmp/w/run.sh --device 1:0 --lesson $st --size 1920x1080 --screenshot $R/lesson-$st.png > $R/lesson-$st.log 2>&1; done
echo "lesson $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
tar czf $OUT/r4.tgz -C /tmp r4
