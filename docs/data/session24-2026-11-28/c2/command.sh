#!/bin/bash
# session 24 call 2 (H200): (1) the strips rung's wide path as a copy of its loop of its own (c1: the branch inside
# the loop cost gray8 |gx| 5%), before (c1/kb) and after, alternated, two rounds; (2) the stream rung's 16-bit
# output (c1: 0.065 ms, 0.79x NPP): the halves joined by byte permutes and 1020 taken off both at once (now) against
# c1's form (ka, 16-bit lane arithmetic), with their SASS; (3) NPP beside, usual and flushed; (4) GPU checks again.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c2 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c2; mkdir -p $R
KB="$PWD/docs/data/session24-2026-11-28/c1/kb"; KA="$PWD/docs/data/session24-2026-11-28/c2/ka"
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --check --json"
for round in 1 2; do
  for p in output=0 output=1 output=2; do
    record_time_row "before strips $p gray8" $D --filter sobel --variant strips --format gray8 --param $p --kernel-dir $KB --cache-dir /tmp/sb
    record_time_row "after  strips $p gray8" $D --filter sobel --variant strips --format gray8 --param $p --cache-dir /tmp/sa
  done
  record_time_row "before strips output=0 rgba8888" $D --filter sobel --variant strips --format rgba8888 --param output=0 --kernel-dir $KB --cache-dir /tmp/sb
  record_time_row "after  strips output=0 rgba8888" $D --filter sobel --variant strips --format rgba8888 --param output=0 --cache-dir /tmp/sa
  record_time_row "after  strips output=3 gray8" $D --filter sobel --variant strips --format gray8 --param output=3 --cache-dir /tmp/sa
  record_time_row "ka     stream output=3 gray8" $D --filter sobel --variant stream --format gray8 --param output=3 --kernel-dir $KA --cache-dir /tmp/wa
  record_time_row "now    stream output=3 gray8" $D --filter sobel --variant stream --format gray8 --param output=3 --cache-dir /tmp/wn
  record_time_row "now    stream output=0 gray8" $D --filter sobel --variant stream --format gray8 --param output=0 --cache-dir /tmp/wn
  record_time_row "now    stream output=3 gray8 flushed" $D --filter sobel --variant stream --format gray8 --param output=3 --cache-dir /tmp/wn --flush-cache
  record_time_row "now    stream output=0 gray8 flushed" $D --filter sobel --variant stream --format gray8 --param output=0 --cache-dir /tmp/wn --flush-cache
done
stamp ab
R0=$R; R=$R/sass-ka; record_sass /tmp/wa ka sobel_stream; R=$R0/sass-now; record_sass /tmp/wn now sobel_stream; R=$R0
for f in $R/sass-*/sass/*.sass; do echo "== $f"; grep -h "registers" ${f%.sass}.ptxas.txt; python3 - "$f" <<'PY'
import collections, re, sys
ops = collections.Counter()
for line in open(sys.argv[1]):
    m = re.match(r'\s+/\*([0-9a-f]{4,})\*/\s+(.*?);', line)
    if m:
        ops[re.sub(r'^@!?U?P\w+\s+', '', m.group(2)).split()[0].split('.')[0]] += 1
print(sum(ops.values()), 'instructions:', ' '.join(f'{k} {v}' for k, v in ops.most_common(25)))
PY
done > $R/sass-ops.txt; cat $R/sass-ops.txt
stamp sass
scripts/npp-compare.sh $B $R/npp --device 1:0 --only 'sobel' > $R/npp.txt 2>&1
scripts/npp-compare.sh $B $R/npp-flushed --device 1:0 --only 'sobel' --flush > $R/npp-flushed.txt 2>&1
cat $R/npp/npp.md $R/npp-flushed/npp.md | grep gray8
stamp npp
chk() { echo "$* $(timeout 60 $B run --device 1:0 "$@" --check --no-cpu-single --no-baselines --repeat 2 --warmup 0 2>&1 | grep -oE 'ok \(max diff [0-9]+\)|MISMATCH.*|rror.*|navailable.*' | head -1)"; }
{
for v in strips stream; do for o in 0 1 2 3 4; do for b in replicate reflect101 constant; do
  for sz in 1x1 17x3 203x97 6719x4481; do chk --filter sobel --variant $v --param output=$o --format gray8 --border $b --synthetic $sz; done
  chk --filter sobel --variant $v --param output=$o --format gray8 --border $b --synthetic 203x97 --transfer zero_copy
done; done; done
} > $R/checks.txt
echo "checks ok: $(grep -c 'ok (max diff [01])' $R/checks.txt) of $(wc -l < $R/checks.txt)"; grep -v 'ok (max diff [01])' $R/checks.txt | head
stamp checks
grep -h "" $R/times.tsv
tar -C $R -czf $OUT/c2.tgz .
