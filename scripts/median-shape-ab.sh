#!/usr/bin/env bash
# The median's rgba8888 shapes side by side (issue 25), for one filter-bench binary: old (the whole pixel
# unrolled: forgetful rungs on uchar4 lanes or two unrolled packed planes, the roofline rung's rows unrolled),
# step (the forgetful network a channel or packed pair at a time in a rolled loop inside each step, and the
# roofline's rows rolled) and strip (the forgetful rungs' whole strip a channel or pair at a time; the
# roofline's rows rolled, as in step):
#   scripts/median-shape-ab.sh OUTDIR FILTER_BENCH [--device SPEC] [--size WxH] [--rounds N] [--jobs N]
#                              [--variant V,..]
# 1. Cold builds (scripts/cold-build-times.py: one process per program, empty driver and program caches,
#    --jobs at once; default 4) of the switched variants in rgba8888, each shape.
# 2. Kernel times: every median3x3 and median5x5 variant in rgba8888 at --size (default 6720x4480), median of
#    20 launches, checked against the CPU reference; the shapes alternate --rounds times (default 2), the
#    unswitched variants being the control.
# The shapes are forced for every variant through FWB_EXTRA_BUILD_OPTIONS (-DMF_CHANNEL_LOOP=0|1|2
# -DMR_ROW_LOOP=0|1, which win over the catalogue's per-variant MF_CHANNEL_LOOP_DEFAULT / MR_ROW_LOOP_DEFAULT,
# core/families/median/Median.cpp kRgbaShapes). The options are read per process, so each shape is its own
# filter-bench process; all sit in one program cache (OUTDIR/programs, keyed by the options; removed after).
# Prints OUTDIR/summary.tsv: one row per variant, each shape's cold build s and kernel ms, step/old and
# strip/old, whether every run matched, and `keep`: among the new shapes whose kernel is within 1.03 of old's
# (the issue's limit) and whose cold build is no longer than old's (+5%), the one with the shorter kernel,
# else old; then the kRgbaShapes value that means (old 0, step 1, strip 2).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:?usage: median-shape-ab.sh OUTDIR FILTER_BENCH [options]}" bench="${2:?}"
shift 2
device=gpu size=6720x4480 rounds=2 jobs=4
variants=sorted_columns,forgetful,forgetful_w16,forgetful_u16x2,forgetful_u16x2_ptx
. "$(dirname "$0")/lib/options.sh"
parse_options median-shape-ab device size rounds jobs variant=variants -- "$@"
mkdir -p "$out"
declare -A shape=([old]="-DMF_CHANNEL_LOOP=0 -DMR_ROW_LOOP=0" [step]="-DMF_CHANNEL_LOOP=1 -DMR_ROW_LOOP=1"
                  [strip]="-DMF_CHANNEL_LOOP=2 -DMR_ROW_LOOP=1")
for which in old step strip; do
    opts=${shape[$which]}
    FWB_EXTRA_BUILD_OPTIONS="$opts" python3 "$root/scripts/cold-build-times.py" --bench "$bench" --device "$device" \
        --format rgba8888 --filter median3x3,median5x5 --variant "$variants" --jobs "$jobs" \
        >"$out/cold-$which.tsv" 2>"$out/cold-$which.err"
done
for round in $(seq "$rounds"); do
    for which in old step strip; do
        opts=${shape[$which]}
        FWB_EXTRA_BUILD_OPTIONS="$opts" "$bench" run --device "$device" --filter median3x3,median5x5 --variant all \
            --format rgba8888 --synthetic "$size" --repeat 20 --warmup 3 --no-cpu-single --no-baselines --no-tuned \
            --check --cache-dir "$out/programs" --json-file "$out/speed-$which-$round.json" --overwrite \
            >"$out/speed-$which-$round.txt" 2>&1
    done
done
rm -rf "$out/programs"
python3 - "$out" "$rounds" "$(dirname "$0")/lib" >"$out/summary.tsv" <<'PY'
import sys
out, rounds = sys.argv[1], int(sys.argv[2])
sys.path.insert(0, sys.argv[3])
from kernel_times import best_kernel_ms
def cold(which):
    rows = {}
    try:
        for line in open(f'{out}/cold-{which}.tsv'):
            f = line.rstrip('\n').split('\t')
            if len(f) >= 7 and f[0] != 'filter':
                rows[(f[0], f[1])] = (float(f[3]) / 1000 if f[3] != 'None' else None, f[6] == 'True')
    except OSError:
        pass
    return rows
def speed(which):
    return best_kernel_ms(f'{out}/speed-{which}-{r}.json' for r in range(1, rounds + 1))
names = ['old', 'step', 'strip']
cold_of, speed_of = {n: cold(n) for n in names}, {n: speed(n) for n in names}
fmt = lambda v, d: '-' if v is None else f'{v:.{d}f}'
print('filter\tvariant\t' + '\t'.join(f'build_{n}_s' for n in names) + '\t' + '\t'.join(f'kernel_{n}_ms' for n in names)
      + '\tstep/old\tstrip/old\tmatched\tkeep\tkRgbaShapes')
keys = set()
for n in names:
    keys |= set(speed_of[n]) | set(cold_of[n])
for k in sorted(keys):
    builds = [cold_of[n].get(k, (None, None))[0] for n in names]
    ms = [speed_of[n].get(k, (None, None))[0] for n in names]
    ratios = [m / ms[0] if m and ms[0] else None for m in ms[1:]]
    matched = all(speed_of[n].get(k, (0, False))[1] for n in names) and all(cold_of[n].get(k, (0, True))[1] for n in names)
    keep, value = '-', '-'
    if k in cold_of['old']:
        # a new shape is kept when its kernel is within 1.03 of old's (the issue's limit) and its cold
        # build no longer than old's (5% for the noise of one build); of those, the one with the shorter kernel
        fits = [(ms[i + 1], i + 1) for i, r in enumerate(ratios) if r is not None and r <= 1.03
                and builds[i + 1] is not None and builds[0] is not None and builds[i + 1] <= 1.05 * builds[0]]
        best = min(fits)[1] if fits else 0
        keep = names[best]
        # the roofline rung has rows rolled (1) or not (0): its step and strip shapes are the same program
        value = str(min(best, 1) if k[1] == "sorted_columns" else best)
    print(f'{k[0]}\t{k[1]}\t' + '\t'.join(fmt(b, 2) for b in builds) + '\t' + '\t'.join(fmt(m, 4) for m in ms)
          + '\t' + '\t'.join(fmt(r, 3) for r in ratios) + f'\t{matched}\t{keep}\t{value}')
PY
cat "$out/summary.tsv"
