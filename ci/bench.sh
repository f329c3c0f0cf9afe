#!/usr/bin/env bash
# Builds kiln with the best backend this machine has and runs kiln-bench; arguments go to
# kiln-bench (ci/bench.sh --size-scale 0.01 --filter mse). Results: the table on stdout and
# build/<preset>/bench-results/<device>-<date>.json. Without a GPU it runs kiln's kernels on the
# host backend, on this machine's CPU (results: host-<cpu>-<date>.json), and says so; the few
# workloads that cannot run there stay in the table with the reason.
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/toolchains.sh
bash ci/deps.sh
preset=$(best_preset)
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" --target kiln-bench >/dev/null
"build/$preset/bench/kiln-bench" "$@"
