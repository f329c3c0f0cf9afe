#include "../backend.hpp"
#include "../codegen/device_prelude.hpp"
#include "../codegen/module_cache.hpp"
#include "../layout.hpp"
#include "../profiling.hpp"
#include "collapse.hpp"
#include "param_spec.hpp"
#include "type_binding.hpp"

#include <kiln/device.hpp>
#include <kiln/elementwise_kernel.hpp>
#include <kiln/error.hpp>
#include <kiln/stream.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <string>

namespace kiln::detail {

// What an ElementwiseKernel is: its parsed definition, and its compiled variants per device.
class ElementwiseState {
public:
    ElementwiseState(const std::string& in_params, const std::string& out_params,
                     std::string operation, std::string name, ElementwiseOptions options)
        : name(std::move(name)), operation(std::move(operation)), options(std::move(options)) {
        if (!is_identifier(this->name)) {
            throw Error("kiln: ElementwiseKernel: '" + this->name +
                        "' is not a valid kernel name (expected a C identifier)");
        }
        in = parse_params(in_params, this->name, "in_params", KernelKind::elementwise);
        out = parse_params(out_params, this->name, "out_params", KernelKind::elementwise);
        check_kernel_params(this->name, in, out, KernelKind::elementwise);
        if (out.empty()) {
            throw Error("kiln: ElementwiseKernel '" + this->name +
                        "': out_params is empty (expected at least one output)");
        }
    }

    std::string name;
    std::string operation;
    ElementwiseOptions options;
    std::vector<ParamSpec> in;
    std::vector<ParamSpec> out;

    // Compiled variants: (device, variant key) -> function, so that a repeated call neither
    // generates nor hashes source.
    std::mutex mutex;
    std::map<std::pair<int, std::string>, NativeFunction, std::less<>> variants;
};

namespace {

// One parameter of one call, ready to generate code for and to pass.
struct Operand {
    const ParamSpec* spec;
    bool output;
    DType dtype;
    enum Kind { array, scalar, raw } kind;
    ndarray value;                      // array and raw operands
    std::array<std::byte, 16> bytes{};  // scalar operands
    Strides strides;                    // array operands, collapsed
    bool contiguous_raw = false;
};

struct Call {
    std::vector<Operand> operands;
    std::vector<ndarray> outputs;
    Shape shape;  // collapsed iteration shape
    std::int64_t size = 0;
    bool index32 = true;
    bool contiguous = true;  // every array operand steps by its itemsize along one axis
};

std::string fail_prefix(const ElementwiseState& k) {
    return "kiln: ElementwiseKernel '" + k.name + "': ";
}

Call prepare(const ElementwiseState& k, std::span<const Argument> args,
             const CallOptions& options) {
    const std::size_t nin = k.in.size();
    const std::size_t nout = k.out.size();
    if (args.size() != nin && args.size() != nin + nout) {
        throw TypeError(fail_prefix(k) + "takes " + std::to_string(nin) + " inputs (then " +
                        std::to_string(nout) + " outputs, optionally), got " +
                        std::to_string(args.size()) + " arguments");
    }
    // Types: bind the placeholders.
    std::vector<ArgumentType> in_types;
    std::vector<ArgumentType> out_types;
    for (std::size_t a = 0; a < args.size(); ++a) {
        ArgumentType type{ArgumentType::absent, DType::bool_};
        if (const auto* array = std::get_if<ndarray>(&args[a])) {
            type = {ArgumentType::array, array->dtype()};
        } else {
            type = {ArgumentType::scalar, std::get<Scalar>(args[a]).dtype()};
            if (a >= nin) {
                throw TypeError(fail_prefix(k) + "output '" + k.out[a - nin].name +
                                "' must be an ndarray, got a scalar");
            }
        }
        (a < nin ? in_types : out_types).push_back(type);
    }
    const auto binding = bind_types(k.name, k.in, k.out, in_types, out_types);

    Call call;
    const int device = backend().current_device();
    std::vector<Shape> shapes;
    auto add = [&](const ParamSpec& spec, bool output, const Argument* arg) {
        Operand op{&spec, output, resolved_dtype(spec, binding), Operand::array, {}, {}, {}, false};
        op.kind = spec.raw ? Operand::raw : Operand::array;
        if (arg != nullptr && std::holds_alternative<Scalar>(*arg)) {
            op.kind = Operand::scalar;
            op.bytes = std::get<Scalar>(*arg).bytes_as(op.dtype);
        } else if (arg != nullptr) {
            op.value = std::get<ndarray>(*arg);
            if (op.value.device() != device) {
                throw Error(fail_prefix(k) + "argument '" + spec.name + "' is on device " +
                            std::to_string(op.value.device()) + " but the kernel runs on device " +
                            std::to_string(device));
            }
            if (op.kind == Operand::array) {
                shapes.push_back(op.value.shape());
            }
        }
        call.operands.push_back(std::move(op));
    };
    for (std::size_t p = 0; p < nin; ++p) {
        add(k.in[p], false, &args[p]);
    }
    for (std::size_t p = 0; p < nout; ++p) {
        add(k.out[p], true, args.size() > nin ? &args[nin + p] : nullptr);
    }

    // Shapes: broadcast the non-raw arrays; raw-only calls take size=.
    const bool any_array = !shapes.empty();
    Shape shape;
    if (any_array) {
        if (options.size) {
            throw Error(fail_prefix(k) + "size= is only allowed when every array argument is raw");
        }
        try {
            shape = broadcast_shapes(shapes);
        } catch (const ShapeError&) {
            std::string list;
            for (const auto& s : shapes) {
                list += " " + to_string(s);
            }
            throw ShapeError(fail_prefix(k) +
                             "arguments could not be broadcast together with "
                             "shapes" +
                             list);
        }
    } else {
        if (!options.size) {
            throw Error(fail_prefix(k) + "every array argument is raw, so the call needs size=");
        }
        if (*options.size < 0) {
            throw Error(fail_prefix(k) + "size must be non-negative, got " +
                        std::to_string(*options.size));
        }
        shape = {*options.size};
    }

    // Outputs: check the given ones, allocate the missing ones.
    const bool outputs_given = args.size() == nin + nout;
    for (auto& op : call.operands) {
        if (!op.output) {
            continue;
        }
        if (!outputs_given) {
            op.value = empty(shape, op.dtype);
        } else {
            if (op.value.dtype() != op.dtype) {
                throw TypeError(fail_prefix(k) + "output '" + op.spec->name + "' is " +
                                std::string(kiln::name(op.value.dtype())) + " but must be " +
                                std::string(kiln::name(op.dtype)));
            }
            if (op.kind == Operand::array && op.value.shape() != shape) {
                throw ShapeError(fail_prefix(k) + "output '" + op.spec->name + "' has shape " +
                                 to_string(op.value.shape()) + " but the result's shape is " +
                                 to_string(shape));
            }
        }
        call.outputs.push_back(op.value);
    }
    for (auto& op : call.operands) {
        if (!op.output && op.kind == Operand::array && op.value.dtype() != op.dtype) {
            throw TypeError(fail_prefix(k) + "input '" + op.spec->name + "' is " +
                            std::string(kiln::name(op.value.dtype())) + " but must be " +
                            std::string(kiln::name(op.dtype)));
        }
    }

    // Layout: broadcast strides, then collapse.
    std::vector<Strides> strides;
    std::int64_t extent = 0;
    for (auto& op : call.operands) {
        if (op.kind == Operand::array) {
            auto layout =
                broadcast_to({op.value.shape(), op.value.strides(), 0}, shape, op.value.itemsize());
            strides.push_back(layout.strides);
            const auto [low, high] = byte_extent(layout, op.value.itemsize());
            extent = std::max({extent, -low, high});
        } else if (op.kind == Operand::raw) {
            op.contiguous_raw = op.value.c_contiguous();
            const auto [low, high] =
                byte_extent({op.value.shape(), op.value.strides(), 0}, op.value.itemsize());
            extent = std::max({extent, -low, high});
        }
    }
    call.size = checked_size(shape, 1);
    Collapsed collapsed =
        k.options.reduce_dims ? collapse_dims(shape, strides) : Collapsed{shape, strides};
    call.shape = std::move(collapsed.shape);
    std::size_t s = 0;
    for (auto& op : call.operands) {
        if (op.kind == Operand::array) {
            op.strides = std::move(collapsed.strides[s++]);
            call.contiguous = call.contiguous && call.shape.size() <= 1 &&
                              (call.shape.empty() ||
                               op.strides[0] == static_cast<std::int64_t>(itemsize(op.dtype)));
        }
    }
    constexpr std::int64_t limit32 = std::numeric_limits<std::int32_t>::max();
    call.index32 = call.size < limit32 && extent < limit32;
    return call;
}

// A short text that tells variants apart: every operand's kind, dtype and layout class.
std::string variant_key(const Call& call) {
    std::string key = std::to_string(call.shape.size()) + (call.contiguous ? "c" : "s") +
                      (call.index32 ? "4" : "8");
    for (const auto& op : call.operands) {
        key +=
            "|" + std::to_string(static_cast<int>(op.kind)) +
            std::to_string(static_cast<int>(op.dtype)) +
            (op.kind == Operand::raw ? (op.contiguous_raw ? "c" : std::to_string(op.value.ndim()))
                                     : "");
    }
    return key;
}

std::string generate(const ElementwiseState& k, const Call& call) {
    const std::string index = call.index32 ? "int" : "long long";
    const std::size_t ndim = std::max<std::size_t>(call.shape.size(), 1);
    std::string params = "long long _n, kiln_dims<" + std::to_string(ndim) + "> _shape";
    std::string typedefs;
    std::map<std::string, std::string> placeholder_types;
    std::string bindings;
    std::string offsets;
    std::string unravel;
    for (const auto& op : call.operands) {
        const ParamSpec& p = *op.spec;
        const std::string type(c_type(op.dtype));
        if (!p.dtype) {
            placeholder_types[p.placeholder] = type;
        }
        const std::string declared = p.dtype ? type : p.placeholder;
        switch (op.kind) {
            case Operand::scalar:
                params += ", const " + declared + " " + p.name;
                break;
            case Operand::raw:
                params +=
                    ", " +
                    (op.contiguous_raw
                         ? "kiln_raw_c<" + declared + ">"
                         : "kiln_raw<" + declared + ", " +
                               std::to_string(std::max<std::int64_t>(op.value.ndim(), 1)) + ">") +
                    " " + p.name;
                break;
            case Operand::array: {
                const bool is_const = !op.output && !p.non_const;
                params += ", char* _p_" + p.name;
                if (!call.contiguous) {
                    params += ", kiln_dims<" + std::to_string(ndim) + "> _s_" + p.name;
                    offsets += ", _o_" + p.name + " = 0";
                    unravel += "            _o_" + p.name + " += _k * _s_" + p.name + ".v[_d];\n";
                }
                std::string offset = "_o_" + p.name;
                if (call.contiguous) {
                    offset = "i * (" + index;
                    offset.append(")sizeof(").append(declared).append(")");
                }
                const std::string qualified = (is_const ? "const " : "") + declared;
                bindings.append("        ").append(qualified).append("& ").append(p.name);
                bindings.append(" = *reinterpret_cast<").append(qualified).append("*>(_p_");
                bindings.append(p.name).append(" + ").append(offset).append(");\n");
                break;
            }
        }
    }
    // Placeholders must be types before the parameter list uses them: template the kernel on
    // nothing, and typedef them at namespace scope under the kernel's own names.
    for (const auto& [placeholder, type] : placeholder_types) {
        typedefs += "typedef " + type;
        typedefs += " " + placeholder + ";\n";
    }
    std::string source(device_prelude());
    source += R"(
template <int N> struct kiln_dims { long long v[N]; };
struct kiln_index { long long n; __device__ long long size() const { return n; } };
template <class T> struct kiln_raw_c {
    char* p;
    __device__ T& operator[](long long i) const { return reinterpret_cast<T*>(p)[i]; }
};
template <class T, int N> struct kiln_raw {
    char* p; long long shape[N]; long long strides[N];
    __device__ T& operator[](long long i) const {
        long long offset = 0;
        for (int d = N - 1; d >= 0; --d) { offset += (i % shape[d]) * strides[d]; i /= shape[d]; }
        return *reinterpret_cast<T*>(p + offset);
    }
};
)";
    source += typedefs + k.options.preamble + "\n";
    source += "extern \"C\" __global__ void " + k.name + "(" + params + ") {\n";
    source += "    const kiln_index _ind{_n};\n    " + k.options.loop_prep + "\n";
    source += "    for (" + index + " i = blockIdx.x * (" + index +
              ")blockDim.x + threadIdx.x; i < (" + index + ")_n; i += (" + index +
              ")gridDim.x * blockDim.x) {\n";
    if (!call.contiguous) {
        source += "        " + index + " _r = i" + offsets + ";\n";
        source += "        for (int _d = " + std::to_string(ndim) + " - 1; _d >= 0; --_d) {\n";
        source += "            const " + index + " _k = _r % (" + index + ")_shape.v[_d];\n";
        source += "            _r /= (" + index + ")_shape.v[_d];\n" + unravel + "        }\n";
    }
    source +=
        bindings + "        " + k.operation + ";\n    }\n    " + k.options.after_loop + "\n}\n";
    return source;
}

// Kernel arguments in the order generate() declares them.
class Packed {
public:
    explicit Packed(const Call& call) {
        const std::size_t ndim = std::max<std::size_t>(call.shape.size(), 1);
        push(call.size);
        push_dims(call.shape.empty() ? Shape{1} : call.shape, ndim);
        for (const auto& op : call.operands) {
            switch (op.kind) {
                case Operand::scalar:
                    push_bytes(op.bytes.data(), itemsize(op.dtype));
                    break;
                case Operand::raw:
                    push(op.value.data());
                    if (!op.contiguous_raw) {
                        const auto n =
                            static_cast<std::size_t>(std::max<std::int64_t>(op.value.ndim(), 1));
                        const Shape shape = op.value.ndim() == 0 ? Shape{1} : op.value.shape();
                        const Strides strides =
                            op.value.ndim() == 0 ? Strides{0} : op.value.strides();
                        append_to_last(shape, n);
                        append_to_last(strides, n);
                    }
                    break;
                case Operand::array:
                    push(op.value.data());
                    if (!call.contiguous) {
                        push_dims(op.strides.empty() ? Strides{0} : op.strides, ndim);
                    }
                    break;
            }
        }
        for (auto& storage : storage_) {
            pointers_.push_back(storage.data());
        }
    }
    [[nodiscard]] void** pointers() { return pointers_.data(); }

private:
    template <class T>
    void push(const T& value) {
        push_bytes(&value, sizeof(T));
    }
    void push_bytes(const void* data, std::size_t bytes) {
        storage_.emplace_back(bytes);
        std::memcpy(storage_.back().data(), data, bytes);
    }
    void push_dims(const std::vector<std::int64_t>& values, std::size_t n) {
        std::vector<long long> dims(n, 0);
        std::copy(values.begin(), values.end(), dims.begin());
        push_bytes(dims.data(), n * sizeof(long long));
    }
    // The raw struct {p, shape[N], strides[N]} is one argument: extend the pointer just pushed.
    void append_to_last(const std::vector<std::int64_t>& values, std::size_t n) {
        auto& last = storage_.back();
        const std::size_t at = last.size();
        last.resize(at + n * sizeof(long long));
        std::vector<long long> dims(n, 0);
        std::copy(values.begin(), values.end(), dims.begin());
        std::memcpy(last.data() + at, dims.data(), n * sizeof(long long));
    }

    std::vector<std::vector<std::byte>> storage_;
    std::vector<void*> pointers_;
};

}  // namespace

}  // namespace kiln::detail

namespace kiln {

ElementwiseKernel::ElementwiseKernel(const std::string& in_params, const std::string& out_params,
                                     std::string operation, std::string name,
                                     ElementwiseOptions options)
    : state_(std::make_shared<detail::ElementwiseState>(in_params, out_params, std::move(operation),
                                                        std::move(name), std::move(options))) {}

ElementwiseKernel::~ElementwiseKernel() = default;
ElementwiseKernel::ElementwiseKernel(const ElementwiseKernel&) = default;
ElementwiseKernel& ElementwiseKernel::operator=(const ElementwiseKernel&) = default;
ElementwiseKernel::ElementwiseKernel(ElementwiseKernel&&) noexcept = default;
ElementwiseKernel& ElementwiseKernel::operator=(ElementwiseKernel&&) noexcept = default;

const std::string& ElementwiseKernel::name() const noexcept {
    return state_->name;
}

ndarray ElementwiseKernel::operator()(std::initializer_list<Argument> args,
                                      const CallOptions& options) const {
    return outputs(std::span<const Argument>(args.begin(), args.size()), options).front();
}

std::string ElementwiseKernel::source(std::span<const Argument> args,
                                      const CallOptions& options) const {
    return detail::generate(*state_, detail::prepare(*state_, args, options));
}

std::vector<ndarray> ElementwiseKernel::outputs(std::span<const Argument> args,
                                                const CallOptions& options) const {
    detail::Call call = detail::prepare(*state_, args, options);
    if (call.size == 0) {
        return call.outputs;
    }
    auto& variants = state_->variants;
    std::pair<int, std::string> key{detail::backend().current_device(), detail::variant_key(call)};
    void* function = nullptr;
    {
        const std::scoped_lock lock(state_->mutex);
        if (auto found = variants.find(key); found != variants.end()) {
            function = found->second;
        }
    }
    if (function == nullptr) {
        function = detail::cached_function(detail::generate(*state_, call), state_->name,
                                           state_->options.options);
        const std::scoped_lock lock(state_->mutex);
        variants.emplace(std::move(key), function);
    }
    detail::Packed packed(call);
    constexpr std::int64_t block = 256;
    const std::int64_t blocks = (call.size + block - 1) / block;
    const std::int64_t resident =
        std::int64_t{Device::current().properties().multiprocessor_count} * 32;
    const auto grid = static_cast<unsigned>(std::min(blocks, resident));
    const StreamView stream = options.stream.value_or(current_stream());
    const detail::ProfileRange range(state_->name.c_str());
    detail::backend().launch(
        function, {{grid, 1, 1}, {static_cast<unsigned>(block), 1, 1}, 0, stream.native()},
        packed.pointers());
    return call.outputs;
}

}  // namespace kiln
