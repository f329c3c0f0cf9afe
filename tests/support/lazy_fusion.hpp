// Lazy fusion (include/kiln/lazy.hpp) switched on or off for a scope, for tests whose premise is
// one mode: eager temporaries, or deferred expressions.
#pragma once

#include <kiln/lazy.hpp>

namespace kiln::test {

// Lazy fusion on or off while it lives, as it was after.
class LazyFusion {
public:
    explicit LazyFusion(bool enabled) : previous_(kiln::lazy_fusion()) {
        kiln::set_lazy_fusion(enabled);
    }
    ~LazyFusion() { kiln::set_lazy_fusion(previous_); }
    LazyFusion(const LazyFusion&) = delete;
    LazyFusion& operator=(const LazyFusion&) = delete;
    LazyFusion(LazyFusion&&) = delete;
    LazyFusion& operator=(LazyFusion&&) = delete;

private:
    bool previous_;
};

}  // namespace kiln::test
