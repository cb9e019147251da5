// The GPU engine's test suite runs every case on every API of this build that has a device here
// (OpenCL on PoCL in CI, CUDA where there is a GPU), for every kernel variant and a few
// work-group shapes: one set of functions, no per-API copies.
#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/physics_helpers.hpp"
#include "backends/reference/reference_backend.hpp"
#include "backends/tuning_cache.hpp"
#include "device/device.hpp"
#include "device/test_apis.hpp"
#include "engine/gpu_engine.hpp"

namespace clfdtd::test {

// The engine's variants (device.variant words other than auto).
inline const std::vector<KernelVariant>& engine_variants() {
  static const std::vector<KernelVariant> v{KernelVariant::Tile, KernelVariant::OnePass,
                                            KernelVariant::Rows};
  return v;
}

// test_apis() (device/test_apis.hpp); the first call says which are skipped and why.
inline const std::vector<device::Api>& engine_apis() {
  static const std::vector<device::Api> apis = [] {
    std::vector<std::string> skipped;
    std::vector<device::Api> out = test_apis(&skipped);
    for (const std::string& line : skipped) MESSAGE(line);
    return out;
  }();
  return apis;
}

inline DeviceConfig engine_config(KernelVariant v,
                                  std::optional<std::array<int, 3>> wg = std::nullopt) {
  DeviceConfig dev;
  dev.variant = v;
  dev.workgroup = wg;
  return dev;
}

// Calls check(api, variant) for every API with a device and every engine variant, with both
// named in doctest's log.
template <class Check>
void for_each_api_variant(Check&& check) {
  for (device::Api api : engine_apis()) {
    for (KernelVariant v : engine_variants()) {
      INFO("api " << std::string(device::api_name(api)) << ", variant "
                  << std::string(variant_name(v)));
      check(api, v);
    }
  }
}

struct FieldError {
  double max_ref = 0, max_diff = 0;
  std::array<int, 3> at{};  // cell of the largest difference
};

// Max |reference| and max |got - reference| of one component over the unpadded grid.
inline FieldError field_error(Backend& b, const ReferenceBackend& ref, const SimulationModel& m,
                              Component c) {
  std::vector<float> got;
  b.read_field(c, got);
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

// Runs `b` and the reference `steps` steps from the same model, then checks every component and
// every probe series: max |diff| below rel_tol of that component's (series') max |value|.
inline void compare_with_reference(Backend& b, const SimulationModel& m, double rel_tol = 1e-4) {
  ReferenceBackend ref(m);
  INFO("device: " << b.device_description() << ", variant: " << b.kernel_variant());
  ProbeRecorder rec_ref(ref, m), rec_b(b, m);
  rec_ref.at_state(0);
  rec_b.at_state(0);
  for (long s = 0; s < m.grid.steps; ++s) {
    ref.step(s);
    b.step(s);
    rec_ref.at_state(s + 1);
    rec_b.at_state(s + 1);
  }
  b.finish();
  CHECK(b.fields_finite());
  for (int c = 0; c < 6; ++c) {
    const auto comp = static_cast<Component>(c);
    const FieldError e = field_error(b, ref, m, comp);
    INFO(std::string(component_name(comp))
         << ": max |ref| = " << e.max_ref << ", max |diff| = " << e.max_diff << " (ratio "
         << e.max_diff / e.max_ref << ") at cell " << e.at[0] << "," << e.at[1] << "," << e.at[2]);
    CHECK(e.max_ref > 0);
    CHECK(e.max_diff <= rel_tol * e.max_ref);
  }
  const auto want = rec_ref.take(), got = rec_b.take();
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

// compare_with_reference on every API and variant, at the variant's default work-group and at
// each of `shapes` (x y z, clamped per variant as device.workgroup is).
inline void compare_everywhere(const SimulationModel& m,
                               const std::vector<std::array<int, 3>>& shapes = {}) {
  for_each_api_variant([&](device::Api api, KernelVariant v) {
    compare_with_reference(*engine::make_gpu_engine(api, m, engine_config(v)), m);
    for (const auto& wg : shapes) {
      compare_with_reference(*engine::make_gpu_engine(api, m, engine_config(v, wg)), m);
    }
  });
}

}  // namespace clfdtd::test
