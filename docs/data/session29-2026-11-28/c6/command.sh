#!/bin/bash
# session 29 call 6 (issue 27): the halves with each pixel in a half's HIGH byte (stream3x3.clh's S3_HALVES_HIGH: the
# strip's words are the odd pixels already, shifted up a byte the even ones, pm and pp one permute of the raw words
# each), for the min/max rungs: erode/dilate (-DMORPH_HALVES_HIGH=1 against the landed low-byte halves) and the
# median 3x3 (-DMD_HALVES=1 against its views). Two rounds, usual and L2-flushed; then GPU checks of the trial forms.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c6 -DCUDAToolkit_ROOT=/usr/local/cuda
mkdir -p $R/json $R/chk
export FWB_CACHE_DIR=/tmp/c6-cache
t() { local label=$1; shift
  timeout 120 $B run --device 1:0 --format gray8 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --border replicate --check --synthetic 6720x4480 "$@" --json > $R/json/6720x4480-$label.json 2>$R/json/$label.err || echo "FAILED $label"
}
for round in 1 2; do for fl in "" "--flush-cache"; do fn=${fl:+-flushed}
  for m in erode dilate; do
    t $m$fn-low-r$round --filter $m --param radius=1 --variant stream $fl
    FWB_EXTRA_BUILD_OPTIONS="-DMORPH_HALVES_HIGH=1" t $m$fn-high-r$round --filter $m --param radius=1 --variant stream $fl
  done
  t median3x3$fn-views-r$round --filter median3x3 --variant stream $fl
  FWB_EXTRA_BUILD_OPTIONS="-DMD_HALVES=1" t median3x3$fn-high-r$round --filter median3x3 --variant stream $fl
done; done
record_copy_share $R/json > $R/share.txt
python3 - $R/share.txt <<'PY' | tee $R/summary.txt
import re, sys, collections
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) < 3 or p[2] != 'ms': continue
    rows[re.sub(r'-r[12]$', '', p[0].split('-', 1)[1])].append('%s (%s)' % (p[1], p[9] if len(p) > 9 else '?'))
for k in sorted(rows): print('%-34s %s' % (k, '  '.join(rows[k])))
PY
stamp time
for fo in "erode|-DMORPH_HALVES_HIGH=1" "dilate|-DMORPH_HALVES_HIGH=1" "median3x3|-DMD_HALVES=1"; do f=${fo%|*}; opt=${fo#*|}
  par=(); [ $f != median3x3 ] && par=(--param radius=1)
  for b in reflect101 replicate constant; do for sz in 1x1 17x3 33x7 259x37 6719x45; do
    for lt in 16x8/pinned 32x4/zero_copy; do l=${lt%/*}; tr=${lt#*/}
      out=$(FWB_EXTRA_BUILD_OPTIONS="$opt" timeout 60 $B run --device 1:0 --filter $f "${par[@]}" --variant stream --format gray8 --border $b --synthetic $sz --local $l --transfer $tr --repeat 1 --warmup 0 --no-cpu-single --no-baselines --check 2>&1) \
        && echo "ok $f $b $sz $l $tr" >> $R/chk/ok.txt || echo "FAIL $f [$opt] $b $sz $l $tr: $(echo "$out" | grep -iE 'differ|match|error' | head -2)" | tee -a $R/chk/fail.txt
    done
  done; done
done
echo "checks ok: $(wc -l < $R/chk/ok.txt), failed: $(cat $R/chk/fail.txt 2>/dev/null | wc -l)" | tee $R/chk/summary.txt
stamp done
record_pack
