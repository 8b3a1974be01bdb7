#!/usr/bin/env bash
# Packaging stage (scripts/test.sh runs it after the suite): builds the .deb from a configured and built
# build folder (default build/), checks its metadata and files, unpacks it into a scratch root with
# dpkg -x and runs the installed filter-bench and filter-workbench from there.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
start=$SECONDS
cd "$build"
rm -f opencl-filter-workbench_*.deb
cpack -G DEB >cpack.log 2>&1 || { cat cpack.log; exit 1; }
deb="$(ls opencl-filter-workbench_*.deb)"
echo "package: $deb ($(du -h "$deb" | cut -f1))"
depends="$(dpkg-deb -f "$deb" Depends)"
echo "package: Depends: $depends"
echo "package: Recommends: $(dpkg-deb -f "$deb" Recommends)"
for lib in libqt6core6 libqt6widgets6 ocl-icd-libopencl1 libstdc++6; do
    grep -q "$lib" <<<"$depends" || { echo "package: Depends lacks $lib" >&2; exit 1; }
done

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
dpkg -x "$deb" "$scratch"
for f in usr/bin/filter-bench usr/bin/filter-workbench usr/share/applications/filter-workbench.desktop \
         usr/share/icons/hicolor/scalable/apps/filter-workbench.svg \
         usr/share/doc/opencl-filter-workbench/README.md; do
    [ -e "$scratch/$f" ] || { echo "package: missing /$f" >&2; exit 1; }
done
if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$scratch/usr/share/applications/filter-workbench.desktop"
fi

# From the installed location: nothing of the build folder is on the path or in the environment.
cd "$scratch"
export FWB_CACHE_DIR="$scratch/cache" QT_QPA_PLATFORM=offscreen
"$scratch/usr/bin/filter-bench" --version | tee version.txt
grep -Eq '^filter-bench [0-9]+\.[0-9]+\.[0-9]+ \(commit [0-9a-z]+\)$' version.txt
"$scratch/usr/bin/filter-workbench" --version | grep -Eq '^filter-workbench [0-9.]+ \(commit [0-9a-z]+\)$'
"$scratch/usr/bin/filter-bench" list >list.txt
grep -q '^gaussian5x5 - ' list.txt
"$scratch/usr/bin/filter-workbench" --screenshot "$scratch/shot.png" --filter box3x3_interior --size 800x600
[ -s "$scratch/shot.png" ]
echo "package: installed binaries ran ($((SECONDS - start)) s)"
