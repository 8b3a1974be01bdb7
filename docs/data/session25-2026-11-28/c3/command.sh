#!/bin/bash
# session 25 call 3: box's gray8 streaming rung: c2's two-pixels-a-word arithmetic lost 8% in gray8 (1,503 byte
# permutes: the l and r views' byte shuffles) and won 19% in rgba8888. Here gray8 with the views made a word
# at a time (-DS3_VIEWS_BY_WORDS=1) against the old arithmetic (-DBOX_SWAR=0), block heights 2, 4, 8; then
# gaussian5x5 stream's registers and SASS (its rgba8888 runs at 53% of the copy on the H200).
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c3 -DCUDAToolkit_ROOT=/usr/local/cuda
row() { # label extra-options run-args...
  local label=$1 opts=$2; shift 2
  FWB_EXTRA_BUILD_OPTIONS="$opts" record_time_row "$label" --device 1:0 --synthetic 6720x4480 --border replicate --repeat 20 --no-cpu-single --no-baselines --check "$@"
}
for round in 1 2; do
  for fl in "" --flush-cache; do
    row "box-old$fl" "-DBOX_SWAR=0" --filter box --variant stream --param radius=1 --format gray8 $fl
    row "box-swar-bytes$fl" "-DBOX_SWAR=1" --filter box --variant stream --param radius=1 --format gray8 $fl
    row "box-swar-words$fl" "-DBOX_SWAR=1 -DS3_VIEWS_BY_WORDS=1" --filter box --variant stream --param radius=1 --format gray8 $fl
    row "interior-old$fl" "-DBOX_SWAR=0" --filter box3x3_interior --variant stream --format gray8 $fl
    row "interior-swar-words$fl" "-DBOX_SWAR=1 -DS3_VIEWS_BY_WORDS=1" --filter box3x3_interior --variant stream --format gray8 $fl
  done
  for bh in 2 8; do
    row "box-swar-words-h$bh" "-DBOX_SWAR=1 -DS3_VIEWS_BY_WORDS=1" --filter box --variant stream --param radius=1 --format gray8 --block 16x$bh
    row "box-old-h$bh" "-DBOX_SWAR=0" --filter box --variant stream --param radius=1 --format gray8 --block 16x$bh
  done
done
stamp rows
C=/tmp/pc-w; rm -rf $C
FWB_EXTRA_BUILD_OPTIONS="-DBOX_SWAR=1 -DS3_VIEWS_BY_WORDS=1" $B run --device 1:0 --filter box --variant stream --param radius=1 --format gray8 --synthetic 256x64 --cache-dir $C --repeat 1 --no-cpu-single --no-baselines > /dev/null 2>&1
record_sass $C box-swar-words-gray8 box_stream
for fmt in gray8 rgba8888; do
  C=/tmp/pc-g-$fmt; rm -rf $C
  $B run --device 1:0 --filter gaussian5x5 --variant stream --format $fmt --synthetic 256x64 --cache-dir $C --repeat 1 --no-cpu-single --no-baselines > /dev/null 2>&1
  record_sass $C g5-$fmt gaussian5x5_stream
done
for s in $R/sass/*.sass; do echo "$s $(grep -oE '^\s+/\*[0-9a-f]+\*/\s+[A-Z0-9_]+' $s | awk '{print $2}' | sort | uniq -c | sort -rn | head -10 | tr '\n' ' ')"; done
stamp sass
record_pack
