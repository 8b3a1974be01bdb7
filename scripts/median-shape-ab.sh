#!/usr/bin/env bash
# The median's rgba8888 shapes side by side (issue 25): the old one (the whole pixel unrolled: forgetful rungs
# on uchar4 lanes or two unrolled packed planes, the roofline rung's rows unrolled) and the new one (a rolled
# loop over the channels or packed pairs, the roofline's rows rolled), for one filter-bench binary:
#   scripts/median-shape-ab.sh OUTDIR FILTER_BENCH [--device SPEC] [--size WxH] [--rounds N] [--jobs N]
#                              [--variant V,..]
# 1. Cold builds (scripts/cold-build-times.py: one process per program, empty driver and program caches,
#    --jobs at once; default 4) of the switched variants in rgba8888, each shape.
# 2. Kernel times: every median3x3 and median5x5 variant in rgba8888 at --size (default 6720x4480), median of
#    20 launches, checked against the CPU reference; the two shapes alternate --rounds times (default 2), the
#    unswitched variants being the control.
# The shapes are forced for every variant through FWB_EXTRA_BUILD_OPTIONS (-DMF_CHANNEL_LOOP=0|1
# -DMR_ROW_LOOP=0|1, which win over the catalogue's per-variant MF_CHANNEL_LOOP_DEFAULT / MR_ROW_LOOP_DEFAULT,
# core/families/median/Median.cpp kRgbaShapes). The options are read per process, so each shape is its own
# filter-bench process; both sit in one program cache (OUTDIR/programs, keyed by the options).
# Prints one row per variant: cold build s old / new, kernel ms old / new, new/old, whether both matched,
# and "new" where new/old <= 1.03 (the issue's limit), else "old".
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:?usage: median-shape-ab.sh OUTDIR FILTER_BENCH [options]}" bench="${2:?}"
shift 2
device=gpu size=6720x4480 rounds=2 jobs=4
variants=roofline,forgetful,forgetful_w16,forgetful_u16x2,forgetful_u16x2_ptx
. "$(dirname "$0")/lib/options.sh"
parse_options median-shape-ab device size rounds jobs variant=variants -- "$@"
mkdir -p "$out"
shape_old="-DMF_CHANNEL_LOOP=0 -DMR_ROW_LOOP=0" shape_new="-DMF_CHANNEL_LOOP=1 -DMR_ROW_LOOP=1"
for which in old new; do
    opts=$shape_old; [ $which = new ] && opts=$shape_new
    FWB_EXTRA_BUILD_OPTIONS="$opts" python3 "$root/scripts/cold-build-times.py" --bench "$bench" --device "$device" \
        --format rgba8888 --filter median3x3,median5x5 --variant "$variants" --jobs "$jobs" \
        >"$out/cold-$which.tsv" 2>"$out/cold-$which.err"
done
for round in $(seq "$rounds"); do
    for which in old new; do
        opts=$shape_old; [ $which = new ] && opts=$shape_new
        FWB_EXTRA_BUILD_OPTIONS="$opts" "$bench" run --device "$device" --filter median3x3,median5x5 --variant all \
            --format rgba8888 --synthetic "$size" --repeat 20 --warmup 3 --no-cpu-single --no-baselines --no-tuned \
            --check --cache-dir "$out/programs" --json-file "$out/speed-$which-$round.json" --overwrite \
            >"$out/speed-$which-$round.txt" 2>&1
    done
done
python3 - "$out" "$rounds" >"$out/summary.tsv" <<'PY'
import json, sys
out, rounds = sys.argv[1], int(sys.argv[2])
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
    best = {}
    for r in range(1, rounds + 1):
        try:
            results = json.load(open(f'{out}/speed-{which}-{r}.json'))['results']
        except (OSError, ValueError, KeyError):
            continue
        for x in results:
            ms, k = (x.get('kernel_ms') or {}).get('median'), (x['filter'], x['variant'])
            if ms and (k not in best or ms < best[k][0]):
                best[k] = (ms, bool(x.get('matches')))
    return best
co, cn, so, sn = cold('old'), cold('new'), speed('old'), speed('new')
fmt = lambda v, d: '-' if v is None else f'{v:.{d}f}'
print('filter\tvariant\tbuild_old_s\tbuild_new_s\tkernel_old_ms\tkernel_new_ms\tnew/old\tmatched\tkeep')
for k in sorted(set(so) | set(sn) | set(co)):
    bo, bn = co.get(k, (None, None))[0], cn.get(k, (None, None))[0]
    ko, kn = so.get(k, (None, None)), sn.get(k, (None, None))
    ratio = kn[0] / ko[0] if ko[0] and kn[0] else None
    matched = bool(ko[1]) and bool(kn[1]) and all(c.get(k, (0, True))[1] for c in (co, cn))
    keep = '-' if k not in co else ('new' if ratio is not None and ratio <= 1.03 else 'old')
    print(f'{k[0]}\t{k[1]}\t{fmt(bo, 2)}\t{fmt(bn, 2)}\t{fmt(ko[0], 4)}\t{fmt(kn[0], 4)}\t{fmt(ratio, 3)}\t{matched}\t{keep}')
PY
cat "$out/summary.tsv"
