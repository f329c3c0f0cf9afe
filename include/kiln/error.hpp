// kiln's exception hierarchy: every failure a user can see is one of these.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace kiln {

// Base of every exception kiln throws.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// No usable GPU: no backend compiled in, no driver, or no device present.
class NoDevice : public Error {
public:
    using Error::Error;
};

// A vendor API call failed; names the call, its numeric code and the vendor's text.
class BackendError : public Error {
public:
    BackendError(std::string call, int code, std::string text);
    [[nodiscard]] const std::string& call() const noexcept { return call_; }
    [[nodiscard]] int code() const noexcept { return code_; }
    [[nodiscard]] const std::string& text() const noexcept { return text_; }

private:
    std::string call_;
    int code_;
    std::string text_;
};

// Run-time compilation failed; carries everything needed to reproduce it.
class CompileError : public Error {
public:
    CompileError(std::string kernel, std::string log, std::vector<std::string> options,
                 std::string source);
    [[nodiscard]] const std::string& kernel() const noexcept { return kernel_; }
    [[nodiscard]] const std::string& log() const noexcept { return log_; }
    [[nodiscard]] const std::vector<std::string>& options() const noexcept { return options_; }
    [[nodiscard]] const std::string& source() const noexcept { return source_; }
    // The source with 1-based line numbers, matching the compiler log's line references.
    [[nodiscard]] std::string numbered_source() const;

private:
    std::string kernel_;
    std::string log_;
    std::vector<std::string> options_;
    std::string source_;
};

// A type did not fit: placeholder binding, dtype mismatch, scalar out of range.
class TypeError : public Error {
public:
    using Error::Error;
};

// Shapes did not fit: broadcasting, output shapes, reshape sizes.
class ShapeError : public Error {
public:
    using Error::Error;
};

// An index or axis fell outside an array's bounds.
class IndexError : public Error {
public:
    using Error::Error;
};

// An allocation failed even after the pool released its cached blocks.
class OutOfMemory : public Error {
public:
    OutOfMemory(std::size_t requested, std::size_t used, std::size_t limit);
    [[nodiscard]] std::size_t requested() const noexcept { return requested_; }
    [[nodiscard]] std::size_t used() const noexcept { return used_; }
    [[nodiscard]] std::size_t limit() const noexcept { return limit_; }

private:
    std::size_t requested_;
    std::size_t used_;
    std::size_t limit_;
};

}  // namespace kiln
