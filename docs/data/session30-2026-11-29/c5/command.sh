#!/bin/bash
# session 30 call 5 (issue 25): NVIDIA's cold build of each program alone, today's tree, for the families whose
# programs were near or over 3 s in session 27 (c3 there): scripts/cold-build-times.py, one process per program,
# one at a time, empty program cache, CUDA's JIT cache off, a 64x64 card. TSV per group ($R/*.tsv).
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c5 -DCUDAToolkit_ROOT=/usr/local/cuda
c() { local name=$1; shift
  timeout 170 python3 scripts/cold-build-times.py --bench $B --device 1:0 "$@" > $R/$name.tsv 2> $R/$name.err
  head -8 $R/$name.tsv; stamp $name
}
c median5x5-rgba8888 --format rgba8888 --filter median5x5
c median3x3-rgba8888 --format rgba8888 --filter median3x3
c strips-rgba8888 --format rgba8888 --filter gaussian5x5,sobel,box3x3_interior
c gray8 --format gray8 --filter median5x5,gaussian5x5
record_pack
