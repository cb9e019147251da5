#include "config/bloch_checks.hpp"

#include <string>

#include "errors.hpp"

namespace clfdtd {

namespace {

[[noreturn]] void fail(const RunConfig& cfg, const std::string& key, const std::string& what) {
  int line = cfg.line_of(key);  // a key left at its default: its section's header
  if (line == 0) line = cfg.line_of(key.substr(0, key.rfind('.')));
  throw cfg.error_at(key, what + " in a Bloch-periodic model (boundary.bloch_k: not offered yet)", line);
}

}  // namespace

void check_bloch_config(const RunConfig& cfg) {
  const auto& k = cfg.boundary.bloch_k;
  if (k[0] == 0 && k[1] == 0 && k[2] == 0) return;
  for (const SourceConfig& s : cfg.sources)
    if (s.kind == SourceKind::Port) fail(cfg, "source." + s.name + ".type", "no lumped port");
  for (const SourceConfig& s : cfg.waveguide_ports) fail(cfg, "source." + s.name + ".type", "no waveguide port");
  for (const SourceConfig& s : cfg.plane_waves) fail(cfg, "source." + s.name + ".type", "no plane wave");
  for (const MaterialConfig& mat : cfg.materials)
    if (mat.dispersive()) {
      const PoleKind first = mat.all_poles().front().kind;
      const char* kind = !mat.axis_materials[0].empty() ? "axes"
                         : first == PoleKind::Debye     ? "debye"
                         : first == PoleKind::Drude     ? "drude"
                                                        : "lorentz";
      fail(cfg, "material." + mat.name + "." + kind, "no dispersive material");
    }
  // A resistor or a capacitor is a conductivity or a permittivity; an inductor, or R and C in
  // series, is a pole of the dispersive stage (model/lumped.hpp).
  for (const LumpedConfig& e : cfg.lumped) {
    if (e.inductance_h)
      fail(cfg, "lumped." + e.name + ".inductance", "no lumped inductor");
    if (e.circuit == LumpedCircuit::Series && e.resistance_ohm && e.capacitance_f)
      fail(cfg, "lumped." + e.name + ".circuit", "no lumped resistor and capacitor in series");
  }
  for (const MonitorConfig& mon : cfg.monitors)
    fail(cfg, "monitor." + mon.name + ".type", "no monitor (flux, dft, farfield, modes, mode_expansion)");
  for (int a = 0; a < 3; ++a)
    if (cfg.boundary.pmc[static_cast<std::size_t>(a)]) fail(cfg, "boundary.pmc", "no magnetic wall");
}

}  // namespace clfdtd
