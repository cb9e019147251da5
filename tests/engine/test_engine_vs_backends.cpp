// While the per-API backends still exist: the engine on OpenCL gives bit for bit the fields,
// probe series and energy sums of OpenClBackend for the same variant and work-group (the same
// kernels, ranges and argument values), and reports the same identity and memory.
#include <doctest/doctest.h>

#ifdef CLFDTD_HAVE_OPENCL

#include "backends/opencl/opencl_backend.hpp"
#include "engine/engine_suite.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

// Runs both `steps` steps, sampling probes and energy after each, then compares all outputs.
void expect_identical(Backend& a, Backend& b, const SimulationModel& m) {
  INFO(a.kernel_variant() << " vs " << b.kernel_variant());
  CHECK(a.kernel_variant() == b.kernel_variant());
  CHECK(a.device_description() == b.device_description());
  CHECK(a.driver_version() == b.driver_version());
  CHECK(a.device_bytes(m) == b.device_bytes(m));
  CHECK(a.one_pass() == b.one_pass());
  ProbeRecorder ra(a, m), rb(b, m);
  std::vector<EnergyTerms> ea, eb;
  for (long s = 0; s < m.grid.steps; ++s) {
    a.step(s);
    b.step(s);
    ra.at_state(s + 1);
    rb.at_state(s + 1);
    a.sample_energy(static_cast<int>(s));
    b.sample_energy(static_cast<int>(s));
  }
  a.read_energy_batch(static_cast<int>(m.grid.steps), ea);
  b.read_energy_batch(static_cast<int>(m.grid.steps), eb);
  REQUIRE(ea.size() == eb.size());
  for (std::size_t n = 0; n < ea.size(); ++n) {
    CHECK(ea[n].electric == eb[n].electric);
    CHECK(ea[n].magnetic == eb[n].magnetic);
  }
  CHECK(ra.take() == rb.take());
  std::vector<float> fa, fb;
  for (int c = 0; c < 6; ++c) {
    a.read_field(static_cast<Component>(c), fa);
    b.read_field(static_cast<Component>(c), fb);
    CHECK(fa == fb);
  }
  CHECK(a.fields_finite() == b.fields_finite());
}

}  // namespace

TEST_CASE("engine on OpenCL equals OpenClBackend bit for bit, every variant") {
  const auto& apis = engine_apis();
  if (std::find(apis.begin(), apis.end(), device::Api::OpenCL) == apis.end()) return;
  for (bool magnetic : {true, false}) {
    RunConfig cfg = slab_edge_config({2, 1, 3, 1, 3, 2}, magnetic, 41);
    cfg.output.energy = true;
    const SimulationModel m = SimulationModel::build(cfg);
    for (KernelVariant v : engine_variants()) {
      for (const auto& wg : {std::optional<std::array<int, 3>>{},
                             std::optional<std::array<int, 3>>{{3, 2, 2}}}) {
        const DeviceConfig dev = engine_config(v, wg);
        OpenClBackend old(m, dev);
        auto now = engine::make_gpu_engine(device::Api::OpenCL, m, dev);
        expect_identical(*now, old, m);
      }
    }
  }
}

#endif  // CLFDTD_HAVE_OPENCL
