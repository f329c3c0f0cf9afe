#include "../backend.hpp"
#include "../backend_traits.hpp"

#include <kiln/dlpack.hpp>
#include <kiln/error.hpp>

#include <dlpack/dlpack.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace kiln {

namespace {

// DLPack 0.8's kDLBool; older headers (Debian's 0.6) lack the name but consumers know the value.
constexpr std::uint8_t dl_bool = 6;

struct Encoding {
    DType dtype;
    DLDataType dl;
};

constexpr std::array<Encoding, 14> encodings{{
    {DType::bool_, {dl_bool, 8, 1}},
    {DType::int8, {kDLInt, 8, 1}},
    {DType::int16, {kDLInt, 16, 1}},
    {DType::int32, {kDLInt, 32, 1}},
    {DType::int64, {kDLInt, 64, 1}},
    {DType::uint8, {kDLUInt, 8, 1}},
    {DType::uint16, {kDLUInt, 16, 1}},
    {DType::uint32, {kDLUInt, 32, 1}},
    {DType::uint64, {kDLUInt, 64, 1}},
    {DType::float16, {kDLFloat, 16, 1}},
    {DType::float32, {kDLFloat, 32, 1}},
    {DType::float64, {kDLFloat, 64, 1}},
    {DType::complex64, {kDLComplex, 64, 1}},
    {DType::complex128, {kDLComplex, 128, 1}},
}};

DLDeviceType device_type(BackendKind kind) {
    return static_cast<DLDeviceType>(detail::traits(kind).dlpack_device_type);
}

// What an exported tensor owns: the array (keeping its memory alive) and the shape and strides
// DLPack points to.
struct Export {
    ndarray array;
    std::vector<std::int64_t> shape;
    std::vector<std::int64_t> strides;
    DLManagedTensor tensor{};
};

}  // namespace

DLManagedTensor* to_dlpack(const ndarray& a) {
    auto owned = std::make_unique<Export>();
    owned->array = a;
    owned->shape = a.shape();
    for (auto stride : a.strides()) {
        if (stride % static_cast<std::int64_t>(a.itemsize()) != 0) {
            throw Error("kiln: to_dlpack: stride " + std::to_string(stride) +
                        " bytes is not a whole number of " + std::to_string(a.itemsize()) +
                        "-byte elements");
        }
        owned->strides.push_back(stride / static_cast<std::int64_t>(a.itemsize()));
    }
    DLTensor& t = owned->tensor.dl_tensor;
    t.data = a.data();
    t.device = {device_type(detail::backend().kind()), a.device()};
    t.ndim = static_cast<int>(a.ndim());
    t.dtype = encodings.at(static_cast<std::size_t>(a.dtype())).dl;
    t.shape = owned->shape.data();
    t.strides = owned->strides.data();
    t.byte_offset = 0;
    owned->tensor.manager_ctx = owned.get();
    owned->tensor.deleter = [](DLManagedTensor* self) {
        std::unique_ptr<Export>(static_cast<Export*>(self->manager_ctx)).reset();
    };
    return &owned.release()->tensor;
}

ndarray from_dlpack(DLManagedTensor* tensor) {
    if (tensor == nullptr) {
        throw Error("kiln: from_dlpack: the tensor is null");
    }
    const DLTensor& t = tensor->dl_tensor;
    const auto expected = device_type(detail::backend().kind());
    if (t.device.device_type != expected) {
        throw Error("kiln: from_dlpack: the tensor is on DLPack device type " +
                    std::to_string(static_cast<int>(t.device.device_type)) + ", expected " +
                    std::to_string(static_cast<int>(expected)) + " (" +
                    std::string(to_string(detail::backend().kind())) + " device memory)");
    }
    const Encoding* found = nullptr;
    for (const auto& e : encodings) {
        if (e.dl.code == t.dtype.code && e.dl.bits == t.dtype.bits && e.dl.lanes == t.dtype.lanes) {
            found = &e;
        }
    }
    if (found == nullptr) {
        throw TypeError("kiln: from_dlpack: no dtype for DLPack type code " +
                        std::to_string(t.dtype.code) + ", " + std::to_string(t.dtype.bits) +
                        " bits, " + std::to_string(t.dtype.lanes) + " lanes");
    }
    const auto item = static_cast<std::int64_t>(itemsize(found->dtype));
    Shape shape(t.shape, t.shape + t.ndim);
    std::optional<Strides> strides;
    if (t.strides != nullptr) {
        strides = Strides(t.strides, t.strides + t.ndim);
        for (auto& stride : *strides) {
            stride *= item;
        }
    }
    void* data = static_cast<std::byte*>(t.data) + t.byte_offset;
    ndarray view = from_pointer(data, shape, found->dtype, strides, {}, t.device.device_id);
    // Only now, with nothing left to fail, does the array take the tensor over.
    std::shared_ptr<void> memory(data, [tensor](void* /*data*/) {
        if (tensor->deleter != nullptr) {
            tensor->deleter(tensor);
        }
    });
    return {std::move(memory), view.dtype(), view.shape(), view.strides(), 0, view.device()};
}

}  // namespace kiln
