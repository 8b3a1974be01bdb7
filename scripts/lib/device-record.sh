# Sourced by a command file run on a lent GPU machine (its record is kept under docs/data/<topic>/): the
# preamble the records of 2026-11-26 and -27 each wrote out (the NVIDIA OpenCL ICD, the header and library
# packages of .devdeps/ unpacked and put on the paths, filter-bench built Qt-free in build-dev/, a
# results folder with the machine's facts, seconds since the start in times.txt) as functions, so a new
# record says only what it measures. The records already kept stay as they ran.
#
#   . scripts/lib/device-record.sh
#   record_start r30 [CMAKE_ARGS...]  # B: build-dev/filter-bench; R: /tmp/r30 with gpus.txt, commit.txt,
#                                     # nproc.txt and times.txt's "setup N s"
#   "$B" race ... > "$R/race.json"; stamp race
#   record_window                     # W: the window's run.sh (scripts/window-bundle.sh's bundle)
#   record_pack                       # $OUT/r30.tgz
#   record_time_row LABEL RUN-ARGS... # one run's kernel median, shape, check and build time -> $R/times.tsv
#   record_sass CACHE NAME [KERNEL]   # a program cache's PTX -> ptxas -v and SASS under $R/sass/
#   record_copy_sizes [MB...]         # a device copy (cupy) at each size -> $R/copy-size.txt
#   record_ptx_identity OLD LABEL RUN-ARGS...  # the PTX from this tree and from kernel folder OLD compared
#   record_rounds_summary FILE        # record_copy_share's output with the -rN rounds side by side
#   record_gpu_check RUN-ARGS...      # one --check run on the GPU -> $R/chk/ok.txt or fail.txt
#   record_cublas [N]                 # cuBLAS FP32 (torch, TF32 off) at n x n -> $R/cublas.txt
# gpu-headless.sh takes devdeps_prefix alone.

# The packages unpacked under PFX (dpkg -x) on the compiler's, pkg-config's and the loader's paths;
# PREFIX_CMAKE_ARGS: what CMake needs to find them.
devdeps_prefix() {
    local pfx="$1"
    export PKG_CONFIG_PATH="$pfx/usr/lib/x86_64-linux-gnu/pkgconfig:$pfx/usr/share/pkgconfig"
    export PKG_CONFIG_SYSROOT_DIR="$pfx"
    export LD_LIBRARY_PATH="$pfx/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    PREFIX_CMAKE_ARGS=(-DCMAKE_PREFIX_PATH="$pfx/usr" -DCMAKE_CXX_FLAGS="-I$pfx/usr/include")
}

# Seconds since record_start, after WHAT, on the screen and in $R/times.txt.
stamp() {
    echo "$* $(( $(date +%s) - RECORD_T0 )) s" | tee -a "$R/times.txt"
}

# The machine ready and the record's folder made: NAME is the folder under /tmp (and the archive's name);
# the rest goes to CMake's configure of build-dev/ (-DCUDAToolkit_ROOT=... for NPP). A failed configure
# or build shows its last lines and the record goes on (its commands then fail where filter-bench is
# needed, as the records always did).
record_start() {
    RECORD_NAME="$1"
    shift
    RECORD_T0=$(date +%s)
    echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
    local pfx="$PWD/.devdeps/sys"
    [ -d "$pfx" ] || for d in .devdeps/*.deb; do dpkg -x "$d" "$pfx"; done
    devdeps_prefix "$pfx"
    cmake -S . -B build-dev -G Ninja -DCMAKE_BUILD_TYPE=Release -DFWB_WITH_QT=OFF "${PREFIX_CMAKE_ARGS[@]}" "$@" \
        > "$OUT/cmake.txt" 2>&1 || tail -30 "$OUT/cmake.txt"
    cmake --build build-dev --parallel "$(nproc)" > "$OUT/build.txt" 2>&1 || grep -E "error|Error" "$OUT/build.txt" | head -40
    B="$PWD/build-dev/filter-bench"
    R="/tmp/$RECORD_NAME"
    mkdir -p "$R"
    nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv > "$R/gpus.txt" 2>&1
    git log -1 --format='%H %s' > "$R/commit.txt" 2>/dev/null || echo "no git" > "$R/commit.txt"
    nproc > "$R/nproc.txt"
    stamp setup
}

# The window with its libraries (scripts/window-bundle.sh's .devdeps/window.tar.xz) unpacked in /tmp/w;
# W: its run.sh.
record_window() {
    mkdir -p /tmp/w && tar xJf .devdeps/window.tar.xz -C /tmp/w
    W=/tmp/w/run.sh
}

# The results folder as $OUT/NAME.tgz, what comes back from the machine.
record_pack() {
    tar czf "$OUT/$RECORD_NAME.tgz" -C /tmp "$RECORD_NAME"
}

# One timed run's row: LABEL and `filter-bench run ARGS... --json` reduced to its first result's kernel median,
# work-group, check and build time, appended to $R/times.tsv (FWB_EXTRA_BUILD_OPTIONS as the caller set it).
#   record_time_row tiled-rgba8888 --device 1:0 --filter gaussian --param sigma=2 --variant tiled_half2 ...
record_time_row() {
    local label="$1"
    shift
    timeout 120 "$B" run "$@" --json > /tmp/record-row.json 2> /tmp/record-row.err
    echo "$label [${FWB_EXTRA_BUILD_OPTIONS:-}] $(python3 - /tmp/record-row.json <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))['results'][0]
    print('%.4f' % r['kernel_ms']['median'], 'local=%s' % (r.get('local'),), 'matches=%s' % r.get('matches'),
          'maxdiff=%s' % r.get('max_abs_diff'), 'build_ms=%s' % r.get('build_ms'), r.get('error') or '')
except Exception as e:
    print('failed', e)
PY
)" | tee -a "$R/times.tsv"
}

# The programs of a program-cache folder (NVIDIA keeps PTX) through ptxas -v and cuobjdump -sass, into
# $R/sass/NAME-N.{ptxas.txt,sass}; KERNEL: the function whose SASS is kept (every one if empty). Read the loops
# with scripts/tools/sass-loops.py. Prints each program's registers and spills of KERNEL.
record_sass() {
    local cache="$1" name="$2" kernel="${3:-}" n=0 e
    mkdir -p "$R/sass"
    for e in "$cache"/*; do
        n=$((n + 1))
        python3 - "$e" "/tmp/$name-$n.ptx" <<'PY' || continue
import sys
b = open(sys.argv[1], 'rb').read()
i = b.find(b'//\n// Generated by NVIDIA')
if i < 0:
    i = b.find(b'.version')
if i < 0:
    sys.exit(1)
j = b.find(b'\0', i)
open(sys.argv[2], 'wb').write(b[i:j if j > 0 else len(b)])
PY
        /usr/local/cuda/bin/ptxas -arch=sm_90 -v "/tmp/$name-$n.ptx" -o "/tmp/$name-$n.cubin" > "$R/sass/$name-$n.ptxas.txt" 2>&1
        /usr/local/cuda/bin/cuobjdump -sass ${kernel:+-fun "$kernel"} "/tmp/$name-$n.cubin" > "$R/sass/$name-$n.sass" 2>&1
        echo "$name-$n: $(grep -A3 "entry function '${kernel:-}" "$R/sass/$name-$n.ptxas.txt" | grep -E 'registers|spill' | tr '\n' ' ')"
    done
}

# The share of copy of every run in DIR: each `filter-bench run ... --json` saved as DIR/<W>x<H>-<label>.json, its first
# result's kernel median, the GB/s of a gray8 picture (read + write) and their share of the 256 MiB device copy the
# same run measured (copy_gbps), with the work-group, block, the build options' tail and the check. Printed.
record_copy_share() {
    python3 - "$1" <<'PY'
import json, glob, os, sys
for f in sorted(glob.glob(sys.argv[1] + '/*.json')):
    name = os.path.basename(f)[:-5]
    try:
        d = json.load(open(f)); r = d['results'][0]
    except Exception as e:
        print(name, 'failed', e); continue
    w, h = [int(x) for x in name.split('-')[0].split('x')]
    ms = r['kernel_ms']['median']
    cg = d.get('copy_gbps') or r.get('copy_gbps')
    gbs = 2 * w * h / ms / 1e6
    print('%-44s %8.4f ms %6.0f GB/s copy %s GB/s share %s local=%s block=%s build=%s matches=%s' % (
        name, ms, gbs, cg, '%.0f%%' % (100 * gbs / cg) if cg else '?', r.get('local'), r.get('block'),
        (r.get('build_options') or '')[-12:], r.get('matches')))
PY
}

# Whether a program's PTX is the same built from this tree's kernels and from OLD (a kernel folder, through
# --kernel-dir): LABEL and the run's filter arguments (a 64x64 picture, one launch), one line appended to
# $R/ptx-identity.txt ("LABEL: N lines, identical" or "DIFFERENT"). For a kernel change meant to leave other
# programs alone (session 29's c1, c2, c4 and c5 each carried this loop).
#   record_ptx_identity /tmp/before/kernels "box rgba8888" --filter box --param radius=1 --variant stream --format rgba8888
record_ptx_identity() {
    local old="$1" label="$2" k
    shift 2
    for k in new old; do
        local kd=()
        [ $k = old ] && kd=(--kernel-dir "$old")
        rm -rf "/tmp/ptx-$k"
        timeout 60 "$B" run --device 1:0 "$@" --synthetic 64x64 --repeat 1 --no-cpu-single --no-baselines \
            --cache-dir "/tmp/ptx-$k" "${kd[@]}" > /dev/null 2>&1
        cat "/tmp/ptx-$k"/* 2>/dev/null | python3 -c "import sys; b=sys.stdin.buffer.read(); i=b.find(b'.version'); sys.stdout.buffer.write(b[i:].split(b'\0')[0])" > "/tmp/ptx-$k.txt"
    done
    echo "$label: $(wc -l < /tmp/ptx-new.txt) lines, $(cmp -s /tmp/ptx-new.txt /tmp/ptx-old.txt && echo identical || echo DIFFERENT)" | tee -a "$R/ptx-identity.txt"
}

# record_copy_share's rows of FILE (its output) with the rounds joined: runs saved as <W>x<H>-<label>-r1.json,
# -r2.json ... become one line per label, each round's ms and share side by side. Printed.
record_rounds_summary() {
    python3 - "$1" <<'PY'
import re, sys, collections
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) < 3 or p[2] != 'ms': continue
    rows[re.sub(r'-r[0-9]+$', '', p[0].split('-', 1)[1])].append('%s (%s)' % (p[1], p[9] if len(p) > 9 else '?'))
for k in sorted(rows): print('%-34s %s' % (k, '  '.join(rows[k])))
PY
}

# One GPU check: `filter-bench run ARGS... --check` on the NVIDIA device, one launch; "ok ARGS" appended to
# $R/chk/ok.txt, or "FAIL ARGS: the mismatch" to $R/chk/fail.txt (printed). FWB_EXTRA_BUILD_OPTIONS as the caller set it.
#   record_gpu_check --filter box --param radius=1 --variant stream --format gray8 --border constant --synthetic 33x7
record_gpu_check() {
    mkdir -p "$R/chk"
    local out
    out=$(timeout 60 "$B" run --device 1:0 "$@" --repeat 1 --warmup 0 --no-cpu-single --no-baselines --check 2>&1) \
        && echo "ok $* [${FWB_EXTRA_BUILD_OPTIONS:-}]" >> "$R/chk/ok.txt" \
        || echo "FAIL $* [${FWB_EXTRA_BUILD_OPTIONS:-}]: $(echo "$out" | grep -iE 'differ|match|error' | head -2)" | tee -a "$R/chk/fail.txt"
}

# A device copy at each size in MB (default: the gray8 and rgba8888 pictures of 6720x4480 and their pairs, and the
# 256 MiB copy), timed with CUDA events through cupy, median of 20 after 5: the floor a kernel of that size
# is measured against. -> $R/copy-size.txt (printed too).
record_copy_sizes() {
    timeout 60 python3 - "${@:-30.1 60.2 120.4 268.4}" <<'PY' > "$R/copy-size.txt" 2>&1
import sys
import cupy as cp
for mb in [float(x) for x in " ".join(sys.argv[1:]).split()]:
    n = int(mb * 1e6) // 16 * 16
    a = cp.zeros(n, dtype=cp.uint8); b = cp.empty_like(a)
    s, e = cp.cuda.Event(), cp.cuda.Event()
    ts = []
    for i in range(25):
        s.record(); cp.copyto(b, a); e.record(); e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e))
    ts = sorted(ts[5:]); m = ts[len(ts)//2]
    print("copy %.1f MB: %.4f ms, %.0f GB/s (read + write)" % (n/1e6, m, 2*n/m/1e6))
PY
    cat "$R/copy-size.txt"
}

# cuBLAS FP32 at N x N (default 4096) through torch, TF32 off, CUDA events, median of 20 after 3: the Compute
# Lab's matmul baseline. -> appended to $R/cublas.txt (printed too).
record_cublas() {
    timeout 60 python3 - "${1:-4096}" <<'PY' 2>&1 | tee -a "$R/cublas.txt"
import sys
import torch
torch.backends.cuda.matmul.allow_tf32 = False
n = int(sys.argv[1])
a = torch.randn(n, n, device="cuda"); b = torch.randn(n, n, device="cuda")
for _ in range(3): a @ b
ts = []
for _ in range(20):
    s = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
    s.record(); a @ b; e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
ts.sort(); ms = ts[len(ts)//2]
print("cublas fp32 n=%d %.4f ms %.1f GFLOPS (torch %s, tf32 off)" % (n, ms, 2*n**3/ms/1e6, torch.__version__))
PY
}
