#!/usr/bin/env bash
# What NVIDIA's build options cost and gain (issue 25): for each option set, the cold build of the slowest
# programs (scripts/cold-build-times.py, one process per program, empty caches) and the kernel times of every
# variant of the same filters at 6720x4480 (median of 20, checked against the CPU reference).
#   scripts/build-options.sh OUTDIR FILTER_BENCH [--device SPEC] [--filter F,..] [--variant V,..] [--format F]
# The options reach every program through FWB_EXTRA_BUILD_OPTIONS (core/runtime/SessionImpl.h).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:?usage: build-options.sh OUTDIR FILTER_BENCH [options]}" bench="${2:?}"
shift 2
device=gpu filters=median3x3,median5x5,gaussian5x5 variants=forgetful_w16,forgetful,forgetful_u16x2_ptx,sorted_columns,strips,strips_half2
format=rgba8888
. "$(dirname "$0")/lib/options.sh"
parse_options build-options device filter=filters variant=variants format -- "$@"
opts=("" "-cl-nv-opt-level=0" "-cl-nv-opt-level=1" "-cl-nv-opt-level=2" "-cl-opt-disable")
mkdir -p "$out"
for n in "${!opts[@]}"; do
    FWB_EXTRA_BUILD_OPTIONS="${opts[$n]}" python3 "$root/scripts/cold-build-times.py" --bench "$bench" --device "$device" \
        --format "$format" --filter "$filters" --variant "$variants" --jobs 16 >"$out/opt-$n.tsv" 2>"$out/opt-$n.err"
done
cache="$out/programs"
for n in "${!opts[@]}"; do # fill the program cache for every option set at once (builds only)
    FWB_EXTRA_BUILD_OPTIONS="${opts[$n]}" "$bench" run --device "$device" --filter "$filters" --variant all --format "$format" \
        --synthetic 256x128 --repeat 1 --warmup 0 --no-cpu-single --no-baselines --no-tuned --cache-dir "$cache" \
        >"$out/warm-$n.txt" 2>&1 &
done
wait
for n in "${!opts[@]}"; do
    FWB_EXTRA_BUILD_OPTIONS="${opts[$n]}" "$bench" run --device "$device" --filter "$filters" --variant all --format "$format" \
        --synthetic 6720x4480 --repeat 20 --warmup 3 --no-cpu-single --no-baselines --no-tuned --check --cache-dir "$cache" \
        --json-file "$out/opt-$n.json" --overwrite >"$out/opt-$n.txt" 2>&1
done
rm -rf "$cache"
python3 - "$out" "${opts[@]}" <<'PY'
import json, sys
out, opts = sys.argv[1], sys.argv[2:]
rows = {}
for n, o in enumerate(opts):
    try:
        results = json.load(open(f'{out}/opt-{n}.json'))['results']
    except (OSError, ValueError, KeyError):
        continue
    for x in results:
        rows.setdefault((x['filter'], x['variant']), {})[n] = ((x.get('kernel_ms') or {}).get('median'), x.get('matches'))
print('filter\tvariant\t' + '\t'.join(o or 'default' for o in opts))
for k in sorted(rows):
    base = rows[k].get(0, (None,))[0]
    cells = []
    for n in range(len(opts)):
        ms, ok = rows[k].get(n, (None, None))
        cells.append('failed' if not ms else f'{ms:.4f} ({ms / base:.2f}x){"" if ok else " MISMATCH"}' if base else f'{ms:.4f}')
    print('\t'.join(k) + '\t' + '\t'.join(cells))
PY
