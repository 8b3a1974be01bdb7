#!/bin/bash
# session 25 call 4: gaussian5x5 stream's byte conversions and output packing by byte permutes (gaussian-prmt.patch)
# against the shifts and masks before (the patch undone in a copy of kernels/), both layouts, usual and
# L2-flushed, alternating, two rounds; its SASS; then every best rung beside NPP with the L2 flushed (the
# landed tree: box's stream rung two pixels a word).
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c4 -DCUDAToolkit_ROOT=/usr/local/cuda
rm -rf /tmp/kold && mkdir -p /tmp/kold && cp -r kernels /tmp/kold/ && patch -s -R -p1 -d /tmp/kold < docs/data/session25-2026-11-28/c4/gaussian-prmt.patch && echo "old kernels ready"
row() { # label kernel-dir run-args...
  local label=$1 kd=$2; shift 2
  record_time_row "$label" --device 1:0 --synthetic 6720x4480 --border replicate --repeat 20 --no-cpu-single --no-baselines --check ${kd:+--kernel-dir $kd} "$@"
}
for round in 1 2; do
  for fmt in rgba8888 gray8; do for fl in "" --flush-cache; do
    row "g5-prmt-$fmt$fl" "" --filter gaussian5x5 --variant stream --format $fmt $fl
    row "g5-before-$fmt$fl" /tmp/kold/kernels --filter gaussian5x5 --variant stream --format $fmt $fl
  done; done
done
stamp rows
for fmt in gray8 rgba8888; do
  C=/tmp/pc-g-$fmt; rm -rf $C
  $B run --device 1:0 --filter gaussian5x5 --variant stream --format $fmt --synthetic 256x64 --cache-dir $C --repeat 1 --no-cpu-single --no-baselines > /dev/null 2>&1
  record_sass $C g5-prmt-$fmt gaussian5x5_stream
done
for s in $R/sass/*.sass; do echo "$s $(grep -oE '^\s+/\*[0-9a-f]+\*/\s+[A-Z0-9_]+' $s | awk '{print $2}' | sort | uniq -c | sort -rn | head -10 | tr '\n' ' ')"; done
stamp sass
timeout 330 bash scripts/npp-compare.sh $B $R/npp-flush --device 1:0 --flush > $R/npp-flush-log.txt 2>&1
rm -f $R/npp-flush/*.txt
cat $R/npp-flush/npp.md | cut -d'|' -f2-6
stamp npp
record_pack
