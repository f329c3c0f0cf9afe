#!/usr/bin/env bash
# Builds a GPU preset here (default: cuda) and packs build/gpu (build/gpu-<preset> for another
# preset): a self-contained folder that runs
# kiln's tests and demo on a machine with an NVIDIA GPU and CUDA 13 but no Kokkos, no GoogleTest
# and no package registry. Binaries find their libraries through $ORIGIN: no build paths inside.
# `ci/gpu.sh hip-nvidia` packs the HIP backend built on HIP's NVIDIA platform (build/gpu-hip-nvidia):
# its tests select KILN_BACKEND=hip themselves, and it needs nothing of HIP at run time.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-cuda}
out=build/gpu${1:+-$1}

bash ci/deps.sh
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"

build=build/$preset
rm -rf "$out"
mkdir -p "$out/bin" "$out/tests" "$out/lib"
cp -a "$build"/libkiln.so* "$build"/libkiln_mpi.so* "$out/lib/"
find "$build/tests" -maxdepth 1 -type f -name 'kiln-*-tests*' ! -name 'kiln-mpi-tests*' -perm -u+x \
    -exec cp {} "$out/tests/" \;
# The two-rank tests run under the GPU machine's own mpirun (run.sh), with its libmpi: neither is
# bundled, since an MPI library must match the launcher that starts it.
mkdir -p "$out/mpi"
find "$build/tests" "$build/examples" -maxdepth 1 -type f \
    \( -name 'kiln-mpi-tests*' -o -name sharded_mse -o -name distributed_mse \
    -o -name jacobi_heat \) \
    -perm -u+x -exec cp {} "$out/mpi/" \;
# The sanitized presets build no benchmark or demo (and may hold stale ones from before).
if grep -q '^KILN_BUILD_BENCH:BOOL=ON' "$build/CMakeCache.txt"; then
    find "$build/bench" -maxdepth 1 -type f -name 'kiln-*' -perm -u+x -exec cp {} "$out/bin/" \;
fi
# kiln-info, which run.sh prints first.
cp "$build/tools/kiln-info" "$out/bin/"
# The loader tests' probe: no test itself, so beside the programs (the tests look in ../bin).
cp "$build/tests/kiln-loader-probe" "$out/bin/"

# Bundle every shared library the binaries need except the C/C++ runtime and CUDA's own
# (the GPU machine's driver and toolkit provide those).
ldd "$out"/tests/* "$out"/bin/* "$out"/lib/libkiln.so | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' |
    sort -u | while read -r name path; do
        case "$name" in
            libc.so* | libm.so* | libstdc++.so* | libgcc_s.so* | ld-linux* | libdl.so* | \
                libpthread.so* | librt.so* | libcuda.so* | libnvrtc* | libkiln*.so*) ;;
            *) cp -L "$path" "$out/lib/$name" ;;
        esac
    done

# Debug sections are dropped to keep the folder small; symbols stay, so reports name functions.
strip --strip-debug "$out"/tests/* "$out"/bin/* "$out"/lib/*.so* "$out"/mpi/*
patchelf --set-rpath '$ORIGIN/../lib' "$out"/tests/* "$out"/bin/* "$out"/mpi/*
for lib in "$out"/lib/*.so*; do
    [ -L "$lib" ] || patchelf --set-rpath '$ORIGIN' "$lib"
done
cp ci/gpu-run.sh "$out/run.sh"
cp ci/sanitize-expected.txt "$out/"
# The benchmark's Python side (run.sh --bench): CuPy comparison, its Philox port, the plots.
mkdir -p "$out/bench"
cp bench/*.py "$out/bench/"
echo "gpu: $(du -sh "$out" | cut -f1) in $out; on the GPU machine run: bash $out/run.sh [results-dir]"
