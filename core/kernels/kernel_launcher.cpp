#include "kernel_launcher.hpp"

#include "../array/array_memory.hpp"
#include "../backend.hpp"
#include "reduction/last_block_counters.hpp"

#include <kiln/device.hpp>

#include <utility>

namespace kiln::detail {

KernelLauncher::KernelLauncher(RecordedCall& record, StreamView stream)
    : record_(record),
      stream_(stream),
      multiprocessors_(Device(stream.device()).properties().multiprocessor_count),
      range_(record.kernel.c_str()) {}

void* KernelLauncher::scratch(std::int64_t bytes) {
    scratch_ = empty_on({bytes}, uint8, stream_);
    record_.scratch_bytes = bytes;
    return scratch_.data();
}

void* KernelLauncher::block_counter() {
    void* const counter = last_block_counter(stream_);
    record_.block_counter = counter != nullptr;
    return counter;
}

void KernelLauncher::launch(NativeFunction function, Dim3 grid, Dim3 block,
                            std::size_t shared_bytes, ArgumentPack arguments) {
    backend().launch(function, {grid, block, shared_bytes, stream_}, arguments.pointers());
    record_.launches.push_back({function, grid, block, shared_bytes, std::move(arguments)});
}

}  // namespace kiln::detail
