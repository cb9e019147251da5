// boundary.pmc (docs/PERIODIC.md, "Magnetic walls"): the low face of an axis as a perfect magnetic
// conductor, a symmetry plane for fields whose tangential E is even about it. Checked here:
// - the reference: a z dipole on the plane x = 0 of a model with pmc = x gives, cell by cell, the
//   fields of the half x >= L of the model twice as wide with the dipole on its middle plane;
// - the device engines (OpenCL, CUDA where there is a GPU) against the reference with magnetic
//   walls on x and y, every output (probes on the walls, energy, a flux box touching them, a dft
//   region, snapshots), in one process (rows, tile) and split over 2 ranks along x;
// - what the keys refuse.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "backends/monitor_helpers.hpp"
#include "backends/physics_helpers.hpp"
#include "backends/reference/reference_backend.hpp"
#include "config/load_config.hpp"
#include "device/test_apis.hpp"
#include "errors.hpp"
#include "parallel/distributed_backend.hpp"
#include "parallel/split_outputs.hpp"
#include "parallel/thread_link.hpp"

using namespace clfdtd;
using namespace clfdtd::parallel;
using namespace clfdtd::test;

namespace {

constexpr double kD = 1e-3;

std::array<std::vector<float>, 6> run_reference(const SimulationModel& m) {
  ReferenceBackend ref(m);
  for (long s = 0; s < m.grid.steps; ++s) ref.step(s);
  std::array<std::vector<float>, 6> out;
  for (int c = 0; c < 6; ++c) ref.read_field(static_cast<Component>(c), out[static_cast<std::size_t>(c)]);
  return out;
}

}  // namespace

TEST_CASE("pmc reference: the half model is the symmetric whole's half") {
  const int L = 10, ny = 12, nz = 14;
  auto config = [&](int nx, bool half) {
    RunConfig cfg = box_config({nx, ny, nz}, kD, 50, BoundaryType::Upml, 4);
    if (half) {
      cfg.boundary.pmc = {true, false, false};
      cfg.boundary.layers[0] = 0;
    }
    cfg.materials = {material("glass", 3, 1, 0.05)};
    // A lossy block across the plane: in the half model the part at x >= 0.
    cfg.objects = {box("b", "glass", {half ? 0.0 : double(L), 8, 9}, {6, 3, 3}, kD)};
    cfg.sources = {point_source("s", SourceKind::Dipole, Axis::Z,
                                cells(half ? 0.0 : double(L), 5.3, 6.6, kD), WaveformKind::Gaussian,
                                60e9, 1e-15)};
    return cfg;
  };
  const SimulationModel whole = SimulationModel::build(config(2 * L, false));
  const SimulationModel half = SimulationModel::build(config(L, true));
  const auto fw = run_reference(whole), fh = run_reference(half);
  for (std::size_t c = 0; c < 6; ++c) {
    INFO("component " << c);
    double max = 0, diff = 0;
    for (int i = 0; i < L; ++i)
      for (int j = 0; j < ny; ++j)
        for (int k = 0; k < nz; ++k) {
          const double a = fh[c][(static_cast<std::size_t>(i) * ny + j) * nz + k];
          const double b = fw[c][(static_cast<std::size_t>(L + i) * ny + j) * nz + k];
          max = std::max(max, std::fabs(b));
          diff = std::max(diff, std::fabs(a - b));
        }
    CHECK(max > 0);
    CHECK(diff <= 1e-6 * max);
  }
}

TEST_CASE("pmc: device parts give the reference's outputs (rows, tile; 1 and 2 ranks)") {
  std::vector<std::string> skipped;
  const std::vector<device::Api> apis = test_apis(&skipped);
  for (const std::string& s : skipped) MESSAGE(s);
  RunConfig cfg = box_config({12, 10, 16}, kD, 60, BoundaryType::Upml, 4);
  cfg.boundary.pmc = {true, true, false};
  cfg.boundary.layers = {0, 4, 0, 3, 4, 5};
  cfg.materials = {material("glass", 3, 1.5, 0.02), material("metal", 1, 1, 0, true)};
  cfg.objects = {box("slab", "glass", {1, 2, 8}, {4, 4, 4}, kD),
                 box("plate", "metal", {6, 0.5, 11}, {3, 1, 2}, kD)};
  cfg.sources = {point_source("a", SourceKind::Dipole, Axis::Z, cells(0, 0, 8.2, kD),
                              WaveformKind::Gaussian, 40e9, 1e-15),
                 point_source("b", SourceKind::Dipole, Axis::Y, cells(0.2, 3.4, 5.6, kD),
                              WaveformKind::Gaussian, 30e9, 1e-15)};
  cfg.probes = {point_probe("wall", cells(0.0, 0.0, 10.0, kD),
                            {Component::Ex, Component::Ey, Component::Ez, Component::Hx,
                             Component::Hy, Component::Hz}),
                point_probe("far", cells(7.5, 6.5, 6.2, kD), {Component::Ez, Component::Hy})};
  cfg.output.energy = true;
  SimulationModel m = SimulationModel::build(cfg);
  m.monitors.push_back(flux_box("box", {0, 0, 5}, {7, 6, 12}, m.grid.n, {30e9, 50e9}));
  m.monitors.push_back(dft_monitor("cut", {region(Component::Ez, {0, 0, 9}, {12, 10, 10})}, {25e9}));
  m.snapshot_steps = {9, 60};
  OutputRecorder want;
  {
    ReferenceBackend ref(m);
    record_run(m, ref, want);
  }
  for (device::Api api : apis) {
    for (const auto& [ranks, variant] : std::vector<std::pair<int, KernelVariant>>{
             {1, KernelVariant::Rows}, {1, KernelVariant::Tile}, {2, KernelVariant::Rows}}) {
      INFO("api " << std::string(device::api_name(api)) << ", " << ranks << " ranks, variant "
                  << static_cast<int>(variant));
      DeviceConfig dev;
      dev.backend = api == device::Api::Cuda ? BackendKind::Cuda : BackendKind::OpenCl;
      dev.variant = variant;
      const Decomposition d =
          decompose(m.grid.n, ranks, {ranks, 1, 1}, m.grid.periodic, m.grid.pmc);
      ThreadGroup group(ranks);
      std::vector<OutputRecorder> rec(static_cast<std::size_t>(ranks));
      group.run([&](int r) {
        DistributedBackend b(m, dev, d, std::make_unique<ThreadLink>(group, r));
        record_run(m, b, rec[static_cast<std::size_t>(r)]);
      });
      for (int r = 0; r < ranks; ++r) {
        INFO("rank " << r);
        const std::string err = compare_outputs(rec[static_cast<std::size_t>(r)], want, r == 0, 2e-4);
        CHECK_MESSAGE(err.empty(), err);
      }
    }
  }
}

TEST_CASE("boundary.pmc: the keys and what they refuse") {
  const std::string grid = "[grid]\nsize = 0.3 0.3 0.3\ncell_size = 0.01\n[time]\nsteps = 10\n";
  const std::string dipole = "[source.s]\nposition = 0 0 0.15\nfrequency = 1e9\n";
  auto error_of = [&](const std::string& text) -> std::string {
    try {
      SimulationModel::build(load_config_text(text, "p.ini", {}));
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "no error";
  };
  const SimulationModel m =
      SimulationModel::build(load_config_text(grid + "[boundary]\npmc = x y\nlayers = 8\n" + dipole, "p.ini", {}));
  CHECK(m.grid.pmc == std::array<bool, 3>{true, true, false});
  CHECK(m.upml.layers == std::array<int, 6>{0, 8, 0, 8, 8, 8});
  // Tangential E on a magnetic wall is free (not the PEC wall's).
  CHECK(m.ids[2][m.layout.index(0, 5, 5)] == MaterialTable::kVacuum);
  CHECK(error_of(grid + "[boundary]\npmc = x\nlayers = 4 4 4 4 4 4\n" + dipole).find("boundary.layers") !=
        std::string::npos);
  CHECK(error_of(grid + "[boundary]\nperiodic = x\npmc = x\n" + dipole).find("boundary.pmc") !=
        std::string::npos);
  // An object drawn on one side of the wall meshes as its symmetric whole: the same ids as one
  // drawn across it (the samples on the wall see the mirror image, not vacuum).
  auto ids_of = [&](const std::string& box) {
    return SimulationModel::build(load_config_text(grid + "[boundary]\npmc = x\n" +
                                                       "[source.s]\nposition = 0 0.15 0.15\nfrequency = 1e9\n" +
                                                       "[material.d]\neps_r = 4\nsigma = 0.1\n"
                                                       "[object.b]\nshape = box\nmaterial = d\n" + box,
                                                   "p.ini", {}))
        .ids;
  };
  const auto one_side = ids_of("center = 0.025 0.15 0.15\nsize = 0.05 0.1 0.1\n");
  const auto across = ids_of("center = 0 0.15 0.15\nsize = 0.1 0.1 0.1\n");
  for (std::size_t c = 0; c < 6; ++c) CHECK(one_side[c] == across[c]);
  // A port box that starts on the wall and reaches off it is refused; one on the wall is not.
  const std::string port = "[source.p]\ntype = port\naxis = z\nposition = 0 0.15 0.15\nfrequency = 1e9\n";
  CHECK(error_of(grid + "[boundary]\npmc = x\n" + port + "size = 0.02 0 0.01\n").find("source.p.size") !=
        std::string::npos);
  CHECK(error_of(grid + "[boundary]\npmc = x\n" + port + "size = 0 0.02 0.01\n") == "no error");
  // A far-field box on the wall: that face is a magnetic wall's (images, no current of its own).
  const std::string farfield = "[monitor.f]\ntype = farfield\nbox = 0 0.05 0.05 0.2 0.25 0.25\nfrequencies = 1e9\n";
  const std::string on_wall = "[source.s]\nposition = 0 0.15 0.15\nfrequency = 1e9\n";
  CHECK(error_of(grid + "[boundary]\npmc = x\n" + on_wall + farfield) == "no error");
  const SimulationModel with_box =
      SimulationModel::build(load_config_text(grid + "[boundary]\npmc = x\n" + on_wall + farfield, "p.ini", {}));
  int magnetic = 0;
  for (const MonitorFace& f : with_box.monitors.at(0).faces) {
    CHECK(f.magnetic_wall == (f.axis == 0 && f.plane == 0));
    CHECK(f.on_wall == f.magnetic_wall);
    magnetic += f.magnetic_wall ? 1 : 0;
  }
  CHECK(magnetic == 1);
}
