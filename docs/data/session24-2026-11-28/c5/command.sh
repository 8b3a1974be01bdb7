#!/bin/bash
# session 24 call 5 (H200): the 16-bit Sobel stream rung with the L2 flushed before each launch (c4: 1.47x NPP, 1.5x
# needs 0.0321 ms): rows a work-item and work-groups flushed, NPP flushed beside in the same command, two rounds.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c5 -DCUDAToolkit_ROOT=/usr/local/cuda
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --check --json --flush-cache --border replicate"
S="--filter sobel --variant stream --format gray8 --param output=3"
for round in 1 2; do
  for blk in 16x1 16x2; do
    for loc in 16x8 16x16 32x4 16x4 8x16; do record_time_row "flushed block $blk local $loc" $D $S --block $blk --local $loc --cache-dir /tmp/c5p; done
  done
  timeout 120 $B run $S --border replicate --synthetic 6720x4480 --repeat 20 --no-cpu-single --device 1:0 --baselines --flush-cache --json > /tmp/n.json 2>/dev/null
  python3 -c "
import json; d=json.load(open('/tmp/n.json'))
print('  npp-beside', ' '.join('%s %.4f' % (r['variant'], r['kernel_ms']['median']) for r in d['results'] if r.get('kernel_ms') and r['kernel_ms']['median'] > 0))" | tee -a $R/times.tsv
done
stamp shapes
record_pack
