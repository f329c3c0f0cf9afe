# Sourced by the ci/ scripts: which GPU toolchains this machine has.

# A CUDA toolkit with NVRTC, where CMake's FindCUDAToolkit will look for it.
cuda_toolkit() {
    local dir
    for dir in "${CUDAToolkit_ROOT:-}" "${CUDA_PATH:-}" "$(dirname "$(dirname "$(command -v nvcc 2>/dev/null || echo /x/x)")")" /usr/local/cuda; do
        if [ -n "$dir" ] && [ -e "$dir/include/nvrtc.h" ]; then
            echo "$dir"
            return 0
        fi
    done
    return 1
}

# HIP headers and library (Debian's libamdhip64-dev, or ROCm in /opt/rocm).
hip_runtime() {
    [ -e /usr/include/hip/hip_runtime_api.h ] || [ -e /opt/rocm/include/hip/hip_runtime_api.h ]
}

# The preset of the best backend this machine can build: cuda, else rocm, else cpu.
best_preset() {
    if cuda_toolkit >/dev/null; then
        echo cuda
    elif hip_runtime; then
        echo rocm
    else
        echo cpu
    fi
}

# The preset that builds every backend this machine can: all with both toolchains, else as
# best_preset.
widest_preset() {
    if cuda_toolkit >/dev/null && hip_runtime; then
        echo all
    else
        best_preset
    fi
}
