#!/usr/bin/env python3
# Writes fuzz_cli's seed inputs: argument vectors chosen here, encoded into the bytes fuzz_cli.cpp
# decodes them from (FuzzedDataProvider reads integers and bools from the end of the data; these seeds
# use no raw strings). The verbs' option tables and the fixed value lists are read from fuzz_cli.cpp,
# the catalogue's names from `filter-bench list --json`, so the seeds follow both.
#   tests/fuzz/fuzz_cli_seeds.py OUTDIR [FILTER_BENCH]     (default build/filter-bench)
# Check one: FWB_FUZZ_CLI_SHOW=1 build-fuzz/tests/fuzz/fuzz_cli OUTDIR/run-sweep
import json, re, subprocess, sys, os
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
src = open(os.path.join(root, 'tests', 'fuzz', 'fuzz_cli.cpp')).read()
bench_exe = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, 'build', 'filter-bench')
lst = json.loads(subprocess.run([bench_exe, 'list', '--json'], capture_output=True, check=True).stdout)
filters = [f['name'] for f in lst['filters']]
variants = [v['name'] for f in lst['filters'] for v in f['variants']]
paramkeys = [p['name'] for f in lst['filters'] for p in f['params']]
def opts(text):
    return re.findall(r'\{"(--[a-z0-9-]+)", Kind::(\w+)\}', text)
bench = opts(src[src.index('kBenchInput = {'):src.index('};', src.index('kBenchInput = {'))])
lab = opts(src[src.index('kLab = {'):src.index('};', src.index('kLab = {'))])
vt = src[src.index('static const std::vector<std::pair<std::string, std::vector<Option>>> table = {'):src.index('return table;')]
names = re.findall(r'^        \{"([a-z-]+)",', vt, re.M)
starts = [vt.index('{"%s",' % n) for n in names] + [len(vt)]
table = []
for i, n in enumerate(names):
    chunk = vt[starts[i]:starts[i + 1]]
    o = opts(chunk)
    if 'kBenchInput +' in chunk: o = bench + o
    if 'kLab +' in chunk: o = lab + o
    table.append((n, o))
kpaths = re.findall(r'"((?:[^"\\]|\\.)*)"', src[src.index('kPaths = {'):src.index('};', src.index('kPaths = {'))])
# The fixed lists of valueFor() in fuzz_cli.cpp, in its order.
FIXED = {'Device': ["cpu", "gpu", "0:0", "1:0", "pocl", "nvidia", "-1:0", "0:99999999999"],
         'Seconds': ["10", "0.5", "0", "86400", "86401", "1e9", ".", "1.2.3"],
         'Format': ["gray8", "rgb888", "rgba8888", "GRAY8", "rgba"], 'Border': ["reflect101", "replicate", "constant", "wrap"],
         'Transfer': ["pageable", "pinned", "zero_copy", "output_mapped", "svm", "all"],
         'OutFormat': ["png", "jpg", "jpeg", "tiff", "PNG"],
         'Shard': ["0/2", "1/2", "2/2", "0/0", "-1/2", "0/1", "1/1000001", "1/2/3"]}
# envValues in LLVMFuzzerTestOneInput.
ENV = ["", "kernels", "missing", "0", "64", "5abc", "17592186044416", "-1"]

class Enc:
    def __init__(self): self.tail = []
    def rng(self, lo, hi, v):  # ConsumeIntegralInRange(lo, hi) == v
        r = hi - lo; n = 0
        while n < 8 and (r >> (8 * n)) > 0: n += 1
        x = v - lo
        self.tail += [(x >> (8 * (n - 1 - k))) & 255 for k in range(n)]
    def bool(self, b): self.tail.append(1 if b else 0)
    def pick(self, lst, v): self.rng(0, len(lst) - 1, lst.index(v))
    def number(self, n): self.rng(0, 3, 0); self.rng(-5, 70000, n)
    def size(self, w, h, lower=True): self.bool(False); self.number(w); self.bool(lower); self.number(h)
    def lst(self, items, f):
        self.rng(0, 5, len(items))
        for it in items: f(it)
    def value(self, kind, v):
        self.rng(0, 9, 2)  # how: the option's own kind
        if kind == 'Flag': self.bool(v)
        elif kind == 'Filter': self.pick(filters, v)
        elif kind == 'Filters':
            if v == 'all': self.bool(True)
            else: self.bool(False); self.lst(v.split(','), lambda x: self.pick(filters, x))
        elif kind == 'Variant': self.bool(True); self.pick(variants, v)
        elif kind == 'Variants': self.lst(v.split(','), lambda x: self.pick(variants, x))
        elif kind in FIXED: self.pick(FIXED[kind], v)
        elif kind == 'Local':
            if v in ('auto', 'driver'): self.bool(True); self.pick(['auto', 'driver'], v)
            else: self.bool(False); self.size(*map(int, v.split('x')))
        elif kind == 'Size': self.size(*map(int, v.split('x')))
        elif kind in ('Sizes', 'OptionalSizes'): self.lst(v.split(','), lambda x: self.size(*map(int, x.split('x'))))
        elif kind == 'Count': self.number(int(v))
        elif kind == 'Counts': self.lst(v.split(','), lambda x: self.number(int(x)))
        elif kind == 'Formats': self.bool(v == 'all')
        elif kind in ('Param', 'Sweep'):
            k, vals = v.split('=')
            self.pick(paramkeys, k); self.lst(vals.split(','), lambda x: self.number(int(x)))
        elif kind in ('Path', 'Dir'): self.pick(kpaths, v)
        else: raise ValueError(kind)
    def data(self): return bytes(reversed(self.tail))

def encode(verb, args, env={}):
    e = Enc()
    for name in ('FWB_KERNEL_DIR', 'FWB_MEMORY_MIB', 'FWB_CACHE_MAX_MIB'):
        if name in env: e.bool(True); e.pick(ENV, env[name])
        else: e.bool(False)
    vi = [n for n, _ in table].index(verb)
    e.rng(0, len(table) + 1, vi)
    options = table[vi][1]
    e.rng(0, 24, len(args))
    for a in args:
        name, _, val = a.partition('=')
        e.rng(0, 15, 2)  # an option of this verb
        idx = [n for n, _ in options].index(name)
        e.rng(0, len(options) - 1, idx)
        kind = options[idx][1]
        if kind == 'Flag' and not val: e.rng(0, 7, 1); continue
        if kind == 'OptionalSizes': e.bool(False)
        e.value(kind, val)
        e.bool(False); e.rng(0, 15, 1)  # "--opt value"
    return e.data()

seeds = {
    'run-sweep': ('run', ['--filter=gaussian,recursive_gaussian', '--param=sigma=1,2,4', '--synthetic=64x48', '--repeat=1', '--warmup=0', '--json', '--json-file=r.json', '--overwrite']),
    'run-one-output': ('run', ['--filter=box', '--variant=strips', '--param=radius=1', '--input=in.png', '--output=out.png', '--overwrite', '--block=16x8', '--local=16x8']),
    'run-tiles': ('run', ['--filter=gaussian5x5', '--synthetic=640x480', '--tile=128x128', '--max-alloc-mib=1', '--transfer=pinned', '--format=rgba8888', '--border=constant']),
    'run-helper': ('run', ['--filter=sobel', '--variant=naive', '--timeout=0.5', '--kernel-dir=kernels', '--cache-dir=cache', '--no-tuned', '--check']),
    'run-user-variant': ('run', ['--user-variant=v', '--synthetic=32x32', '--timeout=10']),
    'apply': ('apply', ['--filter=box', '--variant=naive', '--param=radius=2', '--out=sub', '--out-format=jpg', '--recursive', '--shard=1/2', '--max-inflight=2', '--device=cpu', '--queues=2', '--png-level=1', '--json']),
    'race': ('race', ['--filter=median3x3', '--synthetic=64x64', '--variant=naive_sort,sorted_columns', '--kernel-only', '--no-cpu', '--timeout=10']),
    'race-end-to-end': ('race', ['--filter=sobel', '--synthetic=32x32', '--end-to-end', '--no-baselines', '--json']),
    'tune-blocks': ('tune', ['--filter=gaussian5x5', '--variant=strips', '--blocks=4x8,8x8', '--shapes=8x8,16x16', '--max-items=256', '--dry-run', '--synthetic=96x64']),
    'report': ('report', ['--filter=gaussian', '--synthetic=64x64', '--out=r.html', '--overwrite', '--shapes=8x8', '--sweep=sigma=1,2', '--tune-variant=separable']),
    'inspect': ('inspect', ['--global=638x478', '--local=16x16', '--cl20', '--json']),
    'matmul': ('matmul', ['--n=64,128', '--local=16x16', '--repeat=1', '--no-check']),
    'nbody': ('nbody', ['--bodies=256', '--steps=2', '--local=64x1', '--fast-math']),
    'cache': ('cache', ['--cache-dir=cache', '--max-mib=64', '--list', '--json']),
    'list-build-times': ('list', ['--build-times', '--device=cpu', '--cache-dir=cache', '--json']),
    'prepare': ('prepare', ['--filter=box,sobel', '--format=all', '--jobs=2', '--cache-dir=cache']),
    'user-variants-overhead': ('user-variants', ['--overhead', '--sizes=64x48,32x32', '--runs=3', '--filter=box', '--variant=naive']),
}
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for name, (verb, args) in seeds.items():
    env = {'FWB_MEMORY_MIB': '64'} if name == 'matmul' else {}
    open(os.path.join(out, name), 'wb').write(encode(verb, args, env))
print(len(seeds), 'seeds')
