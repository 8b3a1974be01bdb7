# session 15 call 5: the Gaussians' fast CPU paths before (665ead8) and after (5f52fe6) on the H100's
# 16-core host, against OpenCV 4.6.0 in the same process (cpu-bench), alternated
set -u
t0=$(date +%s)
R=/tmp/r5; mkdir -p $R
mkdir -p /tmp/w && tar xJf .devdeps/window.tar.xz -C /tmp/w
cp .bench/filter-bench-665ead8 /tmp/w/filter-bench-old
sed -e 's#/filter-bench"#/filter-bench-old"#' /tmp/w/bench.sh > /tmp/w/bench-old.sh; chmod +x /tmp/w/bench-old.sh
nproc > $R/machine.txt; lscpu | grep 'Model name' >> $R/machine.txt
for round in 1 2 3; do for side in old new; do
  B=/tmp/w/bench.sh; [ $side = old ] && B=/tmp/w/bench-old.sh
  for size in 6720x4480 3840x2160; do
    $B cpu-bench --filter gaussian,gaussian5x5 --synthetic $size --json > $R/$side-$round-$size.json 2> $R/$side-$round-$size.err
  done; done; done
python3 - $R > $R/table.txt <<'PY'
import json,glob,sys,collections
R=sys.argv[1]; t=collections.defaultdict(list)
for p in sorted(glob.glob(R+'/*-*-*.json')):
    side,rnd,size=p.split('/')[-1][:-5].split('-')
    try: d=json.load(open(p))
    except Exception as e: print(p,e); continue
    for r in d['rows']:
        t[(size,r['filter'],r['format'])].append((side,r['ratio_ours_over_opencv'],r['ours_ms']['median'],r['opencv_ms']['median']))
print('size filter format | old ratios (ours/OpenCV medians) | new ratios | ours ms old -> new (median of rounds)')
import statistics as st
for k in sorted(t):
    o=[x for x in t[k] if x[0]=='old']; n=[x for x in t[k] if x[0]=='new']
    print(*k, '|', ' '.join(f'{x[1]:.2f}' for x in o), '|', ' '.join(f'{x[1]:.2f}' for x in n), '|', f"{st.median([x[2] for x in o]):.2f} -> {st.median([x[2] for x in n]):.2f}; OpenCV {st.median([x[3] for x in o+n]):.2f}")
PY
echo "done $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
tar czf $OUT/r5.tgz -C /tmp r5
