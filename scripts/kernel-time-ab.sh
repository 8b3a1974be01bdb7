#!/usr/bin/env bash
# Kernel times before and after a change to the kernels, back to back in one run on one device:
#   scripts/kernel-time-ab.sh OUTDIR BEFORE_FILTER_BENCH AFTER_FILTER_BENCH [--device SPEC] [--filter F,..]
#                             [--format F,..] [--size WxH] [--rounds N]
# Every variant of --filter (default all) at --size (default 6720x4480), median of 20 launches, checked
# against the CPU reference, before and after alternating --rounds times (default 2); prints one row per
# variant and layout: the best median of each side, after/before, and whether after matched.
set -uo pipefail
out="${1:?usage: kernel-time-ab.sh OUTDIR BEFORE AFTER [options]}" before="${2:?}" after="${3:?}"
shift 3
device=gpu filters=all formats=gray8,rgba8888 size=6720x4480 rounds=2
. "$(dirname "$0")/lib/options.sh"
parse_options kernel-time-ab device filter=filters format=formats size rounds -- "$@"
mkdir -p "$out"
for fmt in ${formats//,/ }; do
    for round in $(seq "$rounds"); do
        for which in before after; do
            bench=$before; [ $which = after ] && bench=$after
            "$bench" run --device "$device" --filter "$filters" --variant all --format "$fmt" --synthetic "$size" \
                --repeat 20 --warmup 3 --no-cpu-single --no-baselines --no-tuned --check \
                --json-file "$out/speed-$which-$fmt-$round.json" --overwrite >"$out/speed-$which-$fmt-$round.txt" 2>&1
        done
    done
done
python3 - "$out" "$formats" "$rounds" "$(dirname "$0")/lib" <<'PY'
import sys
out, formats, rounds = sys.argv[1], sys.argv[2].split(','), int(sys.argv[3])
sys.path.insert(0, sys.argv[4])
from kernel_times import best_kernel_ms
def load(which, fmt):
    return best_kernel_ms(f'{out}/speed-{which}-{fmt}-{r}.json' for r in range(1, rounds + 1))
print('format\tfilter\tvariant\tbefore_ms\tafter_ms\tafter/before\tafter_matches')
for fmt in formats:
    b, a = load('before', fmt), load('after', fmt)
    ratios = []
    for k in sorted(b):
        if k not in a:
            continue
        r = a[k][0] / b[k][0]
        ratios.append(r)
        print(f'{fmt}\t{k[0]}\t{k[1]}\t{b[k][0]:.4f}\t{a[k][0]:.4f}\t{r:.3f}\t{a[k][1]}')
    if ratios:
        print(f'# {fmt}: {len(ratios)} variants, after/before {min(ratios):.3f} .. {max(ratios):.3f}; '
              f'all after checked: {all(v[1] for v in a.values())}')
PY
