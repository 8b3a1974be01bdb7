#!/bin/bash
# Prepared in session 31 (issue 25; not run): NVIDIA's cold build of every rgba8888 program alone (session 31's c6
# lost this table at its 250 s limit): scripts/cold-build-times.py, one process per program, one at a time, empty
# program cache, CUDA's JIT cache off, a 64x64 card. Rows reach rgba8888.err as they finish.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start next3 -DCUDAToolkit_ROOT=/usr/local/cuda
timeout 520 python3 scripts/cold-build-times.py --bench $B --device 1:0 --format rgba8888 --filter all > $R/rgba8888.tsv 2> $R/rgba8888.err
awk -F'\t' '$4 > 3000' $R/rgba8888.err | sort -t$'\t' -k4 -gr
stamp rgba8888
record_pack
