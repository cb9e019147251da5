#include "config/cyl_checks.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "errors.hpp"

namespace clfdtd {

namespace {

[[noreturn]] void fail(const RunConfig& cfg, const std::string& key, const std::string& what) {
  // A key left at its default has no line: its section's header has.
  int line = cfg.line_of(key);
  if (line == 0) line = cfg.line_of(key.substr(0, key.rfind('.')));
  throw cfg.error_at(key, what, line);
}

std::string fmt(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

// Round-off allowance where a position is compared with a wall or the axis.
bool at_most(double a, double b) { return a <= b + 1e-9 * std::max(std::fabs(a), std::fabs(b)); }

// A point r phi z (phi in degrees) inside 0 <= r <= R, 0 <= z <= Z.
void check_point(const RunConfig& cfg, const std::string& key, const Vec3& p) {
  const Vec3& size = cfg.grid.size_m;
  if (!(p.x >= 0 && p.x <= size.x && p.z >= 0 && p.z <= size.z))
    fail(cfg, key,
         "a point r phi z with 0 <= r <= " + fmt(size.x) + " m and 0 <= z <= " + fmt(size.z) +
             " m, got r = " + fmt(p.x) + ", z = " + fmt(p.z));
  if (!(std::fabs(p.y) <= kMaxPhiDeg))
    fail(cfg, key, "an angle phi in [-360, 360] degrees, got " + fmt(p.y));
}

void check_objects(const RunConfig& cfg) {
  for (const auto& o : cfg.objects) {
    const std::string sec = "object." + o.name;
    if (o.shape == ShapeKind::Box) {
      if (!at_most(0, o.center.x - 0.5 * o.size.x))
        fail(cfg, sec + ".size",
             "a ring from r0 = center r - size r / 2 >= 0, got r0 = " +
                 fmt(o.center.x - 0.5 * o.size.x) + " m");
      continue;
    }
    if (o.shape == ShapeKind::Cylinder && o.axis != Axis::Z)
      fail(cfg, sec + ".axis", "z in a cylindrical model (a body of revolution about the z axis)");
    if (o.center.x != 0)
      fail(cfg, sec + ".center",
           std::string("a centre on the axis, r = 0, for a ") +
               (o.shape == ShapeKind::Sphere ? "sphere" : "cylinder") +
               " in a cylindrical model (a body of revolution about the z axis), got r = " +
               fmt(o.center.x));
  }
}

}  // namespace

void check_cyl_config(const RunConfig& cfg) {
  const GridConfig& g = cfg.grid;
  if (g.coordinates != Coordinates::Cylindrical) {
    if (g.modes != std::vector<int>{0})
      fail(cfg, "grid.modes", "no grid.modes in a Cartesian model (grid.coordinates = cylindrical only)");
    if (cfg.snapshot.phi_samples != 0)
      fail(cfg, "snapshot.phi_samples",
           "no snapshot.phi_samples in a Cartesian model (grid.coordinates = cylindrical only)");
    return;
  }
  if (g.dims != 3) fail(cfg, "grid.size", "two numbers R Z in a cylindrical model (grid dims 3)");
  if (g.modes.empty()) fail(cfg, "grid.modes", "at least one angular order m >= 0");
  for (std::size_t q = 0; q < g.modes.size(); ++q) {
    if (g.modes[q] < 0)
      fail(cfg, "grid.modes",
           "angular orders m >= 0 (m > 0 already carries -m), got " + std::to_string(g.modes[q]));
    if (q > 0 && g.modes[q] <= g.modes[q - 1])
      fail(cfg, "grid.modes", "each m once, in ascending order");
  }
  const BoundaryConfig& b = cfg.boundary;
  if (b.type == BoundaryType::Upml && (b.layers[0] != 0 || b.layers[2] != 0 || b.layers[3] != 0))
    fail(cfg, "boundary.layers",
         "layers r_hi z_lo z_hi only in a cylindrical model (none at r = 0, the axis, nor along phi)");
  if (cfg.device.variant == KernelVariant::OnePass || cfg.device.variant == KernelVariant::TBlock)
    fail(cfg, "device.variant", "auto, tile or rows in a cylindrical model (onepass is 3D only, tblock too)");
  for (const auto& m : cfg.monitors)
    if (m.kind != MonitorKind::Flux)
      fail(cfg, "monitor." + m.name + ".type",
           "flux in a cylindrical model (dft, farfield and modes monitors are Cartesian only)");
  if (cfg.snapshot.phi_samples < 0 || cfg.snapshot.phi_samples > kMaxPhiSamples)
    fail(cfg, "snapshot.phi_samples",
         "an integer in [0, 3600], got " + std::to_string(cfg.snapshot.phi_samples));
  check_objects(cfg);
  for (const auto& s : cfg.sources) {
    const std::string sec = "source." + s.name;
    if (s.kind == SourceKind::Port)
      fail(cfg, sec + ".type", "dipole or current in a cylindrical model (ports are 3D only)");
    check_point(cfg, sec + ".position", s.position);
    if (s.axis != Axis::Z && s.position.x == 0) {
      const std::string dir = s.axis == Axis::X ? "r" : "phi";
      const std::string a_dir = (s.axis == Axis::X ? "an " : "a ") + dir;
      // Blame the position where the command line moved the source onto the axis.
      if (cfg.cli_keys.count(sec + ".position") && !cfg.cli_keys.count(sec + ".axis"))
        fail(cfg, sec + ".position",
             "r > 0 for " + a_dir + "-directed source (axis = " + dir +
                 "): on the axis (r = 0) such a current has no direction; only axis = z can sit there");
      fail(cfg, sec + ".axis",
           "z for a source on the axis (r = 0): " + a_dir +
               "-directed current has no direction there; move it off the axis");
    }
  }
  for (const auto& p : cfg.probes) check_point(cfg, "probe." + p.name + ".position", p.position);
}

}  // namespace clfdtd
