#!/usr/bin/env bash
# The one test command. Installs dependencies, checks formatting, runs the configure, build and
# test workflow of every preset this machine's toolchains allow (cpu and asan always; cuda and
# cuda-asan with a CUDA toolkit; rocm with HIP; all's loader tests with both), then lints the
# library with clang-tidy. Ends with a summary per preset; exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
source ci/toolchains.sh

bash ci/deps.sh || { echo "ci/deps.sh failed"; exit 1; }

presets=(cpu asan)
cuda_toolkit >/dev/null && presets+=(cuda cuda-asan)
hip_runtime && presets+=(rocm)
cuda_toolkit >/dev/null && hip_runtime && presets+=(all)

# The all preset builds only libkiln and the loader tests: both backends in one library, each
# still used with the other's vendor libraries hidden. cuda and rocm run the rest of its suite.
run_preset() {
    if [ "$1" = all ]; then
        cmake --preset all && cmake --build --preset all --target kiln-loader-tests &&
            ctest --preset all -L loader
    else
        cmake --workflow --preset "$1"
    fi
}

format_status="ok"
if ! git ls-files -- '*.cpp' '*.hpp' | xargs clang-format-14 --dry-run --Werror; then
    format_status="FAILED (run clang-format -i on the files above)"
fi

mkdir -p build
declare -A passed failed skipped note
for preset in "${presets[@]}"; do
    echo "=== preset $preset"
    rm -f "build/$preset/junit.xml"
    if run_preset "$preset" 2>&1 | tee "build/$preset.log"; then
        note[$preset]=""
    else
        note[$preset]="(workflow failed: see build/$preset.log)"
    fi
    junit="build/$preset/junit.xml"
    attribute() { sed -n "s/^[[:space:]]*$1=\"\([0-9]*\)\".*/\1/p" "$junit" | head -n 1; }
    if [ -f "$junit" ]; then
        total=$(attribute tests)
        failed[$preset]=$(attribute failures)
        skipped[$preset]=$(attribute skipped)
        passed[$preset]=$((total - failed[$preset] - skipped[$preset]))
    else
        passed[$preset]=0 failed[$preset]=0 skipped[$preset]=0
    fi
    # A workflow that failed outside the tests (configure, build) counts as one failure.
    if [ -n "${note[$preset]}" ] && [ "${failed[$preset]}" -eq 0 ]; then
        failed[$preset]=1
    fi
done

# kiln-bench, small, from the cpu build: the Kokkos baselines run, and without a GPU backend it
# must say so and succeed.
bench_status="ok"
if [ ! -x build/cpu/bench/kiln-bench ]; then
    bench_status="FAILED (build/cpu/bench/kiln-bench was not built)"
elif ! build/cpu/bench/kiln-bench --size-scale 0.0001 --repeat 3 --cpu-repeat 2 \
    --json build/cpu/kiln-bench.json >build/cpu/kiln-bench.log 2>&1; then
    bench_status="FAILED (see build/cpu/kiln-bench.log)"
fi

# clang-tidy over each preset's own library sources, with that preset's compile database.
lint_status="ok"
declare -A lint_sources=([cpu]="core/*.cpp core/*/*.cpp backends/*.cpp" [cuda]="backends/cuda/*.cpp" [rocm]="backends/hip/*.cpp")
for preset in "${presets[@]}"; do
    [ -n "${lint_sources[$preset]:-}" ] && [ -f "build/$preset/compile_commands.json" ] || continue
    # shellcheck disable=SC2086 # the globs expand here
    if ! clang-tidy-14 -p "build/$preset" --quiet --warnings-as-errors='*' ${lint_sources[$preset]} 2>/dev/null; then
        lint_status="FAILED (clang-tidy findings above)"
    fi
done

echo
echo "=== summary"
printf '%-10s %7s %7s %8s\n' preset passed failed skipped
sum_passed=0 sum_failed=0 sum_skipped=0
for preset in "${presets[@]}"; do
    printf '%-10s %7d %7d %8d %s\n' "$preset" "${passed[$preset]}" "${failed[$preset]}" \
        "${skipped[$preset]}" "${note[$preset]}"
    sum_passed=$((sum_passed + passed[$preset]))
    sum_skipped=$((sum_skipped + skipped[$preset]))
    sum_failed=$((sum_failed + failed[$preset]))
done
echo "format   $format_status"
echo "lint     $lint_status"
echo "bench    $bench_status"
[ "$format_status" = "ok" ] || sum_failed=$((sum_failed + 1))
[ "$lint_status" = "ok" ] || sum_failed=$((sum_failed + 1))
[ "$bench_status" = "ok" ] || sum_failed=$((sum_failed + 1))
echo "Skipped tests need a GPU (device label) or another build; a skip is not a pass."
echo "total: $sum_passed passed, $sum_failed failed, $sum_skipped skipped"
[ "$sum_failed" -eq 0 ]
