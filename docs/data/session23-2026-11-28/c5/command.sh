#!/bin/bash
# session 23 call 5 (H100; issue 25): the whole catalogue (gray8, rgba8888) prepared on a never-prepared device,
# 16 jobs, empty program cache, the driver's cache off (as session 22's c2), in the order of before (no typical
# builds: rgba8888 first, then the catalogue's order) and after (longest first by the H100's own measured builds,
# core/PrepareHints.cpp). "before" is this tree built again with an empty hints table. Alternated, two rounds.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c5 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c5; mkdir -p $R
mkdir -p /tmp/before && tar cf - --exclude=./build-dev --exclude=./build --exclude=./.devdeps --exclude=./docs . | tar xf - -C /tmp/before
python3 - /tmp/before/core/PrepareHints.cpp <<'PY'
import re, sys
s = open(sys.argv[1]).read()
s = re.sub(r'(constexpr Hint k(Gpu|Cpu)Hints\[\] = \{).*?(\n\};)', lambda m: m.group(1) + '\n    {"", "", "", 0},' + m.group(3), s, flags=re.S)
open(sys.argv[1], 'w').write(s)
PY
grep -c '{"' /tmp/before/core/PrepareHints.cpp
cmake -S /tmp/before -B /tmp/before/build-dev -G Ninja -DCMAKE_BUILD_TYPE=Release -DFWB_WITH_QT=OFF "${PREFIX_CMAKE_ARGS[@]}" -DCUDAToolkit_ROOT=/usr/local/cuda > $R/cmake-before.txt 2>&1
cmake --build /tmp/before/build-dev --parallel 16 --target filter-bench > $R/build-before.txt 2>&1 || tail -20 $R/build-before.txt
BB=/tmp/before/build-dev/filter-bench
stamp before-built
p() { # LABEL BENCH
  rm -rf /tmp/pc-$1; CUDA_CACHE_DISABLE=1 timeout 120 $2 prepare --device 1:0 --filter all --format gray8,rgba8888 --jobs 16 --cache-dir /tmp/pc-$1 --json > $R/prepare-$1.json 2> $R/prepare-$1.err
  python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
print(sys.argv[2], 'wall_s', d['wall_s'], 'programs', d['programs'], 'built', d['built'], 'failed', d['failed'], 'build_s_sum', d['build_s_sum'], 'child_s_sum', d['child_s_sum'])" $R/prepare-$1.json $1 | tee -a $R/prepare.txt
}
p before1 $BB; stamp before1
p after1 $B; stamp after1
p after2 $B; stamp after2
p before2 $BB; stamp before2
gzip $R/prepare-*.json
