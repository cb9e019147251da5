#include "config/plane_checks.hpp"

#include <algorithm>
#include <string>

#include "errors.hpp"

namespace clfdtd {

namespace {

[[noreturn]] void fail(const RunConfig& cfg, const std::string& key, const std::string& what,
                       int line = -1) {
  throw cfg.error_at(key, what, line);
}

std::string names(const std::vector<Component>& cs) {
  std::string s;
  for (std::size_t i = 0; i < cs.size(); ++i) s += (i ? ", " : "") + std::string(component_name(cs[i]));
  return s;
}

// "tm", "te" or "wave": how the messages name the model's kind.
std::string kind_name(const GridConfig& g) {
  if (g.equation == Equation::Wave) return "a wave (grid.equation = wave)";
  return g.mode == PlaneMode::Tm ? "a tm" : "a te";
}

const char* kAxisWord[] = {"x", "y", "z"};

// The axis a source ended up with, as the user gave it; an unset key took the default z.
std::string given_axis(const RunConfig& cfg, const std::string& key, Axis axis) {
  const std::string word = kAxisWord[static_cast<int>(axis)];
  return cfg.given(key) ? word : "no axis (the default is " + word + ")";
}

}  // namespace

std::vector<Component> plane_components(PlaneMode mode, Equation equation) {
  using C = Component;
  if (equation == Equation::Wave) return {C::Ez};
  if (mode == PlaneMode::Tm) return {C::Ez, C::Hx, C::Hy};
  return {C::Ex, C::Ey, C::Hz};
}

void check_plane_config(const RunConfig& cfg) {
  if (cfg.grid.dims != 2) return;
  const bool wave = cfg.grid.equation == Equation::Wave;
  if (wave && cfg.grid.mode == PlaneMode::Te)
    fail(cfg, "grid.equation", "maxwell with grid.mode = te (the wave equation is tm only)");
  if (cfg.device.variant == KernelVariant::OnePass || cfg.device.variant == KernelVariant::TBlock)
    fail(cfg, "device.variant", "auto, tile or rows in a 2D model (onepass is 3D only, tblock too)");

  const std::vector<Component> active = plane_components(cfg.grid.mode, cfg.grid.equation);
  for (const auto& o : cfg.objects) {
    if (o.shape == ShapeKind::Cylinder)
      fail(cfg, "object." + o.name + ".shape",
           "box, sphere or prism in a 2D model (cylinder is not meaningful in 2D)");
  }
  for (const auto& s : cfg.sources) {
    if (s.kind == SourceKind::Port)
      fail(cfg, "source." + s.name + ".type", "dipole or current in a 2D model (ports are 3D only)");
    const bool tm = cfg.grid.mode == PlaneMode::Tm;
    const bool ok = tm ? s.axis == Axis::Z : s.axis != Axis::Z;
    if (!ok) {
      // The axis left at its default z has no line: its section's header has.
      const std::string sec = "source." + s.name, key = sec + ".axis";
      fail(cfg, key,
           std::string(tm ? "z in " + kind_name(cfg.grid) + " model (E is Ez)"
                          : "x or y in a te model (E lies in the plane)") +
               ", got " + given_axis(cfg, key, s.axis),
           cfg.line_of(key) > 0 ? cfg.line_of(key) : cfg.line_of(sec));
    }
  }
  for (const auto& s : cfg.plane_waves) {
    // E along z travelling in the plane (tm), or E in the plane and across the travel (te).
    const std::string sec = "source." + s.name;
    if (s.direction_axis == 2)
      fail(cfg, sec + ".direction", "+x, -x, +y or -y in a 2D model (the wave travels in the plane)");
    const bool tm = cfg.grid.mode == PlaneMode::Tm;
    if (tm ? s.axis != Axis::Z : s.axis == Axis::Z) {
      const std::string key = sec + ".axis";
      fail(cfg, key,
           std::string(tm ? "z in a tm model (E is Ez)" : "x or y in a te model (E lies in the plane)") +
               ", got " + given_axis(cfg, key, s.axis),
           cfg.line_of(key) > 0 ? cfg.line_of(key) : cfg.line_of(sec));
    }
  }
  for (const auto& p : cfg.probes) {
    for (Component f : p.fields) {
      if (std::find(active.begin(), active.end(), f) == active.end())
        fail(cfg, "probe." + p.name + ".fields",
             "fields among " + names(active) + " in " + kind_name(cfg.grid) + " model, got " +
                 component_name(f));
    }
  }
  if (!wave) return;
  for (const auto& s : cfg.plane_waves)
    fail(cfg, "source." + s.name + ".type",
         "plane_wave in a Yee model (grid.equation = maxwell): the wave equation has no plane waves");
  for (const auto& m : cfg.materials) {
    if (!m.pec && m.mu_r != 1.0)
      fail(cfg, "material." + m.name + (m.axis_materials[0].empty() ? ".mu_r" : ".axes"),
           "1 in a wave model (grid.equation = wave carries no H: use grid.equation = maxwell for "
           "magnetic materials)");
  }
  if (cfg.output.energy)
    fail(cfg, "output.energy",
         "false in a wave model (grid.equation = wave carries no H: use grid.equation = maxwell)");
  for (const auto& m : cfg.monitors) {
    if (m.kind == MonitorKind::Flux || m.kind == MonitorKind::FarField)
      fail(cfg, "monitor." + m.name + ".type",
           std::string("dft or modes in a wave model (") +
               (m.kind == MonitorKind::Flux ? "flux" : "farfield") +
               " needs H: use grid.equation = maxwell)");
  }
}

}  // namespace clfdtd
