// output.energy (docs/EQUATIONS.md, Energy): the reference engine's energy terms against sums taken
// directly over its fields, the Yee energy W(s) = electric(s) + magnetic(s + 1) constant to double
// rounding in a lossless PEC cavity with dielectric and magnetic objects, and a backend without
// energy support refusing it. The GPU engine's reduction: tests/engine/test_engine_energy.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "backends/energy_helpers.hpp"
#include "backends/physics_helpers.hpp"
#include "backends/reference/reference_backend.hpp"
#include "errors.hpp"
#include "solver/time_loop.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

// 1/2 sum w * a.b dV over one field triple, w per sample from the material table.
double direct_sum(const SimulationModel& m, const std::array<const std::vector<double>*, 3>& a,
                  const std::array<const std::vector<double>*, 3>& b, bool electric) {
  double sum = 0;
  for (int u = 0; u < 3; ++u) {
    for (std::size_t c = 0; c < m.layout.cells(); ++c) {
      double w = 1;
      if (electric) {
        const MaterialEntry& e = m.materials.entry(m.ids[u][c]);
        w = e.pec ? 0 : e.eps_r;
      } else if (m.magnetic) {
        const MaterialEntry& e = m.materials.entry(m.ids[3 + u][c]);
        w = e.pec ? 1 : e.mu_r;
      }
      sum += w * (*a[u])[c] * (*b[u])[c];
    }
  }
  const double dv = m.grid.d[0] * m.grid.d[1] * m.grid.d[2];
  return 0.5 * (electric ? kEps0 : kMu0) * dv * sum;
}

}  // namespace

TEST_CASE("reference energy terms equal sums taken directly over the fields") {
  RunConfig cfg = cavity_config(40);
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(m.magnetic);
  REQUIRE(m.energy);
  ReferenceBackend ref(m);
  std::array<std::vector<double>, 3> h_prev;
  for (auto& h : h_prev) h.assign(m.layout.cells(), 0.0);
  std::vector<EnergyTerms> terms;
  for (long s = 0; s < 40; ++s) {
    ref.step(s);
    ref.sample_energy(0);
    ref.read_energy_batch(1, terms);
    REQUIRE(terms.size() == 1);
    const std::array<const std::vector<double>*, 3> e{&ref.field(Component::Ex),
                                                      &ref.field(Component::Ey),
                                                      &ref.field(Component::Ez)};
    const std::array<const std::vector<double>*, 3> h{&ref.field(Component::Hx),
                                                      &ref.field(Component::Hy),
                                                      &ref.field(Component::Hz)};
    const std::array<const std::vector<double>*, 3> hp{&h_prev[0], &h_prev[1], &h_prev[2]};
    CHECK(terms[0].electric == doctest::Approx(direct_sum(m, e, e, true)).epsilon(1e-12));
    CHECK(terms[0].magnetic == doctest::Approx(direct_sum(m, h, hp, false)).epsilon(1e-12));
    CHECK(terms[0].magnetic_now == doctest::Approx(direct_sum(m, h, h, false)).epsilon(1e-12));
    for (int u = 0; u < 3; ++u) h_prev[u] = *h[u];
  }
  CHECK(terms[0].electric > 0);
}

TEST_CASE("reference: the Yee energy is constant in a lossless cavity, the naive sum is not") {
  const long steps = 700;
  const SimulationModel m = SimulationModel::build(cavity_config(steps));
  ReferenceBackend ref(m);
  const auto rows = run_energy(m, ref);  // crosses two probe batches (256 slots)
  REQUIRE(rows.size() == static_cast<std::size_t>(steps));  // steps 0 .. steps-1
  for (std::size_t i = 0; i < rows.size(); ++i) {
    REQUIRE(rows[i].step == static_cast<long>(i));
    CHECK(rows[i].total == doctest::Approx(rows[i].electric + rows[i].magnetic));
  }
  CHECK(rows[0].total == 0);
  const double w0 = rows[150].total;
  REQUIRE(w0 > 0);
  double drift = 0, naive_lo = rows[150].naive, naive_hi = rows[150].naive;
  for (std::size_t i = 150; i < rows.size(); ++i) {
    drift = std::max(drift, std::abs(rows[i].total / w0 - 1));
    naive_lo = std::min(naive_lo, rows[i].naive);
    naive_hi = std::max(naive_hi, rows[i].naive);
  }
  INFO("Yee energy drift " << drift << ", naive swing " << (naive_hi - naive_lo) / w0);
  CHECK(drift < 1e-12);
  CHECK((naive_hi - naive_lo) / w0 > 1e-3);
}

TEST_CASE("a conductivity drains the Yee energy") {
  RunConfig cfg = cavity_config(400);
  cfg.materials[0].sigma = 0.5;  // the glass block becomes lossy
  const SimulationModel m = SimulationModel::build(cfg);
  ReferenceBackend ref(m);
  const auto rows = run_energy(m, ref);
  for (std::size_t i = 151; i < rows.size(); ++i) CHECK(rows[i].total < rows[i - 1].total);
}

TEST_CASE("a backend without energy support refuses output.energy") {
  class Minimal final : public Backend {
  public:
    std::string name() const override { return "minimal"; }
    std::string device_description() const override { return ""; }
    std::string kernel_variant() const override { return ""; }
    void step(long) override {}
    void sample_probes(int) override {}
    void read_probe_batch(int, std::vector<double>&) override {}
    int probe_batch_steps() const override { return 1; }
    void read_field(Component, std::vector<float>&) override {}
    bool fields_finite() override { return true; }
    void finish() override {}
  } b;
  std::vector<EnergyTerms> out;
  CHECK_THROWS_WITH_AS(b.sample_energy(0), doctest::Contains("not supported by the minimal"),
                       DeviceError);
  CHECK_THROWS_AS(b.read_energy_batch(1, out), DeviceError);
}
