#!/usr/bin/env bash
# Builds kiln with the best backend this machine has (and its installed libraries, so that
# `cmake --install build/<preset>` works next) and runs kiln-demo (examples/elementwise_kernels.cpp,
# public API only): a clipped ReLU and a squared difference compiled at run time and checked
# against the host, on a GPU, or, where no GPU backend sees a device, on the host backend (this
# machine's CPU), saying why no GPU ran them.
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/toolchains.sh
source ci/build_preset.sh
bash ci/deps.sh
preset=$(best_preset)
build_preset "$preset" kiln-demo
"build/$preset/bench/kiln-demo"
