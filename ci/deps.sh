#!/usr/bin/env bash
# Installs what kiln needs on a fresh Debian 12 or Ubuntu 24.04 machine. Non-interactive and
# idempotent; prints nothing when everything is already there. The CUDA toolkit is not installed
# here: the cuda preset uses an existing one, and this script says when there is none.
set -euo pipefail
source "$(dirname "$0")/toolchains.sh"

packages=(
    cmake ninja-build g++ python3     # build
    pkgconf                           # tests/consumer: kiln.pc
    libgtest-dev                      # tests
    libtrilinos-kokkos-dev            # CPU references
    libamdhip64-dev libamd-comgr-dev  # the HIP backend (HIP runtime, HIPRTC, comgr)
    libdlpack-dev                     # DLPack exchange
    libssl-dev                        # the compile cache's SHA-256 (libcrypto)
    libspdlog-dev libfmt-dev          # KILN_LOG (both header-only in libkiln)
    libboost-dev                      # Boost.Container's small_vector (header-only)
    libopenmpi-dev openmpi-bin        # optional: kiln::mpi and the two-rank tests (mpirun)
    nlohmann-json3-dev libcli11-dev   # kiln-bench's results file and command line
    patchelf                          # ci/gpu.sh
    clang-format-14 clang-tidy-14     # ci/test.sh: the version .clang-tidy is tuned for
    doxygen                           # ci/docs.sh: the API reference
)

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done

if [ ${#missing[@]} -gt 0 ]; then
    echo "deps: installing ${missing[*]}"
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        sudo="sudo"
    fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! cuda_toolkit >/dev/null; then
    echo "deps: no CUDA toolkit found (CUDAToolkit_ROOT, CUDA_PATH, nvcc on PATH, /usr/local/cuda);" \
         "install one to build the cuda preset"
fi
