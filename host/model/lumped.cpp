// Lumped elements: see lumped.hpp and docs/PORTS.md "Lumped elements".
#include "model/lumped.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "model/number_text.hpp"
#include "model/port_box.hpp"
#include "model/simulation_model.hpp"

namespace clfdtd {

namespace {

// The circuit as the pole form a Q'' + b Q' + c Q = d E, Q = P / eps0 with P the branch's charge
// over the box's area and E its voltage over the box's length: a series branch
// L q'' + R q' + q / C = V gives a = L, b = R, c = 1 / C, d = length / (area eps0), scaled
// to a = 1 (an inductor in the branch) or c = 1 (R and C only).
void add_terms(const LumpedConfig& c, LumpedModel& e) {
  const double k = e.length_m / (e.area_m2 * kEps0);  // per farad: delta eps_r of C is C k
  const double r = c.resistance_ohm.value_or(0), l = c.inductance_h.value_or(0),
               cap = c.capacitance_f.value_or(0);
  if (c.circuit == LumpedCircuit::Parallel) {
    if (c.resistance_ohm) e.sigma = e.length_m / (r * e.area_m2);
    if (c.capacitance_f) e.delta_eps_r = cap * k;
    if (c.inductance_h) e.poles.push_back(Pole{1, 0, 0, k / l});
    return;
  }
  if (c.inductance_h) {  // R, L, C in series: a Lorentz pole (no C: Drude; no R: undamped)
    e.poles.push_back(Pole{1, r / l, c.capacitance_f ? 1 / (l * cap) : 0, k / l});
  } else if (c.capacitance_f && c.resistance_ohm) {  // R and C: a Debye pole, tau = R C
    e.poles.push_back(Pole{0, r * cap, 1, cap * k});
  } else if (c.capacitance_f) {
    e.delta_eps_r = cap * k;
  } else {
    e.sigma = e.length_m / (r * e.area_m2);
  }
}

}  // namespace

std::vector<LumpedModel> build_lumped(const RunConfig& cfg, const GridGeometry& g) {
  std::vector<LumpedModel> out;
  for (const LumpedConfig& c : cfg.lumped) {
    LumpedModel e;
    e.name = c.name;
    const int a = static_cast<int>(c.axis);
    e.component = static_cast<Component>(a);
    const PortBox box = sample_box(c.axis, c.position, c.size_m, g);
    if (box.cells.empty())
      throw cfg.error_at("lumped." + c.name + ".size",
                         "a box of at most " + std::to_string(kMaxPortSamples) + " E samples, got " +
                             std::to_string(box.along) + " along x " + std::to_string(box.across) +
                             " across");
    e.cells = box.cells;
    e.along = box.along;
    e.across = box.across;
    e.length_m = g.d[a] * static_cast<double>(e.along);
    e.area_m2 = g.d[(a + 1) % 3] * g.d[(a + 2) % 3] * static_cast<double>(e.across);
    e.resistance_ohm = c.resistance_ohm;
    e.inductance_h = c.inductance_h;
    e.capacitance_f = c.capacitance_f;
    e.circuit = c.circuit;
    add_terms(c, e);
    out.push_back(std::move(e));
  }
  return out;
}

void check_lumped(const RunConfig& cfg, const SimulationModel& m) {
  std::set<std::pair<int, std::size_t>> taken;  // (component, index) of sources and ports
  for (const SourceModel& s : m.sources)
    taken.insert({static_cast<int>(s.component), m.layout.index(s.cell[0], s.cell[1], s.cell[2])});
  std::set<std::pair<int, std::size_t>> held;  // the elements' so far
  for (std::size_t i = 0; i < m.lumped.size(); ++i) {
    const LumpedModel& e = m.lumped[i];
    const LumpedConfig& c = cfg.lumped[i];
    const std::string key = "lumped." + e.name + (c.size_m ? ".size" : ".position");
    const std::string what = c.size_m ? "a box whose samples lie " : "a position ";
    const int comp = static_cast<int>(e.component);
    // As a port's box (model/ports.cpp): one that starts on a magnetic wall across its axis and
    // reaches off it would have its image count the wall's columns once and the others twice.
    for (int b = 0; b < 3; ++b) {
      if (b == comp || !m.grid.pmc[static_cast<std::size_t>(b)]) continue;
      bool on = false, off = false;
      for (const auto& cell : e.cells) (cell[static_cast<std::size_t>(b)] == 0 ? on : off) = true;
      if (on && off)
        throw cfg.error_at("lumped." + e.name + ".size",
                           std::string("a box on the magnetic wall ") + "xyz"[b] +
                               " = 0 that stays on it, or one clear of it (this one starts on it and "
                               "reaches off it: its image would count the wall's columns once and "
                               "the others twice)");
    }
    for (const auto& cell : e.cells) {
      const Vec3 at = sample_position(e.component, cell, m.grid.d);
      const std::string where = std::string("E") + "xyz"[comp] + " sample (" +
                                std::to_string(cell[0]) + ", " + std::to_string(cell[1]) + ", " +
                                std::to_string(cell[2]) + ") at (" + number_text(at.x) + ", " +
                                number_text(at.y) + ", " + number_text(at.z) + ") m";
      if (m.upml.in_pml(cell[0], cell[1], cell[2], m.grid.n))
        throw cfg.error_at(key, what + "outside the UPML layers (the " + where + " is in them)");
      const std::size_t at_index = m.layout.index(cell[0], cell[1], cell[2]);
      if (m.id(e.component)[at_index] == MaterialTable::kPec)
        throw cfg.error_at(key, what + "off PEC (the " + where + " is PEC, a wall or a conductor)");
      if (taken.count({comp, at_index}))
        throw cfg.error_at(key, what + "on no source's or port's sample (one drives the " + where + ")");
      if (!held.insert({comp, at_index}).second)
        throw cfg.error_at(key, what + "on no other element's sample (an element before it holds the " +
                                    where + ")");
    }
  }
}

void add_lumped_elements(const RunConfig& cfg, const std::vector<LumpedModel>& elements,
                         MaterialTable& table, const FieldLayout& layout,
                         std::array<std::vector<std::uint8_t>, 6>& ids) {
  for (const LumpedModel& e : elements) {
    std::vector<std::uint8_t>& id = ids[static_cast<int>(e.component)];
    for (const std::array<int, 3>& cell : e.cells) {
      const std::size_t at = layout.index(cell[0], cell[1], cell[2]);
      const MaterialEntry& host = table.entry(id[at]);
      std::vector<Pole> poles = host.poles;  // a copy: mixture() may grow the table
      poles.insert(poles.end(), e.poles.begin(), e.poles.end());
      const std::string key = "lumped." + e.name;
      if (poles.size() > kMaxPoles)
        throw cfg.error_at(key + ".circuit",
                           "at most " + std::to_string(kMaxPoles) + " poles on a sample, its material's "
                           "and the element's (the sample's material has " +
                               std::to_string(host.poles.size()) + ")");
      const double eps_r = host.eps_r + e.delta_eps_r, sigma = host.sigma + e.sigma;
      const bool poles_finite = std::all_of(e.poles.begin(), e.poles.end(), [](const Pole& p) {
        return std::isfinite(p.b) && std::isfinite(p.c) && std::isfinite(p.d);
      });
      if (!std::isfinite(sigma))
        throw cfg.error_at(key + ".resistance", "a resistance whose conductivity L / (R A) over the "
                                                "samples is finite");
      if (!std::isfinite(eps_r))
        throw cfg.error_at(key + ".capacitance", "a capacitance whose permittivity C L / (A eps0) "
                                                 "over the samples is finite");
      if (!poles_finite)
        throw cfg.error_at(key + (e.inductance_h ? ".inductance" : ".capacitance"),
                           "values whose pole on the samples is finite (d = L / (A eps0 L_element), "
                           "omega0^2 = 1 / (L_element C), tau = R C)");
      const int mixed = table.mixture(eps_r, host.mu_r, sigma, poles, e.name);
      if (mixed < 0)
        throw cfg.error_at(key + ".position",
                           "room in the material table for the element's samples (256 entries, the "
                           "surface mixtures included, are taken)");
      id[at] = static_cast<std::uint8_t>(mixed);
    }
  }
}

}  // namespace clfdtd
