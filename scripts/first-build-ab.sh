#!/usr/bin/env bash
# Before/after of a change to the kernels' build cost, in one run on one device (the figures of issue 25):
#   scripts/first-build-ab.sh OUTDIR BEFORE_FILTER_BENCH AFTER_FILTER_BENCH [--device SPEC] [--filter F,..]
# 1. cold builds (scripts/cold-build-times.py: one process per program, empty driver and program caches)
#    of --filter (default the median and Gaussian 5x5 / Sobel families) for gray8 and rgba8888, 4 at a time;
# 2. kernel times of every variant at 6720x4480 (median of 20, checked against the CPU reference), both
#    layouts, before and after back to back, and a table of after/before ratios.
# On the H100 (2026-11-25) step 1 took 4 min and step 2 about 12 (the builds are cold there too).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:?usage: first-build-ab.sh OUTDIR BEFORE AFTER [--device SPEC] [--filter F,..]}" before="${2:?}" after="${3:?}"
shift 3
device=gpu filters=median3x3,median5x5,gaussian5x5,sobel
while [ $# -gt 0 ]; do
    case "$1" in
        --device) device="$2"; shift 2 ;;
        --filter) filters="$2"; shift 2 ;;
        *) echo "first-build-ab: unknown option $1" >&2; exit 2 ;;
    esac
done
mkdir -p "$out"
for which in before after; do
    bench=$before; [ $which = after ] && bench=$after
    python3 "$root/scripts/cold-build-times.py" --bench "$bench" --device "$device" --format gray8,rgba8888 \
        --filter "$filters" --jobs 4 >"$out/cold-$which.tsv" 2>"$out/cold-$which.err"
done
for fmt in gray8 rgba8888; do
    for which in before after; do
        bench=$before; [ $which = after ] && bench=$after
        "$bench" run --device "$device" --filter all --variant all --format $fmt --synthetic 6720x4480 --repeat 20 \
            --warmup 3 --no-cpu-single --no-baselines --no-tuned --check --json-file "$out/speed-$which-$fmt.json" \
            --overwrite >"$out/speed-$which-$fmt.txt" 2>&1
    done
done
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
for fmt in ['gray8', 'rgba8888']:
    b = {(r['filter'], r['variant']): r for r in json.load(open(f'{out}/speed-before-{fmt}.json'))['results']}
    a = {(r['filter'], r['variant']): r for r in json.load(open(f'{out}/speed-after-{fmt}.json'))['results']}
    ratios = []
    for k, rb in b.items():
        ra = a.get(k)
        if not ra or not (rb.get('kernel_ms') or {}).get('median') or not (ra.get('kernel_ms') or {}).get('median'):
            continue
        r = ra['kernel_ms']['median'] / rb['kernel_ms']['median']
        ratios.append((r, k))
        print(f"{fmt}\t{k[0]}\t{k[1]}\t{rb['kernel_ms']['median']:.4f}\t{ra['kernel_ms']['median']:.4f}\t{r:.3f}\t{ra['matches']}")
    builds = lambda d: sum(r.get('build_ms') or 0 for r in d.values()) / 1000
    print(f"# {fmt}: {len(ratios)} variants, after/before {min(ratios)[0]:.3f} .. {max(ratios)[0]:.3f}; "
          f"all checked: {all(r['matches'] for r in a.values() if not r.get('unavailable'))}; "
          f"builds in the run {builds(b):.1f} s -> {builds(a):.1f} s")
PY
