#include "env.hpp"
#include "error_message.hpp"

#include <kiln/error.hpp>

#include <limits>
#include <sstream>
#include <utility>

namespace kiln {

namespace {

std::string with_line_numbers(const std::string& source) {
    std::istringstream lines(source);
    std::ostringstream out;
    int number = 0;
    for (std::string line; std::getline(lines, line);) {
        out << ++number << '\t' << line << '\n';
    }
    return out.str();
}

std::string joined(const std::vector<std::string>& items) {
    std::string text;
    for (const auto& item : items) {
        text += (text.empty() ? "" : ", ") + item;
    }
    return text;
}

// Where kiln looked, for a compile that failed on a header the compiler could not open.
std::string header_search_message(const HeaderSearch& headers) {
    if (headers.searched.empty()) {
        return {};
    }
    std::string message = "kiln looked for the toolkit's headers in: " + joined(headers.searched);
    message += headers.used.empty() ? "; none holds them"
                                    : "; it passed the include directories " + joined(headers.used);
    if (!headers.variable.empty()) {
        message += " (set " + headers.variable + " to choose the toolkit's include directory)";
    }
    return message + '\n';
}

std::string compile_message(const std::string& kernel, const std::string& log,
                            const std::string& source, const HeaderSearch& headers) {
    std::string message = "kiln: compiling kernel '" + kernel + "' failed:\n" + log + '\n' +
                          header_search_message(headers);
    if (detail::env::get("KILN_DUMP_SOURCE_ON_ERROR")) {
        return message + "source:\n" + with_line_numbers(source);
    }
    return message +
           "(CompileError::numbered_source() has the source; set KILN_DUMP_SOURCE_ON_ERROR=1 to "
           "print it with every compile error)";
}

}  // namespace

BackendError::BackendError(std::string call, int code, std::string text)
    : Error("kiln: " + call + " failed: " + text + " (code " + std::to_string(code) + ")"),
      call_(std::move(call)),
      code_(code),
      text_(std::move(text)) {}

BackendError::BackendError(const std::string& message, std::string call, int code, std::string text)
    : Error(message), call_(std::move(call)), code_(code), text_(std::move(text)) {}

DeviceFault::DeviceFault(const std::string& message, std::string call, int code, std::string text,
                         int device)
    : BackendError(message, std::move(call), code, std::move(text)), device_(device) {}

CommunicatorError::CommunicatorError(int rank, int size, std::string operation,
                                     const std::string& what)
    : Error("kiln: Communicator (rank " + std::to_string(rank) + " of " + std::to_string(size) +
            "): " + operation + ": " + std::string(detail::without_kiln_prefix(what))),
      rank_(rank),
      size_(size),
      operation_(std::move(operation)) {}

CompileError::CompileError(std::string kernel, std::string log, std::vector<std::string> options,
                           std::string source, HeaderSearch headers)
    : Error(compile_message(kernel, log, source, headers)),
      kernel_(std::move(kernel)),
      log_(std::move(log)),
      options_(std::move(options)),
      source_(std::move(source)),
      headers_(std::move(headers)) {}

std::string CompileError::numbered_source() const {
    return with_line_numbers(source_);
}

OutOfMemory::OutOfMemory(std::size_t requested, std::size_t used, std::size_t limit,
                         std::optional<int> device)
    : Error("kiln: out of device memory allocating " + std::to_string(requested) + " bytes" +
            (device ? " on device " + std::to_string(*device) : std::string()) + " (" +
            std::to_string(used) + " bytes in use, " +
            (limit == std::numeric_limits<std::size_t>::max()
                 ? std::string("no limit set")
                 : "limit " + std::to_string(limit) + " bytes") +
            ")"),
      requested_(requested),
      used_(used),
      limit_(limit),
      device_(device) {}

}  // namespace kiln
