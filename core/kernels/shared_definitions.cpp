#include "shared_definitions.hpp"

namespace kiln::detail {

DefinitionKey& DefinitionKey::add(std::string_view part) {
    text_ += std::to_string(part.size());
    text_ += ':';
    text_ += part;
    return *this;
}

DefinitionKey& DefinitionKey::add(const std::vector<std::string>& parts) {
    add(std::string_view(std::to_string(parts.size())));
    for (const auto& part : parts) {
        add(std::string_view(part));
    }
    return *this;
}

}  // namespace kiln::detail
