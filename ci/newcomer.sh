#!/usr/bin/env bash
# A newcomer's first hour: a fresh clone of this repository's HEAD commit (uncommitted changes are
# not in it) in a temporary directory, where it does what README.md's Quick start says, in order:
# ci/demo.sh, `cmake --install build/<the preset it printed> --prefix P`, and the examples built
# against P with find_package(kiln) and run (on the host backend), one also with pkg-config. Then
# README.md's C++ blocks, built against P in the same way and run. ci/test.sh runs it.
#
#   ci/newcomer.sh [directory to keep the clone in; default: a temporary one, removed at the end]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -gt 0 ]; then
    home=$1
    rm -rf "$home"
    mkdir -p "$home"
else
    home=$(mktemp -d)
    trap 'rm -rf "$home"' EXIT
fi
step() { echo "=== newcomer: $*"; }
# A newcomer's compile cache is empty.
export KILN_CACHE_DIR=$home/kiln-cache

step "git clone $root ($(git -C "$root" rev-parse --short HEAD))"
git clone --quiet --no-checkout "$root" "$home/kiln"
git -C "$home/kiln" checkout --quiet --detach "$(git -C "$root" rev-parse HEAD)"
cd "$home/kiln"

step "ci/demo.sh"
bash ci/demo.sh 2>&1 | tee "$home/demo.log"
preset=$(sed -n 's/^kiln: building the \([a-z0-9-]*\) preset in .*/\1/p' "$home/demo.log")
[ -n "$preset" ] || { echo "newcomer: ci/demo.sh did not say which preset it built"; exit 1; }

step "cmake --install build/$preset --prefix $home/prefix"
cmake --install "build/$preset" --prefix "$home/prefix" >"$home/install.log" ||
    { cat "$home/install.log"; exit 1; }

step "the examples, built against the install"
cmake -S examples -B build/examples -DCMAKE_PREFIX_PATH="$home/prefix" \
    >"$home/examples-configure.log" || { cat "$home/examples-configure.log"; exit 1; }
cmake --build build/examples -j "$(nproc)"
ctest --test-dir build/examples --output-on-failure -j "$(nproc)"

step "an example built with pkg-config, as a code without CMake does"
PKG_CONFIG_PATH=$(dirname "$(find "$home/prefix" -name kiln.pc)")
export PKG_CONFIG_PATH
# shellcheck disable=SC2046 # pkg-config's flags are words
c++ $(pkg-config --cflags kiln) examples/l2norm.cpp -o "$home/l2norm" $(pkg-config --libs kiln)
KILN_BACKEND=host "$home/l2norm"

step "README.md's C++ blocks, built against the install"
bash ci/readme_snippets.sh "$home/prefix" "$home/readme-snippets"
step "done"
