#!/bin/bash
# session 30 call 3 (issues 25 and 27, the closing tables): median5x5 forgetful_w16 rgba8888 as landed (with
# MF_INSIDE_COPY=0 from the catalogue) checked on the GPU at odd sizes and every border; then every best rung
# beside NPP and OpenCV in one command per row (scripts/npp-compare.sh: usual, then with the L2 flushed before
# every launch), 6720x4480, replicate, median of 20, every row checked; each row's share of the device copy.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c3 -DCUDAToolkit_ROOT=/usr/local/cuda
export FWB_CACHE_DIR=/tmp/c3-cache
for b in reflect101 replicate constant; do for sz in 1x1 17x3 33x7 259x37 6719x45; do
  record_gpu_check --filter median5x5 --variant forgetful_w16 --format rgba8888 --border $b --synthetic $sz
done; done
echo "checks ok: $(wc -l < $R/chk/ok.txt), failed: $(cat $R/chk/fail.txt 2>/dev/null | wc -l)" | tee $R/chk/summary.txt
grep -o "MF_INSIDE_COPY=0" <(timeout 60 $B run --device 1:0 --filter median5x5 --variant forgetful_w16 --format rgba8888 --synthetic 64x64 --repeat 1 --no-cpu-single --no-baselines --json) | head -1 | tee $R/define.txt
stamp checks
timeout 300 scripts/npp-compare.sh $B $R/npp --device 1:0 > $R/npp-log.txt 2>&1
stamp npp
left=$(( 570 - ($(date +%s) - RECORD_T0) ))
[ $left -gt 60 ] && timeout $left scripts/npp-compare.sh $B $R/npp-flush --device 1:0 --flush > $R/npp-flush-log.txt 2>&1
stamp npp-flush
for d in npp npp-flush; do python3 - $R/$d <<'PY' > $R/$d/share.txt
import glob, json, os, sys
for p in sorted(glob.glob(sys.argv[1] + '/*.json')):
    d = json.load(open(p)); cg = d.get('copy_gbps')
    for r in d['results']:
        if r.get('baseline') or r['variant'] in ('opencv_cpu', 'opencv_tapi', 'npp') or not r.get('kernel_ms'): continue
        print('%-44s %-9s %8.4f ms %6.0f GB/s copy %s share %s matches=%s' % (os.path.basename(p)[:-5], r['format'],
              r['kernel_ms']['median'], r['gbps'], cg, '%.0f%%' % (100 * r['gbps'] / cg) if cg else '?', r.get('matches')))
PY
cat $R/$d/npp.md $R/$d/share.txt; done
record_pack
