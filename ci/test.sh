#!/usr/bin/env bash
# The one test command. Installs dependencies, checks formatting and the API reference, runs the
# configure, build and test workflow of two presets, runs a small benchmark, the user guide's
# snippets and a newcomer's Quick start in a fresh clone (ci/newcomer.sh), and lints the library
# with clang-tidy and for folder loops (ci/folder_loops.py). Ends with a summary per preset, then
# the output of any failed test again; exits non-zero on any failure.
#
# Two builds cover the matrix on two cores: asan (the CPU-only build under ASan and UBSan) and the
# widest build this machine's toolchains allow (all: the CUDA and HIP backends in one library,
# each tested with its own stamped-out suites and with the other's vendor libraries hidden; else
# cuda, rocm or cpu). The cuda and rocm presets are subsets of all; cuda-asan needs a GPU to run
# more than all does, and ci/gpu.sh cuda-asan runs it there.
set -uo pipefail
cd "$(dirname "$0")/.."
source ci/toolchains.sh

bash ci/deps.sh || { echo "ci/deps.sh failed"; exit 1; }

presets=(asan "$(widest_preset)")
# Each test is its own process (gtest_discover_tests), so they run one per core.
export CTEST_PARALLEL_LEVEL=${CTEST_PARALLEL_LEVEL:-$(nproc)}

format_status="ok"
if ! git ls-files -- '*.cpp' '*.hpp' '*.h' '*.cuh' | xargs clang-format-14 --dry-run --Werror; then
    format_status="FAILED (run clang-format -i on the files above)"
fi

# The API reference: every public name documented (ci/docs.sh, a second or so).
docs_status="ok"
if ! bash ci/docs.sh; then
    docs_status="FAILED (Doxygen's warnings above; build/docs/warnings.txt)"
fi

mkdir -p build
declare -A passed failed skipped note
for preset in "${presets[@]}"; do
    echo "=== preset $preset"
    rm -f "build/$preset/junit.xml"
    if cmake --workflow --preset "$preset" 2>&1 | tee "build/$preset.log"; then
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

# kiln-bench, small, from the widest build, on the default backend: without a GPU that is the host
# backend, which runs kiln's kernels on the CPU and checks them against the Kokkos baselines. Then,
# where the build has a GPU backend, that backend's cold compile times, which need no device.
widest=${presets[1]}
case "$widest" in
    all | cuda) compile_backend=cuda ;;
    rocm) compile_backend=hip ;;
    *) compile_backend="" ;;
esac
bench_status="ok"
bench=build/$widest/bench/kiln-bench
if [ ! -x "$bench" ]; then
    bench_status="FAILED ($bench was not built)"
elif ! "$bench" --size-scale 0.0001 --repeat 3 --cpu-repeat 2 \
    --json "build/$widest/kiln-bench.json" >"build/$widest/kiln-bench.log" 2>&1; then
    bench_status="FAILED (see build/$widest/kiln-bench.log)"
elif [ -n "$compile_backend" ] && ! KILN_BACKEND=$compile_backend "$bench" --filter '^compile_' \
    --repeat 3 --json "build/$widest/kiln-bench-compile.json" \
    >"build/$widest/kiln-bench-compile.log" 2>&1; then
    bench_status="FAILED (see build/$widest/kiln-bench-compile.log)"
fi

# The user guide's snippets (docs/guide), compiled against the widest build and run on the host
# backend: about 15 seconds with an empty compile cache.
guide_status="ok"
if ! bash ci/guide.sh "build/$widest" >"build/$widest/guide.log" 2>&1; then
    guide_status="FAILED (see build/$widest/guide.log)"
fi

# A newcomer's run: the README's Quick start in a fresh clone of HEAD (demo, install), then the
# examples and the README's C++ blocks built against the install and run on the host backend.
newcomer_status="ok"
newcomer_start=$SECONDS
if ! bash ci/newcomer.sh >build/newcomer.log 2>&1; then
    newcomer_status="FAILED (see build/newcomer.log)"
fi
newcomer_status="$newcomer_status, $(((SECONDS - newcomer_start) / 60)) min $(((SECONDS - newcomer_start) % 60)) s"

# clang-tidy over the library sources, a few files per process and one process per core, with the
# compile database of the build that compiled them: the core as the CPU-only build sees it, each
# backend from the widest build.
lint_status="ok"
# First the layering: no two folders of core/, dialects/ and backends/ include each other (under a second).
if ! python3 ci/folder_loops.py; then
    lint_status="FAILED (folder loops above: ci/folder_loops.py)"
fi
lint() {
    local database=build/$1
    shift
    [ -f "$database/compile_commands.json" ] || return 0
    # shellcheck disable=SC2068 # the globs expand here
    if ! printf '%s\n' $@ | xargs -P "$(nproc)" -n 4 clang-tidy-14 -p "$database" --quiet \
        --warnings-as-errors='*' 2>/dev/null; then
        lint_status="FAILED (clang-tidy findings above)"
    fi
}
lint asan "core/*.cpp core/*/*.cpp core/*/*/*.cpp dialects/*/*.cpp backends/*.cpp backends/host/*.cpp"
case "$widest" in
    all) lint all "backends/cuda/*.cpp backends/hip/*.cpp" ;;
    cuda) lint cuda "backends/cuda/*.cpp" ;;
    rocm) lint rocm "backends/hip/*.cpp" ;;
esac

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
echo "docs     $docs_status"
echo "guide    $guide_status"
echo "newcomer $newcomer_status"
[ "$format_status" = "ok" ] || sum_failed=$((sum_failed + 1))
[ "$lint_status" = "ok" ] || sum_failed=$((sum_failed + 1))
[ "$bench_status" = "ok" ] || sum_failed=$((sum_failed + 1))
[ "$docs_status" = "ok" ] || sum_failed=$((sum_failed + 1))
[ "$guide_status" = "ok" ] || sum_failed=$((sum_failed + 1))
[ "${newcomer_status%%,*}" = "ok" ] || sum_failed=$((sum_failed + 1))
echo "Skipped tests need a GPU (device label) or another build; a skip is not a pass."
# The failed tests once more, with their output, where the end of the log shows them.
for preset in "${presets[@]}"; do
    if [ "${failed[$preset]}" -gt 0 ] && [ -f "build/$preset/CTestTestfile.cmake" ]; then
        echo "=== failed in $preset, run again"
        ctest --preset "$preset" --rerun-failed --output-on-failure 2>&1 | tail -n 60
    fi
done
echo "total: $sum_passed passed, $sum_failed failed, $sum_skipped skipped"
[ "$sum_failed" -eq 0 ]
