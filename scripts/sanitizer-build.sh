# Sourced by scripts/test-sanitizers.sh and scripts/test-fuzz.sh (needs $root): one clang build with
# AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer's coverage hooks (fuzzer-no-link) on the
# whole core, in build-san/, serves both stages: the core, the CLI and the image I/O are compiled once
# for the sanitizer suites and the fuzz targets, not once with g++ and again with clang.
#   FWB_SAN_BUILD  the folder (default build-san/)      FWB_SAN_CXX  the clang++ (default /usr/bin/clang++)
san_build="${FWB_SAN_BUILD:-$root/build-san}"
san_cxx="${FWB_SAN_CXX:-/usr/bin/clang++}"

# Makes sure $san_cxx can link libFuzzer (its runtime is a separate package on some releases:
# Debian 12's libclang-rt-14-dev), then configures $san_build. Prints the configure log on failure.
san_configure() {
    command -v "$san_cxx" >/dev/null || { echo "sanitizers: $san_cxx not found (apt-get install clang)" >&2; return 1; }
    local probe
    probe="$(mktemp -d)"
    printf '#include <cstddef>\n#include <cstdint>\nextern "C" int LLVMFuzzerTestOneInput(const uint8_t *, size_t) { return 0; }\n' >"$probe/p.cpp"
    if ! "$san_cxx" -fsanitize=fuzzer,address "$probe/p.cpp" -o "$probe/p" 2>/dev/null; then
        local major sudo=""
        major="$("$san_cxx" -dumpversion | cut -d. -f1)"
        [ "$(id -u)" -ne 0 ] && sudo=sudo
        echo "sanitizers: installing libclang-rt-$major-dev (libFuzzer's runtime)"
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "libclang-rt-$major-dev"
        "$san_cxx" -fsanitize=fuzzer,address "$probe/p.cpp" -o "$probe/p" \
            || { echo "sanitizers: $san_cxx cannot link -fsanitize=fuzzer" >&2; rm -rf "$probe"; return 1; }
    fi
    rm -rf "$probe"
    local generator=()
    command -v ninja >/dev/null && [ ! -f "$san_build/CMakeCache.txt" ] && generator=(-G Ninja)
    mkdir -p "$san_build"
    local flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g1 -O1"
    cmake -S "$root" -B "$san_build" "${generator[@]}" -DCMAKE_CXX_COMPILER="$san_cxx" \
          -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$flags" \
          -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
          -DFWB_FUZZ=ON -DFWB_BUILD_GUI=OFF -DFWB_WITH_OPENCV=OFF -DFWB_WITH_CLBLAST=OFF -DBUILD_TESTING=ON \
          >"$san_build/configure.log" 2>&1 || { cat "$san_build/configure.log"; return 1; }
}
