#!/usr/bin/env bash
# The host work each launch path adds to the driver's launch, as instructions per call counted by
# callgrind on the host backend: exact and repeatable without a GPU, where a timed row on a GPU
# host moves by a microsecond between runs. The host backend's own launch is left out; on a GPU
# the driver's launch takes its place (the launch_floor_driver row of kiln-bench).
# Usage: bench/host_instructions.sh [BUILD_DIR] (default build/cuda; needs valgrind).
set -euo pipefail
build=${1:-build/cuda}
program="$build/bench/kiln-host-calls"
[ -x "$program" ] || { echo "no $program: build the kiln-host-calls target" >&2; exit 1; }
command -v valgrind > /dev/null || { echo "valgrind is needed (apt-get install valgrind)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Valgrind does not decode every instruction -march=native may pick; the kernels' code does not
# count here, so any x86-64 level will do.
cat > "$work/cxx" << 'WRAPPER'
#!/usr/bin/env bash
args=()
for a in "$@"; do [ "$a" = "-march=native" ] && a="-march=x86-64-v2"; args+=("$a"); done
exec "${KILN_INSTRUCTIONS_CXX:-g++}" "${args[@]}"
WRAPPER
chmod +x "$work/cxx"
calls=3000
count() {  # count PATH LAZY: instructions per call, and those of the host launch
    local out="$work/$1.$2"
    KILN_BACKEND=host KILN_HOST_CXX="$work/cxx" KILN_CACHE_DIR="$work/cache" KILN_LAZY=$2 \
        valgrind --tool=callgrind --separate-threads=yes --toggle-collect='counted_calls' \
        --callgrind-out-file="$out.%p" "$program" "$1" "$calls" > /dev/null 2>&1
    callgrind_annotate --inclusive=yes "$out".*-01 2> /dev/null > "$out.txt"
    local total launch
    total=$(awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}' "$out.txt")
    launch=$(awk '/kiln::detail::host::launch\(/ {gsub(",", "", $1); print $1; exit}' "$out.txt")
    echo "$(((total - ${launch:-0}) / calls)) $((${launch:-0} / calls))"
}
echo "| path | instructions per call | host launch, left out |"
echo "| --- | --: | --: |"
for path in raw elementwise reduction fused deferred routine; do
    read -r own launch < <(count "$path" 1)
    echo "| $path | $own | $launch |"
done
read -r own launch < <(count routine 0)
echo "| routine, KILN_LAZY=0 | $own | $launch |"
