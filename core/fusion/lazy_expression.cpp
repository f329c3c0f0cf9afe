#include "lazy_expression.hpp"

#include "lazy_kernels.hpp"
#include "operation_kernel.hpp"

#include <kiln/error.hpp>

#include <algorithm>
#include <array>
#include <span>
#include <utility>

namespace kiln::detail {

std::shared_ptr<LazyExpression> LazyExpression::make(std::shared_ptr<const LazyOperation> operation,
                                                     Shape shape, StreamView stream,
                                                     LazyLength length) {
    auto expression =
        std::make_shared<LazyExpression>(std::move(operation), std::move(shape), stream, length);
    std::array<ReadSource, 3> sources{};
    std::size_t count = 0;
    for (const Argument& operand : expression->operation_->operands) {
        if (const auto* array = std::get_if<ndarray>(&operand)) {
            sources.at(count++) = {array->allocation(), array->pending().get()};
        }
    }
    expression->reads(std::span(sources.data(), count));
    return expression;
}

LazyExpression::LazyExpression(std::shared_ptr<const LazyOperation> operation, Shape shape,
                               StreamView stream, LazyLength length)
    : operation_(std::move(operation)),
      shape_(std::move(shape)),
      stream_(stream),
      length_(length) {}

std::shared_ptr<const LazyOperation> LazyExpression::operation() const {
    const std::scoped_lock lock(mutex_);
    return operation_;
}

std::shared_ptr<LazyExpression> LazyExpression::pending_of(const ndarray& a) {
    auto expression = std::dynamic_pointer_cast<LazyExpression>(a.pending());
    return expression && expression->operation() ? expression : nullptr;
}

namespace {

// Whether no operand is an expression still pending: then the operation is its whole graph.
bool computed_operands(const LazyOperation& operation) {
    return std::all_of(
        operation.operands.begin(), operation.operands.end(), [](const Argument& operand) {
            const auto* array = std::get_if<ndarray>(&operand);
            return array == nullptr || !array->pending() || array->pending()->evaluated();
        });
}

// ndarray::c_contiguous without copying the layout: the check runs on every computed expression.
bool c_contiguous(const ndarray& a) {
    if (a.size() == 0) {
        return true;
    }
    auto expected = static_cast<std::int64_t>(a.itemsize());
    for (std::size_t axis = a.shape().size(); axis-- > 0;) {
        if (a.shape()[axis] != 1 && a.strides()[axis] != expected) {
            return false;
        }
        expected *= a.shape()[axis];
    }
    return true;
}

ndarray run_graph(const LazyOperation& operation, StreamView stream) {
    LazyGraph graph;
    const std::int32_t output = graph.add(operation);
    return run_lazy(graph.graph(), output, graph.arguments(), stream, {});
}

}  // namespace

std::shared_ptr<void> LazyExpression::compute() {
    const std::shared_ptr<const LazyOperation> operation = this->operation();
    const ndarray result = computed_operands(*operation) ? run_operation(*operation, stream_)
                                                         : run_graph(*operation, stream_);
    if (result.shape() != shape_ || !c_contiguous(result) || result.offset() != 0) {
        throw Error("kiln: lazy fusion: the kernel's result has shape " +
                    to_string(result.shape()) + ", not the C-contiguous " + to_string(shape_) +
                    " computed at the call");
    }
    return result.memory();
}

void LazyExpression::release_inputs() noexcept {
    const std::scoped_lock lock(mutex_);
    operation_.reset();
}

std::int32_t LazyGraph::add(const LazyOperation& operation) {
    Node node;
    node.kind = operation.kind;
    node.ufunc = operation.ufunc;
    node.loop = operation.loop;
    node.dtype = operation.dtype;
    for (std::size_t o = 0; o < operation.operands.size(); ++o) {
        node.operands.at(o) = add(operation.operands[o]);
    }
    return graph_.add(node);
}

std::int32_t LazyGraph::add(const Argument& operand) {
    Node node;
    node.argument = static_cast<std::int32_t>(arguments_.size());
    if (const auto* scalar = std::get_if<Scalar>(&operand)) {
        node.kind = NodeKind::scalar;
        node.dtype = scalar->dtype();
    } else {
        const auto& array = std::get<ndarray>(operand);
        if (const auto expression = LazyExpression::pending_of(array)) {
            if (const auto found = inlined_.find(expression.get()); found != inlined_.end()) {
                return found->second;
            }
            if (const auto operation = expression->operation()) {
                const std::int32_t id = add(*operation);
                inlined_.emplace(expression.get(), id);
                return id;
            }
        }
        // An array read twice, as x in (x - y) * (x + y), is one argument: one load per element.
        for (std::size_t i = 0; i < arguments_.size(); ++i) {
            const auto* seen = std::get_if<ndarray>(&arguments_[i]);
            if (seen != nullptr && same_view(*seen, array)) {
                return argument_nodes_[i];
            }
        }
        node.kind = NodeKind::array;
        node.dtype = array.dtype();
    }
    arguments_.push_back(operand);
    argument_nodes_.push_back(graph_.add(node));
    return argument_nodes_.back();
}

bool same_view(const ndarray& a, const ndarray& b) {
    return a.allocation() == b.allocation() && a.offset() == b.offset() && a.dtype() == b.dtype() &&
           a.shape() == b.shape() && a.strides() == b.strides();
}

bool same_stream(StreamView a, StreamView b) noexcept {
    return a.native() == b.native() && a.device() == b.device();
}

}  // namespace kiln::detail
