// output.energy on the GPU engine: cl_kernels/energy.cl's tree reduction against the reference's
// energy rows through the time loop, every API with a device and every variant (onepass swaps its
// field sets each step, so the energy stage must read the current ones).
#include <doctest/doctest.h>

#include "backends/energy_helpers.hpp"
#include "engine/engine_suite.hpp"
#include "engine/field_buffers.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

void compare_energy(const SimulationModel& m, double rel_tol) {
  ReferenceBackend ref(m);
  const auto want = run_energy(m, ref);
  for_each_api_variant([&](device::Api api, KernelVariant v) {
    auto gpu = engine::make_gpu_engine(api, m, engine_config(v));
    INFO("variant " << gpu->kernel_variant());
    const double worst = worst_energy_difference(run_energy(m, *gpu), want);
    MESSAGE(gpu->name() << " " << gpu->kernel_variant()
                        << ": max |gpu - reference| / max energy = " << worst);
    CHECK(worst < rel_tol);
  });
}

}  // namespace

TEST_CASE("energy group: kEnergyGroup, or the largest power of two the kernel allows") {
  CHECK(engine::energy_group_items(1024) == engine::kEnergyGroup);
  CHECK(engine::energy_group_items(64) == 64);
  CHECK(engine::energy_group_items(63) == 32);  // e.g. Mesa's llvmpipe allows 32
  CHECK(engine::energy_group_items(32) == 32);
  CHECK(engine::energy_group_items(5) == 4);
  CHECK(engine::energy_group_items(1) == 1);
  CHECK(engine::energy_group_items(0) == 1);
}

TEST_CASE("engine energy sums match the reference: magnetic cavity, every variant") {
  const SimulationModel m = SimulationModel::build(cavity_config(300));
  REQUIRE(m.magnetic);
  compare_energy(m, 1e-6);
}

TEST_CASE("engine energy sums match the reference: non-magnetic UPML grid of many groups") {
  const SimulationModel m = SimulationModel::build(many_groups_config());
  REQUIRE_FALSE(m.magnetic);
  REQUIRE(static_cast<std::size_t>(m.layout.nx) * m.layout.ny * m.layout.nz4 > 256 * 64);
  compare_energy(m, 1e-6);
}

TEST_CASE("tiny magnetic UPML energy model (oclgrind)") {
  // Small enough for tools/oclgrind_check.sh (an interpreter): races and out-of-bounds in
  // energy.cl, with padding lanes (nz = 7), several groups, magnetic and not.
  for (bool magnetic : {true, false}) {
    RunConfig cfg = box_config({9, 8, 7}, kEnergyD, 12, BoundaryType::Upml, 2);
    cfg.materials = {material("m", 2, magnetic ? 1.5 : 1, 0)};
    cfg.objects = {box("m", "m", {4.5, 4, 3.5}, {3, 3, 3}, kEnergyD)};
    cfg.sources = {point_source("s", SourceKind::Dipole, Axis::Z, {4.2e-3, 3.9e-3, 3.4e-3},
                                WaveformKind::Sine, 80e9, 1e-15)};
    cfg.output.energy = true;
    const SimulationModel m = SimulationModel::build(cfg);
    REQUIRE(m.magnetic == magnetic);
    compare_energy(m, 1e-6);
  }
}
