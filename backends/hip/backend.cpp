#include "../runtime.hpp"
#include "api.hpp"

#include <memory>

namespace kiln::detail {

std::unique_ptr<Backend> make_hip_backend() {
    return std::make_unique<Runtime<hip::Api>>();
}

}  // namespace kiln::detail
