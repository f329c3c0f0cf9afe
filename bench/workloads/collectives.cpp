// A one-rank communicator's all_reduce (float32, sum) at 8 MiB to 1 GiB, through kiln's
// Communicator and through NCCL (RCCL) called directly, one row each, side by side: what kiln's
// checks and dispatch cost over the library. The direct side calls the very library kiln loaded
// (dlopen with RTLD_NOLOAD), in a communicator of its own, on the same stream and buffers.
#include "../check.hpp"
#include "../peak_memory.hpp"
#include "../timing.hpp"
#include "common.hpp"
#include "workloads.hpp"

#include <kiln/backend.hpp>
#include <kiln/config.hpp>
#include <kiln/distributed/communicator.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/stream.hpp>

#include <dlfcn.h>

#include <array>
#include <optional>
#include <stdexcept>
#include <string>

namespace kiln::bench {

namespace {

// Calls per timed sample: the device stays busy, so each row times the collective, not the
// host's enqueue between two events.
constexpr int calls_per_sample = 10;

// The few NCCL functions the direct side calls, found in the library kiln already loaded.
class DirectNccl {
public:
    DirectNccl() {
        const bool rccl = active_backend() == BackendKind::hip && KILN_HIP_NVIDIA == 0;
        const char* soname = rccl ? "librccl.so.1" : "libnccl.so.2";
        handle_ = dlopen(soname, RTLD_NOW | RTLD_NOLOAD);
        if (handle_ == nullptr) {
            throw std::runtime_error(std::string(soname) + " is not loaded in this process");
        }
        get_unique_id_ = find<GetUniqueId>("ncclGetUniqueId");
        init_rank_ = find<InitRank>("ncclCommInitRank");
        all_reduce_ = find<AllReduce>("ncclAllReduce");
        destroy_ = find<Destroy>("ncclCommDestroy");
        std::array<char, 128> id{};
        check(get_unique_id_(id.data()), "ncclGetUniqueId");
        check(init_rank_(&comm_, 1, id, 0), "ncclCommInitRank");
    }
    ~DirectNccl() {
        if (comm_ != nullptr) {
            (void)destroy_(comm_);
        }
    }
    DirectNccl(const DirectNccl&) = delete;
    DirectNccl& operator=(const DirectNccl&) = delete;
    DirectNccl(DirectNccl&&) = delete;
    DirectNccl& operator=(DirectNccl&&) = delete;

    // float32 (ncclFloat32 = 7), sum (ncclSum = 0).
    void all_reduce_sum(const ndarray& in, const ndarray& out, StreamView stream) const {
        check(all_reduce_(in.data(), out.data(), static_cast<std::size_t>(in.size()), 7, 0, comm_,
                          stream.native()),
              "ncclAllReduce");
    }

private:
    using GetUniqueId = int (*)(char*);
    using InitRank = int (*)(void**, int, std::array<char, 128>, int);
    using AllReduce = int (*)(const void*, void*, std::size_t, int, int, void*, void*);
    using Destroy = int (*)(void*);

    template <class F>
    F find(const char* name) {
        void* symbol = dlsym(handle_, name);
        if (symbol == nullptr) {
            throw std::runtime_error(std::string("no ") + name + " in the loaded library");
        }
        return reinterpret_cast<F>(symbol);
    }
    static void check(int rc, const char* call) {
        if (rc != 0) {
            throw std::runtime_error(std::string(call) + " failed with code " + std::to_string(rc));
        }
    }

    void* handle_ = nullptr;
    void* comm_ = nullptr;
    GetUniqueId get_unique_id_ = nullptr;
    InitRank init_rank_ = nullptr;
    AllReduce all_reduce_ = nullptr;
    Destroy destroy_ = nullptr;
};

// The output equals the input (one rank's sum); large arrays are checked on a prefix.
Check same_values(const ndarray& in, const ndarray& out) {
    const std::int64_t n = std::min<std::int64_t>(in.size(), std::int64_t{1} << 24);
    const ndarray a = in[{Slice{.stop = n}}];
    const ndarray b = out[{Slice{.stop = n}}];
    const auto want = a.get<float>();
    const auto got = b.get<float>();
    return check_values<float>(got, want);
}

std::vector<Record> all_reduce_rows(const Context& context) {
    std::vector<Record> rows;
    const distributed::Communicator comm(distributed::Communicator::unique_id(), 0, 1);
    const DirectNccl direct;
    for (const std::int64_t mib : {8, 64, 256, 1024}) {
        const std::int64_t bytes = context.scaled(mib << 20);
        const std::int64_t count = std::max<std::int64_t>(1, bytes / 4);
        const std::string size = bytes_text(mib << 20);
        const PeakMemory peak(context.gpu);
        const ndarray in = arange(0.0, static_cast<double>(count), 1.0, float32);
        ndarray out = zeros({count}, float32);
        const StreamView stream = current_stream();

        Record kiln = make_record("allreduce_f32_sum_" + size,
                                  "one-rank all_reduce (sum) through kiln's Communicator",
                                  "Communicator", {count}, "float32", "memory");
        Record nccl = make_record("allreduce_f32_sum_" + size + "_nccl_direct",
                                  "the same all_reduce through NCCL/RCCL called directly", "NCCL",
                                  {count}, "float32", "memory");
        for (Record* r : {&kiln, &nccl}) {
            name_for_bytes(*r, mib << 20, 4 * count);
            r->bytes = 2.0 * static_cast<double>(count) * 4;
            r->params = Json::object({{"calls_per_sample", calls_per_sample}, {"ranks", 1}});
        }
        store(kiln,
              time_device(context,
                          [&] {
                              for (int i = 0; i < calls_per_sample; ++i) {
                                  comm.all_reduce(in, out);
                              }
                          }),
              calls_per_sample);
        kiln.check = same_values(in, out);
        out.fill(0.0);  // so that the direct side's check sees its own result
        store(nccl,
              time_device(context,
                          [&] {
                              for (int i = 0; i < calls_per_sample; ++i) {
                                  direct.all_reduce_sum(in, out, stream);
                              }
                          }),
              calls_per_sample);
        nccl.check = same_values(in, out);
        kiln.peak_bytes = nccl.peak_bytes = peak.bytes();
        const double ratio = *kiln.gpu_ms / *nccl.gpu_ms;
        kiln.note = "NCCL direct " + std::to_string(*nccl.gpu_ms) +
                    " ms: kiln/NCCL = " + std::to_string(ratio);
        kiln.params["nccl_direct_ms"] = *nccl.gpu_ms;
        kiln.params["kiln_over_nccl"] = ratio;
        rows.push_back(std::move(kiln));
        rows.push_back(std::move(nccl));
    }
    return rows;
}

}  // namespace

std::vector<Workload> collective_workloads() {
    return {skipped_on_host(
        {"allreduce_f32_sum", "one-rank all_reduce, kiln and NCCL direct", true, false, nullptr,
         all_reduce_rows},
        "the host backend's collectives run over MPI, which kiln-bench does not start")};
}

}  // namespace kiln::bench
