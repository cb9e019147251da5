// Default implementations of Backend's benchmarking hooks.
#include "backends/backend.hpp"

#include <chrono>

namespace clfdtd {

double Backend::timed_steps(long first, long count) {
  finish();
  const auto t0 = std::chrono::steady_clock::now();
  for (long s = first; s < first + count; ++s) step(s);
  finish();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace clfdtd
