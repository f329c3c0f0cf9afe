// Kernel objects built from the same definition share one state (its parsed definition, compiled
// variants and recorded calls), as CuPy memoizes its kernels by their arguments: a new object of a
// definition the process has seen costs a lookup instead of a parse, a source generation and a
// module lookup. States are kept for the life of the process, as CuPy keeps its.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kiln::detail {

// A definition's text as one unambiguous key: each part length-prefixed.
class DefinitionKey {
public:
    DefinitionKey& add(std::string_view part);
    // Not an add() overload: a string literal would pick it over std::string_view.
    DefinitionKey& add_flag(bool flag) { return add(std::string_view(flag ? "1" : "0")); }
    DefinitionKey& add(const std::vector<std::string>& parts);

    [[nodiscard]] const std::string& text() const noexcept { return text_; }

private:
    std::string text_;
};

template <class State>
class SharedDefinitions {
public:
    // The state of `key`, made by `make` the first time (nothing is kept when it throws).
    std::shared_ptr<State> get(const DefinitionKey& key,
                               const std::function<std::shared_ptr<State>()>& make) {
        {
            const std::scoped_lock lock(mutex_);
            if (auto found = states_.find(key.text()); found != states_.end()) {
                return found->second;
            }
        }
        std::shared_ptr<State> made = make();
        const std::scoped_lock lock(mutex_);
        return states_.try_emplace(key.text(), std::move(made)).first->second;
    }

private:
    std::mutex mutex_;
    std::unordered_map<std::string, std::shared_ptr<State>> states_;
};

}  // namespace kiln::detail
