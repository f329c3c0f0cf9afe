#!/usr/bin/env bash
# Builds kiln with the best backend this machine has (and its installed libraries, so that
# `cmake --install build/<preset>` works next) and runs kiln-demo, a squared difference compiled
# at run time and launched through kiln's internals: on a GPU, or, where no GPU backend sees a
# device, on the host backend (this machine's CPU), saying why no GPU ran it.
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/toolchains.sh
source ci/build_preset.sh
bash ci/deps.sh
preset=$(best_preset)
build_preset "$preset" kiln-demo
"build/$preset/bench/kiln-demo"
