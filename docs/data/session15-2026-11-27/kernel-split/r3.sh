# session 15 call 3: the blocked rungs' PTX old/new side by side; kernel times old/new alternated
set -u
t0=$(date +%s)
R=/tmp/r3; mkdir -p $R
source .bench/setup.sh -DCUDAToolkit_ROOT=/usr/local/cuda
mkdir -p /tmp/old && tar xzf .bench/old.tgz -C /tmp/old
(cd /tmp/old && cmake -S . -B build-dev -G Ninja -DCMAKE_BUILD_TYPE=Release -DFWB_WITH_QT=OFF -DCMAKE_PREFIX_PATH=$pfx/usr -DCMAKE_CXX_FLAGS=-I$pfx/usr/include -DCUDAToolkit_ROOT=/usr/local/cuda > $R/old-cmake.txt 2>&1; cmake --build build-dev --parallel 16 > $R/old-build.txt 2>&1) || tail -5 $R/old-build.txt
echo "built $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
NEW=$PWD/build-dev/filter-bench OLD=/tmp/old/build-dev/filter-bench
F="--filter recursive_gaussian --format gray8,rgba8888 --device 1:0 --jobs 16"
$OLD prepare $F --cache-dir /tmp/cold > $R/prep-old.txt 2>&1
$NEW prepare $F --cache-dir /tmp/cnew > $R/prep-new.txt 2>&1
python3 .bench/ptxcmp.py /tmp/cold /tmp/cnew $R/ptx > $R/ptx.txt 2>&1
for round in 1 2; do for side in OLD NEW; do B=${!side}; cd=/tmp/c${side,,}
  for fmt in gray8 rgba8888; do
    $B run --filter recursive_gaussian --variant all --format $fmt --synthetic 6720x4480 --repeat 30 --device 1:0 --cache-dir $cd --no-cpu-single --no-baselines --json-file $R/t-$side-$round-rg-$fmt.json --overwrite > $R/t-$side-$round-rg-$fmt.txt 2>&1
    $B run --filter gaussian5x5 --variant roofline_half2 --format $fmt --synthetic 6720x4480 --repeat 50 --device 1:0 --cache-dir $cd --no-cpu-single --no-baselines --json-file $R/t-$side-$round-g5-$fmt.json --overwrite > /dev/null 2>&1
  done; done; done
python3 - $R > $R/timing.txt <<'PY'
import json,glob,sys,collections
R=sys.argv[1]; t=collections.defaultdict(list)
for p in sorted(glob.glob(R+'/t-*.json')):
    side=p.split('/')[-1].split('-')[1]
    try: d=json.load(open(p))
    except Exception as e: print(p,e); continue
    for r in d['results']:
        if r.get('kernel_ms') and r['kernel_ms']['median']>0: t[(r['filter'],r['variant'],r['format'])].append((side,r['kernel_ms']['median']))
for k,v in sorted(t.items()):
    o=[x for s,x in v if s=='OLD']; n=[x for s,x in v if s=='NEW']
    print(k, 'old', ' '.join(f'{x:.4f}' for x in o), 'new', ' '.join(f'{x:.4f}' for x in n), f'new/old {min(n)/min(o):.3f}' if o and n and min(o)>0 else '')
PY
echo "timed $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
tar czf $OUT/r3.tgz -C /tmp r3
