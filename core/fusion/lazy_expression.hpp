// A deferred elementwise operation behind an ndarray (lazy fusion, include/kiln/lazy.hpp). Its
// operands are arrays, deferred or not, and scalars, held until it is computed, so that they
// outlive it. Computing it inlines every operand not yet computed, so a chain of deferred
// operations is one kernel, made from kiln::fuse's graph and source.
#pragma once

#include "../array/pending_array.hpp"
#include "graph.hpp"

#include <boost/container/small_vector.hpp>
#include <kiln/argument.hpp>
#include <kiln/ndarray.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace kiln::detail {

// One deferred operation: a ufunc, where or astype (kind, ufunc, loop and result dtypes as a
// fused trace's node) of its operands.
struct LazyOperation {
    NodeKind kind = NodeKind::ufunc;
    const UfuncDefinition* ufunc = nullptr;
    DType loop{};
    DType dtype{};
    // At most three (where, clip): held inline, one allocation fewer per deferred operation.
    boost::container::small_vector<Argument, 3> operands;
};

// How long an expression is once its deferred operands are inlined: its operations, and the
// arrays and scalars its kernel takes as arguments (bounded apart: a scalar is a few bytes of the
// kernel's parameters, an array a descriptor).
struct LazyLength {
    int operations = 1;
    int arrays = 0;
    int scalars = 0;
};

// The bounds of one deferred expression, past which its deferred operands run first: the
// operations inlined into one kernel (ArrayFire's AF_MAX_JIT_LEN is 100 on CUDA), and its array
// and scalar arguments, which share the kernel's parameter space (an array's descriptor is far
// larger than a scalar). Scalars are bounded apart so that a loop of scalar updates splits at the
// operation bound, into expressions of one structure.
inline constexpr LazyLength max_lazy_length{.operations = 64, .arrays = 24, .scalars = 64};

class LazyExpression final : public PendingArray {
public:
    // The expression of `operation`, of `length` once its deferred operands are inlined,
    // registered as reading each array operand.
    [[nodiscard]] static std::shared_ptr<LazyExpression> make(
        std::shared_ptr<const LazyOperation> operation, Shape shape, StreamView stream,
        LazyLength length);
    LazyExpression(std::shared_ptr<const LazyOperation> operation, Shape shape, StreamView stream,
                   LazyLength length);

    [[nodiscard]] StreamView stream() const noexcept override { return stream_; }
    // The operation, or null once computed.
    [[nodiscard]] std::shared_ptr<const LazyOperation> operation() const;
    [[nodiscard]] LazyLength length() const noexcept { return length_; }

    // The expression behind `a` when it is deferred and not yet computed, else null.
    [[nodiscard]] static std::shared_ptr<LazyExpression> pending_of(const ndarray& a);

protected:
    [[nodiscard]] std::shared_ptr<void> compute() override;
    void release_inputs() noexcept override;

private:
    mutable std::mutex mutex_;
    std::shared_ptr<const LazyOperation> operation_;
    Shape shape_;
    StreamView stream_;
    LazyLength length_;
};

// The graph of deferred operations: the arrays and scalars they read become the kernel's
// arguments, in order (an array read twice once), and each deferred operand not yet computed is
// inlined once.
class LazyGraph {
public:
    [[nodiscard]] std::int32_t add(const LazyOperation& operation);
    [[nodiscard]] std::int32_t add(const Argument& operand);
    [[nodiscard]] Graph& graph() noexcept { return graph_; }
    [[nodiscard]] const std::vector<Argument>& arguments() const noexcept { return arguments_; }

private:
    Graph graph_{"lazy"};
    std::vector<Argument> arguments_;
    std::vector<std::int32_t> argument_nodes_;  // the node of each argument
    std::map<const PendingArray*, std::int32_t> inlined_;
};

// Whether two arrays are one view: one allocation, offset, dtype, shape and strides.
[[nodiscard]] bool same_view(const ndarray& a, const ndarray& b);

// Whether two views name one stream.
[[nodiscard]] bool same_stream(StreamView a, StreamView b) noexcept;

}  // namespace kiln::detail
