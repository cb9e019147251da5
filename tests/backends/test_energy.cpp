// output.energy (docs/EQUATIONS.md, Energy): the reference engine's energy terms against sums taken
// directly over its fields, the Yee energy W(s) = electric(s) + magnetic(s + 1) constant to double
// rounding in a lossless PEC cavity with dielectric and magnetic objects, the OpenCL tree
// reduction (cl_kernels/energy.cl) and the CUDA build of the same kernel against the reference
// for every kernel variant through the time loop, and a backend without energy support refusing
// it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "backends/physics_helpers.hpp"
#include "backends/reference/reference_backend.hpp"
#include "config/options.hpp"
#include "errors.hpp"
#include "solver/time_loop.hpp"

#ifdef CLFDTD_HAVE_OPENCL
#include "backends/test_opencl_helpers.hpp"
#endif
#ifdef CLFDTD_HAVE_CUDA
#include "backends/test_cuda_helpers.hpp"
#endif

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

constexpr double kD = 1e-3;  // cell size, m

// A closed PEC box with a dielectric and a magnetic block (nz = 10: z padding lanes exist), rung
// by two Gaussian-moment dipoles that are done by step ~60.
RunConfig cavity_config(long steps) {
  RunConfig cfg = box_config({14, 12, 10}, kD, steps, BoundaryType::Pec);
  cfg.materials = {material("glass", 3, 1, 0), material("ferrite", 1.5, 2, 0)};
  cfg.objects = {box("block", "glass", {9, 5, 4}, {5, 4, 5}, kD),
                 box("core", "ferrite", {4, 8, 6}, {4, 3, 4}, kD)};
  cfg.sources = {point_source("a", SourceKind::Dipole, Axis::Z, {3.3e-3, 4.1e-3, 5.5e-3},
                              WaveformKind::Gaussian, 60e9, 1e-15),
                 point_source("b", SourceKind::Dipole, Axis::X, {10.5e-3, 9.2e-3, 3.1e-3},
                              WaveformKind::Gaussian, 60e9, 1e-15)};
  cfg.output.energy = true;
  return cfg;
}

// 30 x 31 x 77 cells: nz4 = 20, 18600 float4s, more than the 256 groups x 64 items of one pass,
// so work-items loop; uneven layers; a lossy block; a PEC plate. Not magnetic.
[[maybe_unused]] RunConfig many_groups_config() {
  RunConfig cfg = box_config({30, 31, 77}, kD, 120, BoundaryType::Upml);
  cfg.boundary.layers = {3, 4, 0, 2, 5, 3};
  cfg.materials = {material("glass", 4, 1, 0), material("lossy", 2, 1, 0.3)};
  cfg.objects = {box("glass", "glass", {15, 15, 40}, {10, 9, 30}, kD),
                 box("lossy", "lossy", {8, 22, 20}, {5, 5, 8}, kD),
                 box("plate", "pec", {20, 10, 55}, {6, 1, 6}, kD)};
  cfg.sources = {point_source("s", SourceKind::Dipole, Axis::Y, {12.2e-3, 14.7e-3, 33.1e-3},
                              WaveformKind::Sine, 40e9, 1e-15)};
  cfg.output.energy = true;
  return cfg;
}

// Keeps the energy rows of a time-loop run.
class EnergySink final : public LoopSink {
public:
  void probe_rows(long, int, const std::vector<double>&) override {}
  void snapshot(long, const std::array<std::vector<float>, 6>&) override {}
  void energy_rows(const std::vector<EnergyRow>& rows) override {
    all.insert(all.end(), rows.begin(), rows.end());
  }
  std::vector<EnergyRow> all;
};

std::vector<EnergyRow> run_energy(const SimulationModel& m, Backend& b) {
  EnergySink sink;
  LoopOptions opt;
  opt.progress_interval_s = 1e9;
  run_time_loop(m, b, sink, nullptr, opt);
  return sink.all;
}

// The largest difference of a device's energy rows from the reference's over every step and term,
// relative to the largest reference energy; the steps must match row by row.
double worst_energy_difference(const std::vector<EnergyRow>& got,
                               const std::vector<EnergyRow>& want) {
  double scale = 0;
  for (const auto& r : want) scale = std::max({scale, r.total, r.naive});
  REQUIRE(scale > 0);
  REQUIRE(got.size() == want.size());
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    CHECK(got[i].step == want[i].step);
    for (double d : {got[i].total - want[i].total, got[i].electric - want[i].electric,
                     got[i].magnetic - want[i].magnetic, got[i].naive - want[i].naive}) {
      worst = std::max(worst, std::abs(d) / scale);
    }
  }
  return worst;
}

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

#ifdef CLFDTD_HAVE_OPENCL

namespace {

// Every OpenCL kernel variant the option table offers (device.variant words after "auto").
std::vector<KernelVariant> all_variants() {
  std::vector<KernelVariant> v;
  const OptionSpec* spec = find_option("device.variant");
  REQUIRE(spec != nullptr);
  for (std::size_t i = 1; i < spec->words.size(); ++i) v.push_back(static_cast<KernelVariant>(i));
  return v;
}

void compare_energy(const SimulationModel& m, double rel_tol) {
  ReferenceBackend ref(m);
  const auto want = run_energy(m, ref);
  for (KernelVariant v : all_variants()) {
    DeviceConfig dev;
    dev.variant = v;
    OpenClBackend ocl(m, dev);
    INFO("variant " << ocl.kernel_variant());
    const double worst = worst_energy_difference(run_energy(m, ocl), want);
    MESSAGE(ocl.kernel_variant() << ": max |opencl - reference| / max energy = " << worst);
    CHECK(worst < rel_tol);
  }
}

}  // namespace

TEST_CASE("opencl energy sums match the reference: magnetic cavity, every kernel variant") {
  if (!opencl_available()) return;
  const SimulationModel m = SimulationModel::build(cavity_config(300));
  REQUIRE(m.magnetic);
  compare_energy(m, 1e-6);
}

TEST_CASE("opencl energy sums match the reference: non-magnetic UPML grid of many groups") {
  if (!opencl_available()) return;
  const SimulationModel m = SimulationModel::build(many_groups_config());
  REQUIRE_FALSE(m.magnetic);
  REQUIRE(static_cast<std::size_t>(m.layout.nx) * m.layout.ny * m.layout.nz4 > 256 * 64);
  compare_energy(m, 1e-6);
}

TEST_CASE("tiny magnetic UPML energy model (oclgrind)") {
  // Small enough for tools/oclgrind_check.sh (an interpreter): races and out-of-bounds in
  // energy.cl, with padding lanes (nz = 7), several groups and both argument lists.
  if (!opencl_available()) return;
  for (bool magnetic : {true, false}) {
    RunConfig cfg = box_config({9, 8, 7}, kD, 12, BoundaryType::Upml, 2);
    cfg.materials = {material("m", 2, magnetic ? 1.5 : 1, 0)};
    cfg.objects = {box("m", "m", {4.5, 4, 3.5}, {3, 3, 3}, kD)};
    cfg.sources = {point_source("s", SourceKind::Dipole, Axis::Z, {4.2e-3, 3.9e-3, 3.4e-3},
                                WaveformKind::Sine, 80e9, 1e-15)};
    cfg.output.energy = true;
    const SimulationModel m = SimulationModel::build(cfg);
    REQUIRE(m.magnetic == magnetic);
    compare_energy(m, 1e-6);
  }
}

#endif

#ifdef CLFDTD_HAVE_CUDA

namespace {

// As compare_energy for OpenCL: every CUDA kernel variant at its default block (the onepass one
// swaps its two sets of fields each step, so energy_sums must get the current ones).
void compare_cuda_energy(const SimulationModel& m, double rel_tol) {
  ReferenceBackend ref(m);
  const auto want = run_energy(m, ref);
  for (KernelVariant v : {KernelVariant::Tile, KernelVariant::OnePass, KernelVariant::Plain,
                          KernelVariant::Rows, KernelVariant::Fused}) {
    CudaBackend gpu(m, cudatest::cuda_device(v, std::nullopt));
    INFO("variant " << gpu.kernel_variant());
    const double worst = worst_energy_difference(run_energy(m, gpu), want);
    MESSAGE(gpu.kernel_variant() << ": max |cuda - reference| / max energy = " << worst);
    CHECK(worst < rel_tol);
  }
}

}  // namespace

TEST_CASE("cuda energy sums match the reference: magnetic cavity, every kernel variant") {
  if (!cudatest::cuda_available()) return;
  const SimulationModel m = SimulationModel::build(cavity_config(300));
  REQUIRE(m.magnetic);
  compare_cuda_energy(m, 1e-6);
}

TEST_CASE("cuda energy sums match the reference: non-magnetic UPML grid of many groups") {
  if (!cudatest::cuda_available()) return;
  const SimulationModel m = SimulationModel::build(many_groups_config());
  REQUIRE_FALSE(m.magnetic);
  REQUIRE(static_cast<std::size_t>(m.layout.nx) * m.layout.ny * m.layout.nz4 > 256 * 64);
  compare_cuda_energy(m, 1e-6);
}

#endif
