// One launch of a time step or of a sampling call, as the engine walks it: which part of the
// step it belongs to, the kernel with its arguments bound, the range, and the one argument that
// changes between launches (the step index, a batch slot).
//
// Field roles: a kernel is bound once per field-set parity. Parity p is the number of steps
// taken so far, mod 2: the current fields are set p; the onepass variant writes set 1 - p (the
// roles swap every step without re-binding anything), the others write set p in place. Stages of
// the in-place variants hold one kernel object for both parities.
#pragma once
#include <array>
#include <climits>
#include <string>
#include <vector>

#include "device/device.hpp"

namespace clfdtd::engine {

// The parts of one step, in the order step() runs them (MEEP's fields::step: H, then E, then
// the sources at (s + 1/2) dt). HE holds a pass that updates both (the onepass kernel), between
// the H and E halves of the UPML it leaves to other kernels. Sample: a stage run between steps
// (probes, energy, the finite check), reading the current fields.
enum class Phase { H, HE, E, Sources, Sample };
const char* phase_name(Phase p);  // "H", "H+E", "E", "sources", "sample"

struct Stage {
  Phase phase = Phase::H;
  std::array<device::Kernel, 2> kernel;  // by parity (see above)
  device::Range global, local;
  int value_arg = -1;         // the argument set per launch to the step index or slot; -1: none
  long runs_below = LONG_MAX;  // a step stage runs for step indices 0 <= s < runs_below only
  const std::string& name() const { return kernel[0].name(); }
};

// One step: every stage, listed in phase order.
using StepPlan = std::vector<Stage>;

// Sets the arguments of one kernel in order, so that the optional blocks of a signature need no
// index bookkeeping; value() marks the per-launch argument (set to 0 until then).
class Args {
public:
  explicit Args(device::Kernel& k) : k_(k) {}
  Args& operator<<(const device::Buffer& b) {
    k_.set(n_++, b);
    return *this;
  }
  Args& operator<<(int v) {
    k_.set(n_++, v);
    return *this;
  }
  Args& operator<<(float v) {
    k_.set(n_++, v);
    return *this;
  }
  Args& value() {
    value_arg_ = static_cast<int>(n_);
    return *this << 0;
  }
  int value_arg() const { return value_arg_; }
  unsigned next() const { return n_; }  // the index the next argument takes

private:
  device::Kernel& k_;
  unsigned n_ = 0;
  int value_arg_ = -1;
};

}  // namespace clfdtd::engine
