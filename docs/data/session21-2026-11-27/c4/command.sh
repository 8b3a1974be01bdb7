#!/bin/bash
# session 21 call 4 (H100): issue 27's median rows with the new median3x3 `stream` rung: ours, NPP and OpenCV
# in one command per row (scripts/npp-compare.sh), flushed (DRAM-bound) and not; the device's copy probe.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c4 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c4; mkdir -p $R
timeout 250 scripts/npp-compare.sh $B /tmp/c4/flush --device 1:0 --only 'median' --flush > $R/flush-log.txt 2>&1
timeout 200 scripts/npp-compare.sh $B /tmp/c4/warm --device 1:0 --only 'median' > $R/warm-log.txt 2>&1
cp /tmp/c4/flush/npp.md $R/npp-flush.md; cp /tmp/c4/warm/npp.md $R/npp-warm.md
cat $R/npp-flush.md $R/npp-warm.md
$B devices --probe --json > $R/probe.json 2>/dev/null; python3 -c "
import json; d=json.load(open('$R/probe.json'))
for x in d.get('devices', []):
    print(x.get('name'), {k: v for k, v in x.items() if 'copy' in k or 'bandwidth' in k})" | tee $R/probe.txt
tar czf $R/json.tgz -C /tmp/c4 flush warm
stamp done
