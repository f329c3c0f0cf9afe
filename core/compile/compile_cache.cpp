#include "compile_cache.hpp"

#include "../env.hpp"
#include "../log.hpp"

#include <chrono>
#include <utility>

namespace kiln::detail {

namespace {

void increment(std::atomic<std::uint64_t>& counter) noexcept {
    counter.fetch_add(1, std::memory_order_relaxed);
}

std::size_t memory_limit_from_environment() {
    const auto text = env::get("KILN_CACHE_MEMORY_LIMIT");
    return text ? static_cast<std::size_t>(env::parse_byte_size("KILN_CACHE_MEMORY_LIMIT", *text))
                : default_memory_cache_limit;
}

}  // namespace

CompileCache& CompileCache::instance() {
    // Never destroyed: a kernel may compile while the process exits.
    static auto& cache =
        *new CompileCache(DiskCache::trusted_from_environment(), memory_limit_from_environment());
    return cache;
}

CompileCache::CompileCache(std::optional<DiskCache> disk, std::size_t memory_limit)
    : disk_(std::move(disk)), memory_(memory_limit) {}

CompiledBinary CompileCache::get(const CompileRequest& request) {
    {
        const std::scoped_lock lock(mutex_);
        if (auto found = memory_.find(request.key)) {
            increment(counters_.memory_hits);
            log::debug("cache: memory hit for '{}' ({})", request.kernel, request.target);
            return std::move(*found);
        }
    }
    // Compiled outside the lock: other kernels need not wait for this one. Two threads racing on
    // one request both compile it; the first stored serves every later call.
    auto found = from_disk(request);
    CompiledBinary binary = found ? std::move(*found) : from_compiler(request);
    const std::scoped_lock lock(mutex_);
    return memory_.insert(request.key, std::move(binary));
}

std::optional<CompiledBinary> CompileCache::from_disk(const CompileRequest& request) {
    if (!disk_) {
        return std::nullopt;
    }
    DiskLookup lookup = disk_->load(request.key);
    if (lookup.corrupt) {
        increment(counters_.corrupt_files);
        log::info("cache: {} failed verification; compiling '{}' again",
                  disk_->entry_path(request.key).string(), request.kernel);
    }
    if (!lookup.entry) {
        increment(counters_.disk_misses);
        log::debug("cache: disk miss for '{}' ({}) in {}", request.kernel, request.target,
                   disk_->directory().string());
        return std::nullopt;
    }
    increment(counters_.disk_hits);
    log::debug("cache: disk hit for '{}' ({}): {}", request.kernel, request.target,
               disk_->entry_path(request.key).string());
    return CompiledBinary{
        std::move(lookup.entry->image), request.target, {}, std::move(lookup.entry->lowered_names)};
}

CompiledBinary CompileCache::from_compiler(const CompileRequest& request) {
    const auto start = std::chrono::steady_clock::now();
    CompiledBinary binary = backend().compile(request);
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    increment(counters_.compiles);
    counters_.compile_seconds.fetch_add(seconds.count(), std::memory_order_relaxed);
    log::info("compiled '{}' for {} in {:.3f} s", request.kernel, request.target, seconds.count());
    if (disk_) {
        (void)disk_->store(request.key, {binary.image, binary.lowered_names},
                           disk_->saves_source() ? request.source : std::string_view{});
    }
    return binary;
}

CompileCacheStatistics CompileCache::statistics() const noexcept {
    constexpr auto relaxed = std::memory_order_relaxed;
    return {counters_.memory_hits.load(relaxed), counters_.disk_hits.load(relaxed),
            counters_.disk_misses.load(relaxed), counters_.corrupt_files.load(relaxed),
            counters_.compiles.load(relaxed),    counters_.compile_seconds.load(relaxed)};
}

void CompileCache::reset_statistics() noexcept {
    constexpr auto relaxed = std::memory_order_relaxed;
    counters_.memory_hits.store(0, relaxed);
    counters_.disk_hits.store(0, relaxed);
    counters_.disk_misses.store(0, relaxed);
    counters_.corrupt_files.store(0, relaxed);
    counters_.compiles.store(0, relaxed);
    counters_.compile_seconds.store(0.0, relaxed);
}

CompileCache::MemoryUsage CompileCache::memory_usage() const {
    const std::scoped_lock lock(mutex_);
    return {memory_.entries(), memory_.bytes(), memory_.limit()};
}

void CompileCache::set_memory_limit(std::size_t bytes) {
    const std::scoped_lock lock(mutex_);
    memory_.set_limit(bytes);
}

CompiledBinary compile_cached(const Program& program, std::string_view target) {
    return CompileCache::instance().get(resolve(program, target));
}

CompiledBinary compile_uncached(const Program& program, std::string_view target) {
    return backend().compile(resolve(program, target));
}

}  // namespace kiln::detail

namespace kiln {

CompileCacheStatistics compile_cache_statistics() {
    return detail::CompileCache::instance().statistics();
}

void reset_compile_cache_statistics() {
    detail::CompileCache::instance().reset_statistics();
}

std::optional<std::filesystem::path> compile_cache_directory() {
    if (auto cache = detail::DiskCache::trusted_from_environment()) {
        return cache->directory();
    }
    return std::nullopt;
}

}  // namespace kiln
