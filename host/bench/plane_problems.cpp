// The 2D benchmark problems: see plane_problems.hpp.
#include "bench/plane_problems.hpp"

#include "errors.hpp"
#include "model/grid_geometry.hpp"

namespace clfdtd {

const std::vector<std::string>& plane_problem_names() {
  static const std::vector<std::string> names{"plane_tm",     "plane_te",     "plane_wave",
                                              "plane_tm_pec", "plane_te_pec", "plane_wave_pec"};
  return names;
}

bool is_plane_problem(const std::string& name) { return name.rfind("plane_", 0) == 0; }

std::string plane_problem_kind(const std::string& name) {
  const RunConfig cfg = plane_bench_problem(name, 24, 1);
  if (cfg.grid.equation == Equation::Wave) return "wave";
  return cfg.grid.mode == PlaneMode::Te ? "te" : "tm";
}

RunConfig plane_bench_problem(const std::string& name, int n, long steps) {
  const std::string pec_suffix = "_pec";
  const bool pec = name.size() > pec_suffix.size() &&
                   name.compare(name.size() - pec_suffix.size(), pec_suffix.size(), pec_suffix) == 0;
  const std::string base = pec ? name.substr(0, name.size() - pec_suffix.size()) : name;
  if (base != "plane_tm" && base != "plane_te" && base != "plane_wave")
    throw ConfigError("", 0, "bench.problem",
                      "one of plane_tm, plane_te, plane_wave (each also with _pec), got '" + name + "'");

  const double d = 1e-3;  // 1 mm cells, as the 3D problems
  const double L = n * d;
  RunConfig cfg;
  cfg.grid.dims = 2;
  cfg.grid.mode = base == "plane_te" ? PlaneMode::Te : PlaneMode::Tm;
  cfg.grid.equation = base == "plane_wave" ? Equation::Wave : Equation::Maxwell;
  cfg.grid.size_m = Vec3{L, L, 1.0};  // 1 m of depth: per-volume quantities per metre
  cfg.grid.cell_size_m = Vec3{d, d, 1.0};
  cfg.grid.max_frequency_hz = kC0 / (10 * d);
  cfg.time.steps = steps;
  cfg.snapshot.steps.clear();
  cfg.quiet = true;
  cfg.output.dir = "";
  if (pec) {
    cfg.boundary.type = BoundaryType::Pec;
    cfg.boundary.layers = {0, 0, 0, 0, 0, 0};
  } else {
    cfg.boundary.type = BoundaryType::Upml;
    cfg.boundary.layers = {10, 10, 10, 10, 0, 0};
  }
  SourceConfig src;
  src.name = "feed";
  src.kind = SourceKind::Current;
  src.axis = base == "plane_te" ? Axis::Y : Axis::Z;  // te: the current lies in the plane
  src.position = Vec3{0.5 * L, 0.5 * L, 0};
  src.waveform = WaveformKind::GaussianPulse;
  src.frequency_hz = kC0 / (20 * d);
  src.amplitude = 1;  // A/m^2 over one cell
  cfg.sources.push_back(src);
  return cfg;
}

}  // namespace clfdtd
