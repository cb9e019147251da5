// Independent host computations run side by side (the mode solves of a port or a modes monitor,
// the harmonic inversions of the probes' series), as many at once as the cores and the host
// memory allow.
#pragma once
#include <cstddef>
#include <functional>

namespace clfdtd {

// Runs task(0) .. task(n - 1), each on one of up to hardware_concurrency threads, no more at
// once than the host memory holds at bytes_each apiece; a task's exception is swallowed (the
// task leaves its result unset: the caller finds it so and decides). Returns when all have run.
void run_tasks_in_parallel(std::size_t n, double bytes_each, const std::function<void(std::size_t)>& task);

}  // namespace clfdtd
