# session 14 call 8: the lesson on the H100 (--lesson screenshots) and the N-body CPU side from the CLI
set -u
t0=$(date +%s)
source .bench/setup.sh
. .bench/env.sh
B=$PWD/build-dev/filter-bench
R=/tmp/r8; mkdir -p $R
lscpu > $R/lscpu.txt 2>&1
echo "setup $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
$B nbody --bodies 16384 --steps 5 --repeat 2 --variant all --device 1:0 > $R/nbody-cli.txt 2>&1
echo "nbody $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
mkdir -p /tmp/w && tar xJf .devdeps/window.tar.xz -C /tmp/w
for st in 1 2 3 4 5 6; do
  timeout 150 /tmp/w/run.sh --device 1:0 --lesson $st --size 1920x1080 --screenshot $R/lesson-$st.png > $R/lesson-$st.log 2>&1
  echo "lesson $st rc=$? $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
done
tar czf $OUT/r8.tgz -C /tmp r8
