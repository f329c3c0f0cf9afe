#!/usr/bin/env bash
# Builds kiln with the best backend this machine has and runs kiln-bench; arguments go to
# kiln-bench (ci/bench.sh --size-scale 0.01 --filter mse). Results: the table on stdout and
# bench/results/<device>-<date>.json. Without a GPU it runs kiln's kernels on the host backend, on
# this machine's CPU (results: bench/results/host-<cpu>-<date>.json), and says so; the workloads
# in the CUDA dialect (raw and JIT kernels) are skipped there with that reason.
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/toolchains.sh
source ci/build_preset.sh
bash ci/deps.sh
preset=$(best_preset)
build_preset "$preset" kiln-bench
"build/$preset/bench/kiln-bench" "$@"
