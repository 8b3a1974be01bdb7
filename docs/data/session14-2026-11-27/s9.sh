# session 14 call 9: N-body CPU side after the AVX2 step; the lesson's step 3 and present N-body on the H100
set -u
t0=$(date +%s)
source .bench/setup.sh
. .bench/env.sh
B=$PWD/build-dev/filter-bench
R=/tmp/r9; mkdir -p $R
$B nbody --bodies 16384 --steps 5 --repeat 2 --variant tiled_local --device 1:0 > $R/nbody-cli.txt 2>&1
mkdir -p /tmp/w && tar xJf .devdeps/window.tar.xz -C /tmp/w
for st in 3 5; do timeout 150 /tmp/w/run.sh --device 1:0 --lesson $st --size 1920x1080 --screenshot $R/lesson-$st.png > $R/lesson-$st.log 2>&1; done
timeout 100 /tmp/w/run.sh --device 1:0 --present --lab nbody --size 1920x1080 --screenshot $R/present-nbody.png > $R/nbody.log 2>&1
echo "done $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
tar czf $OUT/r9.tgz -C /tmp r9
