// Independent host computations run side by side (the mode solves of a port or a modes monitor,
// the harmonic inversions of the probes' series), as many at once as the cores and the host
// memory allow.
#pragma once
#include <cstddef>
#include <functional>
#include <stdexcept>

namespace clfdtd {

// Runs task(0) .. task(n - 1), each on one of up to hardware_concurrency threads, no more at
// once than the host memory holds at bytes_each apiece; a task's exception is swallowed (the
// task leaves its result unset: the caller finds it so and decides), as is a task skipped once
// tasks_stopped(). Returns when all have run or been skipped.
void run_tasks_in_parallel(std::size_t n, double bytes_each, const std::function<void(std::size_t)>& task);

// A run that is asked to stop (SIGINT after the time loop) skips the tasks not yet started: set
// once, before any task runs, by the program (clfdtd run: a stop signal arrived); tasks_stopped()
// asks it (false when unset).
void set_task_stop(std::function<bool()> stop);
bool tasks_stopped();
// What a long task throws when it finds tasks_stopped() midway: run_tasks_in_parallel counts the
// task as skipped.
struct TasksStopped : std::runtime_error {
  TasksStopped() : std::runtime_error("stopped: the run was asked to stop") {}
};
// Whether a task was skipped for the stop (run_tasks_in_parallel, or a caller's own through
// note_task_skipped): the run's analyses are then incomplete.
bool tasks_skipped();
void note_task_skipped();

}  // namespace clfdtd
