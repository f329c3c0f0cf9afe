// A JIT kernel as kiln compiles it: the device source generated from what the macro captured
// (the user's file and line kept by #line directives), its options, and its declared parameters
// for the messages of a call's argument errors.
#pragma once

#include "../raw/signature.hpp"

#include <kiln/jit_kernel.hpp>

#include <string>
#include <vector>

namespace kiln::detail {

struct JitDefinition {
    std::string name;
    std::string source;
    std::vector<std::string> options;
    std::string location;                     // "file:line" of the macro
    std::vector<KernelParameter> parameters;  // as declared
    std::string name_expression;              // an instantiation's ("scale<float>"), else empty
};

// The definition of a kernel or kernel template: the preamble, the helpers in order (each once),
// then the kernel, `extern "C"` unless it is a template.
[[nodiscard]] JitDefinition jit_definition(const JitSource& source, const JitConfig& config);

// A human name for messages: "JIT kernel 'scale<float>' (file.cpp:12)".
[[nodiscard]] std::string jit_label(const JitDefinition& definition);

// A helper's device code: a #line directive, then `__device__ <result> <name>(...) { ... }`.
[[nodiscard]] std::string jit_function_source(const JitSource& source);

}  // namespace kiln::detail
