#!/usr/bin/env python3
"""Cold build cost of every variant on one device: each variant runs once in a fresh filter-bench process
with an empty driver cache (POCL_CACHE_DIR; the NVIDIA driver's cache is switched off with
CUDA_CACHE_DISABLE=1) and an empty program cache, on a small test card. Prints one TSV row per variant:
filter, variant, format, build_ms (program build, as filter-bench reports it), first_run_ms (the whole
first run: build, first launch and its driver compile, check) and the process's CPU seconds (children
included), slowest first; each row also goes to stderr as it finishes (a run cut short keeps those).

usage: scripts/cold-build-times.py [--bench build/filter-bench] [--format gray8,rgba8888] [--filter F,..]
                                   [--kernel-dir DIR] [--device SPEC] [--no-disk-cache] [--jobs N]
"""
import argparse, json, os, re, resource, shutil, subprocess, sys, tempfile, time
from concurrent.futures import ThreadPoolExecutor

ap = argparse.ArgumentParser()
ap.add_argument('--bench', default='build/filter-bench')
ap.add_argument('--format', default='gray8,rgba8888')
ap.add_argument('--filter', default='all')
ap.add_argument('--variant', default='all')
ap.add_argument('--kernel-dir')
ap.add_argument('--device')
ap.add_argument('--size', default='64x64')
ap.add_argument('--no-disk-cache', action='store_true', help='run with --cache-dir - (no program binaries fetched)')
ap.add_argument('--jobs', type=int, default=1)
a = ap.parse_args()

catalogue = json.loads(subprocess.run([a.bench, 'list', '--json'], capture_output=True, check=True, text=True).stdout)
filters = catalogue['filters'] if isinstance(catalogue, dict) else catalogue
wanted = None if a.filter == 'all' else set(a.filter.split(','))
jobs = []
for f in filters:
    if wanted and f['name'] not in wanted:
        continue
    for v in f['variants']:
        if a.variant != 'all' and v['name'] not in a.variant.split(','):
            continue
        for fmt in a.format.split(','):
            if v.get('formats') and fmt not in v['formats']:
                continue
            jobs.append((f['name'], v['name'], fmt))

def run(job):
    row = run_once(job, [])
    # A rung built for small radii only (erode/dilate stream and packed, cpu_rows) refuses the filter's default
    # radius: run it again at its largest, as prepare builds it.
    m = re.search(r'built for radius up to (\d+)', row[-1] or '')
    return (run_once(job, ['--param', 'radius=' + m.group(1)]) if m else row)[:-1]

def run_once(job, extra):
    filt, var, fmt = job
    scratch = tempfile.mkdtemp(prefix='fwb-cold-')
    env = dict(os.environ, POCL_CACHE_DIR=os.path.join(scratch, 'pocl'), CUDA_CACHE_DISABLE='1')
    cmd = [a.bench, 'run', '--filter', filt, '--variant', var, '--format', fmt, '--synthetic', a.size,
           '--repeat', '1', '--warmup', '0', '--no-cpu-single', '--no-baselines', '--no-tuned', '--json',
           '--cache-dir', '-' if a.no_disk_cache else os.path.join(scratch, 'programs')] + extra
    if a.kernel_dir:
        cmd += ['--kernel-dir', a.kernel_dir]
    if a.device:
        cmd += ['--device', a.device]
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    _, status, usage = os.wait4(p.pid, 0)
    out = p.stdout.read()
    wall = time.monotonic() - start
    shutil.rmtree(scratch, ignore_errors=True)
    build = first = error = None
    ok = False
    try:
        r = json.loads(out)['results'][0]
        build, first, ok, error = r.get('build_ms'), r.get('total_ms'), bool(r.get('matches')) and not r.get('error'), r.get('error')
    except Exception:
        pass
    return (filt, var, fmt, build, wall * 1000, usage.ru_utime + usage.ru_stime, ok, error)

def run_and_tell(job):
    # each row on stderr as it finishes, so that a run cut short by a time limit keeps what it measured
    row = run(job)
    print('\t'.join(str(round(x, 1)) if isinstance(x, float) else str(x) for x in row), file=sys.stderr, flush=True)
    return row

with ThreadPoolExecutor(a.jobs) as pool:
    rows = list(pool.map(run_and_tell, jobs))
rows.sort(key=lambda r: -r[5])
print('filter\tvariant\tformat\tbuild_ms\tfirst_run_wall_ms\tcpu_s\tok')
for r in rows:
    print('\t'.join(str(round(x, 1)) if isinstance(x, float) else str(x) for x in r))
print(f'# {len(rows)} programs, {sum(r[5] for r in rows):.1f} CPU s in all, slowest {rows[0][5]:.1f} s' if rows else '# none',
      file=sys.stderr)
