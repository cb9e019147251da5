// When a queue marker completed, as the host learnt it: set once, from the driver's completion
// callback (OpenCL event callback, CUDA host function) or the host's query of the marker,
// whichever came first; read by Marker::completed_at().
#pragma once
#include <atomic>
#include <chrono>
#include <memory>

namespace clfdtd::device {

inline double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct MarkerStamp {
  std::atomic<double> at{-1.0};
  // The first report wins: the callback, or the host's own look (observe_now) when that came
  // first.
  double observe_now() {
    double expected = -1.0;
    at.compare_exchange_strong(expected, steady_seconds());
    return at.load();
  }
  // The driver calls back with a heap-held shared_ptr (the marker may be gone by then).
  static void stamp_and_release(void* held) {
    auto* p = static_cast<std::shared_ptr<MarkerStamp>*>(held);
    (*p)->observe_now();
    delete p;
  }
};

}  // namespace clfdtd::device
