#!/bin/bash
# session 31 call 3 (issue 25): NVIDIA's cold builds of the whole catalogue after c1/c2's landings (Sobel strips per
# output, median3x3 stream rgba8888 with its row ends rolled, median5x5 forgetful gray8 with rolled row loops):
# `prepare --jobs 4` (four at a time on 16 cores: each build near its time alone) and `--jobs 16` (the wall the issue's 30 s
# is about), empty program caches, CUDA's JIT cache off. prepare's JSON per run; over-3s.txt lists the programs
# whose build alone took more than 3 s.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c3 -DCUDAToolkit_ROOT=/usr/local/cuda
export CUDA_CACHE_DISABLE=1
for jobs in 4 16; do
  rm -rf /tmp/cache$jobs
  timeout 280 "$B" prepare --device 1:0 --filter all --format gray8,rgba8888 --jobs $jobs --json --cache-dir /tmp/cache$jobs > $R/prepare-jobs$jobs.json 2> $R/prepare-jobs$jobs.err
  stamp jobs$jobs
done
python3 - $R/prepare-jobs4.json $R/prepare-jobs16.json > $R/over-3s.txt <<'PY'
import json, sys
for f in sys.argv[1:]:
    try:
        d = json.load(open(f))
    except Exception as e:
        print(f, 'unreadable', e); continue
    rows = d['results']
    print(f, 'wall_s', d.get('wall_s'), 'built', d.get('built'), 'failed', d.get('failed'), 'build_s_sum', d.get('build_s_sum'))
    def ms(r):
        return r.get('build_ms') or 0
    over = sorted((r for r in rows if ms(r) > 3000), key=ms, reverse=True)
    print('over 3 s:', len(over))
    for r in over:
        print('  %8.0f' % ms(r), r.get('filter'), r.get('variant'), r.get('format'), r.get('error') or '')
PY
cat $R/over-3s.txt
record_pack
