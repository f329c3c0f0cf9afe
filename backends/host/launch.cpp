#include "launch.hpp"

#include "block_scheduler.hpp"
#include "thread_pool.hpp"

#include <kiln/error.hpp>

#include <array>
#include <cstring>
#include <memory>
#include <vector>

namespace kiln::detail::host {

namespace {

// The values of one launch's arguments, each at its type's alignment, and pointers to them.
class ArgumentCopy {
public:
    ArgumentCopy(const KernelDescriptor& kernel, void* const* args) {
        std::vector<std::size_t> offsets(kernel.count);
        std::size_t end = 0;
        for (unsigned p = 0; p < kernel.count; ++p) {
            const std::size_t align = std::max(1U, kernel.alignments[p]);
            offsets[p] = (end + align - 1) / align * align;
            end = offsets[p] + kernel.sizes[p];
        }
        storage_.resize((end + sizeof(Unit) - 1) / sizeof(Unit));
        auto* bytes = reinterpret_cast<char*>(storage_.data());
        pointers_.resize(kernel.count);
        for (unsigned p = 0; p < kernel.count; ++p) {
            std::memcpy(bytes + offsets[p], args[p], kernel.sizes[p]);
            pointers_[p] = bytes + offsets[p];
        }
    }

    [[nodiscard]] void* const* pointers() const noexcept { return pointers_.data(); }

private:
    struct alignas(64) Unit {
        std::array<unsigned char, 64> bytes;
    };
    std::vector<Unit> storage_;
    std::vector<void*> pointers_;
};

}  // namespace

void launch(Streams& streams, const HostFunction& function, const LaunchConfig& config,
            void* const* args) {
    const Dim3& g = config.grid;
    const Dim3& b = config.block;
    const auto blocks = static_cast<std::int64_t>(g.x) * g.y * g.z;
    if (blocks == 0 || static_cast<std::int64_t>(b.x) * b.y * b.z == 0) {
        throw Error("kiln: launch of kernel '" + function.name + "' on the host: the grid (" +
                    std::to_string(g.x) + ", " + std::to_string(g.y) + ", " + std::to_string(g.z) +
                    ") or block (" + std::to_string(b.x) + ", " + std::to_string(b.y) + ", " +
                    std::to_string(b.z) + ") is empty");
    }
    auto arguments = std::make_shared<const ArgumentCopy>(*function.descriptor, args);
    const LaunchGrid grid{{g.x, g.y, g.z}, {b.x, b.y, b.z}, config.shared_mem, 0, 0,
                          &block_runtime()};
    (void)streams.push(
        config.stream.native(),
        [&function, module = function.module->shared_from_this(), arguments, grid, blocks] {
            try {
                ThreadPool::instance().run(blocks, [&](std::int64_t first, std::int64_t end) {
                    LaunchGrid part = grid;
                    part.first = static_cast<unsigned long long>(first);
                    part.end = static_cast<unsigned long long>(end);
                    function.descriptor->entry(arguments->pointers(), &part);
                });
            } catch (const std::exception& e) {
                throw BackendError("host kernel '" + function.name + "'", -1, e.what());
            }
        });
}

}  // namespace kiln::detail::host
