// A kernel object's compiled variants, per device and variant key, so that a call whose variant
// has been compiled on its device neither generates nor hashes source.
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace kiln::detail {

template <class Compiled>
class VariantCache {
public:
    // The variant `key` on `device`, made by `compile` the first time. Two threads may compile a
    // new variant at once: the module cache makes the second compile a lookup, and the first
    // stored wins.
    template <class Compile>
    [[nodiscard]] Compiled get(int device, std::string key, Compile&& compile) {
        std::pair<int, std::string> at{device, std::move(key)};
        {
            const std::scoped_lock lock(mutex_);
            if (auto found = variants_.find(at); found != variants_.end()) {
                return found->second;
            }
        }
        Compiled compiled = std::forward<Compile>(compile)();
        const std::scoped_lock lock(mutex_);
        return variants_.try_emplace(std::move(at), std::move(compiled)).first->second;
    }

private:
    std::mutex mutex_;
    std::map<std::pair<int, std::string>, Compiled, std::less<>> variants_;
};

}  // namespace kiln::detail
