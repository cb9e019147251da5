// A cylindrical model is never run as a 3D Cartesian grid: the 3D reference engine and the 3D GPU
// engine's factory refuse it (its n = {nr, 1, nz} would otherwise run as a one-cell-thick slab).
#include <doctest/doctest.h>

#include "backends/reference/reference_backend.hpp"
#include "engine/gpu_engine.hpp"
#include "errors.hpp"
#include "model/simulation_model.hpp"

using namespace clfdtd;

TEST_CASE("the 3D engines refuse a cylindrical model") {
  RunConfig cfg;
  cfg.grid.coordinates = Coordinates::Cylindrical;
  cfg.grid.size_m = Vec3{0.1, 1.0, 0.1};
  cfg.grid.cell_size_m = Vec3{0.01, 1.0, 0.01};
  cfg.time.steps = 4;
  cfg.boundary.type = BoundaryType::Pec;
  cfg.boundary.layers.fill(0);
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(m.cylindrical());
  CHECK_THROWS_AS(ReferenceBackend{m}, DeviceError);
  CHECK_THROWS_WITH_AS(engine::make_gpu_engine(device::Api::OpenCL, m, cfg.device),
                       doctest::Contains("cylindrical model"), DeviceError);
}
