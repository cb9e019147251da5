// Patent step 2: the material table. Cells store a uint8 id per field component; the update
// coefficients live here, once per material, so kernels read 1 byte per component, not 8.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "config/run_config.hpp"

namespace clfdtd {

// A pole of a dispersive material in the form the update discretises (docs/EQUATIONS.md
// "Dispersive materials"): a P'' + b P' + c P = d eps0 E, P in C/m^2 (a = 0: Debye, c = 0:
// Drude). A surface sample's mixture scales d by the share of its probes in the material.
struct Pole {
  double a = 0, b = 0, c = 0, d = 0;
  bool same_kind(const Pole& o) const { return a == o.a && b == o.b && c == o.c; }
  bool operator==(const Pole& o) const { return same_kind(o) && d == o.d; }
  // Drude and Lorentz (P''): unstable in the UPML, refused there; Debye is first order.
  bool second_order() const { return a != 0; }
};
Pole pole_of(const PoleConfig& p);

struct MaterialEntry {
  std::string name;
  double eps_r = 1, mu_r = 1, sigma = 0;  // with poles eps_r is the permittivity at infinity
  bool pec = false;
  std::vector<Pole> poles{};
  std::vector<PoleConfig> pole_keys{};  // a user material's poles as its keys gave them
  // A diagonal anisotropic material is three entries, one per axis, each isotropic to the
  // kernels: its own (named as the user did, holding the x values) and "<name> (y)", "<name>
  // (z)". Each of the three has anisotropic_of = the first's id and axis_ids = the three ids; a
  // component's sample takes the entry of its own axis (MaterialTable::along).
  int anisotropic_of = -1;
  std::array<int, 3> axis_ids{-1, -1, -1};
  // A lumped element's samples (model/lumped.hpp): the element's name; empty otherwise.
  std::string lumped{};
  bool dispersive() const { return !pec && !poles.empty(); }
  bool anisotropic() const { return anisotropic_of >= 0; }
};

// Update coefficients of one material for a time step dt (semi-implicit conductivity term):
//   E_new = ca * E + cb * (curl H - J),   ca = (1 - s)/(1 + s), cb = dt/eps/(1 + s), s = sigma dt/(2 eps)
//   H_new = H - db * curl E,              db = dt / mu
// PEC: ca = cb = 0 (E stays zero). inv_eps_r / inv_mu_r feed the UPML update (0 for PEC E).
struct ECoefficients { double ca = 1, cb = 0, inv_eps_r = 1; };
struct HCoefficients { double db = 0, inv_mu_r = 1; };

class MaterialTable {
public:
  static constexpr std::uint8_t kPec = 0;     // walls, padding and PEC objects
  static constexpr std::uint8_t kVacuum = 1;  // the background
  static constexpr int kMaxMaterials = 256;

  // Builds [pec, vacuum, user materials...] in config order (an anisotropic one as three entries
  // side by side); throws ConfigError past 256.
  explicit MaterialTable(const std::vector<MaterialConfig>& user = {});

  // Id of a material name ("pec", "vacuum", or a [material.<name>]); -1 if unknown.
  int find(const std::string& name) const;
  // The entry a sample along `axis` (0..2: its component's) takes for material `id`: `id` itself
  // unless it is anisotropic.
  std::uint8_t along(std::uint8_t id, int axis) const {
    const MaterialEntry& e = entries_[id];
    return e.anisotropic() ? static_cast<std::uint8_t>(e.axis_ids[static_cast<std::size_t>(axis)]) : id;
  }
  const MaterialEntry& entry(std::uint8_t id) const { return entries_[id]; }
  // The entry that names material `id` to the user: an anisotropic material's first (its own
  // name, not "<name> (y)"); `id` itself otherwise.
  std::uint8_t named(std::uint8_t id) const {
    const MaterialEntry& e = entries_[id];
    return e.anisotropic() ? static_cast<std::uint8_t>(e.anisotropic_of) : id;
  }
  // The name the user gave material `id` (an anisotropic material's own, not "<name> (y)").
  const std::string& user_name(std::uint8_t id) const { return entries_[named(id)].name; }
  std::size_t size() const { return entries_.size(); }
  bool any_magnetic() const;  // some material with mu_r != 1 (then H needs ids too)

  // The id of a non-PEC entry with exactly these properties, appended (named "mixture eps_r X
  // mu_r Y sigma Z") when no entry has them: the mesher's averaged samples on object surfaces.
  // -1 when the table is full.
  // With poles (a mixture next to a dispersive material): those poles too.
  // With `lumped` (an element's name): an entry of that element's samples, named "lumped <name>".
  int mixture(double eps_r, double mu_r, double sigma, const std::vector<Pole>& poles = {},
              const std::string& lumped = "");
  bool any_dispersive() const;
  bool any_anisotropic() const;

  ECoefficients e_coefficients(std::uint8_t id, double dt) const;
  HCoefficients h_coefficients(std::uint8_t id, double dt) const;

private:
  std::vector<MaterialEntry> entries_;
};

}  // namespace clfdtd
