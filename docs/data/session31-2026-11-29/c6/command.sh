#!/bin/bash
# session 31 call 6 (issue 25): NVIDIA's cold build of each program alone after today's landings (c1, c2, c5):
# scripts/cold-build-times.py, one process per program, one at a time, empty program cache, CUDA's JIT cache off,
# a 64x64 card: every rgba8888 program, and gray8's median5x5 and erode/dilate (the gray8 programs near 3 s in c3).
# Then prepare --jobs 16 (the catalogue's wall) once.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c6 -DCUDAToolkit_ROOT=/usr/local/cuda
c() { local name=$1; shift
  timeout 250 python3 scripts/cold-build-times.py --bench $B --device 1:0 "$@" > $R/$name.tsv 2> $R/$name.err
  awk -F'\t' '$4 > 3000' $R/$name.tsv | sort -t$'\t' -k4 -gr; tail -1 $R/$name.tsv; stamp $name
}
c rgba8888 --format rgba8888 --filter all
c gray8 --format gray8 --filter median5x5,erode,dilate,gaussian5x5
export CUDA_CACHE_DISABLE=1
rm -rf /tmp/cache16
timeout 60 "$B" prepare --device 1:0 --filter all --format gray8,rgba8888 --jobs 16 --json --cache-dir /tmp/cache16 > $R/prepare-jobs16.json 2> $R/prepare-jobs16.err
python3 -c "import json; d=json.load(open('$R/prepare-jobs16.json')); print({k: d[k] for k in d if k != 'results'})"
stamp prepare
record_pack
