// Dispersive materials: the pole coefficients of the semi-implicit step and the samples that
// carry it (dispersion.hpp; docs/EQUATIONS.md "Dispersive materials" derives the coefficients).
#include "model/dispersion.hpp"

#include <algorithm>
#include <string>

#include "model/grid_geometry.hpp"
#include "model/host_memory.hpp"

namespace clfdtd {

std::complex<double> pole_permittivity(const MaterialEntry& e, double f) {
  const double w = 2 * 3.14159265358979323846 * f;
  std::complex<double> eps = e.eps_r;
  for (const Pole& p : e.poles) eps += p.d / std::complex<double>(p.c - p.a * w * w, -p.b * w);
  return eps;
}

std::array<double, 4> pole_step_coefficients(const Pole& p, double dt) {
  const double h = dt / 2;
  if (p.a == 0) {
    // b Q' + c Q = d E by the trapezoidal rule over [t, t + dt]:
    // (b/dt + c/2) (Q_new - Q) = -c Q + (d/2) (E + E_new); no K.
    const double den = p.b / dt + p.c / 2;
    return {0.0, 0.0, -p.c / den, p.d / 2 / den};
  }
  // Q'' + g Q' + w0^2 Q = dd E as Q' = J, J' = dd E - g J - w0^2 Q, trapezoidal over [t, t + dt],
  // with K = h J: K_new = A K + B Q + C (E + E_new), Q_new - Q = K_new + K.
  const double g = p.b / p.a, w2 = p.c / p.a, dd = p.d / p.a;
  const double den = 1 + h * g + h * h * w2;
  const double A = (1 - h * g - h * h * w2) / den;
  const double B = -2 * h * h * w2 / den;
  const double C = h * h * dd / den;
  return {1 + A, A, B, C};
}

DispersiveSamples dispersive_samples(const MaterialTable& table, const FieldLayout& layout,
                                     const std::array<std::vector<std::uint8_t>, 6>& ids,
                                     const UpmlProfile& upml, const std::array<int, 3>& n,
                                     double dt) {
  DispersiveSamples out;
  std::vector<int> row_of(table.size(), -1);
  for (std::size_t id = 0; id < table.size(); ++id) {
    const MaterialEntry& e = table.entry(static_cast<std::uint8_t>(id));
    if (!e.dispersive()) continue;
    DispersionRow r;
    r.id = static_cast<std::uint8_t>(id);
    r.corr = table.e_coefficients(r.id, dt).cb * kEps0 / dt;
    double sum_c = 0;
    for (const Pole& p : e.poles) {
      r.poles.push_back(pole_step_coefficients(p, dt));
      sum_c += r.poles.back()[3];
    }
    r.inv = 1 / (1 + r.corr * sum_c);
    out.max_poles = std::max(out.max_poles, static_cast<int>(r.poles.size()));
    row_of[id] = static_cast<int>(out.rows.size());
    out.rows.push_back(std::move(r));
  }
  if (out.rows.empty()) return out;
  std::size_t count = 0;
  for (int c = 0; c < 3; ++c)
    for (std::uint8_t id : ids[static_cast<std::size_t>(c)]) count += row_of[id] >= 0;
  if (count > kMaxDispersiveSamples) {
    out.too_many = count;
    return out;
  }
  check_host_memory(count * (sizeof(std::uint8_t) + sizeof(std::size_t) + sizeof(int)),
                    "the list of dispersive samples");
  out.comp.reserve(count);
  out.index.reserve(count);
  out.row.reserve(count);
  const std::size_t nzp = layout.nzp();
  for (int c = 0; c < 3; ++c) {
    const std::vector<std::uint8_t>& comp_ids = ids[static_cast<std::size_t>(c)];
    for (std::size_t at = 0; at < comp_ids.size(); ++at) {
      const int row = row_of[comp_ids[at]];
      if (row < 0) continue;
      const int k = static_cast<int>(at % nzp);
      const std::size_t ij = at / nzp;
      const int j = static_cast<int>(ij % static_cast<std::size_t>(layout.ny));
      const int i = static_cast<int>(ij / static_cast<std::size_t>(layout.ny));
      if (upml.in_pml(i, j, k, n)) {
        out.in_pml = std::array<int, 4>{c, i, j, k};
        return out;
      }
      out.comp.push_back(static_cast<std::uint8_t>(c));
      out.index.push_back(at);
      out.row.push_back(row);
    }
  }
  return out;
}

std::vector<DispersiveCount> dispersive_counts(const MaterialTable& table, const DispersiveSamples& d) {
  std::vector<std::size_t> per_row(d.rows.size(), 0);
  for (int r : d.row) ++per_row[static_cast<std::size_t>(r)];
  std::vector<DispersiveCount> out;
  DispersiveCount mixtures{"surface mixtures", true, 0, nullptr};
  for (std::size_t r = 0; r < d.rows.size(); ++r) {
    const MaterialEntry& e = table.entry(d.rows[r].id);
    if (e.name.rfind("mixture", 0) == 0) {
      mixtures.samples += per_row[r];
    } else {
      out.push_back({e.name, false, per_row[r], &e});
    }
  }
  if (mixtures.samples > 0) out.push_back(mixtures);
  return out;
}

std::size_t dispersion_device_bytes(const DispersiveSamples& d) {
  if (d.empty()) return 0;
  const std::size_t f = sizeof(float);
  return d.count() * (2 * sizeof(std::int32_t) + sizeof(std::int32_t) + d.state_slots() * f) +
         d.rows.size() * (4 + 4 * static_cast<std::size_t>(d.max_poles)) * f;
}

}  // namespace clfdtd
