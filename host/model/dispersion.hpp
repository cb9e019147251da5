// Dispersive materials (docs/EQUATIONS.md "Dispersive materials"): every E sample of a material
// with poles carries, per pole, its polarisation Q = P / eps0 (V/m) and K = (dt/2) dQ/dt, and
// the sample's E of the step before. After the plain E update (which gave E* with the material's
// eps_r, the permittivity at infinity) one local, semi-implicit step (trapezoidal rule, so stable
// for any pole on the grid's time step) finishes it:
//   dQ_p  = kK_p K_p + B_p Q_p + C_p (E + E_new)        for each pole p
//   E_new = (E* - corr sum_p (kK_p K_p + B_p Q_p + C_p E)) / (1 + corr sum_p C_p)
//   K_p  <- A_p K_p + B_p Q_p + C_p (E + E_new),  Q_p <- Q_p + dQ_p,  E <- E_new
// corr = cb eps0 / dt turns the polarisation's change into the E update's current term. Both
// engines run exactly this (the reference in double, the GPU stage update_dispersion in float).
// A sample in the UPML layers drives its poles with F, the field the UPML's stretching has not
// yet acted on (D = eps_inf F + sum Q, s_w E = s_u F), which it keeps beside E; the two engines
// reach the same step by two routes (dispersive_step_upml, update_dispersion's UPML branch).
#pragma once
#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/field_layout.hpp"
#include "model/materials.hpp"
#include "model/upml_profile.hpp"

namespace clfdtd {

// eps_r + sum chi_p(f) of a material's poles: chi = d / (c - a w^2 - i b w), w = 2 pi f (the
// continuous susceptibility of the ODE form; exp(-i w t), Im > 0 loss); f > 0 in Hz.
// Conductivity not included.
std::complex<double> pole_permittivity(const MaterialEntry& e, double f);

// {kK, A, B, C} of one pole on time step dt.
std::array<double, 4> pole_step_coefficients(const Pole& p, double dt);

struct DispersionRow {  // one dispersive material id (and, in the UPML, one set of profile values)
  std::uint8_t id = 0;
  double corr = 0, inv = 1;  // corr = cb eps0 / dt; inv = 1 / (1 + corr sum C) (UPML row: 1 / (eps_inf + sum C))
  std::vector<std::array<double, 4>> poles;
  // A row of samples in the UPML layers: the profile values of E_u's update at their position
  // (upml_profile.hpp: a_v, b_v of the cyclic next axis v, a_w, b_w of w, cp_u, cm_u of u) and
  // eps_inf (the material's eps_r; its conductivity is ignored there, as in every UPML cell).
  bool upml = false;
  double a_v = 1, b_v = 1, a_w = 1, b_w = 1, cp_u = 2, cm_u = 2, eps_inf = 1;
  double c_sum() const {  // sum of the poles' C
    double s = 0;
    for (const auto& k : poles) s += k[3];
    return s;
  }
};

// The row of material entry e (id) on time step dt with the given corr (cb eps0 / dt of the
// update it finishes): its poles' coefficients, and inv = 1 / (1 + corr sum C).
DispersionRow dispersion_row(const MaterialEntry& e, std::uint8_t id, double dt, double corr);

struct DispersiveSamples {
  std::vector<DispersionRow> rows;
  // Every dispersive E sample: its component (0..2), its padded-layout index and its row.
  std::vector<std::uint8_t> comp;
  std::vector<std::size_t> index;
  std::vector<int> row;
  int max_poles = 0;
  bool any_upml = false;  // some row is a UPML row: the state has F and D slots
  // The first sample found in a UPML cell with a second-order (Drude, Lorentz) pole (component
  // 0..2, i, j, k): the model refuses it (a PML grows without bound in such media; Debye poles
  // are stable there); SimulationModel::build says where. No lists then.
  std::optional<std::array<int, 4>> second_order_in_pml;
  // More samples than the GPU stage indexes (kMaxDispersiveSamples): their number, no lists.
  std::size_t too_many = 0;
  std::size_t count() const { return index.size(); }
  bool empty() const { return index.empty(); }
  // State floats per sample: E of the step before, then Q and K per pole, then (any_upml) F and
  // D of the samples in the UPML (F at f_slot(), D after it; unused by the others).
  std::size_t f_slot() const { return 1 + 2 * static_cast<std::size_t>(max_poles); }
  std::size_t state_slots() const { return f_slot() + (any_upml ? 2 : 0); }
};

// The GPU stage runs one work-item per sample, indexed by a 32-bit int.
inline constexpr std::size_t kMaxDispersiveSamples = 2147483647;

// The dispersive E samples of a model (ids of Ex, Ey, Ez): counted first, then (the host's memory
// checked for the lists: HostMemoryError) listed, those in UPML cells with rows of their own;
// lists none past kMaxDispersiveSamples (too_many), and stops at the first second-order sample in
// a UPML cell (second_order_in_pml).
DispersiveSamples dispersive_samples(const MaterialTable& table, const FieldLayout& layout,
                                     const std::array<std::vector<std::uint8_t>, 6>& ids,
                                     const UpmlProfile& upml, const std::array<int, 3>& n,
                                     double dt);

// Each pole's Q and K over the step, driven by `before` and `after` (E, or F in the UPML).
inline void advance_poles(const DispersionRow& r, double* state, std::size_t stride, double before,
                          double after) {
  for (std::size_t p = 0; p < r.poles.size(); ++p) {
    const auto& k = r.poles[p];
    double& q = state[(1 + 2 * p) * stride];
    double& kk = state[(2 + 2 * p) * stride];
    const double drive = k[2] * q + k[3] * (before + after);
    const double dq = k[0] * kk + drive;
    kk = k[1] * kk + drive;
    q += dq;
  }
}

// One sample's step (the reference engine's; update_dispersion in cl_kernels/dispersion.cl is
// the same in float): e_star is E after every other term of the step, state[slot * stride] the
// sample's slots (E before, then Q and K per pole). Returns E after the step.
inline double dispersive_step(const DispersionRow& r, double e_star, double* state,
                              std::size_t stride) {
  const double e_before = state[0];
  double sum = 0;
  for (std::size_t p = 0; p < r.poles.size(); ++p) {
    const auto& k = r.poles[p];
    sum += k[0] * state[(2 + 2 * p) * stride] + k[2] * state[(1 + 2 * p) * stride] + k[3] * e_before;
  }
  const double e_new = (e_star - r.corr * sum) * r.inv;
  advance_poles(r, state, stride, e_before, e_new);
  state[0] = e_new;
  return e_new;
}

// The step of a sample in the UPML (r.upml), on the reference engine's update: that engine keeps
// the true D = eps_inf F + sum Q in its auxiliary and gave E* = a_w E + (cp_u D' - cm_u D) b_w /
// (2 eps_inf), which took D / eps_inf for F; with F = (D - sum Q) / eps_inf the right E is
//   E_new = E* - g (sum Q_new - rho sum Q),  g = b_w cp_u / (2 eps_inf),  rho = cm_u / cp_u,
// and E's recursion gives F back: F_new = rho F - gam a_w E + gam E_new, gam = 2 / (b_w cp_u).
// The poles run on F; solving for E_new with dQ_p = kK K + B Q + C (F + F_new) as above.
// state[f_slot * stride] holds F. (update_dispersion takes the other route: its own D.)
inline double dispersive_step_upml(const DispersionRow& r, double e_star, double* state,
                                   std::size_t stride, std::size_t f_slot) {
  const double e_before = state[0];
  double& f = state[f_slot * stride];
  const double f_before = f;
  const double rho = r.cm_u / r.cp_u, gam = 2 / (r.b_w * r.cp_u), g = r.b_w * r.cp_u / (2 * r.eps_inf);
  const double base = rho * f_before - gam * r.a_w * e_before;  // F_new = base + gam E_new
  double s0 = 0, q_sum = 0, c_sum = 0;
  for (std::size_t p = 0; p < r.poles.size(); ++p) {
    const auto& k = r.poles[p];
    const double q = state[(1 + 2 * p) * stride];
    s0 += k[0] * state[(2 + 2 * p) * stride] + k[2] * q + k[3] * f_before;
    q_sum += q;
    c_sum += k[3];
  }
  const double e_new =
      (e_star - g * ((1 - rho) * q_sum + s0 + c_sum * base)) / (1 + c_sum / r.eps_inf);
  const double f_new = base + gam * e_new;
  advance_poles(r, state, stride, f_before, f_new);
  f = f_new;
  state[0] = e_new;
  return e_new;
}

// Every sample's step, on the reference engines' double fields (fields[comp][index]: E with every
// other term of the step in it); state: [slot * count + sample], state_slots() per sample.
inline void step_dispersive_samples(const DispersiveSamples& d,
                                    std::array<std::vector<double>, 6>& fields,
                                    std::vector<double>& state) {
  const std::size_t count = d.count();
  for (std::size_t n = 0; n < count; ++n) {
    double& field = fields[d.comp[n]][d.index[n]];
    const DispersionRow& r = d.rows[static_cast<std::size_t>(d.row[n])];
    field = r.upml ? dispersive_step_upml(r, field, &state[n], count, d.f_slot())
                   : dispersive_step(r, field, &state[n], count);
  }
}

// For the run header and run.json: the samples of each material with poles (user materials in
// table order, then one entry "surface mixtures" for the mixtures' samples, if any).
struct DispersiveCount {
  std::string name;
  bool mixture = false;
  std::size_t samples = 0;
  const MaterialEntry* entry = nullptr;  // the user material (nullptr for the mixtures)
};
std::vector<DispersiveCount> dispersive_counts(const MaterialTable& table, const DispersiveSamples& d);

// float4s per row of the GPU stage's table: (corr, inv, poles, upml), (kK, A, B, C) per pole up
// to max_poles, then (any_upml) (a_v, b_v, a_w, b_w) and (cp_u, cm_u, 0, 0).
inline int dispersion_row_stride(const DispersiveSamples& d) {
  return 1 + d.max_poles + (d.any_upml ? 2 : 0);
}

// Device bytes of the GPU stage's tables and state.
std::size_t dispersion_device_bytes(const DispersiveSamples& d);

}  // namespace clfdtd
