// Dispersive materials: the pole coefficients of the semi-implicit step and the samples that
// carry it (dispersion.hpp; docs/EQUATIONS.md "Dispersive materials" derives the coefficients).
#include "model/dispersion.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>

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

DispersionRow dispersion_row(const MaterialEntry& e, std::uint8_t id, double dt, double corr) {
  DispersionRow r;
  r.id = id;
  r.corr = corr;
  for (const Pole& p : e.poles) r.poles.push_back(pole_step_coefficients(p, dt));
  r.inv = 1 / (1 + corr * r.c_sum());
  return r;
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
    const auto at = static_cast<std::uint8_t>(id);
    DispersionRow r = dispersion_row(e, at, dt, table.e_coefficients(at, dt).cb * kEps0 / dt);
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
  // One row per material and set of profile values in the UPML (the layers hold few values): per
  // axis the positions with equal values share a class, and (row, component, classes) finds the
  // row without building one per sample.
  auto classes = [](const AxisProfile& p) {
    std::map<std::array<double, 4>, int> seen;
    std::vector<std::uint64_t> out(p.a.size());
    for (std::size_t i = 0; i < p.a.size(); ++i)
      out[i] = static_cast<std::uint64_t>(
          seen.emplace(std::array<double, 4>{p.a[i], p.b[i], p.cp[i], p.cm[i]},
                       static_cast<int>(seen.size()))
              .first->second);
    return out;
  };
  std::array<std::vector<std::uint64_t>, 3> int_class, half_class;
  for (std::size_t a = 0; a < 3; ++a) {
    int_class[a] = classes(upml.integer[a]);
    half_class[a] = classes(upml.half[a]);
  }
  std::unordered_map<std::uint64_t, int> upml_rows;
  auto upml_row = [&](int base, int u, int i, int j, int k) {
    const std::size_t pos[3] = {static_cast<std::size_t>(i), static_cast<std::size_t>(j),
                                static_cast<std::size_t>(k)};
    const std::size_t v = static_cast<std::size_t>((u + 1) % 3), w = static_cast<std::size_t>((u + 2) % 3);
    const std::size_t su = static_cast<std::size_t>(u);
    // Classes: at most 2 x 1000 layers + 1 values (< 2^16); rows below 256.
    const std::uint64_t key = static_cast<std::uint64_t>(base) | static_cast<std::uint64_t>(u) << 8 |
                              int_class[v][pos[v]] << 10 | int_class[w][pos[w]] << 26 |
                              half_class[su][pos[su]] << 42;
    const auto found = upml_rows.find(key);
    if (found != upml_rows.end()) return found->second;
    DispersionRow r = out.rows[static_cast<std::size_t>(base)];
    r.upml = true;
    r.a_v = upml.integer[v].a[pos[v]];
    r.b_v = upml.integer[v].b[pos[v]];
    r.a_w = upml.integer[w].a[pos[w]];
    r.b_w = upml.integer[w].b[pos[w]];
    r.cp_u = upml.half[su].cp[pos[su]];
    r.cm_u = upml.half[su].cm[pos[su]];
    r.eps_inf = table.entry(r.id).eps_r;
    r.corr = 0;  // unused: the UPML step has its own coefficients
    r.inv = 1 / (r.eps_inf + r.c_sum());
    const int at = static_cast<int>(out.rows.size());
    out.rows.push_back(std::move(r));
    upml_rows.emplace(key, at);
    out.any_upml = true;
    return at;
  };
  for (int c = 0; c < 3; ++c) {
    const std::vector<std::uint8_t>& comp_ids = ids[static_cast<std::size_t>(c)];
    for (std::size_t at = 0; at < comp_ids.size(); ++at) {
      int row = row_of[comp_ids[at]];
      if (row < 0) continue;
      int i = 0, j = 0, k = 0;
      if (layout.plane) {  // i * nyp + j
        i = static_cast<int>(at / layout.nyp());
        j = static_cast<int>(at % layout.nyp());
      } else {  // (i * ny + j) * nzp + k
        k = static_cast<int>(at % layout.nzp());
        const std::size_t ij = at / layout.nzp();
        j = static_cast<int>(ij % static_cast<std::size_t>(layout.ny));
        i = static_cast<int>(ij / static_cast<std::size_t>(layout.ny));
      }
      if (upml.in_pml(i, j, k, n)) {
        const MaterialEntry& e = table.entry(comp_ids[at]);
        if (std::any_of(e.poles.begin(), e.poles.end(), [](const Pole& p) { return p.second_order(); })) {
          out.second_order_in_pml = std::array<int, 4>{c, i, j, k};
          return out;
        }
        row = upml_row(row, c, i, j, k);
      }
      out.comp.push_back(static_cast<std::uint8_t>(c));
      out.index.push_back(at);
      out.row.push_back(row);
    }
  }
  return out;
}

std::vector<DispersiveCount> dispersive_counts(const MaterialTable& table, const DispersiveSamples& d) {
  std::vector<std::size_t> per_id(table.size(), 0);
  for (int r : d.row) ++per_id[d.rows[static_cast<std::size_t>(r)].id];
  std::vector<DispersiveCount> out;
  DispersiveCount mixtures{"surface mixtures", true, 0, nullptr};
  for (const DispersionRow& r : d.rows) {
    if (r.upml) continue;  // counted with its material's first row
    const MaterialEntry& e = table.entry(r.id);
    if (!e.lumped.empty()) continue;  // the run reports its elements apart
    if (e.name.rfind("mixture", 0) == 0) {
      mixtures.samples += per_id[r.id];
    } else {
      // An anisotropic material's x entry carries the user's name alone: say which axis it is.
      const bool x_axis = e.anisotropic() && e.anisotropic_of == static_cast<int>(r.id);
      out.push_back({x_axis ? e.name + " (x)" : e.name, false, per_id[r.id], &e});
    }
  }
  if (mixtures.samples > 0) out.push_back(mixtures);
  return out;
}

std::size_t dispersion_device_bytes(const DispersiveSamples& d) {
  if (d.empty()) return 0;
  const std::size_t f = sizeof(float);
  return d.count() * (2 * sizeof(std::int32_t) + d.state_slots() * f) +
         d.rows.size() * 4 * static_cast<std::size_t>(dispersion_row_stride(d)) * f;
}

}  // namespace clfdtd
