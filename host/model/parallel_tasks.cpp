// run_tasks_in_parallel: see parallel_tasks.hpp.
#include "model/parallel_tasks.hpp"

#include <algorithm>
#include <atomic>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "model/host_memory.hpp"

namespace clfdtd {

namespace {
std::function<bool()> g_stop;  // set once before any task runs: read only afterwards
std::atomic<bool> g_skipped{false};
}  // namespace

bool tasks_skipped() { return g_skipped.load(); }

void note_task_skipped() { g_skipped = true; }

void set_task_stop(std::function<bool()> stop) { g_stop = std::move(stop); }

bool tasks_stopped() { return g_stop && g_stop(); }

void run_tasks_in_parallel(std::size_t n, double bytes_each, const std::function<void(std::size_t)>& task) {
  const double room = static_cast<double>(host_memory_available().available);
  const std::size_t by_memory = static_cast<std::size_t>(std::max(1.0, std::min(64.0, room / 2 / bytes_each)));
  const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t workers = std::min({n, cores, by_memory});
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t k; (k = next++) < n;) {
      if (tasks_stopped()) {
        note_task_skipped();
        continue;
      }
      try {
        task(k);
      } catch (const TasksStopped&) {
        note_task_skipped();
      } catch (const std::exception&) {  // out of memory in a task: its result's result stays unset
      }
    }
  };
  std::vector<std::thread> pool;
  try {
    for (std::size_t t = 1; t < workers; ++t) pool.emplace_back(work);
  } catch (const std::system_error&) {  // no more threads: those started and this one finish
  }
  work();
  for (std::thread& t : pool) t.join();
}

}  // namespace clfdtd
