// Checks both device implementations make before calling their API, so a wrong call reads the
// same on either (a DeviceError naming the call, kernel or define) and never reaches the driver.
#pragma once
#include <string>
#include <vector>

#include "device/device.hpp"
#include "errors.hpp"

namespace clfdtd::device {

// Whether a device-timed span of timed work (first command's start to a closing marker's end, s)
// is believable against the host's wall clock around the same work: it lies inside the wall time
// and misses only the latency before the first command starts. Placeholder timestamps (Mesa's
// rusticl gives 0, 1, 2, 3 ns for every command) fail this, and on very short work, where the
// latency is most of the wall time, the wall clock is as good.
bool plausible_device_span(double span, double wall);

// launch_together's queues: `launches` grouped into chains, one per queue, a new chain starting
// at every launch not marked after_previous; then the launches with runs[n] false (an empty
// range) are left out of their chains, and chains left empty are dropped. Indices into
// `launches`, in order.
std::vector<std::vector<std::size_t>> launch_chains(const std::vector<Device::Launch>& launches,
                                                   const std::vector<bool>& runs);

// A driver's name or version string without the spaces or trailing NUL some drivers pad it with.
std::string trim_driver_text(std::string s);

// Bytes [offset, offset + bytes) lie inside `b`.
void check_span(const Buffer& b, std::size_t offset, std::size_t bytes, const char* call);

// `r` with its pitches filled in (0 = tightly packed), checked to lie inside `src`.
Rect checked_rect(const Buffer& src, const Rect& r);

// "-DNAME=value" per define; DeviceError for a name that is not a C identifier.
std::vector<std::string> define_flags(const Defines& defines);

// `global` a multiple of `local` in every dimension, no local size 0.
void check_launch_ranges(const std::string& kernel, const Range& global, const Range& local);

// The implementation's kernel object behind `k` for a launch over `global` in groups of `local`:
// DeviceError for an empty kernel or one of another API, nullptr for an empty range (nothing to
// launch), after check_launch_ranges.
template <class ApiKernel>
ApiKernel* launch_target(const Kernel& k, const Range& global, const Range& local,
                         const char* api) {
  auto* ak = dynamic_cast<ApiKernel*>(k.object());
  if (!ak) throw DeviceError(std::string("launch: the kernel is empty or not one of ") + api);
  if (global.count() == 0) return nullptr;
  check_launch_ranges(ak->name, global, local);
  return ak;
}

}  // namespace clfdtd::device
