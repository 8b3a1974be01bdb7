#!/usr/bin/env python3
"""PoCL kernel times of one program, A/B interleaved: for each round, each arm runs
`filter-bench run --device cpu --filter F --variant V --format FMT --repeat 5 --no-baselines --json`
(1920x1080 test card, a warm program cache so the build is not timed) and prints the kernel median and
each pass's ms. An arm is NAME=EXTRA where EXTRA is `kdir:DIR` (--kernel-dir DIR) and/or `opt:-D..`
(FWB_EXTRA_BUILD_OPTIONS), joined by commas; NAME= alone is the built-in kernels.
usage: kernel-times.py FILTER VARIANT FORMAT ROUNDS ARM [ARM..]"""
import json, os, subprocess, sys
filt, var, fmt, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
arms = [a.split('=', 1) for a in sys.argv[5:]]
for r in range(rounds):
    for name, extra in arms:
        cmd = ['build/filter-bench', 'run', '--device', 'cpu', '--filter', filt, '--variant', var, '--format', fmt,
               '--repeat', '5', '--no-baselines', '--no-cpu-single', '--json']
        env = dict(os.environ)
        for part in filter(None, extra.split(',')):
            kind, val = part.split(':', 1)
            if kind == 'kdir':
                cmd += ['--kernel-dir', val]
            else:
                env['FWB_EXTRA_BUILD_OPTIONS'] = (env.get('FWB_EXTRA_BUILD_OPTIONS', '') + ' ' + val).strip()
        res = json.loads(subprocess.run(cmd, capture_output=True, text=True, env=env).stdout)['results'][0]
        k = res['kernel_ms']
        print(f"round {r + 1}\t{name}\t{filt}\t{var}\t{fmt}\tmedian {k['median']:.2f}\tmin {k['min']:.2f}\tmax {k['max']:.2f}\t"
              f"passes {' '.join(f'{p:.2f}' for p in res.get('pass_ms') or [])}\tmatches {res.get('matches')}", flush=True)
