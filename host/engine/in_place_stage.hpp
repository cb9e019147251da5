// Kernels of the engines that update their fields in place (2D Yee, cylindrical): one kernel
// object serves both field-set parities, so a stage binds its arguments once.
#pragma once
#include <string>

#include "device/device.hpp"
#include "engine/stage.hpp"

namespace clfdtd::engine {

struct InPlaceKernel {
  device::Kernel kernel;
  int value_arg = -1;  // the argument Args::value() marked, -1 if none
};

// Kernel `name` of `program` with the arguments `args(Args&)` appends.
template <class BindArgs>
InPlaceKernel bind_in_place(const device::Program& program, const std::string& name,
                            BindArgs&& args) {
  InPlaceKernel b{program.kernel(name)};
  Args a(b.kernel);
  args(a);
  b.value_arg = a.value_arg();
  return b;
}

inline Stage in_place_stage(Phase phase, const InPlaceKernel& b, device::Range global,
                            device::Range local) {
  Stage s;
  s.phase = phase;
  s.kernel = {b.kernel, b.kernel};
  s.value_arg = b.value_arg;
  s.global = global;
  s.local = local;
  return s;
}

}  // namespace clfdtd::engine
