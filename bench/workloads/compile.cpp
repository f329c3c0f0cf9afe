// Compile time of the seeds' RawKernel sources for each target CI builds for, through kiln's
// compile path (RawModule::compile), with no device needed: cold compiles, each source made new
// by a comment so that no cache answers.
#include "../kernels.hpp"
#include "../timing.hpp"
#include "common.hpp"
#include "workloads.hpp"

#include <kiln/backend.hpp>
#include <kiln/error.hpp>
#include <kiln/raw_module.hpp>

#include <unistd.h>

#include <array>
#include <chrono>
#include <string>

namespace kiln::bench {

namespace {

std::vector<std::string> ci_targets(BackendKind kind) {
    switch (kind) {
        case BackendKind::cuda:
            return {"sm_80", "sm_90"};
        case BackendKind::hip:
            return {"gfx90a", "gfx908", "gfx1030"};
        case BackendKind::host:
            return {};  // the GPU compilers are timed here; first_call_* times the host's
    }
    throw Error("kiln-bench: compile: no CI targets for backend " + std::string(to_string(kind)));
}

Record compile_time(const Context& context, const RawDefinition& definition,
                    const std::string& target) {
    Record r = make_record(std::string("compile_") + definition.name + "_" + target,
                           std::string("cold compile of ") + definition.name + " for " + target,
                           "RawModule", {1}, "-", "compile");
    r.size = target;
    r.kernel = definition.json();
    r.params =
        Json::object({{"target", target}, {"backend", std::string(to_string(active_backend()))}});
    const int samples = std::min(context.options.repeat, 3);
    std::vector<double> us;
    std::size_t image_bytes = 0;
    for (int i = 0; i < samples; ++i) {
        const std::string nonce =
            "// kiln-bench compile " + std::to_string(::getpid()) + "-" +
            std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) + "\n";
        const RawModule module(nonce + definition.code);
        us.push_back(host_seconds([&] { image_bytes = module.compile(target).size(); }) * 1e6);
    }
    r.host_us = median(us);
    r.samples = samples;
    r.params["code_object_bytes"] = static_cast<std::int64_t>(image_bytes);
    return r;
}

}  // namespace

std::vector<Workload> compile_workloads() {
    if (compiled_backends().empty()) {
        return {};
    }
    const std::array definitions{&kernels::prime_factor_sum, &kernels::matmul_naive,
                                 &kernels::matmul_tiled, &kernels::mse_block, &kernels::add_raw};
    std::vector<Workload> all;
    for (const auto& target : ci_targets(active_backend())) {
        for (const RawDefinition* definition : definitions) {
            const std::string name = std::string("compile_") + definition->name + "_" + target;
            all.push_back({name,
                           "cold compile of " + std::string(definition->name) + " for " + target +
                               " (no device needed)",
                           false, true, [definition, target](const Context& context) {
                               return compile_time(context, *definition, target);
                           }});
        }
    }
    return all;
}

}  // namespace kiln::bench
