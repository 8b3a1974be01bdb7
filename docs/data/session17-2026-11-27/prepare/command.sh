#!/bin/bash
# session 17 last call: prepare's order (longest first) on an empty cache, then with the record's times
cd "$(dirname "$0")/.."
t0=$(date +%s)
source .bench/setup.sh -DCUDAToolkit_ROOT=/usr/local/cuda
echo "setup $(( $(date +%s) - t0 )) s"
B=$PWD/build-dev/filter-bench
summ() { python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print({k: v for k, v in d.items() if not isinstance(v, (list, dict))})
rows = sorted(d.get('results') or [], key=lambda r: -(r.get('build_ms') or 0))
for r in rows[:6]:
    print('  ', r.get('filter'), r.get('variant'), r.get('format'), r.get('build_ms'), r.get('first_run_ms'))
PY
}
rm -rf /tmp/pc1 /tmp/pc2 ~/.nv/ComputeCache
$B prepare --device 1:0 --filter all --format gray8,rgba8888 --jobs 16 --cache-dir /tmp/pc1 --json > $OUT/prepare-empty.json 2> $OUT/prepare-empty.err
summ $OUT/prepare-empty.json
mkdir -p /tmp/pc2 && cp /tmp/pc1/prepared.json /tmp/pc2/ && rm -rf ~/.nv/ComputeCache
$B prepare --device 1:0 --filter all --format gray8,rgba8888 --jobs 16 --cache-dir /tmp/pc2 --json > $OUT/prepare-by-record.json 2> $OUT/prepare-by-record.err
summ $OUT/prepare-by-record.json
$B prepare --device 1:0 --filter all --format gray8,rgba8888 --jobs 16 --cache-dir /tmp/pc2 --json > $OUT/prepare-again.json 2>&1
summ $OUT/prepare-again.json | head -1
echo "all $(( $(date +%s) - t0 )) s"
