#!/usr/bin/env bash
# The window and the libraries it needs, for a GPU machine without Qt (the device machines: Ubuntu 24.04,
# no Qt; issue 28's duel of two GPUs, issue 24's window on a GPU): one tar.xz holding build/filter-workbench,
# and build/filter-bench (this build's, with its OpenCV and NPP rows where they were found: the measurement
# records are taken with it, so "the best CPU code" is OpenCV where this build has it), every shared library
# they load except the C library and the OpenCL loader (the machine's own are used),
# Qt's offscreen platform and image-format plugins, and the DejaVu fonts with a fontconfig file naming them.
#   scripts/window-bundle.sh OUT.tar.xz [BUILD_DIR]
# On the other machine: tar xJf OUT.tar.xz -C DIR; DIR/run.sh <filter-workbench options>;
# DIR/bench.sh <filter-bench options>
set -euo pipefail
out="$(realpath -m "${1:?usage: window-bundle.sh OUT.tar.xz [BUILD_DIR]}")" build="${2:-build}"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/lib" "$stage/plugins/platforms" "$stage/plugins/imageformats" "$stage/fonts"
cp "$build/filter-workbench" "$build/filter-bench" "$stage/"
plugins=(/usr/lib/x86_64-linux-gnu/qt6/plugins/platforms/libqoffscreen.so /usr/lib/x86_64-linux-gnu/qt6/plugins/imageformats/*.so)
for f in "$build/filter-workbench" "$build/filter-bench" "${plugins[@]}"; do
    ldd "$f" | awk '$3 ~ /^\// {print $3}'
done | sort -u | grep -vE '/(libc|libm|libpthread|libdl|librt|libOpenCL|libgcc_s|libstdc\+\+)\.so|ld-linux' |
    while read -r lib; do cp -L "$lib" "$stage/lib/"; done
cp /usr/lib/x86_64-linux-gnu/qt6/plugins/platforms/libqoffscreen.so "$stage/plugins/platforms/"
cp /usr/lib/x86_64-linux-gnu/qt6/plugins/imageformats/*.so "$stage/plugins/imageformats/"
cp /usr/share/fonts/truetype/dejavu/DejaVuSans*.ttf "$stage/fonts/"
cat >"$stage/fonts.conf" <<'XML'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir prefix="relative">fonts</dir><cachedir>/tmp/fwb-fontconfig</cachedir></fontconfig>
XML
cat >"$stage/run.sh" <<'SH'
#!/usr/bin/env bash
here="$(cd "$(dirname "$0")" && pwd)"
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" QT_PLUGIN_PATH="$here/plugins"
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}" FONTCONFIG_FILE="$here/fonts.conf"
exec "$here/filter-workbench" "$@"
SH
sed -e 's#/filter-workbench"#/filter-bench"#' "$stage/run.sh" >"$stage/bench.sh"
chmod +x "$stage/run.sh" "$stage/bench.sh"
tar cJf "$out" -C "$stage" .
du -h "$out"
