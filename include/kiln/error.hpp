/// @file
/// kiln's exception hierarchy: every failure a user can see is one of these.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kiln {

/// Base of every exception kiln throws.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// No usable GPU: no backend compiled in, no driver, or no device present.
class NoDevice : public Error {
public:
    using Error::Error;
};

/// A vendor API call failed; names the call, its numeric code and the vendor's text.
class BackendError : public Error {
public:
    /// The message reads `kiln: <call> failed: <text> (code <code>)`.
    BackendError(std::string call, int code, std::string text);
    /// The vendor API function that failed ("cuMemAlloc", "hipStreamCreate").
    [[nodiscard]] const std::string& call() const noexcept { return call_; }
    /// The vendor's numeric error code.
    [[nodiscard]] int code() const noexcept { return code_; }
    /// The vendor's description of the code.
    [[nodiscard]] const std::string& text() const noexcept { return text_; }

protected:
    /// For subclasses that compose their own message.
    BackendError(const std::string& message, std::string call, int code, std::string text);

private:
    std::string call_;
    int code_;
    std::string text_;
};

/// A kernel faulted on a GPU (an illegal address, a trap) and the device's context is lost: the
/// call that saw the fault, and every later call on that device, throw this. The message names
/// the kernel launched last on the device; only a new process can use the device again.
class DeviceFault : public BackendError {
public:
    /// The message names the call, the device and the kernel launched last.
    DeviceFault(const std::string& message, std::string call, int code, std::string text,
                int device);
    /// The device whose context was lost.
    [[nodiscard]] int device() const noexcept { return device_; }

private:
    int device_;
};

/// Where kiln looked for the GPU toolkit's headers (cuda_fp16.h, CUB, hip/hip_fp16.h, ...) that
/// run-time compiled sources may include.
struct HeaderSearch {
    std::vector<std::string> searched;  ///< the directories looked in, in order
    std::vector<std::string> used;      ///< the include directories passed to the compiler
    std::string variable;               ///< the environment variable that chooses them instead
};

/// Run-time compilation failed; carries everything needed to reproduce it.
class CompileError : public Error {
public:
    /// `headers` is given when the compiler could not open an included file: the message then
    /// says where kiln looked for the toolkit's headers.
    CompileError(std::string kernel, std::string log, std::vector<std::string> options,
                 std::string source, HeaderSearch headers = {});
    /// The kernel (or module) whose compile failed.
    [[nodiscard]] const std::string& kernel() const noexcept { return kernel_; }
    /// The compiler's log.
    [[nodiscard]] const std::string& log() const noexcept { return log_; }
    /// The options the compiler was given.
    [[nodiscard]] const std::vector<std::string>& options() const noexcept { return options_; }
    /// The full source that was compiled.
    [[nodiscard]] const std::string& source() const noexcept { return source_; }
    /// Empty unless the compile failed on a header it could not open.
    [[nodiscard]] const HeaderSearch& header_search() const noexcept { return headers_; }
    /// The source with 1-based line numbers, matching the compiler log's line references.
    [[nodiscard]] std::string numbered_source() const;

private:
    std::string kernel_;
    std::string log_;
    std::vector<std::string> options_;
    std::string source_;
    HeaderSearch headers_;
};

/// A type did not fit: placeholder binding, dtype mismatch, scalar out of range.
class TypeError : public Error {
public:
    using Error::Error;
};

/// Shapes did not fit: broadcasting, output shapes, reshape sizes.
class ShapeError : public Error {
public:
    using Error::Error;
};

/// An index or axis fell outside an array's bounds.
class IndexError : public Error {
public:
    using Error::Error;
};

/// An argument's value is outside what the routine accepts (NumPy's ValueError): a norm order
/// that has no meaning for the axes given.
class ValueError : public Error {
public:
    using Error::Error;
};

/// A communicator (kiln::distributed::Communicator) failed: a peer died, the network failed, or
/// an operation did not finish within the communicator's timeout. kiln aborted it first, so no
/// rank waits on it forever. Names the communicator (rank, size) and the operation.
class CommunicatorError : public Error {
public:
    /// The message reads `kiln: Communicator (rank <rank> of <size>): <operation>: <what>`.
    CommunicatorError(int rank, int size, std::string operation, const std::string& what);
    /// This rank in the communicator.
    [[nodiscard]] int rank() const noexcept { return rank_; }
    /// The number of ranks in the communicator.
    [[nodiscard]] int size() const noexcept { return size_; }
    /// The operation that failed ("all_reduce", "send", ...).
    [[nodiscard]] const std::string& operation() const noexcept { return operation_; }

private:
    int rank_;
    int size_;
    std::string operation_;
};

/// An allocation failed even after the pool released its cached blocks. `device` is the device
/// whose memory was asked for, where the allocator knows it (device pools and memory do).
class OutOfMemory : public Error {
public:
    /// A `limit` of SIZE_MAX means no limit; the message says so.
    OutOfMemory(std::size_t requested, std::size_t used, std::size_t limit,
                std::optional<int> device = std::nullopt);
    /// The bytes asked for.
    [[nodiscard]] std::size_t requested() const noexcept { return requested_; }
    /// The bytes in use when the allocation failed.
    [[nodiscard]] std::size_t used() const noexcept { return used_; }
    /// The pool's limit in bytes (SIZE_MAX: no limit).
    [[nodiscard]] std::size_t limit() const noexcept { return limit_; }
    /// The device whose memory was asked for, where known.
    [[nodiscard]] std::optional<int> device() const noexcept { return device_; }

private:
    std::size_t requested_;
    std::size_t used_;
    std::size_t limit_;
    std::optional<int> device_;
};

}  // namespace kiln
