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
