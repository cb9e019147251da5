// run_tasks_in_parallel (model/parallel_tasks.hpp): every task runs once, a failing one only
// leaves its own result unset.
#include <doctest/doctest.h>

#include <atomic>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

#include "model/parallel_tasks.hpp"

using namespace clfdtd;

TEST_CASE("run_tasks_in_parallel runs each task once; a task that throws leaves only its result unset") {
  const std::size_t n = 37;
  std::vector<std::atomic<int>> runs(n);
  std::vector<std::optional<std::size_t>> result(n);
  run_tasks_in_parallel(n, 1e6, [&](std::size_t k) {
    ++runs[k];
    if (k % 5 == 3) throw std::runtime_error("this task fails");
    result[k] = k * k;
  });
  for (std::size_t k = 0; k < n; ++k) {
    CHECK(runs[k] == 1);
    if (k % 5 == 3)
      CHECK_FALSE(result[k]);
    else
      CHECK(result[k] == k * k);
  }
}

TEST_CASE("run_tasks_in_parallel runs tasks side by side where the host has cores for them") {
  if (std::thread::hardware_concurrency() < 2) {
    MESSAGE("one core: nothing runs side by side");
    return;
  }
  // Two tasks that each wait for the other to start: they finish only when both run at once.
  std::atomic<int> started{0};
  std::atomic<bool> met{true};
  run_tasks_in_parallel(2, 1e6, [&](std::size_t) {
    ++started;
    for (int spin = 0; started < 2; ++spin) {
      if (spin > 20000000) {
        met = false;
        return;
      }
      std::this_thread::yield();
    }
  });
  CHECK(met);
}
