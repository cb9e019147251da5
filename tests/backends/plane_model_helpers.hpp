// 2D models for the plane reference tests, built in code with the contract's representation
// (issue 19): grid.dims = 2, n = {nx, ny, 1}, d = {dx, dy, 1 m}, the plane layout, ids for the
// active components with the PEC wall samples (Ez at i = 0 or j = 0, Ex at j = 0, Ey at i = 0)
// and PEC padding, the UPML of the x/y faces. Painted by a function instead of meshed objects, so
// the reference is checked on any material layout (test_plane_reference.cpp checks that the model
// build gives the same models); and a 3D model with nz = 1 recast as the 2D tm model it is.
#pragma once
#include <array>
#include <functional>
#include <string>
#include <vector>

#include "backends/physics_helpers.hpp"
#include "model/field_layout.hpp"
#include "model/grid_geometry.hpp"
#include "model/materials.hpp"
#include "model/probes.hpp"
#include "model/simulation_model.hpp"
#include "model/sources.hpp"
#include "model/upml_profile.hpp"

namespace clfdtd::test {

struct PlaneSpec {
  PlaneMode mode = PlaneMode::Tm;
  Equation equation = Equation::Maxwell;
  int nx = 0, ny = 0;
  double dx = 1e-3, dy = 1e-3;
  long steps = 0;
  double courant = 0.9;
  BoundaryType boundary = BoundaryType::Pec;
  std::array<int, 4> layers{};  // x_lo x_hi y_lo y_hi (upml)
  std::vector<MaterialConfig> materials;
  // Material name at a point (x, y in metres); "" for vacuum.
  std::function<std::string(double, double)> paint;
  std::vector<SourceConfig> sources;  // positions with z = 0
  std::vector<ProbeConfig> probes;
  bool energy = false;
};

// The RunConfig of the spec (no objects: the spec paints its materials itself), as the loader
// fills it for a 2D model file.
inline RunConfig plane_config(const PlaneSpec& s) {
  RunConfig cfg;
  cfg.grid.dims = 2;
  cfg.grid.mode = s.mode;
  cfg.grid.equation = s.equation;
  cfg.grid.size_m = Vec3{s.nx * s.dx, s.ny * s.dy, 1.0};
  cfg.grid.cell_size_m = Vec3{s.dx, s.dy, 1.0};
  cfg.grid.courant = s.courant;
  cfg.time.steps = s.steps;
  cfg.boundary.type = s.boundary;
  cfg.boundary.layers = s.boundary == BoundaryType::Upml
                            ? std::array<int, 6>{s.layers[0], s.layers[1], s.layers[2],
                                                 s.layers[3], 0, 0}
                            : std::array<int, 6>{};
  cfg.materials = s.materials;
  cfg.sources = s.sources;
  cfg.probes = s.probes;
  cfg.output.energy = s.energy;
  cfg.snapshot.steps.clear();
  cfg.quiet = true;
  return cfg;
}

inline SimulationModel plane_model(const PlaneSpec& s) {
  const RunConfig cfg = plane_config(s);
  SimulationModel m;
  m.grid = derive_grid_geometry(cfg);
  REQUIRE(m.grid.dims == 2);
  REQUIRE(m.grid.n[2] == 1);
  m.layout = FieldLayout::xy_plane(m.grid.n[0], m.grid.n[1]);
  m.materials = MaterialTable(s.materials);
  m.magnetic = m.materials.any_magnetic();
  m.mode = s.mode;
  m.equation = s.equation;
  auto id_at = [&](double x, double y) -> std::uint8_t {
    const std::string name = s.paint ? s.paint(x, y) : std::string();
    if (name.empty()) return MaterialTable::kVacuum;
    const int id = m.materials.find(name);
    REQUIRE(id >= 0);
    return static_cast<std::uint8_t>(id);
  };
  for (Component c : m.active_components()) {
    if (!is_electric(c) && !m.magnetic) continue;
    auto& ids = m.ids[static_cast<int>(c)];
    ids.assign(m.layout.cells(), MaterialTable::kPec);
    const auto o = yee_offset(c);
    for (int i = 0; i < s.nx; ++i) {
      for (int j = 0; j < s.ny; ++j) {
        const bool wall = (c == Component::Ez && (i == 0 || j == 0)) ||
                          (c == Component::Ex && j == 0) || (c == Component::Ey && i == 0);
        ids[m.layout.index(i, j, 0)] =
            wall ? MaterialTable::kPec : id_at((i + o[0]) * s.dx, (j + o[1]) * s.dy);
      }
    }
  }
  m.cell_ids.assign(static_cast<std::size_t>(s.nx) * s.ny, MaterialTable::kVacuum);
  for (int i = 0; i < s.nx; ++i)
    for (int j = 0; j < s.ny; ++j)
      m.cell_ids[static_cast<std::size_t>(i) * s.ny + j] = id_at((i + 0.5) * s.dx, (j + 0.5) * s.dy);
  m.upml = build_upml_profile(cfg.boundary, m.grid);
  m.sources = build_sources(s.sources, m.grid);
  m.probes = build_probes(s.probes, m.grid);
  m.energy = s.energy;
  return m;
}

// A 3D model with nz = 1 and no z layers is 2D tm: Ex and Ey sit on the low z wall (PEC), so Hz
// and the z terms of every curl vanish. Recast as the 2D representation of the same tm model.
inline SimulationModel plane_from_3d(const SimulationModel& m3) {
  REQUIRE(m3.grid.n[2] == 1);
  REQUIRE(m3.upml.layers[4] == 0);
  REQUIRE(m3.upml.layers[5] == 0);
  SimulationModel m = m3;
  m.grid.dims = 2;
  m.grid.d[2] = 1.0;
  m.layout = FieldLayout::xy_plane(m3.grid.n[0], m3.grid.n[1]);
  m.mode = PlaneMode::Tm;
  m.equation = Equation::Maxwell;
  for (int c = 0; c < 6; ++c) {
    m.ids[c].clear();
    if (!m.is_active(static_cast<Component>(c)) || m3.ids[c].empty()) continue;
    m.ids[c].assign(m.layout.cells(), MaterialTable::kPec);
    for (int i = 0; i < m.grid.n[0]; ++i)
      for (int j = 0; j < m.grid.n[1]; ++j)
        m.ids[c][m.layout.index(i, j, 0)] = m3.ids[c][m3.layout.index(i, j, 0)];
  }
  m.monitors.clear();
  return m;
}

}  // namespace clfdtd::test
