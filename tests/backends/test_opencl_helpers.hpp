// Shared by the OpenCL backend tests: skip when the machine has no OpenCL device, build the test
// models in code, and compare an OpenCL run with the double-precision reference cell by cell.
#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "backends/opencl/cl_devices.hpp"
#include "backends/opencl/opencl_backend.hpp"
#include "backends/physics_helpers.hpp"
#include "backends/reference/reference_backend.hpp"

namespace clfdtd::test {

// True when some OpenCL device exists; otherwise says why the case is skipped.
inline bool opencl_available() {
  static const bool have = !list_cl_devices().empty();
  if (!have) MESSAGE("no OpenCL platform/device on this machine: OpenCL case skipped");
  return have;
}

struct FieldError {
  double max_ref = 0, max_diff = 0;
  std::array<int, 3> at{};  // cell of the largest difference
};

// Max |reference| and max |opencl - reference| of one component over the unpadded grid.
inline FieldError field_error(OpenClBackend& ocl, const ReferenceBackend& ref,
                              const SimulationModel& m, Component c) {
  std::vector<float> got;
  ocl.read_field(c, got);
  const auto& want = ref.field(c);
  const auto& L = m.layout;
  REQUIRE(got.size() == static_cast<std::size_t>(L.nx) * L.ny * L.nz);
  FieldError e;
  for (int i = 0; i < L.nx; ++i) {
    for (int j = 0; j < L.ny; ++j) {
      for (int k = 0; k < L.nz; ++k) {
        const double w = want[L.index(i, j, k)];
        const double g = got[(static_cast<std::size_t>(i) * L.ny + j) * L.nz + k];
        e.max_ref = std::max(e.max_ref, std::abs(w));
        if (std::abs(g - w) > e.max_diff) {
          e.max_diff = std::abs(g - w);
          e.at = {i, j, k};
        }
      }
    }
  }
  return e;
}

// Runs both engines `steps` steps from the same model, then checks every component and every probe
// series: max |diff| below rel_tol of that component's (series') max |value|.
// dev.variant = Auto runs the comparison once per kernel variant (tile, plain, rows, fused, onepass), so every
// form is checked on every device whatever auto would pick there.
inline void compare_with_reference(const SimulationModel& m, const DeviceConfig& dev,
                                   double rel_tol = 1e-4) {
  if (dev.variant == KernelVariant::Auto) {
    for (KernelVariant v : {KernelVariant::Tile, KernelVariant::Plain, KernelVariant::Rows,
                            KernelVariant::Fused, KernelVariant::OnePass}) {
      DeviceConfig one = dev;
      one.variant = v;
      compare_with_reference(m, one, rel_tol);
    }
    return;
  }
  ReferenceBackend ref(m);
  OpenClBackend ocl(m, dev);
  INFO("device: " << ocl.device_description() << ", variant: " << ocl.kernel_variant());
  ProbeRecorder rec_ref(ref, m), rec_ocl(ocl, m);
  rec_ref.at_state(0);
  rec_ocl.at_state(0);
  for (long s = 0; s < m.grid.steps; ++s) {
    ref.step(s);
    ocl.step(s);
    rec_ref.at_state(s + 1);
    rec_ocl.at_state(s + 1);
  }
  ocl.finish();
  CHECK(ocl.fields_finite());
  for (int c = 0; c < 6; ++c) {
    const auto comp = static_cast<Component>(c);
    const FieldError e = field_error(ocl, ref, m, comp);
    INFO(std::string(component_name(comp))
         << ": max |ref| = " << e.max_ref << ", max |diff| = " << e.max_diff << " (ratio "
         << e.max_diff / e.max_ref << ") at cell " << e.at[0] << "," << e.at[1] << "," << e.at[2]);
    CHECK(e.max_ref > 0);
    CHECK(e.max_diff <= rel_tol * e.max_ref);
  }
  const auto want = rec_ref.take(), got = rec_ocl.take();
  REQUIRE(want.size() == got.size());
  for (std::size_t p = 0; p < want.size(); ++p) {
    REQUIRE(want[p].size() == got[p].size());
    double max_ref = 0, max_diff = 0;
    for (std::size_t t = 0; t < want[p].size(); ++t) {
      max_ref = std::max(max_ref, std::abs(want[p][t]));
      max_diff = std::max(max_diff, std::abs(got[p][t] - want[p][t]));
    }
    INFO("probe sample " << p << " (" << std::string(component_name(m.probes.samples[p].component))
                         << "): max |ref| = " << max_ref << ", max |diff| = " << max_diff);
    CHECK(max_diff <= rel_tol * max_ref);
  }
}

}  // namespace clfdtd::test
