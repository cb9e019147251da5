// The cylindrical benchmark problems: see cyl_problems.hpp.
#include "bench/cyl_problems.hpp"

#include "errors.hpp"
#include "model/grid_geometry.hpp"

namespace clfdtd {

const std::vector<std::string>& cyl_problem_names() {
  static const std::vector<std::string> names{"cyl_cpml", "cyl_pec"};
  return names;
}

bool is_cyl_problem(const std::string& name) { return name.rfind("cyl_", 0) == 0; }

RunConfig cyl_bench_problem(const std::string& name, int n, long steps) {
  if (name != "cyl_cpml" && name != "cyl_pec")
    throw ConfigError("", 0, "bench.problem", "one of cyl_cpml, cyl_pec, got '" + name + "'");
  const double d = 1e-3;  // 1 mm cells, as the 3D and 2D problems
  const double L = n * d;
  RunConfig cfg;
  cfg.grid.coordinates = Coordinates::Cylindrical;
  cfg.grid.dims = 3;
  cfg.grid.modes = {0, 1, 2};
  cfg.grid.size_m = Vec3{L, 1.0, L};  // R, phi (not a grid axis: one "cell" of 1), Z
  cfg.grid.cell_size_m = Vec3{d, 1.0, d};
  cfg.grid.max_frequency_hz = kC0 / (10 * d);
  cfg.time.steps = steps;
  cfg.snapshot.steps.clear();
  cfg.quiet = true;
  cfg.output.dir = "";
  if (name == "cyl_pec") {
    cfg.boundary.type = BoundaryType::Pec;
    cfg.boundary.layers = {0, 0, 0, 0, 0, 0};
  } else {
    cfg.boundary.type = BoundaryType::Upml;
    cfg.boundary.layers = {0, 10, 0, 0, 10, 10};  // r_hi, z_lo, z_hi (the cylindrical slots)
  }
  SourceConfig src;
  src.name = "feed";
  src.kind = SourceKind::Current;
  src.axis = Axis::Z;
  src.position = Vec3{L / 3, 30, 0.5 * L};  // r (m), phi (degrees), z (m): off the axis
  src.waveform = WaveformKind::GaussianPulse;
  src.frequency_hz = kC0 / (20 * d);
  src.amplitude = 1;  // A/m^2
  cfg.sources.push_back(src);
  return cfg;
}

}  // namespace clfdtd
