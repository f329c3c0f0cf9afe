#include "child_process.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <stdexcept>
#include <system_error>

extern char** environ;  // NOLINT(readability-redundant-declaration): POSIX names it only here

namespace kiln::bench {

namespace {

[[noreturn]] void fail(const std::string& what) {
    throw std::runtime_error("kiln-bench: " + what + ": " + std::generic_category().message(errno));
}

}  // namespace

std::string run_and_capture(const std::string& program, const std::vector<std::string>& args) {
    std::array<int, 2> pipe_ends{};
    if (::pipe(pipe_ends.data()) != 0) {
        fail("pipe");
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_ends[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, pipe_ends[0]);
    std::vector<std::string> words{program};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    argv.reserve(words.size() + 1);
    for (auto& word : words) {
        argv.push_back(word.data());
    }
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(pipe_ends[1]);
    if (spawned != 0) {
        ::close(pipe_ends[0]);
        errno = spawned;
        fail("cannot start " + program);
    }
    std::string output;
    std::array<char, 4096> buffer{};
    for (;;) {
        const ssize_t got = ::read(pipe_ends[0], buffer.data(), buffer.size());
        if (got > 0) {
            output.append(buffer.data(), static_cast<std::size_t>(got));
        } else if (got == 0 || errno != EINTR) {
            break;
        }
    }
    ::close(pipe_ends[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            fail("waitpid");
        }
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        throw std::runtime_error("kiln-bench: " + program + " " +
                                 (args.empty() ? std::string() : args.front()) +
                                 " failed; its output: " + output);
    }
    return output;
}

}  // namespace kiln::bench
