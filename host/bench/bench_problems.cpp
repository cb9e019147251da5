// The standard benchmark problems: see bench_problems.hpp.
#include "bench/bench_problems.hpp"

#include <algorithm>
#include <cmath>

#include "bench/cyl_problems.hpp"
#include "bench/plane_problems.hpp"
#include "errors.hpp"
#include "model/dft_decimation.hpp"
#include "model/grid_geometry.hpp"
#include "model/sources.hpp"
#include "model/waveforms.hpp"

namespace clfdtd {

namespace {

// The bench times a window of a run, which may stop while the pulse is still on (the automatic
// choice would then be 1); a flux box samples as in the whole run, whose pulse has died away
// after three times its delay.
int whole_run_decimation(const RunConfig& cfg, const std::vector<double>& frequencies_hz) {
  GridGeometry g = derive_grid_geometry(cfg);
  const SourceConfig& src = cfg.sources.front();
  g.steps = static_cast<long>(std::ceil(3 * default_delay_s(src) / g.dt));
  const double top = *std::max_element(frequencies_hz.begin(), frequencies_hz.end());
  return auto_dft_decimation(source_band(build_sources(cfg.sources, g), g.dt), top, g.dt);
}

}  // namespace

const std::vector<std::string>& bench_problem_names() {
  static const std::vector<std::string> names{"vacuum_upml", "pec_cube", "sphere"};
  return names;
}

RunConfig bench_problem(const std::string& name, int n, long steps) {
  if (is_plane_problem(name)) return plane_bench_problem(name, n, steps);
  if (is_cyl_problem(name)) return cyl_bench_problem(name, n, steps);
  const double d = 1e-3;  // 1 mm cells; the size does not change the work per cell
  const double L = n * d;
  RunConfig cfg;
  cfg.grid.size_m = Vec3{L, L, L};
  cfg.grid.cell_size_m = Vec3{d, d, d};
  cfg.grid.max_frequency_hz = kC0 / (10 * d);
  cfg.time.steps = steps;
  cfg.snapshot.steps.clear();
  cfg.quiet = true;
  cfg.output.dir = "";

  std::string base = name.substr(0, name.find('+'));
  const std::string extra = name.find('+') == std::string::npos ? "" : name.substr(name.find('+') + 1);
  // vacuum_upml@L, sphere@L, ferrite@L: L layers instead of 10.
  int layers = 10;
  if (const std::size_t at = base.find('@'); at != std::string::npos) {
    const std::string count = base.substr(at + 1);
    base = base.substr(0, at);
    const bool digits = !count.empty() && count.size() <= 4 &&
                        std::all_of(count.begin(), count.end(), [](char c) { return c >= '0' && c <= '9'; });
    layers = digits ? std::stoi(count) : 0;
    if ((base != "vacuum_upml" && base != "sphere" && base != "ferrite") || layers < 1)
      throw ConfigError("", 0, "bench.problem",
                        "@L (L UPML layers, 1 or more) after vacuum_upml, sphere or ferrite only, "
                        "got '" + name + "'");
  }
  if (base == "pec_cube") {
    cfg.boundary.type = BoundaryType::Pec;
    cfg.boundary.layers = {0, 0, 0, 0, 0, 0};
  } else if (base == "vacuum_upml" || base == "sphere" || base == "ferrite") {
    cfg.boundary.type = BoundaryType::Upml;
    cfg.boundary.layers = {layers, layers, layers, layers, layers, layers};
  } else {
    throw ConfigError("", 0, "bench.problem",
                      "one of vacuum_upml, pec_cube, sphere, ferrite, a 2D problem (plane_tm, plane_te, "
                      "plane_wave, each also with _pec) or a cylindrical one (cyl_cpml, cyl_pec), "
                      "got '" + name + "'");
  }
  if (base == "sphere" || base == "ferrite") {
    // ferrite: the same ball magnetic, so the model reads H ids too.
    MaterialConfig mat;
    mat.name = base == "sphere" ? "glass" : "ferrite";
    mat.eps_r = 4;
    if (base == "ferrite") mat.mu_r = 2;
    cfg.materials.push_back(mat);
    ObjectConfig ball;
    ball.name = "ball";
    ball.shape = ShapeKind::Sphere;
    ball.center = Vec3{0.5 * L, 0.5 * L, 0.5 * L};
    ball.radius = 0.25 * L;
    ball.material = mat.name;
    cfg.objects.push_back(ball);
  }
  SourceConfig src;
  src.name = "feed";
  src.kind = SourceKind::Dipole;
  src.axis = Axis::Z;
  // Off the cell centre of the sphere and ferrite cases too: the source sits just outside the ball,
  // or, on grids below about 5 x (layers + 2) cells, where that spot lies in the layers, two cells
  // past them (inside the ball then: the speed is what these problems measure).
  const bool ball = base == "sphere" || base == "ferrite";
  const double below_ball = std::max(0.2 * L, (cfg.boundary.layers[4] + 2) * d);
  src.position = ball ? Vec3{0.5 * L, 0.5 * L, below_ball} : Vec3{0.5 * L, 0.5 * L, 0.5 * L};
  src.waveform = WaveformKind::GaussianPulse;
  src.frequency_hz = kC0 / (20 * d);
  src.amplitude = 1e-12;
  cfg.sources.push_back(src);

  if (extra == "probes") {
    ProbeConfig p;
    p.name = "p";
    p.position = Vec3{0.6 * L, 0.5 * L, 0.5 * L};
    p.fields = {Component::Ex, Component::Ey, Component::Ez, Component::Hx, Component::Hy,
                Component::Hz};
    cfg.probes.push_back(p);
  } else if (extra == "snapshot") {
    cfg.snapshot.steps = {steps / 2};
  } else if (extra == "flux") {
    // A closed flux box two cells inside the UPML, 10 frequencies across the pulse's band.
    MonitorConfig box;
    box.name = "flux";
    box.kind = MonitorKind::Flux;
    const double in = std::min(12, n / 2 - 2) * d;  // small test cubes: still a closed box
    box.box_lo = Vec3{in, in, in};
    box.box_hi = Vec3{L - in, L - in, L - in};
    for (int f = 1; f <= 10; ++f) box.frequencies_hz.push_back(src.frequency_hz * 0.2 * f);
    box.decimation = whole_run_decimation(cfg, box.frequencies_hz);
    cfg.monitors.push_back(box);
  } else if (extra != "loop" && !extra.empty()) {
    throw ConfigError("", 0, "bench.problem",
                      "+probes, +snapshot, +loop or +flux after the problem, got '+" + extra + "'");
  }
  return cfg;
}

}  // namespace clfdtd
