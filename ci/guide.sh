#!/usr/bin/env bash
# Compiles every C++ snippet of the user guide (docs/guide/*.md) against a build of kiln and runs
# them on the host backend, with two host devices for the multi-GPU chapter; the program goes to
# build/guide. Usage:
#   bash ci/guide.sh [build folder]     (default: build/<the widest preset this machine builds>)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
source ci/toolchains.sh

build=${1:-build/$(widest_preset)}
if [ ! -f "$build/libkiln.so" ]; then
    echo "guide: no $build/libkiln.so (build a preset first, or name a build folder)"
    exit 1
fi
out=build/guide
mkdir -p "$out"
python3 docs/guide/snippets.py "$out/snippets.cpp" || exit 1
if ! "${CXX:-c++}" -std=c++20 -Iinclude -I"$build/include" "$out/snippets.cpp" -o "$out/snippets" \
    -L"$build" -Wl,-rpath,"$(cd "$build" && pwd)" -lkiln; then
    echo "guide: FAILED (a snippet does not compile: $out/snippets.cpp)"
    exit 1
fi
if ! KILN_BACKEND=host KILN_HOST_DEVICES=2 "$out/snippets"; then
    echo "guide: FAILED (a snippet threw: see above)"
    exit 1
fi
echo "guide: ok"
