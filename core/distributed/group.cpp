#include "../backend.hpp"
#include "communicator_state.hpp"

#include <kiln/distributed/group.hpp>
#include <kiln/error.hpp>

#include <string>
#include <vector>

namespace kiln::distributed {

namespace {

// The calling thread's open groups: how deeply nested, and the communicators called in them.
struct OpenGroups {
    int depth = 0;
    std::vector<Communicator::State*> members;
};
thread_local OpenGroups open_groups;

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
    std::vector<Communicator::State*> members;
    if (open_groups.depth == 0) {
        members.swap(open_groups.members);
    }
    if (detail::backend().collectives().group_end() == detail::Progress::in_progress) {
        for (auto* member : members) {
            member->pending = true;
        }
    }
    // Each settles in turn; one that throws leaves the others pending, for their next call.
    for (auto* member : members) {
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
    for (const auto* known : groups.members) {
        if (known == &member) {
            return true;
        }
    }
    groups.members.push_back(&member);
    return true;
}

bool group_open() {
    return distributed::open_groups.depth > 0;
}

}  // namespace kiln::detail
