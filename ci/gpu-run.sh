#!/usr/bin/env bash
# Runs kiln's demo and every test binary of this folder (made by ci/gpu.sh) on an NVIDIA GPU.
# Usage: run.sh [results-dir] [--bench | --bench-only | --sanitize]. Writes each binary's output
# and GoogleTest XML there, then prints a summary (kept in summary.txt there too); exits non-zero
# if any test failed.
# --bench then runs the benchmark: kiln-bench, bench/cupy_compare.py (CuPy, same workloads and
# inputs) and bench/plot.py, writing <device>-<date>.json, its -combined.md/.json and PNG plots
# into results-dir, and, with two GPUs, examples/sharded_mse timed on 1 and 2 ranks.
# --bench-only runs the benchmark without the tests. KILN_BENCH_FILTER (a regex) narrows
# kiln-bench to some rows, e.g. 'peer_copy|_2dev' for the two-GPU ones.
# --sanitize instead runs the device suite under compute-sanitizer's memcheck (with
# --leak-check full), racecheck and synccheck, one line per tool; KILN_SANITIZER names the tool
# to the tests, so that timing tests skip, saying why. KILN_SANITIZE_TOOLS picks fewer tools,
# KILN_SANITIZE_SHARDS how many processes share each tool's suite, KILN_SANITIZE_TIMEOUT the seconds
# each may take.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
results=$here/results
tests=1 bench=0 sanitize=0
for arg in "$@"; do
    case "$arg" in
        --bench) bench=1 ;;
        --bench-only) bench=1 tests=0 ;;
        --sanitize) sanitize=1 tests=0 ;;
        -*) echo "run.sh: unknown option $arg (expected --bench, --bench-only or --sanitize)"; exit 2 ;;
        *) results=$arg ;;
    esac
done
mkdir -p "$results"

# NVRTC comes from the machine's CUDA toolkit.
if ! ldconfig -p | grep -q 'libnvrtc.so.13 '; then
    for dir in "${CUDA_HOME:-/none}/lib64" /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
        if [ -e "$dir/libnvrtc.so.13" ]; then
            export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
            break
        fi
    done
fi

# The bundle's GPU backend (cuda, or hip for a hip-nvidia bundle), for the programs that name one.
gpu_backend=$("$here/bin/kiln-loader-probe" 2>/dev/null | sed -n 's/^backend: //p' | head -n 1)
gpu_backend=${gpu_backend:-cuda}

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null |
    sed 's/^/gpu: /' | tee "$results/gpu.txt"
# What kiln finds here (backends, libraries, devices, cache), kept with the results.
"$here/bin/kiln-info" 2>&1 | tee "$results/kiln-info.txt"
sum_passed=0 sum_failed=0 sum_skipped=0

# The sharded MSE example timed on one GPU and on two (2e8 float64: 1e8 a rank on two), under
# mpirun: the speedup of two ranks over one. Needs two GPUs.
run_sharded_timing() {
    local gpus ranks rc out ms1 ms2
    gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
    if [ ! -x "$here/mpi/sharded_mse" ] || ! command -v mpirun >/dev/null; then
        echo "sharded_mse timing: skipped (no sharded_mse in this bundle, or no mpirun here)"
        return
    fi
    if [ "$gpus" -lt 2 ]; then
        echo "sharded_mse timing: skipped ($gpus GPU(s) here, two ranks need two)"
        return
    fi
    echo "=== sharded_mse, 1 and 2 ranks"
    for ranks in 1 2; do
        out="$results/sharded_mse-$gpu_backend-timed-$ranks.txt"
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 KILN_BACKEND=$gpu_backend timeout 600 \
            mpirun -np "$ranks" "$here/mpi/sharded_mse" 200000000 >"$out" 2>&1
        rc=$?
        cat "$out"
        [ "$rc" -eq 0 ] || { echo "sharded_mse on $ranks rank(s) failed ($rc)"; sum_failed=$((sum_failed + 1)); }
    done
    ms1=$(sed -n 's/^time: \([0-9.e+-]*\) ms.*/\1/p' "$results/sharded_mse-$gpu_backend-timed-1.txt")
    ms2=$(sed -n 's/^time: \([0-9.e+-]*\) ms.*/\1/p' "$results/sharded_mse-$gpu_backend-timed-2.txt")
    if [ -n "$ms1" ] && [ -n "$ms2" ]; then
        awk -v a="$ms1" -v b="$ms2" -v backend="$gpu_backend" 'BEGIN {
            printf "sharded_mse, 2e8 float64 on %s: 1 rank %s ms, 2 ranks %s ms: ", backend, a, b
            printf "speedup %.2fx (goal >= 1.9x)\n", a / b
        }' | tee "$results/sharded_mse-speedup.txt"
    fi
}

# The benchmark: kiln-bench, then CuPy on the same workloads and inputs, then the plots.
run_bench() {
    echo "=== kiln-bench"
    "$here/bin/kiln-bench" ${KILN_BENCH_FILTER:+--filter "$KILN_BENCH_FILTER"} --json "$results/" \
        2>&1 | tee "$results/kiln-bench.txt"
    local rc=${PIPESTATUS[0]} json
    json=$(sed -n 's/^results: //p' "$results/kiln-bench.txt")
    [ "$rc" -eq 0 ] || { echo "kiln-bench failed ($rc)"; sum_failed=$((sum_failed + 1)); }
    run_sharded_timing
    [ -n "$json" ] || return
    if ! python3 -c 'import cupy' 2>/dev/null; then
        echo "CuPy is not importable by python3: bench/cupy_compare.py not run"
        sum_failed=$((sum_failed + 1))
        return
    fi
    echo "=== bench/cupy_compare.py"
    python3 "$here/bench/cupy_compare.py" "$json" 2>&1 | tee "$results/cupy-compare.txt"
    rc=${PIPESTATUS[0]}
    [ "$rc" -eq 0 ] || { echo "cupy_compare.py failed ($rc)"; sum_failed=$((sum_failed + 1)); }
    if python3 -c 'import matplotlib' 2>/dev/null; then
        python3 "$here/bench/plot.py" "${json%.json}-combined.json" ||
            { echo "plot.py failed"; sum_failed=$((sum_failed + 1)); }
    else
        echo "matplotlib is not importable by python3: run bench/plot.py elsewhere on" \
            "${json%.json}-combined.json"
    fi
}

# The device suite under each compute-sanitizer tool. Every tool and GoogleTest shard
# (KILN_SANITIZE_SHARDS, default 4) runs at once: a tool slows the suite by one to two orders of
# magnitude. A tool's line counts the errors it reported and the tests that failed under it; leaks
# count as memcheck errors. API errors that a test provokes on purpose, and the memory of vendor
# handles kiln keeps for the process (sanitize-expected.txt), are counted apart; any other counts.
run_sanitizers() {
    local sanitizer
    sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
    [ -x "$sanitizer" ] || { echo "compute-sanitizer not found"; sum_failed=$((sum_failed + 1)); return; }
    local shards=${KILN_SANITIZE_SHARDS:-4} tools=${KILN_SANITIZE_TOOLS:-memcheck racecheck synccheck}
    local tool test shard log options count errors failed expected
    for tool in $tools; do
        # Every error printed, so that each is counted as expected or not.
        options=(--tool "$tool" --print-limit 100000)
        [ "$tool" = memcheck ] && options+=(--leak-check full)
        for test in "$here"/tests/kiln-device-tests-*; do
            # The host backend's kernels never reach the GPU the tools watch.
            [[ "$test" == *-host ]] && continue
            for ((shard = 0; shard < shards; shard++)); do
                log="$results/$(basename "$test").$tool.$shard"
                KILN_SANITIZER=$tool GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$shard \
                    timeout "${KILN_SANITIZE_TIMEOUT:-3600}" "$sanitizer" "${options[@]}" "$test" \
                    --gtest_output="xml:$log.xml" >"$log.txt" 2>&1 &
            done
        done
    done
    wait
    for tool in $tools; do
        errors=0 failed=0 expected=0
        for log in "$results"/kiln-device-tests-*."$tool".*.txt; do
            # The tool's last summary line; none means it did not finish: one error.
            count=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p; s/.*RACECHECK SUMMARY: .*(\([0-9]*\) error.*/\1/p' \
                "$log" | tail -n 1)
            errors=$((errors + ${count:-1}))
            # "Program hit <error> ..." inside "[ RUN ] <test>", when that pair is expected, or
            # when the call came from a library listed as "inside <library>"; and a leak whose
            # allocation frames are in a library listed as "leak <library>".
            count=$(awk 'NR == FNR { if ($1 == "leak") kept[$2] = 1
                                     else if ($1 == "inside") inside[$2] = 1
                                     else if ($1 !~ /^#/) ok[$1 " " $2] = 1
                                     next }
                         /^\[ RUN/ { test = $NF }
                         /Program hit/ { if ((test " " $4) in ok) n++; else caller = 2; next }
                         caller > 0 && /Host Frame/ {
                             caller--
                             for (library in inside) if (index($0, " in " library)) { n++; caller = 0 }
                         }
                         /Leaked [0-9,]+ bytes/ { frames = 6; next }
                         frames > 0 && /Host Frame/ {
                             frames--
                             for (library in kept) if (index($0, " in " library)) { n++; frames = 0 }
                         }
                         END { print n + 0 }' "$here/sanitize-expected.txt" "$log")
            expected=$((expected + count))
            # No XML means the process did not finish: one failed test.
            count=$(grep -o -m1 '<testsuites tests="[0-9]*" failures="[0-9]*"' "${log%.txt}.xml" \
                2>/dev/null | sed 's/.*failures="\([0-9]*\)"/\1/')
            failed=$((failed + ${count:-1}))
        done
        echo "sanitize $tool: $((errors - expected)) errors, $failed failed tests" \
            "($expected expected ones not counted: API errors tests provoke, memory of kept" \
            "vendor handles; logs: $results/*.$tool.*.txt)"
        sum_failed=$((sum_failed + errors - expected + failed))
    done
}

if [ "$sanitize" -eq 1 ]; then
    run_sanitizers
    echo "total: sanitizers $([ "$sum_failed" -eq 0 ] && echo clean || echo "found problems")"
    [ "$sum_failed" -eq 0 ]
    exit
fi

if [ "$tests" -eq 0 ]; then
    run_bench
    echo "total: benchmark $([ "$sum_failed" -eq 0 ] && echo passed || echo failed)"
    [ "$sum_failed" -eq 0 ]
    exit
fi

demo_rc=0
if [ -x "$here/bin/kiln-demo" ]; then
    "$here/bin/kiln-demo" 2>&1 | tee "$results/demo.txt"
    demo_rc=${PIPESTATUS[0]}
else
    echo "kiln-demo: not in this bundle (a sanitized preset builds no demo)"
fi

summary=$results/summary.txt
# A summary line, printed and kept.
# shellcheck disable=SC2059 # the callers pass the format
say() { printf "$@" | tee -a "$summary"; }
cat "$results/gpu.txt" >"$summary"
# Which backend the bundle's kiln chose, and its libraries (hip for a hip-nvidia bundle).
"$here/bin/kiln-loader-probe" 2>&1 | grep -E '^(backend|library)' | tee -a "$summary"
say '%-28s %7s %7s %8s\n' binary passed failed skipped
for test in "$here"/tests/*; do
    name=$(basename "$test")
    xml="$results/$name.xml"
    "$test" --gtest_output="xml:$xml" >"$results/$name.txt" 2>&1
    rc=$?
    total=0 failed=0 skipped=0
    if [ -f "$xml" ]; then
        total=$(grep -o -m1 '<testsuites tests="[0-9]*"' "$xml" | grep -o '[0-9]*')
        failed=$(grep -o -m1 '<testsuites tests="[0-9]*" failures="[0-9]*"' "$xml" |
            sed 's/.*failures="\([0-9]*\)"/\1/')
        skipped=$(grep -c 'result="skipped"' "$xml")
    fi
    total=${total:-0} failed=${failed:-0}
    if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
        failed=1  # crashed or failed outside a test
    fi
    passed=$((total - failed - skipped))
    [ "$passed" -ge 0 ] || passed=0
    say '%-28s %7d %7d %8d\n' "$name" "$passed" "$failed" "$skipped"
    [ "$rc" -eq 0 ] || tail -n 40 "$results/$name.txt"
    sum_passed=$((sum_passed + passed)) sum_failed=$((sum_failed + failed))
    sum_skipped=$((sum_skipped + skipped))
done
# The two-rank tests of kiln::distributed: under this machine's mpirun, one GPU per rank (the
# host backend's over MPI, on the CPU).
for test in "$here"/mpi/kiln-mpi-tests-*; do
    [ -e "$test" ] || continue
    name=$(basename "$test")
    gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
    if ! command -v mpirun >/dev/null; then
        say '%-28s skipped: no mpirun on this machine (OpenMPI: mpirun and libmpi.so.40)\n' "$name"
    elif [ "$gpus" -lt 2 ] && [ "$name" != kiln-mpi-tests-host ]; then
        say '%-28s skipped: %d GPU(s) here, two ranks need two\n' "$name" "$gpus"
    else
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 600 \
            mpirun -np 2 "$test" --gtest_color=no >"$results/$name.txt" 2>&1
        rc=$?
        passed=$(grep -c '^\[       OK \]' "$results/$name.txt")
        skipped=$(grep -c '^\[  SKIPPED \] [A-Za-z]' "$results/$name.txt")
        failed=$(grep -c '^\[  FAILED  \] [A-Za-z].*(' "$results/$name.txt")
        if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
            failed=1
        fi
        say '%-28s %7d %7d %8d (2 ranks, counted per rank)\n' "$name" "$passed" "$failed" "$skipped"
        [ "$rc" -eq 0 ] || tail -n 40 "$results/$name.txt"
        sum_passed=$((sum_passed + passed)) sum_failed=$((sum_failed + failed))
        sum_skipped=$((sum_skipped + skipped))
    fi
done
# The MPI examples (the MSE sharded by hand and by DistributedArray, the Jacobi solver with ghost
# rows): two ranks on the host backend, and one rank on the GPU (from_mpi's GPU path, a one-rank
# NCCL communicator).
for example in sharded_mse distributed_mse jacobi_heat; do
    if [ ! -x "$here/mpi/$example" ] || ! command -v mpirun >/dev/null; then
        continue
    fi
    arguments=(10000000)
    [ "$example" = jacobi_heat ] && arguments=(1024 100)  # a 1024x1024 grid, 100 iterations
    for run in "host 2" "$gpu_backend 1"; do
        read -r backend ranks <<<"$run"
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 KILN_BACKEND=$backend timeout 300 \
            mpirun -np "$ranks" "$here/mpi/$example" "${arguments[@]}" >"$results/$example-$backend.txt" 2>&1
        rc=$?
        say '%s on %s, %s rank(s): %s\n' "$example" "$backend" "$ranks" \
            "$(tail -n 3 "$results/$example-$backend.txt" | tr '\n' ' ')"
        if [ "$rc" -eq 0 ]; then
            sum_passed=$((sum_passed + 1))
        else
            sum_failed=$((sum_failed + 1))
        fi
    done
done
grep -h '^\[ device' "$results"/*.txt | sort -u | tee -a "$summary"
[ "$demo_rc" -eq 0 ] || { say 'kiln-demo failed (%d)\n' "$demo_rc"; sum_failed=$((sum_failed + 1)); }
[ "$bench" -eq 0 ] || run_bench
say 'total: %d passed, %d failed, %d skipped\n' "$sum_passed" "$sum_failed" "$sum_skipped"
[ "$sum_failed" -eq 0 ]
