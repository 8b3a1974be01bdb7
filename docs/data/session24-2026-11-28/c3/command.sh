#!/bin/bash
# session 24 call 3 (H200): the 16-bit Sobel stream rung's launch shape (rows a work-item: --block 16xH; work-group
# --local), gray8 6720x4480, alternated over two rounds, 8-bit |gx| beside; then the landed tree's NPP table once more.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c3 -DCUDAToolkit_ROOT=/usr/local/cuda
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --check --json"
S="--filter sobel --variant stream --format gray8"
for round in 1 2; do
  for o in 3 0; do
    for blk in 16x1 16x2 16x4 16x8 16x16; do record_time_row "out$o block $blk" $D $S --param output=$o --block $blk --cache-dir /tmp/c3p; done
    for loc in 32x4 16x16 64x2 32x8; do record_time_row "out$o local $loc" $D $S --param output=$o --local $loc --cache-dir /tmp/c3p; done
  done
done
stamp shapes
scripts/npp-compare.sh $B $R/npp --device 1:0 --only 'sobel' > $R/npp.txt 2>&1
scripts/npp-compare.sh $B $R/npp-flushed --device 1:0 --only 'sobel' --flush > $R/npp-flushed.txt 2>&1
cat $R/npp/npp.md $R/npp-flushed/npp.md | grep gray8
stamp npp
record_pack
