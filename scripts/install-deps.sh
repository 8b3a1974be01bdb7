#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages OpenCL Filter Workbench needs (skips the install when present).
set -euo pipefail
packages=(cmake g++ ninja-build pkg-config python3 # python3: the median_networks test
          ocl-icd-opencl-dev opencl-clhpp-headers opencl-c-headers pocl-opencl-icd clinfo
          qt6-base-dev libqt6opengl6-dev qt6-charts-dev qt6-image-formats-plugins libgl-dev
          xvfb xauth
          nlohmann-json3-dev libcli11-dev
          libspng-dev libturbojpeg0-dev # PNG and JPEG without Qt (imageio/; optional at configure time)
          dpkg-dev desktop-file-utils # cpack -G DEB's dependency scan; the .deb's desktop entry check
          clang) # the fuzzing stage (scripts/test-fuzz.sh: libFuzzer); it adds libclang-rt-N-dev if needed
# Optional baselines and tools: the build finds them at configure time and works without them.
# FWB_MINIMAL_DEPS=1 skips them (bare GPU servers, quick containers).
if [ "${FWB_MINIMAL_DEPS:-0}" != 1 ]; then
    packages+=(libopencv-dev libclblast-dev libqscintilla2-qt6-dev)
fi
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all ${#packages[@]} packages present"
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
