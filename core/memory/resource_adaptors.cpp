#include <kiln/error.hpp>
#include <kiln/resource_adaptors.hpp>

#include <algorithm>
#include <sstream>

namespace kiln {

namespace {

std::string describe(StreamView stream) {
    if (stream.is_default()) {
        return "default";
    }
    std::ostringstream text;
    text << stream.native();
    return text.str();
}

std::string describe(const void* ptr) {
    std::ostringstream text;
    text << ptr;
    return text.str();
}

}  // namespace

Statistics StatisticsResource::statistics() const {
    const std::scoped_lock lock(mutex_);
    return statistics_;
}

void StatisticsResource::reset_peak() {
    const std::scoped_lock lock(mutex_);
    statistics_.peak_bytes = statistics_.current_bytes;
}

void* StatisticsResource::do_allocate(std::size_t bytes, StreamView stream) {
    void* ptr = upstream_.allocate(bytes, stream);
    const std::scoped_lock lock(mutex_);
    statistics_.current_bytes += bytes;
    statistics_.peak_bytes = std::max(statistics_.peak_bytes, statistics_.current_bytes);
    ++statistics_.total_allocations;
    ++statistics_.current_allocations;
    return ptr;
}

// The counters drop before the upstream frees, so that another thread reusing the memory at once
// cannot count it twice towards the peak; a failed deallocate puts them back.
void StatisticsResource::do_deallocate(void* ptr, std::size_t bytes, StreamView stream) {
    {
        const std::scoped_lock lock(mutex_);
        statistics_.current_bytes -= bytes;
        --statistics_.current_allocations;
    }
    try {
        upstream_.deallocate(ptr, bytes, stream);
    } catch (...) {
        const std::scoped_lock lock(mutex_);
        statistics_.current_bytes += bytes;
        ++statistics_.current_allocations;
        throw;
    }
}

// The bytes are reserved before the upstream is asked, so concurrent callers cannot together
// overshoot the limit.
void* LimitResource::do_allocate(std::size_t bytes, StreamView stream) {
    std::size_t used = used_.load();
    do {
        const std::size_t limit = limit_.load();
        if (used > limit || bytes > limit - used) {
            throw OutOfMemory(bytes, used, limit);
        }
    } while (!used_.compare_exchange_weak(used, used + bytes));
    try {
        return upstream_.allocate(bytes, stream);
    } catch (...) {
        used_ -= bytes;
        throw;
    }
}

// The bytes are released only once the upstream has the memory back.
void LimitResource::do_deallocate(void* ptr, std::size_t bytes, StreamView stream) {
    upstream_.deallocate(ptr, bytes, stream);
    used_ -= bytes;
}

void* LoggingResource::do_allocate(std::size_t bytes, StreamView stream) {
    const std::string suffix = "bytes=" + std::to_string(bytes) + " stream=" + describe(stream);
    void* ptr = nullptr;
    try {
        ptr = upstream_.allocate(bytes, stream);
    } catch (...) {
        write_line("allocate failed " + suffix);
        throw;
    }
    try {
        write_line("allocate ptr=" + describe(ptr) + ' ' + suffix);
    } catch (...) {
        upstream_.deallocate(ptr, bytes, stream);
        throw;
    }
    return ptr;
}

void LoggingResource::do_deallocate(void* ptr, std::size_t bytes, StreamView stream) {
    write_line("deallocate ptr=" + describe(ptr) + " bytes=" + std::to_string(bytes) +
               " stream=" + describe(stream));
    upstream_.deallocate(ptr, bytes, stream);
}

void LoggingResource::write_line(const std::string& line) {
    const std::scoped_lock lock(mutex_);
    log_ << line << '\n';
}

}  // namespace kiln
