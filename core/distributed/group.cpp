#include "../backend.hpp"
#include "communicator_state.hpp"

#include <kiln/distributed/group.hpp>
#include <kiln/error.hpp>

#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace kiln::distributed {

namespace {

using detail::Progress;

// The calling thread's open groups: how deeply nested, and the communicators called in them,
// held so that one destroyed meanwhile is still there to finish and free at the end.
struct OpenGroups {
    int depth = 0;
    std::vector<std::shared_ptr<Communicator::State>> members;
};
thread_local OpenGroups open_groups;

[[noreturn]] void refuse_orphans(const std::vector<std::shared_ptr<Communicator::State>>& orphans) {
    const Communicator::State& first = *orphans.front();
    throw Error("kiln: Group.end: " + std::to_string(orphans.size()) +
                " Communicator(s) called in this group (the first: rank " +
                std::to_string(first.rank) + " of " + std::to_string(first.size) + " on device " +
                std::to_string(first.device) +
                ") were destroyed before the group ended, but a Communicator must outlive every "
                "group it is called in; kiln finished their calls and freed them now");
}

}  // namespace

Group::Group() {
    detail::Collectives& library = detail::backend().collectives();
    if (const std::string why = library.unavailable_reason(); !why.empty()) {
        throw NoDevice("kiln: Group: " + why);
    }
    library.group_start();
    ++open_groups.depth;
}

Group::~Group() {
    if (!open_) {
        return;
    }
    try {
        end();
    } catch (...) {  // NOLINT(bugprone-empty-catch): the members keep the failure (see end())
    }
}

void Group::end() {
    if (!open_) {
        throw Error("kiln: Group.end: the group has already ended");
    }
    open_ = false;
    --open_groups.depth;
    std::vector<std::shared_ptr<Communicator::State>> members;
    if (open_groups.depth == 0) {
        members.swap(open_groups.members);
    }
    // The library launches the group before any member's lock is taken: another thread may hold
    // one while it waits for the group's calls. Then every member leaves the group, even when
    // the launch failed; those whose Communicator is gone are released.
    Progress launched = Progress::done;
    std::exception_ptr launch_failure;
    try {
        launched = detail::backend().collectives().group_end();
    } catch (...) {
        launch_failure = std::current_exception();
    }
    std::vector<std::shared_ptr<Communicator::State>> orphans;
    for (const auto& member : members) {
        const std::scoped_lock lock(member->mutex);
        member->pending = member->pending || launched == Progress::in_progress;
        if (--member->open_groups == 0 && member->orphaned) {
            orphans.push_back(member);
        }
    }
    for (const auto& orphan : orphans) {
        const std::scoped_lock lock(orphan->mutex);
        orphan->release();
    }
    if (launch_failure) {
        std::rethrow_exception(launch_failure);
    }
    if (!orphans.empty()) {
        refuse_orphans(orphans);
    }
    // Each settles in turn; one that throws leaves the others pending, for their next call.
    for (const auto& member : members) {
        const std::scoped_lock lock(member->mutex);
        member->check_usable("group");
    }
}

}  // namespace kiln::distributed

namespace kiln::detail {

bool join_open_group(distributed::Communicator::State& member) {
    auto& groups = distributed::open_groups;
    if (groups.depth == 0) {
        return false;
    }
    for (const auto& known : groups.members) {
        if (known.get() == &member) {
            return true;
        }
    }
    groups.members.push_back(member.shared_from_this());
    ++member.open_groups;
    return true;
}

bool group_open() {
    return distributed::open_groups.depth > 0;
}

}  // namespace kiln::detail
