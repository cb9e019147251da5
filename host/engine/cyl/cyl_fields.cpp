// The cylindrical solver's device buffers: counted, checked, allocated, zeroed and uploaded once.
#include "engine/cyl/cyl_fields.hpp"

#include "engine/cyl/cyl_monitors.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <utility>

#include "backends/device_tables.hpp"
#include "errors.hpp"
#include "model/cyl_pml.hpp"
#include "model/grid_geometry.hpp"

namespace clfdtd::engine {

namespace {

constexpr int kPsiPerCell = 8;                                // complex psi per cell and mode

std::size_t mode_count(const SimulationModel& m) { return m.grid.modes.size(); }

std::size_t merged_source_count(const SimulationModel& m) {
  std::map<std::pair<int, std::size_t>, int> keys;
  for (const auto& s : m.sources) {
    keys[{static_cast<int>(s.component), m.layout.index(s.cell[0], 0, s.cell[2])}] = 0;
  }
  return m.sources.empty() || m.sources.front().j.empty() ? 0 : keys.size();
}

int cyl_energy_groups(const SimulationModel& m) {
  return energy_group_count(mode_count(m) * m.layout.nx * m.layout.nz4);
}

// (inv_kappa, b, c, 0) per index.
// (inv_kappa, b, c, keep) per entry; keep = (1 - A) / (1 + A), A = alpha dt / (2 eps0): the
// factor the r slab's 1/r~ applies to the input it keeps (cl_kernels/cyl_cell.h).
std::vector<float> pml_table(const CylPmlAxis& a, double alpha_dt) {
  const double keep = (1 - 0.5 * alpha_dt) / (1 + 0.5 * alpha_dt);
  std::vector<float> t;
  for (std::size_t i = 0; i < a.b.size(); ++i) {
    for (double v : {a.inv_kappa[i], a.b[i], a.c[i], keep}) t.push_back(static_cast<float>(v));
  }
  return t;
}

// V / (dr dz) of the ring through each row's samples: integer r (pi dr / 4 on the axis, whose
// samples own the disc of radius dr/2), then half r.
std::vector<float> ring_weights(const SimulationModel& m) {
  const double dr = m.grid.d[0], pi = std::acos(-1.0);
  std::vector<float> w;
  for (int i = 0; i < m.layout.nx; ++i) {
    w.push_back(static_cast<float>(i == 0 ? pi * dr / 4 : 2 * pi * i * dr));
    w.push_back(static_cast<float>(2 * pi * (i + 0.5) * dr));
  }
  return w;
}

std::size_t r_slab_cells(const SimulationModel& m) {
  const CylPml p = build_cyl_pml(m.upml, m.grid.n);
  return static_cast<std::size_t>(p.layers_r) * static_cast<std::size_t>(m.layout.nz);
}

}  // namespace

std::vector<float> cyl_r_tilde_table(const SimulationModel& m) {
  const CylPml p = build_cyl_pml(m.upml, m.grid.n);
  const int nr = m.layout.nx;
  const double dr = m.grid.d[0];
  // kappa and s = sigma dt / eps0 at j dr/2 from the tables; the wall (j = 2 nr) takes the last
  // entry.
  auto kappa_s = [&](int j, double& kappa, double& sdt) {
    j = std::min(j, 2 * nr - 1);
    const CylPmlAxis& a = p.r[j % 2];
    const auto i = static_cast<std::size_t>(j / 2);
    kappa = a.kappa[i];
    sdt = a.sigma_dt[i];
  };
  std::vector<double> rk(2 * static_cast<std::size_t>(nr) + 1, 0.0), sh(rk.size(), 0.0);
  for (std::size_t j = 1; j < rk.size(); ++j) {
    double k0, s0, k1, s1;
    kappa_s(static_cast<int>(j) - 1, k0, s0);
    kappa_s(static_cast<int>(j), k1, s1);
    rk[j] = rk[j - 1] + 0.25 * dr * (k0 + k1);
    sh[j] = sh[j - 1] + 0.125 * dr * (s0 + s1);
  }
  const double ah = 0.5 * p.alpha_dt;  // the CFS alpha dt / (2 eps0)
  std::vector<float> t;
  for (int i = 0; i < nr; ++i) {
    for (std::size_t j : {2 * static_cast<std::size_t>(i), 2 * static_cast<std::size_t>(i) + 1}) {
      const double den = rk[j] * (1 + ah) + sh[j];
      t.push_back(static_cast<float>(den > 0 ? (rk[j] * (1 - ah) - sh[j]) / den : 0.0));
      t.push_back(static_cast<float>(den > 0 ? (1 + ah) / den : 0.0));
    }
  }
  return t;
}

std::size_t cyl_pml_cells(const SimulationModel& m) {
  const CylPml p = build_cyl_pml(m.upml, m.grid.n);
  const auto nr = static_cast<std::size_t>(m.layout.nx), nz = static_cast<std::size_t>(m.layout.nz);
  const auto rhi = static_cast<std::size_t>(p.layers_r);
  return rhi * nz + (nr - rhi) * static_cast<std::size_t>(p.layers_z_lo + p.layers_z_hi);
}

CylMergedSources cyl_merge_sources(const SimulationModel& m) {
  CylMergedSources out;
  const std::size_t nq = mode_count(m);
  std::map<std::pair<int, std::size_t>, std::vector<double>> sums;  // [(q * steps + s) * 2 + part]
  for (const auto& s : m.sources) {
    if (s.mode_factor.size() != nq) {
      throw DeviceError("source " + s.name + " has " + std::to_string(s.mode_factor.size()) +
                        " mode factors for " + std::to_string(nq) + " mode slots");
    }
    out.steps = static_cast<long>(s.j.size());
    auto& sum = sums[{static_cast<int>(s.component), m.layout.index(s.cell[0], 0, s.cell[2])}];
    sum.resize(nq * s.j.size() * 2, 0.0);
    for (std::size_t q = 0; q < nq; ++q) {
      for (std::size_t t = 0; t < s.j.size(); ++t) {
        const std::complex<double> v = s.j[t] * s.mode_factor[q];
        sum[(q * s.j.size() + t) * 2] += v.real();
        sum[(q * s.j.size() + t) * 2 + 1] += v.imag();
      }
    }
  }
  if (out.steps == 0) return out;
  for (const auto& [key, sum] : sums) {
    out.cells.push_back(key.first);
    out.cells.push_back(static_cast<std::int32_t>(key.second));
    for (double v : sum) out.j.push_back(static_cast<float>(v));
  }
  return out;
}

std::vector<BufferNeed> cyl_buffer_needs(const SimulationModel& m, int batch_steps) {
  const std::size_t nq = mode_count(m), cells = m.layout.cells(), f = sizeof(float);
  const std::size_t planes = 2 * nq * cells * f;
  const auto batch = static_cast<std::size_t>(std::max(batch_steps, 0));
  std::vector<BufferNeed> out;
  out.push_back({"placeholder", kPlaceholderBytes});
  for (int c = 0; c < 6; ++c) {
    out.push_back({cyl_component_name(static_cast<Component>(c)), planes});
  }
  for (int c = 0; c < 6; ++c) {
    if (c < 3 || m.magnetic) {
      out.push_back({std::string("material ids ") + cyl_component_name(static_cast<Component>(c)),
                     cells});
    }
  }
  out.push_back({"E coefficients", kTableBytes});
  if (m.magnetic) out.push_back({"H coefficients", kTableBytes});
  out.push_back({"mode orders", nq * sizeof(std::int32_t)});
  const std::size_t pml = cyl_pml_cells(m);
  if (pml > 0) {
    out.push_back({"CPML psi", pml * nq * kPsiPerCell * 2 * f});
    const auto nr = static_cast<std::size_t>(m.layout.nx), nz = static_cast<std::size_t>(m.layout.nz);
    out.push_back({"CPML tables", 2 * (nr + nz) * 4 * f});
    out.push_back({"CPML 1/r~ factors", nr * 4 * f});
    const std::size_t slab = r_slab_cells(m);
    if (slab > 0) out.push_back({"CPML 1/r~ state", slab * nq * 16 * f});
  }
  const std::size_t nsrc = merged_source_count(m);
  if (nsrc > 0) {
    out.push_back({"source cells", nsrc * 2 * sizeof(std::int32_t)});
    out.push_back({"source table", nsrc * nq * m.sources.front().j.size() * 2 * f});
  }
  const std::size_t ns = m.probes.samples.size();
  if (ns > 0) {
    out.push_back({"probe cells", ns * 2 * sizeof(std::int32_t)});
    out.push_back({"probe phases", ns * nq * 2 * f});
    out.push_back({"probe batch", ns * batch * f});
  }
  out.push_back({"finite flag", sizeof(std::int32_t)});
  if (m.energy) {
    for (int c = 3; c < 6; ++c) {
      out.push_back(
          {std::string("energy copy of ") + cyl_component_name(static_cast<Component>(c)), planes});
    }
    out.push_back({"energy eps_r", kWeightBytes});
    if (m.magnetic) out.push_back({"energy mu_r", kWeightBytes});
    out.push_back({"energy ring weights", 2 * static_cast<std::size_t>(m.layout.nx) * f});
    out.push_back(
        {"energy partial sums", batch * 3 * static_cast<std::size_t>(cyl_energy_groups(m)) * f});
  }
  for (BufferNeed& b : cyl_monitor_buffer_needs(m, batch_steps)) out.push_back(std::move(b));
  return out;
}

std::size_t cyl_device_bytes(const SimulationModel& m, int batch_steps) {
  return total_bytes(cyl_buffer_needs(m, batch_steps));
}

CylFields::CylFields(device::Device& dev, const SimulationModel& m, int batch_steps) {
  modes = static_cast<int>(mode_count(m));
  cells = m.layout.cells();
  const CylMergedSources src = cyl_merge_sources(m);  // checks the mode factors first
  const std::vector<BufferNeed> needs = cyl_buffer_needs(m, batch_steps);
  check_engine_memory(dev, m, needs, total_bytes(needs), "cylindrical", src.j.size() * sizeof(float));
  // The kernels index every plane set with 32-bit ints.
  if (2 * static_cast<std::size_t>(modes) * cells >
      static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
    throw DeviceError("the cylindrical fields of " + std::to_string(modes) + " modes x " +
                      std::to_string(cells) + " cells exceed 2^31 values per component");
  }
  BufferAllocator alloc(dev);
  const std::size_t planes = 2 * static_cast<std::size_t>(modes) * cells * sizeof(float);

  placeholder = alloc.zeros(kPlaceholderBytes);
  for (int c = 0; c < 6; ++c) field[c] = alloc.zeros(planes);
  MaterialBuffers mat = upload_materials(alloc, m, placeholder);
  ids = mat.ids;
  ecoef = mat.ecoef;
  hcoef = mat.hcoef;
  db_vacuum = mat.db_vacuum;
  const std::vector<std::int32_t> orders(m.grid.modes.begin(), m.grid.modes.end());
  mode_m = alloc.upload(orders);

  pml_cells = cyl_pml_cells(m);
  psi = r_tilde = r_over = placeholder;
  for (auto& t : pml_tables) t = placeholder;
  if (pml_cells > 0) {
    psi = alloc.zeros(pml_cells * modes * kPsiPerCell * 2 * sizeof(float));
    const std::vector<float> ro = cyl_r_tilde_table(m);
    r_over = alloc.upload(ro);
    const std::size_t slab = r_slab_cells(m);
    if (slab > 0) r_tilde = alloc.zeros(slab * modes * 16 * sizeof(float));
    const CylPml p = build_cyl_pml(m.upml, m.grid.n);
    const std::vector<float> t[4] = {pml_table(p.r[0], p.alpha_dt), pml_table(p.r[1], p.alpha_dt),
                                     pml_table(p.z[0], p.alpha_dt), pml_table(p.z[1], p.alpha_dt)};
    for (int a = 0; a < 4; ++a) pml_tables[a] = alloc.upload(t[a]);
  }

  const SourceBuffers sources =
      upload_sources(alloc, src.cells, src.j, placeholder, "steps, sources or modes");
  src_cells = sources.cells;
  src_j = sources.j;
  nsrc = sources.count;
  src_steps = src.steps;

  nsamples = static_cast<int>(m.probes.samples.size());
  probe_cells = probe_phase = probe_batch = placeholder;
  if (nsamples > 0) {
    std::vector<float> phase;
    for (const auto& s : m.probes.samples) {
      for (int order : m.grid.modes) {
        phase.push_back(static_cast<float>(std::cos(order * s.phi_rad)));
        phase.push_back(static_cast<float>(std::sin(order * s.phi_rad)));
      }
    }
    probe_cells = alloc.upload(probe_cell_table(m));
    probe_phase = alloc.upload(phase);
    probe_batch = alloc.zeros(static_cast<std::size_t>(nsamples) * batch_steps * sizeof(float));
  }
  flag = alloc.zeros(sizeof(std::int32_t));

  for (auto& h : h_prev) h = placeholder;
  energy_eps = energy_mu = energy_rweight = energy_partial = placeholder;
  if (m.energy) {
    energy_groups = cyl_energy_groups(m);
    for (auto& h : h_prev) h = alloc.zeros(planes);  // no earlier H: 0
    const std::vector<float> eps = energy_weights(m, true), mu = energy_weights(m, false);
    energy_eps = alloc.upload(eps);
    energy_mu = m.magnetic ? alloc.upload(mu) : placeholder;
    const std::vector<float> w = ring_weights(m);
    energy_rweight = alloc.upload(w);
    energy_partial =
        alloc.zeros(static_cast<std::size_t>(batch_steps) * 3 * energy_groups * sizeof(float));
  }
  allocated = alloc.allocated();
}

}  // namespace clfdtd::engine
