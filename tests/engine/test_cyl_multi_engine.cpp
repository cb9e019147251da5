// The cylindrical modes spread over several devices (CylMultiEngine): the split of the mode
// slots, the parts' models, and a 3-mode run over the same device named twice ("0, 0": two
// contexts and queues on one device, which is how a machine without two devices checks it)
// against the one-device run: every mode's field identical, probes, read_field and energy equal
// to float rounding (they are summed per device, then over devices), every device listed.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "engine/cyl/cyl_fields.hpp"
#include "engine/cyl/cyl_multi_engine.hpp"
#include "engine/cyl_engine_models.hpp"
#include "errors.hpp"

using namespace clfdtd;
using namespace clfdtd::engine;
using namespace clfdtd::test;

TEST_CASE("split_mode_slots: contiguous parts as even as possible, never an empty one") {
  CHECK(split_mode_slots(3, 1) == std::vector<std::vector<int>>{{0, 1, 2}});
  CHECK(split_mode_slots(3, 2) == std::vector<std::vector<int>>{{0, 1}, {2}});
  CHECK(split_mode_slots(3, 3) == std::vector<std::vector<int>>{{0}, {1}, {2}});
  CHECK(split_mode_slots(5, 3) == std::vector<std::vector<int>>{{0, 1}, {2, 3}, {4}});
  try {
    split_mode_slots(2, 3);
    FAIL("3 devices for 2 modes were accepted");
  } catch (const ConfigError& e) {
    CHECK(e.key() == "device.select");
    CHECK(std::string(e.what()).find("2 listed in grid.modes") != std::string::npos);
  }
}

TEST_CASE("cyl_model_with_slots: the modes and the sources' mode factors of the slots") {
  const SimulationModel m = cyl_model(mixed_spec());
  const SimulationModel part = cyl_model_with_slots(m, {1, 2});
  CHECK(part.grid.modes == std::vector<int>{1, 2});
  CHECK(part.grid.dt == m.grid.dt);  // the time step of the largest mode of the whole model
  REQUIRE(part.sources.size() == m.sources.size());
  for (std::size_t s = 0; s < m.sources.size(); ++s) {
    REQUIRE(part.sources[s].mode_factor.size() == 2);
    CHECK(part.sources[s].mode_factor[0] == m.sources[s].mode_factor[1]);
    CHECK(part.sources[s].mode_factor[1] == m.sources[s].mode_factor[2]);
    CHECK(part.sources[s].j == m.sources[s].j);
  }
}

namespace {

// Every probe batch and energy sample of `steps` steps, one slot per step (one batch: steps is
// below the batch size).
struct Series {
  std::vector<double> probes;
  std::vector<EnergyTerms> energy;
};

Series run_series(Backend& b, long steps) {
  REQUIRE(steps <= b.probe_batch_steps());
  for (long s = 0; s < steps; ++s) {
    b.step(s);
    b.sample_probes(static_cast<int>(s));
    b.sample_energy(static_cast<int>(s));
  }
  Series out;
  b.read_probe_batch(static_cast<int>(steps), out.probes);
  b.read_energy_batch(static_cast<int>(steps), out.energy);
  return out;
}

}  // namespace

TEST_CASE("modes over devices: 3 modes over the same device twice equal the one-device run") {
  CylSpec spec = mixed_spec();
  spec.energy = true;
  const SimulationModel m = cyl_model(spec);
  for (device::Api api : apis()) {
    INFO(device::api_name(api));
    DeviceConfig one_cfg = config(KernelVariant::Tile);
    one_cfg.backend = api == device::Api::Cuda ? BackendKind::Cuda : BackendKind::OpenCl;
    one_cfg.select = "0";
    DeviceConfig two_cfg = one_cfg;
    two_cfg.select = "0, 0";
    auto one = make_backend(m, one_cfg);
    auto two = make_backend(m, two_cfg);
    auto* multi = dynamic_cast<CylMultiEngine*>(two.get());
    REQUIRE(multi != nullptr);
    REQUIRE(multi->devices() == 2);
    CHECK(multi->slots(0) == std::vector<int>{0, 1});
    CHECK(multi->slots(1) == std::vector<int>{2});

    const Series a = run_series(*one, m.grid.steps);
    const Series b = run_series(*two, m.grid.steps);
    one->finish();
    two->finish();
    CHECK(two->fields_finite());

    // Each mode advances alone in both runs, by the same kernels: bit for bit.
    for (std::size_t q = 0; q < m.grid.modes.size(); ++q) {
      for (int c = 0; c < 6; ++c) {
        std::vector<std::complex<float>> fa, fb;
        one->read_mode_field(static_cast<int>(q), static_cast<Component>(c), fa);
        two->read_mode_field(static_cast<int>(q), static_cast<Component>(c), fb);
        INFO("m = " << m.grid.modes[q] << " " << cyl_component_name(static_cast<Component>(c)));
        REQUIRE(fa.size() == fb.size());
        for (std::size_t n = 0; n < fa.size(); ++n) REQUIRE(fa[n] == fb[n]);
      }
    }
    // The sums over modes: on one device in float in the kernel, here per device then over the
    // devices, so equal to float rounding of the largest value.
    REQUIRE(a.probes.size() == b.probes.size());
    const double probe_scale = max_abs(a.probes);
    REQUIRE(probe_scale > 0);
    for (std::size_t n = 0; n < a.probes.size(); ++n) {
      REQUIRE(std::abs(a.probes[n] - b.probes[n]) <= 1e-6 * probe_scale);
    }
    REQUIRE(a.energy.size() == b.energy.size());
    for (std::size_t n = 0; n < a.energy.size(); ++n) {
      INFO("energy sample " << n);
      CHECK(b.energy[n].electric == doctest::Approx(a.energy[n].electric).epsilon(1e-5));
      CHECK(b.energy[n].magnetic == doctest::Approx(a.energy[n].magnetic).epsilon(1e-5));
      CHECK(b.energy[n].magnetic_now == doctest::Approx(a.energy[n].magnetic_now).epsilon(1e-5));
    }
    CHECK(a.energy.back().electric > 0);
    for (int c = 0; c < 6; ++c) {
      std::vector<float> fa, fb;
      one->read_field(static_cast<Component>(c), fa);
      two->read_field(static_cast<Component>(c), fb);
      REQUIRE(fa.size() == fb.size());
      float scale = 0;
      for (float x : fa) scale = std::max(scale, std::abs(x));
      for (std::size_t n = 0; n < fa.size(); ++n) REQUIRE(std::abs(fa[n] - fb[n]) <= 1e-6f * scale);
    }

    // Each part's buffers, counted for the part it holds.
    CHECK(two->device_bytes(m) == cyl_device_bytes(cyl_model_with_slots(m, {0, 1}), 256) +
                                      cyl_device_bytes(cyl_model_with_slots(m, {2}), 256));
    const std::string desc = two->device_description();
    INFO(desc);
    CHECK(desc.find("m = 0 1 on ") == 0);
    CHECK(desc.find("; m = 2 on ") != std::string::npos);
    const auto parts = two->device_parts();
    REQUIRE(parts.size() == 2);
    CHECK(parts[0].modes == std::vector<int>{0, 1});
    CHECK(parts[1].modes == std::vector<int>{2});
    CHECK(parts[0].description == one->device_description());
    const std::string variant = two->kernel_variant();
    CHECK(variant.find("(2 modes)") != std::string::npos);
    CHECK(variant.find("; cyl-tile") != std::string::npos);
    CHECK(variant.find("(1 mode)") != std::string::npos);
    std::vector<std::complex<float>> none;
    CHECK_THROWS_AS(two->read_mode_field(3, Component::Ez, none), DeviceError);
  }
}

TEST_CASE("modes over devices: lists refused (more devices than modes, the reference backend)") {
  CylSpec spec = mixed_spec();
  spec.modes = {0, 1};
  const SimulationModel m = cyl_model(spec);
  DeviceConfig cfg = config(KernelVariant::Tile);
  cfg.select = "0, 0, 0";
  for (device::Api api : apis()) {
    cfg.backend = api == device::Api::Cuda ? BackendKind::Cuda : BackendKind::OpenCl;
    try {
      make_backend(m, cfg);
      FAIL("3 devices for 2 modes were accepted");
    } catch (const ConfigError& e) {
      CHECK(e.key() == "device.select");
    }
  }
  cfg.backend = BackendKind::Reference;
  try {
    make_backend(m, cfg);
    FAIL("a device list for the reference backend was accepted");
  } catch (const ConfigError& e) {
    CHECK(e.key() == "device.select");
  }
}
