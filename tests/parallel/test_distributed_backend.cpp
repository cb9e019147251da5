// parallel::DistributedBackend, ranks as threads of one process (thread_link.hpp) on this
// machine's OpenCL device (PoCL in CI): the split model (parallel_model.hpp) run through the time
// loop over 1 rank, 2 and 3 along x (3: uneven), 2 2 1 and 1 1 3 gives every output of the
// one-process engine within 1e-6 of each series' maximum: probes (every rank, global order),
// snapshot fields (gathered on rank 0), energy rows (ghost cells not counted), dft/flux
// transforms and mode projections, with the halo overlap (the default) and without. Also: onepass is refused and auto never picks it; a rank
// that cannot set up makes every rank throw.
#include <doctest/doctest.h>


#include "device/test_apis.hpp"
#include "engine/gpu_engine.hpp"
#include "errors.hpp"
#include "parallel/distributed_backend.hpp"
#include "parallel/parallel_model.hpp"
#include "parallel/split_outputs.hpp"
#include "parallel/thread_link.hpp"
#include "solver/time_loop.hpp"

using namespace clfdtd;
using namespace clfdtd::parallel;
using namespace clfdtd::test;

namespace {

using Recorder = OutputRecorder;

void run(const SimulationModel& m, Backend& b, Recorder& rec) { record_run(m, b, rec); }

void check_same(const Recorder& got, const Recorder& want, bool fields) {
  const std::string err = compare_outputs(got, want, fields);
  CHECK_MESSAGE(err.empty(), err);
}

bool have_opencl() {
  if (has_device(device::Api::OpenCL)) return true;
  MESSAGE("no OpenCL device: distributed backend cases skipped");
  return false;
}

SimulationModel test_model() {
  SimulationModel m = split_model(36);
  m.snapshot_steps = {7, 36};
  return m;
}

}  // namespace

TEST_CASE("DistributedBackend: K ranks give the one-process outputs (rows variant)") {
  if (!have_opencl()) return;
  const SimulationModel m = test_model();
  DeviceConfig dev;
  dev.variant = KernelVariant::Rows;
  Recorder one;
  {
    auto engine = engine::make_gpu_engine(device::Api::OpenCL, m, dev);
    run(m, *engine, one);
  }
  std::vector<std::pair<int, std::array<int, 3>>> cases{{1, {1, 1, 1}}};
  for (const auto& c : split_cases()) cases.push_back(c);
  for (const auto& [ranks, parts] : cases) {
    INFO("split " << parts[0] << " " << parts[1] << " " << parts[2]);
    const Decomposition d = decompose(m.grid.n, ranks, parts);
    ThreadGroup group(ranks);
    std::vector<Recorder> rec(static_cast<std::size_t>(ranks));
    std::vector<std::string> descriptions(static_cast<std::size_t>(ranks));
    group.run([&](int r) {
      DistributedBackend b(m, dev, d, std::make_unique<ThreadLink>(group, r));
      descriptions[static_cast<std::size_t>(r)] = b.device_description();
      CHECK(b.device_bytes_max() >= b.device_bytes(m));
      CHECK(b.device_bytes_sum() >= b.device_bytes_max());
      run(m, b, rec[static_cast<std::size_t>(r)]);
    });
    if (ranks == 1)  // one process: the device alone
      CHECK(descriptions[0].find(" ranks (") == std::string::npos);
    else
      CHECK(descriptions[0].rfind(std::to_string(ranks) + " ranks (", 0) == 0);
    for (int r = 0; r < ranks; ++r) {
      INFO("rank " << r);
      check_same(rec[static_cast<std::size_t>(r)], one, r == 0);
    }
  }
}

TEST_CASE("DistributedBackend: the tile variant across a z cut inside the float4 lanes") {
  if (!have_opencl()) return;
  const SimulationModel m = test_model();
  DeviceConfig dev;
  dev.variant = KernelVariant::Tile;
  Recorder one;
  {
    auto engine = engine::make_gpu_engine(device::Api::OpenCL, m, dev);
    run(m, *engine, one);
  }
  const Decomposition d = decompose(m.grid.n, 3, {1, 1, 3});
  ThreadGroup group(3);
  std::vector<Recorder> rec(3);
  group.run([&](int r) {
    DistributedBackend b(m, dev, d, std::make_unique<ThreadLink>(group, r));
    CHECK(b.kernel_variant().rfind("float4-tile", 0) == 0);
    run(m, b, rec[static_cast<std::size_t>(r)]);
  });
  check_same(rec[0], one, true);
}

TEST_CASE("DistributedBackend: with and without the halo overlap (tile 2 2 1, rows 2 along x)") {
  if (!have_opencl()) return;
  const SimulationModel m = test_model();
  for (const auto& [variant, parts] :
       {std::pair{KernelVariant::Tile, std::array<int, 3>{2, 2, 1}},
        std::pair{KernelVariant::Rows, std::array<int, 3>{2, 1, 1}}}) {
    DeviceConfig dev;
    dev.variant = variant;
    Recorder one;
    {
      auto engine = engine::make_gpu_engine(device::Api::OpenCL, m, dev);
      run(m, *engine, one);
    }
    const int ranks = parts[0] * parts[1] * parts[2];
    const Decomposition d = decompose(m.grid.n, ranks, parts);
    for (bool overlap : {true, false}) {
      INFO("variant " << (variant == KernelVariant::Tile ? "tile" : "rows") << ", overlap "
                      << overlap);
      dev.halo_overlap = overlap;
      ThreadGroup group(ranks);
      std::vector<Recorder> rec(static_cast<std::size_t>(ranks));
      std::vector<DistributedBackend::HaloTiming> timing(static_cast<std::size_t>(ranks));
      group.run([&](int r) {
        DistributedBackend b(m, dev, d, std::make_unique<ThreadLink>(group, r));
        run(m, b, rec[static_cast<std::size_t>(r)]);
        timing[static_cast<std::size_t>(r)] = b.halo_timing();
      });
      check_same(rec[0], one, true);
      for (const DistributedBackend::HaloTiming& t : timing) {
        CHECK(t.overlap == overlap);
        CHECK(t.path == "host");
        CHECK(t.exchange_s > 0);
        CHECK(t.exposed_s >= 0);
        CHECK(t.exposed_s <= t.exchange_s);
        if (!overlap) CHECK(t.exposed_s == t.exchange_s);
        CHECK(t.exchange_s_max >= t.exchange_s);
      }
    }
  }
}

TEST_CASE("DistributedBackend: plane waves and dispersive materials over ranks (the overlap off)") {
  // A Debye soil through the layers at the bottom, a Drude and a glass block inside a plane
  // wave's total-field box that every split cuts, a dipole outside it: each split gives the
  // one-process outputs, with the overlap asked for and turned off.
  if (!have_opencl()) return;
  const double d = kSplitD;
  RunConfig cfg = box_config({20, 18, 22}, d, 40, BoundaryType::Upml, 4);
  cfg.boundary.layers = {4, 3, 3, 4, 2, 5};
  cfg.materials = {dispersive("soil", 4, {pole(PoleKind::Debye, 6, 3e-11)}, 0.05),
                   dispersive("plasma", 1.2, {pole(PoleKind::Drude, 40e9, 4e9)}),
                   material("glass", 3, 1, 0)};
  cfg.objects = {box("soil", "soil", {10, 9, 2.5}, {30, 30, 5}, d),
                 box("glass", "glass", {10, 8.5, 11.5}, {2, 2, 2}, d),
                 box("plasma", "plasma", {8, 7, 10}, {2, 2, 2}, d)};
  // and an oblique wave through the same box (terms on every face, two line nodes each)
  cfg.plane_waves = {plane_wave("pw", Axis::Y, 0, 1, cells(10, 8.5, 11.5, d), cells(8, 7, 7, d),
                                WaveformKind::GaussianPulse, 40e9, 10),
                     plane_wave("ob", Axis::Z, 0, 1, cells(10, 8.5, 11.5, d), cells(8, 7, 7, d),
                                WaveformKind::GaussianPulse, 30e9, 5)};
  cfg.plane_waves[1].direction_vector = Vec3{-0.6, 0.64, -0.48};
  cfg.sources = {point_source("a", SourceKind::Dipole, Axis::Z, cells(15.6, 9.2, 6.4, d),
                              WaveformKind::Gaussian, 40e9, 1e-15)};
  cfg.probes = {point_probe("in", cells(9.0, 8.0, 10.0, d), {Component::Ex, Component::Ey, Component::Hz}),
                point_probe("soil", cells(10.2, 9.1, 3.0, d), {Component::Ez}),
                point_probe("out", cells(15.0, 4.0, 16.0, d), {Component::Ey, Component::Hx})};
  cfg.output.energy = true;
  SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(m.dispersion.any_upml);
  REQUIRE(m.plane_waves.size() == 2);
  m.snapshot_steps = {17, 40};
  DeviceConfig dev;
  dev.variant = KernelVariant::Tile;
  Recorder one;
  {
    auto engine = engine::make_gpu_engine(device::Api::OpenCL, m, dev);
    run(m, *engine, one);
  }
  for (const auto& [ranks, parts] : split_cases()) {
    INFO("split " << parts[0] << " " << parts[1] << " " << parts[2]);
    const Decomposition dec = decompose(m.grid.n, ranks, parts);
    ThreadGroup group(ranks);
    std::vector<Recorder> rec(static_cast<std::size_t>(ranks));
    std::vector<int> overlap(static_cast<std::size_t>(ranks), -1);
    group.run([&](int r) {
      DistributedBackend b(m, dev, dec, std::make_unique<ThreadLink>(group, r));
      overlap[static_cast<std::size_t>(r)] = b.halo_overlap() ? 1 : 0;
      run(m, b, rec[static_cast<std::size_t>(r)]);
    });
    CHECK(overlap == std::vector<int>(static_cast<std::size_t>(ranks), 0));
    check_same(rec[0], one, true);
  }
}

TEST_CASE("DistributedBackend: onepass is refused, auto never picks it") {
  if (!have_opencl()) return;
  const SimulationModel m = split_model(2);
  const Decomposition d = decompose(m.grid.n, 2, {2, 1, 1});
  ThreadGroup group(2);
  std::vector<std::string> errors(2), variants(2);
  group.run([&](int r) {
    DeviceConfig dev;
    dev.variant = KernelVariant::OnePass;
    try {
      DistributedBackend b(m, dev, d, std::make_unique<ThreadLink>(group, r));
    } catch (const ConfigError& e) {
      errors[static_cast<std::size_t>(r)] = e.key();
    }
    dev.variant = KernelVariant::Auto;
    DistributedBackend b(m, dev, d, std::make_unique<ThreadLink>(group, r));
    variants[static_cast<std::size_t>(r)] = b.kernel_variant();
  });
  CHECK(errors[0] == "device.variant");
  CHECK(errors[1] == "device.variant");
  for (const std::string& v : variants) CHECK(v.rfind("onepass", 0) != 0);
}

TEST_CASE("DistributedBackend: a rank that cannot set up makes every rank throw, naming it") {
  if (!have_opencl()) return;
  const SimulationModel m = split_model(2);
  const Decomposition d = decompose(m.grid.n, 2, {2, 1, 1});
  ThreadGroup group(2);
  std::vector<std::string> errors(2);
  group.run([&](int r) {
    DeviceConfig dev;
    dev.variant = KernelVariant::Rows;
    if (r == 1) dev.select = "no such device anywhere";  // rank 1 fails: ConfigError device.select
    try {
      DistributedBackend b(m, dev, d, std::make_unique<ThreadLink>(group, r));
    } catch (const ConfigError& e) {
      errors[static_cast<std::size_t>(r)] = std::string(e.key()) + "|" + e.what();
    }
  });
  CHECK(errors[1].rfind("device.select|", 0) == 0);
  CHECK(errors[0].rfind("device.select|", 0) == 0);
  CHECK(errors[0].find("rank 1: ") != std::string::npos);
}
