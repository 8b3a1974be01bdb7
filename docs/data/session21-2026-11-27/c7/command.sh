#!/bin/bash
# session 21 call 7 (H100): the sigma-2 Gaussian's work-group shapes and blocks, every variant, by the
# tuner (filter-bench tune --blocks), rgba8888 then gray8, 6720x4480, repeat 10: is any shape near issue
# 27's 2x-the-best-5x5 line (rgba8888 0.236 ms, gray8 0.073)?
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c7 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c7; mkdir -p $R
T="--filter gaussian --param sigma=2 --synthetic 6720x4480 --device 1:0 --repeat 10 --json --no-tuned"
timeout 300 $B tune $T --format rgba8888 --variant separable_local,fused_local,strips,strips_half2 --blocks > $R/tune-rgba.json 2> $R/tune-rgba.err
stamp rgba
timeout 200 $B tune $T --format gray8 --variant separable_local,fused_local,strips_half2 > $R/tune-gray8.json 2> $R/tune-gray8.err
stamp gray8
python3 - $R/tune-rgba.json $R/tune-gray8.json <<'PY' | tee $R/summary.txt
import json, sys
for f in sys.argv[1:]:
    try:
        d = json.load(open(f))
    except Exception as e:
        print(f, "unreadable", e); continue
    for t in d["tunes"]:
        cells = sorted([c for c in t["cells"] if c.get("ms")], key=lambda c: c["ms"])
        print(t["format"], t["variant"], "best", t["best"], "block", t["best_block"], "%.4f" % (t["best_ms"] or 0),
              "default", t["default"], t["default_ms"], [(c["local"], c["block"], round(c["ms"], 4)) for c in cells[:4]])
PY
stamp done
