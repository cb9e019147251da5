// Bloch-periodic boundaries (boundary.bloch_k, docs/PERIODIC.md): across a period L the fields take
// the phase exp(i k L). The reference engine carries a real and an imaginary copy and turns the
// values it reads across an end; the device engines run two copies of the part side by side and
// the halo exchange turns the planes it carries (cl_kernels/halo_pack.cl bloch_turn). Checked here:
// - the reference: an empty periodic box rings at exactly the Yee grid's frequencies of the
//   waves k + G (G the reciprocal lattice), found by harmonic inversion of a probe, none missing
//   and none added, for k along one, two and three axes;
// - OpenCL (PoCL in CI) and CUDA (where there is a GPU) against the reference, every output
//   (probes, energy of both parts, snapshots of the real part), rows and tile, with the copies
//   stacked along x, y and z, UPML on a non-periodic axis, a lossy magnetic dielectric and PEC
//   across the period's ends;
// - what a Bloch model refuses (exit 2 in the program): a k along an axis that is not periodic,
//   ports, plane waves, monitors, dispersive materials, magnetic walls, more than one rank.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <set>
#include <utility>

#include "backends/physics_helpers.hpp"
#include "backends/reference/reference_backend.hpp"
#include "config/load_config.hpp"
#include "device/test_apis.hpp"
#include "errors.hpp"
#include "monitors/harmonic_inversion.hpp"
#include "parallel/distributed_backend.hpp"
#include "parallel/split_outputs.hpp"
#include "parallel/thread_link.hpp"
#include "yee_waves.hpp"

using namespace clfdtd;
using namespace clfdtd::parallel;
using namespace clfdtd::test;

namespace {

constexpr double kD = 1e-3;

// 12 x 10 x 20 cells with UPML of 4 and 5 layers along z (or 12 x 10 x 8, every axis periodic),
// a lossy magnetic dielectric and a PEC plate touching the ends of the periodic axes, two dipoles,
// probes on the ends; `periodic` names the periodic axes (the others get PEC walls but z, which
// keeps its UPML unless periodic; sources and probes a cell off the walls).
SimulationModel bloch_model(long steps, const std::array<bool, 3>& periodic, const std::array<double, 3>& k) {
  const bool z_periodic = periodic[2];
  RunConfig cfg = box_config({12, 10, z_periodic ? 8 : 20}, kD, steps, BoundaryType::Upml, 4);
  cfg.boundary.periodic = periodic;
  cfg.boundary.layers = {0, 0, 0, 0, z_periodic ? 0 : 4, z_periodic ? 0 : 5};
  cfg.boundary.bloch_k = k;
  const double zc = z_periodic ? 4 : 10;
  const double x0 = periodic[0] ? 0 : 1, y0 = periodic[1] ? 0 : 1;  // off PEC walls
  cfg.materials = {material("glass", 3, 1.5, 0.02), material("metal", 1, 1, 0, true)};
  cfg.objects = {box("slab", "glass", {1, 5, zc}, {4, 4, 4}, kD),
                 box("plate", "metal", {6, 9.5, zc + 3}, {3, 1, 2}, kD)};
  cfg.sources = {point_source("a", SourceKind::Dipole, Axis::Z, cells(x0 + 0.3, 9.6 - y0, zc + 0.2, kD),
                              WaveformKind::Gaussian, 40e9, 1e-15),
                 point_source("b", SourceKind::Dipole, Axis::X, cells(11.6 - x0, 0.4 + y0, z_periodic ? 7.6 : 7.4, kD),
                              WaveformKind::Gaussian, 30e9, 1e-15)};
  cfg.probes = {point_probe("edge", cells(x0, y0, zc, kD),
                            {Component::Ex, Component::Ey, Component::Ez, Component::Hx,
                             Component::Hy, Component::Hz}),
                point_probe("far", cells(11.5 - x0, 9.5 - y0, z_periodic ? 0.2 : 6.2, kD), {Component::Ez, Component::Hy})};
  cfg.output.energy = true;
  SimulationModel m = SimulationModel::build(cfg);
  m.snapshot_steps = {9, steps};
  return m;
}

}  // namespace

TEST_CASE("Bloch reference: an empty periodic box rings at the Yee frequencies of k + G") {
  const std::array<int, 3> n{12, 10, 8};
  for (const std::array<double, 3>& k : {std::array<double, 3>{100, 150, 0},
                                         std::array<double, 3>{0, 0, 230},
                                         std::array<double, 3>{-80, 60, 170}}) {
    INFO("k " << k[0] << " " << k[1] << " " << k[2]);
    RunConfig cfg = box_config(n, kD, 5000, BoundaryType::Pec);
    cfg.boundary.periodic = {true, true, true};
    cfg.boundary.bloch_k = k;
    cfg.sources = {point_source("a", SourceKind::Current, Axis::Z, cells(3.2, 4.1, 2.5, kD),
                                WaveformKind::Gaussian, 8e10),
                   point_source("b", SourceKind::Current, Axis::X, cells(7.2, 6.1, 4.5, kD),
                                WaveformKind::Gaussian, 8e10),
                   point_source("c", SourceKind::Current, Axis::Y, cells(10.3, 8.7, 1.2, kD),
                                WaveformKind::Gaussian, 8e10)};
    const SimulationModel m = SimulationModel::build(cfg);
    REQUIRE(m.grid.bloch());
    ReferenceBackend ref(m);
    const std::size_t at = m.layout.index(8, 2, 5);
    // Ex + Ey + Ez of one cell: every polarisation of every wave (a wave along z has no Ez).
    std::vector<double> e;
    const long quiet = 300;  // the gaussian (8e10 Hz) has long ended by then
    for (long s = 0; s < m.grid.steps; ++s) {
      ref.step(s);
      if (s + 1 >= quiet)
        e.push_back(ref.field(Component::Ex)[at] + ref.field(Component::Ey)[at] + ref.field(Component::Ez)[at]);
    }
    const double f1 = 5e9, f2 = 4e10;
    const std::vector<double> want = yee_frequencies(n, kD, k, {1, 1, 1}, {1, 1, 1}, m.grid.dt, f1, f2);
    const HarmonicInversion h = find_resonances(e, m.grid.dt, f1, f2);
    REQUIRE(want.size() >= 6);
    CHECK(h.resonances.size() == want.size());
    for (std::size_t i = 0; i < want.size() && i < h.resonances.size(); ++i) {
      INFO("resonance " << i << ": " << h.resonances[i].frequency_hz << " Hz, Yee " << want[i]);
      CHECK(std::fabs(h.resonances[i].frequency_hz / want[i] - 1) < 1e-8);
      CHECK(std::fabs(1 / h.resonances[i].quality) < 1e-6);  // lossless: no decay
    }
  }
}

TEST_CASE("Bloch reference: the complex field varies as exp(+i k x) (the sign of boundary.bloch_k)") {
  // A chain of 40 cells along x (one cell along y and z, all periodic): the lowest wave's
  // component exp(-i omega t) at its frequency, taken at two cells 20 apart, differs by exp(i k 20 d).
  const int nx = 40;
  const double pi = std::acos(-1.0);
  const double k = 0.3 * 2 * pi / (nx * kD);
  RunConfig cfg = box_config({nx, 1, 1}, kD, 6000, BoundaryType::Pec);
  cfg.boundary.periodic = {true, true, true};
  cfg.boundary.bloch_k = {k, 0, 0};
  cfg.sources = {point_source("a", SourceKind::Current, Axis::Y, cells(7.2, 0.5, 0.5, kD), WaveformKind::Gaussian, 8e10)};
  const SimulationModel m = SimulationModel::build(cfg);
  ReferenceBackend ref(m);
  const double dt = m.grid.dt;
  const double f = std::asin(kC0 * dt * std::sin(k * kD / 2) / kD) / (pi * dt);
  std::complex<double> z1, z2;
  for (long s = 0; s < m.grid.steps; ++s) {
    ref.step(s);
    const std::complex<double> w = std::polar(1.0, 2 * pi * f * (s + 1) * dt);
    for (auto [i, z] : {std::pair<int, std::complex<double>*>{5, &z1}, {25, &z2}}) {
      const std::size_t at = m.layout.index(i, 0, 0);
      *z += w * std::complex<double>(ref.field(Component::Ey)[at], ref.field_imag(Component::Ey)[at]);
    }
  }
  const double turn = std::arg(z2 / z1), want = std::remainder(k * 20 * kD, 2 * pi);
  INFO("phase from x = 5 to 25 cells: " << turn << " rad, k 20 d = " << want);
  CHECK(std::abs(z1) > 0);
  CHECK(std::fabs(std::remainder(turn - want, 2 * pi)) < 1e-2);  // -k would give -0.94
}

TEST_CASE("Bloch: a device part of two copies gives the reference's outputs (rows, tile; copies along x, y, z)") {
  std::vector<std::string> skipped;
  const std::vector<device::Api> apis = test_apis(&skipped);
  for (const std::string& s : skipped) MESSAGE(s);
  struct Case {
    std::array<bool, 3> periodic;
    std::array<double, 3> k;
  };
  const std::vector<Case> cases{{{true, true, false}, {150, -220, 0}},   // copies along x, UPML on z
                                {{false, true, false}, {0, 260, 0}},     // along y, PEC x walls
                                {{false, true, true}, {0, 0, -310}},     // along y, turned on z only
                                {{false, false, true}, {0, 0, 270}},     // along z, PEC x and y walls
                                {{true, true, true}, {90, 120, 200}}};   // all three
  for (device::Api api : apis)
    for (const Case& c : cases) {
      INFO("api " << std::string(device::api_name(api)));
      INFO("periodic " << c.periodic[0] << c.periodic[1] << c.periodic[2] << ", k " << c.k[0] << " " << c.k[1]
                       << " " << c.k[2]);
      const SimulationModel m = bloch_model(80, c.periodic, c.k);
      OutputRecorder want;
      std::array<std::vector<double>, 6> imag_want;
      {
        ReferenceBackend ref(m);
        record_run(m, ref, want);
        for (int q = 0; q < 6; ++q) imag_want[static_cast<std::size_t>(q)] = ref.field_imag(static_cast<Component>(q));
      }
      for (KernelVariant variant : {KernelVariant::Rows, KernelVariant::Tile}) {
        INFO("variant " << static_cast<int>(variant));
        DeviceConfig dev;
        dev.backend = api == device::Api::Cuda ? BackendKind::Cuda : BackendKind::OpenCl;
        dev.variant = variant;
        const Decomposition d = decompose(m.grid.n, 1, {1, 1, 1}, m.grid.periodic);
        ThreadGroup group(1);
        OutputRecorder got;
        std::array<std::vector<float>, 6> imag;
        group.run([&](int r) {
          DistributedBackend b(m, dev, d, std::make_unique<ThreadLink>(group, r));
          CHECK(b.part().part.bloch_axis >= 0);
          record_run(m, b, got);
          for (int q = 0; q < 6; ++q) b.read_field_copy(static_cast<Component>(q), 1, imag[static_cast<std::size_t>(q)]);
        });
        const std::string err = compare_outputs(got, want, true, 2e-4);
        CHECK_MESSAGE(err.empty(), err);
        // The imaginary part cell by cell (the real part's outputs are the same at -k: this
        // one's sign is k's).
        for (std::size_t q = 0; q < 6; ++q) {
          std::vector<double> ref_imag, dev_imag(imag[q].begin(), imag[q].end());
          for (int i = 0; i < m.grid.n[0]; ++i)
            for (int j = 0; j < m.grid.n[1]; ++j)
              for (int k = 0; k < m.grid.n[2]; ++k) ref_imag.push_back(imag_want[q][m.layout.index(i, j, k)]);
          const std::string e = compare_series("imaginary " + std::to_string(q), dev_imag, ref_imag, 2e-4);
          CHECK_MESSAGE(e.empty(), e);
        }
      }
      // The imaginary part matters: the same model with k = 0 gives other probe values.
      SimulationModel plain = m;
      plain.grid.bloch_phase = {0, 0, 0};
      OutputRecorder unturned;
      ReferenceBackend ref(plain);
      record_run(plain, ref, unturned);
      CHECK_FALSE(compare_series("probes", unturned.probes, want.probes, 1e-2).empty());
    }
}

TEST_CASE("periodic and Bloch: a long run's energy stays the reference's (the ghost planes left out)") {
  // The ghost cells' values that no exchange replaces drift over the steps; before the sums were
  // taken without them, a lossless crystal's energy went negative within 1000 steps on PoCL.
  if (test_apis().empty()) return;
  for (const std::array<double, 3>& k : {std::array<double, 3>{0, 0, 0}, std::array<double, 3>{90, 120, 200}}) {
    INFO("k " << k[0] << " " << k[1] << " " << k[2]);
    // One cell along z (a 2D crystal, as models/bloch_square_rods.ini): two of its three local z
    // planes are ghosts.
    RunConfig cfg = box_config({12, 10, 1}, kD, 1500, BoundaryType::Pec);
    cfg.boundary.periodic = {true, true, true};
    cfg.boundary.bloch_k = k;
    cfg.materials = {material("glass", 8.9, 1, 0)};
    cfg.objects = {box("rod", "glass", {6, 5, 0.5}, {4, 4, 1}, kD)};
    cfg.sources = {point_source("a", SourceKind::Current, Axis::Z, cells(3.3, 4.6, 0.5, kD), WaveformKind::Gaussian, 40e9)};
    cfg.output.energy = true;
    const SimulationModel m = SimulationModel::build(cfg);
    OutputRecorder want, got;
    {
      ReferenceBackend ref(m);
      record_run(m, ref, want);
    }
    DeviceConfig dev;
    dev.backend = test_apis().front() == device::Api::Cuda ? BackendKind::Cuda : BackendKind::OpenCl;
    const Decomposition d = decompose(m.grid.n, 1, {1, 1, 1}, m.grid.periodic);
    ThreadGroup group(1);
    group.run([&](int r) {
      DistributedBackend b(m, dev, d, std::make_unique<ThreadLink>(group, r));
      record_run(m, b, got);
    });
    REQUIRE(want.energy_total.size() == got.energy_total.size());
    const std::string err = compare_series("energy total", got.energy_total, want.energy_total, 1e-3);
    CHECK_MESSAGE(err.empty(), err);
    CHECK(want.energy_total.back() == doctest::Approx(want.energy_total[want.energy_total.size() / 2]).epsilon(1e-9));
  }
}

TEST_CASE("Bloch: what a Bloch-periodic model refuses") {
  auto base = [] {
    RunConfig cfg = box_config({12, 10, 8}, kD, 20, BoundaryType::Pec);
    cfg.boundary.periodic = {true, true, false};
    cfg.boundary.bloch_k = {100, 0, 0};
    cfg.sources = {point_source("a", SourceKind::Current, Axis::Z, cells(3.2, 4.1, 2.5, kD),
                                WaveformKind::Gaussian, 8e10)};
    return cfg;
  };
  CHECK_NOTHROW(SimulationModel::build(base()));
  {
    RunConfig cfg = base();
    cfg.sources.push_back(point_source("p", SourceKind::Port, Axis::Z, cells(6, 5, 4, kD), WaveformKind::Gaussian, 8e10));
    CHECK_THROWS_WITH_AS(SimulationModel::build(cfg), doctest::Contains("no lumped port in a Bloch-periodic model"),
                         ConfigError);
  }
  {
    RunConfig cfg = base();
    cfg.materials = {dispersive("water", 5, {pole(PoleKind::Debye, 70, 1e-11)})};
    CHECK_THROWS_WITH_AS(SimulationModel::build(cfg), doctest::Contains("no dispersive material"), ConfigError);
  }
  {
    RunConfig cfg = base();
    MonitorConfig mon;
    mon.name = "f";
    mon.kind = MonitorKind::Flux;
    mon.box_lo = cells(0, 0, 4, kD);
    mon.box_hi = cells(12, 10, 4, kD);
    mon.frequencies_hz = {3e10};
    cfg.monitors = {mon};
    CHECK_THROWS_WITH_AS(SimulationModel::build(cfg), doctest::Contains("no monitor"), ConfigError);
  }
  {
    RunConfig cfg = base();
    cfg.boundary.pmc = {false, false, true};
    CHECK_THROWS_WITH_AS(SimulationModel::build(cfg), doctest::Contains("no magnetic wall"), ConfigError);
  }
  // A wave vector along an axis that is not periodic: the loader names the key.
  CHECK_THROWS_WITH_AS(load_config_text("[grid]\nsize = 0.012 0.01 0.008\ncell_size = 0.001\n[time]\nsteps = 10\n"
                                        "[boundary]\nperiodic = x\nbloch_k = 10 20 0\n",
                                        "bloch.ini", {}),
                       doctest::Contains("0 along y, which is not periodic"), ConfigError);
  // Over ranks: refused (one process only).
  if (test_apis().empty()) return;
  const SimulationModel m = SimulationModel::build(base());
  DeviceConfig dev;
  dev.backend = test_apis().front() == device::Api::Cuda ? BackendKind::Cuda : BackendKind::OpenCl;
  const Decomposition d = decompose(m.grid.n, 2, {2, 1, 1}, m.grid.periodic);
  ThreadGroup group(2);
  std::array<bool, 2> refused{};
  group.run([&](int r) {
    try {
      DistributedBackend b(m, dev, d, std::make_unique<ThreadLink>(group, r));
    } catch (const ConfigError& e) {
      refused[static_cast<std::size_t>(r)] = std::string(e.what()).find("one process") != std::string::npos;
    }
  });
  CHECK(refused[0]);
  CHECK(refused[1]);
}
