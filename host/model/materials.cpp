// Patent step 2: material table and the per-material update coefficients (EQUATIONS.md).
#include "model/materials.hpp"

#include <cstdio>

#include "errors.hpp"
#include "model/grid_geometry.hpp"

namespace clfdtd {

namespace {
constexpr double kPi = 3.14159265358979323846;
}  // namespace

MaterialTable::MaterialTable(const std::vector<MaterialConfig>& user) {
  entries_.push_back(MaterialEntry{"pec", 1, 1, 0, true, {}, {}});
  entries_.push_back(MaterialEntry{"vacuum", 1, 1, 0, false, {}, {}});
  // Ids are uint8: 256 entries at most, two of them built in; an anisotropic material takes three.
  std::size_t needed = 0;
  for (const auto& m : user) needed += m.anisotropic() && !m.pec ? 3 : 1;
  if (needed + entries_.size() > static_cast<std::size_t>(kMaxMaterials)) {
    throw ConfigError("", 0, "material",
                      "at most " + std::to_string(kMaxMaterials - 2) + " materials, an anisotropic one "
                      "counting 3 (got " + std::to_string(needed) + ")");
  }
  for (const auto& m : user) {
    // A repeated name would make find() ambiguous; the built-in names cannot be redefined either.
    if (find(m.name) >= 0) {
      throw ConfigError("", 0, "material." + m.name, "a material name not used before");
    }
    if (m.anisotropic() && !m.pec) {
      const int first = static_cast<int>(entries_.size());
      for (std::size_t a = 0; a < 3; ++a) {
        MaterialEntry e{a == 0 ? m.name : m.name + " (" + "xyz"[a] + ")", m.eps_along(a), m.mu_along(a),
                        m.sigma_along(a), false, {}, {}};
        for (const PoleConfig& p : m.poles_along(a)) e.poles.push_back(pole_of(p));
        e.pole_keys = m.poles_along(a);
        e.anisotropic_of = first;
        e.axis_ids = {first, first + 1, first + 2};
        entries_.push_back(std::move(e));
      }
      continue;
    }
    MaterialEntry e{m.name, m.eps_r, m.mu_r, m.sigma, m.pec, {}, {}};
    if (!m.pec) {
      for (const PoleConfig& p : m.poles_along(0)) e.poles.push_back(pole_of(p));
      e.pole_keys = m.poles_along(0);
    }
    entries_.push_back(std::move(e));
  }
}

int MaterialTable::find(const std::string& name) const {
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (entries_[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

Pole pole_of(const PoleConfig& p) {
  const double two_pi = 2 * kPi;
  switch (p.kind) {
    case PoleKind::Debye: return Pole{0, p.p[1], 1, p.p[0]};  // tau P' + P = delta_eps eps0 E
    case PoleKind::Drude: {                                    // P'' + g P' = w_p^2 eps0 E
      const double wp = two_pi * p.p[0];
      return Pole{1, two_pi * p.p[1], 0, wp * wp};
    }
    case PoleKind::Lorentz: {                                  // P'' + g P' + w0^2 P = de w0^2 eps0 E
      const double w0 = two_pi * p.p[1];
      return Pole{1, two_pi * p.p[2], w0 * w0, p.p[0] * w0 * w0};
    }
  }
  return Pole{};
}

int MaterialTable::mixture(double eps_r, double mu_r, double sigma, const std::vector<Pole>& poles,
                           const std::string& lumped) {
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const MaterialEntry& e = entries_[i];
    if (!e.pec && !e.anisotropic() && e.eps_r == eps_r && e.mu_r == mu_r && e.sigma == sigma &&
        e.poles == poles && e.lumped == lumped)
      return static_cast<int>(i);
  }
  if (entries_.size() >= static_cast<std::size_t>(kMaxMaterials)) return -1;
  char name[200];
  std::snprintf(name, sizeof name, "mixture eps_r %.9g mu_r %.9g sigma %.9g", eps_r, mu_r, sigma);
  std::string text = lumped.empty() ? std::string(name) : "lumped " + lumped;
  if (!poles.empty() && lumped.empty()) text += " and " + std::to_string(poles.size()) + " poles";
  MaterialEntry e{text, eps_r, mu_r, sigma, false, poles, {}};
  e.lumped = lumped;
  entries_.push_back(std::move(e));
  return static_cast<int>(entries_.size() - 1);
}

bool MaterialTable::any_dispersive() const {
  for (const auto& e : entries_)
    if (e.dispersive()) return true;
  return false;
}

bool MaterialTable::any_anisotropic() const {
  for (const auto& e : entries_)
    if (e.anisotropic()) return true;
  return false;
}

bool MaterialTable::any_magnetic() const {
  for (const auto& e : entries_) {
    if (!e.pec && e.mu_r != 1.0) return true;
  }
  return false;
}

ECoefficients MaterialTable::e_coefficients(std::uint8_t id, double dt) const {
  const MaterialEntry& m = entries_.at(id);
  if (m.pec) return ECoefficients{0, 0, 0};  // E stays zero in both the plain and the UPML update
  const double eps = kEps0 * m.eps_r;
  const double q = m.sigma * dt / (2 * eps);
  return ECoefficients{(1 - q) / (1 + q), dt / eps / (1 + q), 1.0 / m.eps_r};
}

HCoefficients MaterialTable::h_coefficients(std::uint8_t id, double dt) const {
  const MaterialEntry& m = entries_.at(id);
  // PEC carries mu_r = 1: an H sample inside a conductor just sees the zero E around it.
  const double mu_r = m.pec ? 1.0 : m.mu_r;
  return HCoefficients{dt / (kMu0 * mu_r), 1.0 / mu_r};
}

}  // namespace clfdtd
