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

struct DispersionRow {  // one dispersive material id
  std::uint8_t id = 0;
  double corr = 0, inv = 1;  // corr = cb eps0 / dt; inv = 1 / (1 + corr sum C)
  std::vector<std::array<double, 4>> poles;
};

struct DispersiveSamples {
  std::vector<DispersionRow> rows;
  // Every dispersive E sample: its component (0..2), its padded-layout index and its row.
  std::vector<std::uint8_t> comp;
  std::vector<std::size_t> index;
  std::vector<int> row;
  int max_poles = 0;
  // The first dispersive sample found in a UPML cell (component 0..2, i, j, k), which the model
  // refuses (the UPML update has no polarisation term); SimulationModel::build says where.
  std::optional<std::array<int, 4>> in_pml;
  // More samples than the GPU stage indexes (kMaxDispersiveSamples): their number, no lists.
  std::size_t too_many = 0;
  std::size_t count() const { return index.size(); }
  bool empty() const { return index.empty(); }
  // State floats per sample: E of the step before, then Q and K per pole.
  std::size_t state_slots() const { return 1 + 2 * static_cast<std::size_t>(max_poles); }
};

// The GPU stage runs one work-item per sample, indexed by a 32-bit int.
inline constexpr std::size_t kMaxDispersiveSamples = 2147483647;

// The dispersive E samples of a model (ids of Ex, Ey, Ez): counted first, then (the host's memory
// checked for the lists: HostMemoryError) listed; stops at the first one in a UPML cell (in_pml),
// and lists none past kMaxDispersiveSamples (too_many).
DispersiveSamples dispersive_samples(const MaterialTable& table, const FieldLayout& layout,
                                     const std::array<std::vector<std::uint8_t>, 6>& ids,
                                     const UpmlProfile& upml, const std::array<int, 3>& n,
                                     double dt);

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
  for (std::size_t p = 0; p < r.poles.size(); ++p) {
    const auto& k = r.poles[p];
    double& q = state[(1 + 2 * p) * stride];
    double& kk = state[(2 + 2 * p) * stride];
    const double drive = k[2] * q + k[3] * (e_before + e_new);
    const double dq = k[0] * kk + drive;
    kk = k[1] * kk + drive;
    q += dq;
  }
  state[0] = e_new;
  return e_new;
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

// Device bytes of the GPU stage's tables and state.
std::size_t dispersion_device_bytes(const DispersiveSamples& d);

}  // namespace clfdtd
