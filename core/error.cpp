#include "env.hpp"

#include <kiln/error.hpp>

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

std::string compile_message(const std::string& kernel, const std::string& log,
                            const std::string& source) {
    std::string message = "kiln: compiling kernel '" + kernel + "' failed:\n" + log + '\n';
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

CompileError::CompileError(std::string kernel, std::string log, std::vector<std::string> options,
                           std::string source)
    : Error(compile_message(kernel, log, source)),
      kernel_(std::move(kernel)),
      log_(std::move(log)),
      options_(std::move(options)),
      source_(std::move(source)) {}

std::string CompileError::numbered_source() const {
    return with_line_numbers(source_);
}

OutOfMemory::OutOfMemory(std::size_t requested, std::size_t used, std::size_t limit)
    : Error("kiln: out of device memory allocating " + std::to_string(requested) + " bytes (" +
            std::to_string(used) + " bytes in use, limit " + std::to_string(limit) + " bytes)"),
      requested_(requested),
      used_(used),
      limit_(limit) {}

}  // namespace kiln
