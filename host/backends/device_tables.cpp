// The GPU engine's upload tables: see device_tables.hpp.
#include "backends/device_tables.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <map>
#include <utility>

#include "engine/monitor_buffers.hpp"
#include "model/grid_geometry.hpp"

namespace clfdtd {

std::array<std::int32_t, 2> cell_entry(int component, std::size_t index) {
  const std::size_t lane = index / 4;
  if (lane > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
    throw DeviceError("cell index " + std::to_string(index) +
                      " exceeds the kernels' 2^31 float4 lanes per component");
  return {static_cast<std::int32_t>(component + 8 * static_cast<int>(index % 4)),
          static_cast<std::int32_t>(lane)};
}

void push_cell_entry(std::vector<std::int32_t>& table, int component, std::size_t index) {
  const auto e = cell_entry(component, index);
  table.push_back(e[0]);
  table.push_back(e[1]);
}

SourceGroups source_groups(const SimulationModel& m, const SourceCellFilter& keep) {
  SourceGroups groups;
  for (std::size_t n = 0; n < m.sources.size(); ++n) {
    const SourceModel& s = m.sources[n];
    if (keep && !keep(s.cell)) continue;
    groups[{static_cast<int>(s.component), m.layout.index(s.cell[0], s.cell[1], s.cell[2])}].push_back(n);
  }
  return groups;
}

MergedSources merge_sources(const SimulationModel& m, const SourceCellFilter& keep) {
  MergedSources out;
  // Their J is summed straight into the float table, so a long run holds no second per-step copy
  // (model_host_bytes).
  if (!m.sources.empty()) out.steps = static_cast<long>(m.sources.back().j.size());
  const SourceGroups groups = source_groups(m, keep);
  if (out.steps == 0) return out;
  const std::size_t steps = static_cast<std::size_t>(out.steps);
  out.j.reserve(groups.size() * steps);
  for (const auto& [key, members] : groups) {
    push_cell_entry(out.cells, key.first, key.second);
    for (std::size_t t = 0; t < steps; ++t) {
      double sum = 0;
      for (std::size_t n : members) sum += m.sources[n].j[t];
      out.j.push_back(static_cast<float>(sum));
    }
  }
  return out;
}

std::vector<float> profile_table(const AxisProfile& p) {
  std::vector<float> t;
  for (std::size_t i = 0; i < p.a.size(); ++i) {
    for (double v : {p.a[i], p.b[i], p.cp[i], p.cm[i]}) t.push_back(static_cast<float>(v));
  }
  return t;
}

std::vector<std::int32_t> pml_box_table(const UpmlProfile& u) {
  std::vector<std::int32_t> t;
  for (const auto& b : u.boxes)
    for (int v : {b.i0, b.i1, b.j0, b.j1, b.k0, b.k1, static_cast<int>(b.offset), 0}) t.push_back(v);
  return t;
}

std::vector<float> z_profile_split(const UpmlProfile& u) {
  std::vector<float> t;
  for (const AxisProfile* p : {&u.integer[2], &u.half[2]})
    for (const auto* v : {&p->a, &p->b, &p->cp, &p->cm})
      for (double x : *v) t.push_back(static_cast<float>(x));
  return t;
}

ZSlabLayout zslab_layout(const SimulationModel& m, KernelVariant v) {
  ZSlabLayout z;
  const auto& L = m.layout;
  const auto& lay = m.upml.layers;
  z.zq_hi = L.nz4;
  if (!m.upml.enabled() || (lay[4] == 0 && lay[5] == 0)) return z;
  z.nxi = std::max(0, L.nx - lay[0] - lay[1]);
  z.nyi = std::max(0, L.ny - lay[2] - lay[3]);
  z.zq_lo = (lay[4] + 3) / 4;
  z.zq_hi = lay[5] > 0 ? (L.nz - lay[5]) / 4 : L.nz4;
  if (v == KernelVariant::Tile || v == KernelVariant::OnePass) {  // whole 32-byte sectors (header)
    if (lay[4] > 0) z.zq_lo = std::min(L.nz4, z.zq_lo + z.zq_lo % 2);
    if (lay[5] > 0) z.zq_hi -= z.zq_hi % 2;
  }
  z.znq = z.zq_lo + L.nz4 - std::max(z.zq_hi, z.zq_lo);
  return z;
}

std::size_t upml_aux_floats(const SimulationModel& m, KernelVariant v) {
  if (v != KernelVariant::Tile && v != KernelVariant::OnePass) return m.upml.cells;
  return std::max<std::size_t>(xy_pml_rows(m) * m.layout.nz4 * 4, 1);
}

std::size_t slab_aux_bytes(const SimulationModel& m, KernelVariant v) {
  if (!m.upml.enabled()) return 0;
  const std::size_t f = sizeof(float);
  return 6 * f * upml_aux_floats(m, v) + 2 * 4 * f * zslab_layout(m, v).float4s();
}

std::size_t variant_device_bytes(const SimulationModel& m, KernelVariant v, int probe_batch_steps) {
  const bool one_pass = v == KernelVariant::OnePass;
  std::size_t bytes = m.device_bytes(probe_batch_steps, one_pass) +
                      engine::monitor_device_bytes(m, probe_batch_steps);
  if (!m.upml.enabled() || (v != KernelVariant::Tile && !one_pass)) return bytes;
  const std::size_t f = sizeof(float);
  bytes -= 6 * f * m.upml.cells;  // the model's count: 6 floats per PML cell
  bytes += slab_aux_bytes(m, v);
  bytes += 8 * 4 * f * static_cast<std::size_t>(m.layout.nz4);  // zslab_lane_table
  return bytes;
}

std::size_t xy_pml_rows(const SimulationModel& m) {
  if (!m.upml.enabled()) return 0;
  const auto& L = m.layout;
  const auto& lay = m.upml.layers;
  const std::size_t inner = static_cast<std::size_t>(std::max(0, L.nx - lay[0] - lay[1]));
  return static_cast<std::size_t>(lay[0] + lay[1]) * L.ny + inner * (lay[2] + lay[3]);
}

std::array<int, 2> tile_rows(const SimulationModel& m) {
  const auto& L = m.layout;
  const auto& lay = m.upml.layers;
  return {std::max(1, L.nx - lay[0] - lay[1]), std::max(1, L.ny - lay[2] - lay[3])};
}

namespace {

// The three components from `first` (Ex or Hx) at the four lanes of each float4.
std::vector<std::uint8_t> id_float4_table(const SimulationModel& m, Component first) {
  const auto& x = m.id(first);
  const auto& y = m.id(static_cast<Component>(static_cast<int>(first) + 1));
  const auto& z = m.id(static_cast<Component>(static_cast<int>(first) + 2));
  std::vector<std::uint8_t> t(x.size() / 4);
  for (std::size_t q = 0; q < t.size(); ++q) {
    const std::uint8_t v = x[4 * q];
    bool same = true;
    for (std::size_t c = 4 * q; c < 4 * q + 4; ++c) same = same && x[c] == v && y[c] == v && z[c] == v;
    t[q] = same ? v : kIdsMixed;
  }
  return t;
}

}  // namespace

std::vector<std::uint8_t> e_id_float4_table(const SimulationModel& m) {
  return id_float4_table(m, Component::Ex);
}

std::vector<std::uint8_t> h_id_float4_table(const SimulationModel& m) {
  return id_float4_table(m, Component::Hx);
}

std::vector<float> zslab_lane_table(const SimulationModel& m) {
  const auto& L = m.layout;
  const AxisProfile& in = m.upml.integer[2];
  const AxisProfile& half = m.upml.half[2];
  std::vector<float> t(static_cast<std::size_t>(L.nz4) * 32);
  for (int kq = 0; kq < L.nz4; ++kq) {
    for (int lane = 0; lane < 4; ++lane) {
      const int k = 4 * kq + lane;
      const bool real = k < L.nz;
      const auto at = [&](const std::vector<double>& v, double neutral) {
        return static_cast<float>(real ? v[static_cast<std::size_t>(k)] : neutral);
      };
      const float vals[8] = {at(half.a, 1), at(half.b, 1), at(in.cp, 2),   at(in.cm, 2),
                             at(in.a, 1),   at(in.b, 1),   at(half.cp, 2), at(half.cm, 2)};
      for (int f = 0; f < 8; ++f) t[(static_cast<std::size_t>(kq) * 8 + f) * 4 + lane] = vals[f];
    }
  }
  return t;
}

std::vector<float> energy_weights(const SimulationModel& m, bool electric) {
  std::vector<float> w(256, electric ? 0.0f : 1.0f);
  for (std::size_t id = 0; id < m.materials.size(); ++id) {
    const auto u = static_cast<std::uint8_t>(id);
    const MaterialEntry& e = m.materials.entry(u);
    w[id] = electric ? (e.pec ? 0.0f : static_cast<float>(e.eps_r))
                     : static_cast<float>(1.0 / m.materials.h_coefficients(u, m.grid.dt).inv_mu_r);
  }
  return w;
}

std::vector<EnergyTerms> energy_terms_from_partials(const std::vector<float>& partial, int slots,
                                                    std::size_t groups,
                                                    const SimulationModel& m) {
  const double dv = m.grid.d[0] * m.grid.d[1] * m.grid.d[2];
  const double we = 0.5 * kEps0 * dv, wm = 0.5 * kMu0 * dv;
  std::vector<EnergyTerms> out;
  for (std::size_t s = 0; s < static_cast<std::size_t>(slots); ++s) {
    double sum[3] = {0, 0, 0};
    for (std::size_t t = 0; t < 3; ++t) {
      for (std::size_t k = 0; k < groups; ++k) sum[t] += partial[(s * 3 + t) * groups + k];
    }
    out.push_back(EnergyTerms{we * sum[0], wm * sum[1], wm * sum[2]});
  }
  return out;
}

}  // namespace clfdtd
