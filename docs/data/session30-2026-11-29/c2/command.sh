#!/bin/bash
# session 30 call 2 (issue 27): the gray8 stream rungs' output block and work-group re-measured after session 29's
# halves (they were chosen on the H100 before them: 16 bytes x 4 rows, 16x8): blocks 16x2/16x4/16x8 x work-groups
# 16x8, 32x4, 32x8, 64x2, 16x16, 6720x4480 replicate, pinned, median of 20, checked; the default first and last.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c2 -DCUDAToolkit_ROOT=/usr/local/cuda
mkdir -p $R/json
export FWB_CACHE_DIR=/tmp/c2-cache
t() { local label=$1; shift
  timeout 60 $B run --device 1:0 --format gray8 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --border replicate --check --synthetic 6720x4480 --variant stream "$@" --json > $R/json/6720x4480-$label.json 2>$R/json/$label.err || echo "FAILED $label"
}
for f in "box --param radius=1" "box3x3_interior" "sobel --param output=0" "erode --param radius=1" "gaussian5x5" "median3x3"; do
  n=${f%% *}
  t $n-default-first --filter $f
  for b in 16x2 16x4 16x8; do for l in 16x8 32x4 32x8 64x2 16x16; do
    t $n-b$b-l$l --filter $f --block $b --local $l
  done; done
  t $n-default-last --filter $f
done
record_copy_share $R/json > $R/share.txt
python3 - $R/share.txt <<'PY' | tee $R/best.txt
import sys, collections
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) < 3 or p[2] != 'ms': continue
    name = p[0].split('-', 1)[1]; fam = name.split('-')[0]
    rows[fam].append((float(p[1]), name, p[-1]))
for fam, r in rows.items():
    r.sort()
    print(fam, ' | '.join('%s %.4f %s' % (n, ms, m) for ms, n, m in r[:5]), '|| defaults:', ' '.join('%.4f' % ms for ms, n, m in r if 'default' in n))
PY
stamp done
record_pack
