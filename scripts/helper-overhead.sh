#!/usr/bin/env bash
# What the helper process (filter-worker, where user kernels run) costs per run: the same variant on
# the same image run alternately in filter-bench's own process and through a fresh filter-worker,
# median of N runs each, for a small and a large image (default 640x480 and 6720x4480, 9 runs).
# Prints a table, or one JSON object with --json (filter-bench user-variants --overhead does the work).
#
#   scripts/helper-overhead.sh [--bench PATH] [--device SPEC] [--runs N] [--sizes WxH,WxH] [--json]
#
# Example on a bare GPU server (no Qt):
#   ./scripts/build.sh -DFWB_WITH_QT=OFF && ./scripts/helper-overhead.sh --device gpu
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bench="$root/build/filter-bench" device="" runs=9 sizes=640x480,6720x4480 json=""
. "$(dirname "$0")/lib/options.sh"
parse_options helper-overhead bench device runs sizes json! -- "$@"
[ -x "$bench" ] || { echo "helper-overhead: no $bench (build first, or --bench PATH)" >&2; exit 2; }
[ -x "$(dirname "$bench")/filter-worker" ] || { echo "helper-overhead: no filter-worker beside $bench" >&2; exit 2; }
args=(user-variants --overhead --runs "$runs" --sizes "$sizes")
[ -n "$device" ] && args+=(--device "$device")
[ -n "$json" ] && args+=("$json")
exec "$bench" "${args[@]}"
