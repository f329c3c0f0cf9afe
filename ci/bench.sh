#!/usr/bin/env bash
# Builds kiln with the best backend this machine has (and its installed libraries, so that
# `cmake --install build/<preset>` works next) and runs kiln-bench; arguments go to kiln-bench
# (ci/bench.sh --size-scale 0.01 --filter mse). Results: the table on stdout and
# build/<preset>/bench-results/<device>-<date>.json. Without a GPU it runs kiln's kernels, raw and
# JIT kernels included, on the host backend, on this machine's CPU, and says why no GPU ran them;
# the few workloads the host cannot run (block barriers at these sizes, driver calls, more devices
# than it shows) stay in the table with the reason. The compile-time rows need a GPU backend:
# KILN_BACKEND=cuda.
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/toolchains.sh
source ci/build_preset.sh
bash ci/deps.sh
preset=$(best_preset)
build_preset "$preset" kiln-bench
"build/$preset/bench/kiln-bench" "$@"
