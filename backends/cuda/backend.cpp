#include "../runtime.hpp"
#include "api.hpp"

#include <memory>

namespace kiln::detail {

std::unique_ptr<Backend> make_cuda_backend() {
    return std::make_unique<Runtime<cuda::Api>>();
}

}  // namespace kiln::detail
