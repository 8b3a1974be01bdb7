#!/bin/bash
# session 25 call 7 (H200): issue 25's catalogue on this device, the landed tree: `prepare` of every program of
# gray8 and rgba8888 from an empty program cache with the driver's cache off, 16 at once, twice; the slowest
# builds and how many take over 3 s.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c7 -DCUDAToolkit_ROOT=/usr/local/cuda
for round in 1 2; do
  rm -rf /tmp/pc-$round
  CUDA_CACHE_DISABLE=1 timeout 150 $B prepare --device 1:0 --filter all --format gray8,rgba8888 --jobs 16 --cache-dir /tmp/pc-$round --json > $R/prepare-$round.json 2> $R/prepare-$round.err
  python3 - $R/prepare-$round.json <<'PY' | tee -a $R/prepare.txt
import json, sys
d = json.load(open(sys.argv[1]))
print(sys.argv[1].split("/")[-1], {k: d.get(k) for k in ("jobs", "wall_s", "programs", "built", "failed", "build_s_sum", "child_s_sum")})
rows = sorted(d.get("results") or [], key=lambda r: -(r.get("build_ms") or 0))
for r in rows[:12]:
    print("   ", r.get("filter"), r.get("variant"), r.get("format"), r.get("build_ms"))
print("    builds over 3 s:", sum(1 for r in rows if (r.get("build_ms") or 0) > 3000))
PY
  stamp prepare-$round
done
gzip $R/prepare-*.json
record_pack
