// Sets lazy fusion (include/kiln/lazy.hpp) for one row and restores it after, so each row says
// which mode it measures, whatever KILN_LAZY says.
#pragma once

#include <kiln/lazy.hpp>

namespace kiln::bench {

class LazyMode {
public:
    explicit LazyMode(bool enabled) : before_(kiln::lazy_fusion()) {
        kiln::set_lazy_fusion(enabled);
    }
    ~LazyMode() { kiln::set_lazy_fusion(before_); }
    LazyMode(const LazyMode&) = delete;
    LazyMode& operator=(const LazyMode&) = delete;
    LazyMode(LazyMode&&) = delete;
    LazyMode& operator=(LazyMode&&) = delete;

private:
    bool before_;
};

}  // namespace kiln::bench
