/// @file
/// A group of communicator calls (NCCL's ncclGroupStart/ncclGroupEnd): the calls made on this
/// thread while a Group lives are launched together when it ends, which sends and receives
/// between the same ranks need, and which lets one thread drive several communicators.
/// Communicator::group(function) is the same in one call.
#pragma once

namespace kiln::distributed {

/// Communicator calls launched together (ncclGroupStart/ncclGroupEnd), while this object lives.
class Group {
public:
    /// Opens a group on the calling thread; groups nest, and the outermost one launches.
    Group();
    /// Ends the group if end() was not called. A failure cannot be thrown from here: the
    /// communicators in the group keep it, and their next call throws it; a communicator destroyed
    /// too early is still freed.
    ~Group();
    Group(const Group&) = delete;
    Group& operator=(const Group&) = delete;
    Group(Group&&) = delete;
    Group& operator=(Group&&) = delete;

    /// Ends the group and waits until the library has launched its calls, within each
    /// communicator's timeout; throws CommunicatorError (after aborting) otherwise. Throws Error
    /// when a Communicator called in the group was destroyed before it ended (a Communicator must
    /// outlive its groups): kiln frees that one here, after the group's calls.
    void end();

private:
    bool open_ = true;
};

}  // namespace kiln::distributed
