# Sourced by ci/demo.sh and ci/bench.sh: build_preset <preset> <target>... configures the preset
# and builds the targets with the installed libraries (kiln-libraries), so that
# `cmake --install build/<preset>` works afterwards.
build_preset() {
    local preset=$1
    shift
    mkdir -p build
    echo "kiln: building the $preset preset in build/$preset"
    # Configure quietly, but show CMake's output when it fails.
    if ! cmake --preset "$preset" >"build/$preset-configure.log" 2>&1; then
        cat "build/$preset-configure.log"
        return 1
    fi
    # The build shows its progress and any compiler error (Ninja writes both to stdout).
    cmake --build --preset "$preset" --target kiln-libraries "$@"
}
