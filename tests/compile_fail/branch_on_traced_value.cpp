// Must not compile: a fused function that branches on a traced value would take one branch for
// every element. tests/CMakeLists.txt checks that the compiler says to use kiln::where.
#include <kiln/fuse.hpp>

auto relu = kiln::fuse("relu", [](auto x) {
    if (x > 0) {
        return x;
    }
    return -x;
});

kiln::ndarray apply(const kiln::ndarray& a) {
    return relu(a);
}
