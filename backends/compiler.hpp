// Source -> compiled binary, shared by NVRTC and HIPRTC: their APIs mirror each other, so one
// implementation runs over a table of either's entry points (backends/*/api.hpp).
#pragma once

#include "../core/backend.hpp"
#include "entry.hpp"
#include "toolkit_headers.hpp"

#include <kiln/error.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace kiln::detail {

template <class Rtc>
std::vector<std::string> supported_targets() {
    return Rtc::supported_targets();
}

template <class Rtc>
std::string compiler_version() {
    int major = 0;
    int minor = 0;
    call<Rtc>(Rtc::version, &major, &minor);
    return std::string(Rtc::compiler_name) + " " + std::to_string(major) + "." +
           std::to_string(minor) + Rtc::version_suffix();
}

// Rejects a target the compiler does not know before compiling: HIPRTC aborts the whole
// process on one.
template <class Rtc>
void require_supported(const std::string& target, std::string_view kernel) {
    const auto targets = Rtc::supported_targets();
    if (std::find(targets.begin(), targets.end(), Rtc::base_target(target)) != targets.end()) {
        return;
    }
    std::string list;
    for (const auto& t : targets) {
        list += (list.empty() ? "" : " ") + t;
    }
    throw Error("kiln: cannot compile kernel '" + std::string(kernel) + "': target '" + target +
                "' is not supported by " + Rtc::compiler_name + "; supported: " + list);
}

template <class Rtc>
CompiledBinary compile(const CompileRequest& request) {
    require_supported<Rtc>(request.target, request.kernel);

    typename Rtc::program_t program{};
    const std::string source(request.source);
    const std::string file = std::string(request.kernel) + ".cu";
    std::vector<const char*> header_texts;
    std::vector<const char*> header_names;
    header_texts.reserve(request.headers.size());
    header_names.reserve(request.headers.size());
    for (const auto& header : request.headers) {
        header_texts.push_back(header.text.c_str());
        header_names.push_back(header.name.c_str());
    }
    call<Rtc>(Rtc::create_program, &program, source.c_str(), file.c_str(),
              static_cast<int>(request.headers.size()), header_texts.data(), header_names.data());
    auto destroy = [](typename Rtc::program_t owned) { Rtc::destroy_program(&owned); };
    const std::unique_ptr<std::remove_pointer_t<typename Rtc::program_t>, decltype(destroy)> owner(
        program, destroy);

    std::vector<std::string> options = Rtc::base_options(request.target);
    options.insert(options.end(), request.options.begin(), request.options.end());
    std::vector<const char*> argv;
    argv.reserve(options.size());
    for (const auto& option : options) {
        argv.push_back(option.c_str());
    }

    for (const auto& expression : request.name_expressions) {
        call<Rtc>(Rtc::add_name_expression, program, expression.c_str());
    }
    const auto rc = Rtc::compile_program(program, static_cast<int>(argv.size()), argv.data());
    std::size_t log_size = 0;
    call<Rtc>(Rtc::get_log_size, program, &log_size);
    std::string log(log_size, '\0');
    if (log_size > 0) {
        call<Rtc>(Rtc::get_log, program, log.data());
    }
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) {
        log.pop_back();
    }
    if (rc == Rtc::compilation_error) {
        throw CompileError(
            std::string(request.kernel), log, options, source,
            reports_missing_header(log) ? Rtc::toolkit_headers().search : HeaderSearch{});
    }
    if (rc != Rtc::success) {
        throw BackendError(Rtc::compile_program.name, static_cast<int>(rc), Rtc::error_text(rc));
    }

    std::size_t size = 0;
    call<Rtc>(Rtc::get_code_size, program, &size);
    CompiledBinary binary{std::vector<char>(size), request.target, std::move(log), {}};
    call<Rtc>(Rtc::get_code, program, binary.image.data());
    for (const auto& expression : request.name_expressions) {
        const char* lowered = nullptr;
        call<Rtc>(Rtc::get_lowered_name, program, expression.c_str(), &lowered);
        binary.lowered_names.emplace_back(expression, lowered);
    }
    return binary;
}

}  // namespace kiln::detail
