#!/usr/bin/env bash
# Fuzzing stage (scripts/test.sh runs it; FWB_FUZZ=0 skips it): builds the libFuzzer targets in
# tests/fuzz/ with Debian's clang (the core and the image I/O instrumented with
# -fsanitize=fuzzer-no-link,address,undefined) into build-san/ (shared with the sanitizer stage:
# scripts/sanitizer-build.sh), then runs each target for
# FWB_FUZZ_SECONDS (default 20: seven targets two at a time in about 80 s; a smoke test of every parser on
# each change, FWB_FUZZ_SECONDS=3600 for a real search) from its
# seed corpus in tests/fuzz/corpus/<target>/, as many at once as there are cores. Prints each target's
# executions and findings; any finding (crash, leak, timeout, out-of-memory, sanitizer report) fails
# the stage and leaves the input in build-san/findings/.
#   scripts/test-fuzz.sh [TARGET...]        only these targets
#   FWB_FUZZ_SECONDS=3600 scripts/test-fuzz.sh fuzz_image_file    an hour on one target
# New inputs the fuzzer finds interesting stay in build-san/corpus/<target>/ and are reused next run.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
. "$root/scripts/sanitizer-build.sh"
build="$san_build"
seconds="${FWB_FUZZ_SECONDS:-20}"
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(fuzz_image_file fuzz_png fuzz_jpeg fuzz_cache_entry fuzz_tuning_db fuzz_user_variant fuzz_cli)
start=$SECONDS
san_configure
cmake --build "$build" --parallel "$(nproc)" --target "${targets[@]}"
echo "fuzz: built in $((SECONDS - start)) s"

export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=0:allocator_may_return_null=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export QT_QPA_PLATFORM=offscreen
mkdir -p "$build/findings" "$build/logs"
run_one() {
    local target=$1 corpus="$build/corpus/$1" seeds="$root/tests/fuzz/corpus/$1"
    mkdir -p "$corpus"
    # -rss_limit_mb: our image limits allow a 2 Gpixel image on a large machine; the fuzzer's budget
    # is smaller. FWB_MEMORY_MIB=3072 has the tools act as on a 3 GiB machine (1 GiB per image, also
    # the decoders' allocation limit), so what libFuzzer reports as out-of-memory is a decoder or our
    # code asking for more than the limits allow, not a legal but huge image declared by a tiny file.
    FWB_MEMORY_MIB=3072 "$build/tests/fuzz/$target" "$corpus" "$seeds" -max_total_time="$seconds" -timeout=25 \
        -rss_limit_mb=4096 -malloc_limit_mb=4096 -max_len=65536 -print_final_stats=1 \
        -artifact_prefix="$build/findings/$target-" >"$build/logs/$target.log" 2>&1
}
pids=()
fail=0
running=0
for t in "${targets[@]}"; do
    run_one "$t" &
    pids+=("$!")
    running=$((running + 1))
    if [ "$running" -ge "$(nproc)" ]; then
        wait -n || true
        running=$((running - 1))
    fi
done
status=()
for i in "${!pids[@]}"; do
    if wait "${pids[$i]}"; then status[$i]=0; else status[$i]=$?; fi
done 2>/dev/null || true
printf '%-20s %12s %10s %8s %s\n' target executions exec/s corpus findings
for i in "${!targets[@]}"; do
    t=${targets[$i]}
    log="$build/logs/$t.log"
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | awk '{print $2}')
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | tail -1 | awk '{print $2}')
    corpus=$(ls "$build/corpus/$t" | wc -l)
    found=$(ls "$build/findings" | grep -c "^$t-" || true)
    printf '%-20s %12s %10s %8s %s\n' "$t" "${execs:-?}" "${rate:-?}" "$corpus" "$found"
    if [ "$found" != 0 ] || ! grep -q 'Done [0-9]* runs' "$log"; then
        fail=1
        echo "--- $t: finding (log $log)"
        grep -E 'ERROR:|SUMMARY:|runtime error|Test unit written|deadly signal|out-of-memory|timeout|terminate called|what\(\)|^fuzz_cli:|^Base64:' "$log" | head -20
    fi
done
echo "fuzz: done in $((SECONDS - start)) s (${seconds} s per target)"
exit $fail
