// The reference engine (see reference_backend.hpp): docs/EQUATIONS.md, section by section, in
// double precision. Selected with --backend=reference; also the oracle of the backend tests.
#include "backends/reference/reference_backend.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "model/grid_geometry.hpp"
#include "model/host_memory.hpp"

namespace clfdtd {

namespace {
constexpr int kEx = 0, kEy = 1, kEz = 2, kHx = 3, kHy = 4, kHz = 5;
}  // namespace

ReferenceBackend::ReferenceBackend(const SimulationModel& m)
    : m_(m),
      nx_(m.layout.nx),
      ny_(m.layout.ny),
      nz_(m.layout.nz),
      nzp_(static_cast<int>(m.layout.nzp())),
      dt_(m.grid.dt),
      inv_dx_(1.0 / m.grid.d[0]),
      inv_dy_(1.0 / m.grid.d[1]),
      inv_dz_(1.0 / m.grid.d[2]),
      n_(m.grid.n),
      batches_(kProbeBatchSteps, m.probes.samples.size()) {
  if (m.cylindrical())  // its (r, z) fields are no x-y-z grid: never run as one
    throw DeviceError(
        "the 3D reference engine was given a cylindrical model (the cylindrical reference runs it)");
  // The imaginary part takes no plane waves, dispersive samples or monitors
  // (config/bloch_checks.hpp refuses them with the key).
  if (m.grid.bloch() && (!m.plane_waves.empty() || !m.dispersion.empty() || !m.monitors.empty() || m.grid.any_pmc()))
    throw std::logic_error("ReferenceBackend: a Bloch model with plane waves, dispersive samples, monitors or magnetic walls");
  bloch_ = m.grid.bloch();
  const int parts = bloch_ ? 2 : 1;
  check_host_memory(parts * 6 * sizeof(double) * (m.layout.cells() + m.upml.cells),
                    "the reference engine's double fields");
  for (auto* set : {&f_, &f_im_}) {
    for (auto& f : *set) f.assign(set == &f_ || parts == 2 ? m.layout.cells() : 0, 0.0);
  }
  for (auto* set : {&aux_d_, &aux_b_, &aux_d_im_, &aux_b_im_}) {
    const bool im = set == &aux_d_im_ || set == &aux_b_im_;
    for (auto& a : *set) a.assign(!im || parts == 2 ? m.upml.cells : 0, 0.0);
  }
  check_host_memory(sizeof(double) * m.dispersion.count() * m.dispersion.state_slots(),
                    "the reference engine's dispersive state");
  disp_.assign(m.dispersion.count() * m.dispersion.state_slots(), 0.0);
  // Coefficients once per material id (Plain update section).
  for (std::size_t id = 0; id < m.materials.size(); ++id) {
    ec_.push_back(m.materials.e_coefficients(static_cast<std::uint8_t>(id), dt_));
    hc_.push_back(m.materials.h_coefficients(static_cast<std::uint8_t>(id), dt_));
  }
  // No H ids (no magnetic material): every H sample uses the vacuum coefficients.
  h_vacuum_ = m.materials.h_coefficients(MaterialTable::kVacuum, dt_);
  std::size_t monitor_bytes = 0;
  for (const MonitorModel& mon : m.monitors) {
    const bool dft = mon.kind != MonitorKind::Modes;
    const std::size_t n = dft ? mon.points() * mon.frequencies_hz.size()
                              : static_cast<std::size_t>(kProbeBatchSteps) * mon.nmodes;
    monitor_bytes += n * (dft ? sizeof(std::complex<double>) : sizeof(double));
  }
  check_host_memory(monitor_bytes, "the reference engine's monitor sums");
  for (const MonitorModel& mon : m.monitors) {
    const bool dft = mon.kind != MonitorKind::Modes;
    const std::size_t mode_values = static_cast<std::size_t>(mon.nmodes) * 3 * m.layout.cells();
    if (!dft && mon.modes.size() != mode_values) {
      throw DeviceError("monitor " + mon.name + ": mode data holds " +
                        std::to_string(mon.modes.size()) + " values, expected " +
                        std::to_string(mode_values) + " (modes x 3 x padded cells)");
    }
    for (const DftRegion& r : mon.regions) {
      for (int a = 0; a < 3; ++a) {
        if (r.count() > 0 && (r.lo[a] < 0 || r.hi[a] > n_[a])) {
          throw DeviceError("monitor " + mon.name + ": a " + component_name(r.component) +
                            " region covers cells " + std::to_string(r.lo[a]) + ".." +
                            std::to_string(r.hi[a] - 1) + " along axis " + "xyz"[a] +
                            ", outside the grid's 0.." + std::to_string(n_[a] - 1));
        }
      }
    }
    dft_.emplace_back(dft ? mon.points() * mon.frequencies_hz.size() : 0);
    mode_batch_.emplace_back(dft ? 0 : static_cast<std::size_t>(kProbeBatchSteps) * mon.nmodes);
  }
}

double ReferenceBackend::at_turned(const std::vector<double>& f, int i, int j, int k) const {
  double turn = 0;
  int* x[3] = {&i, &j, &k};
  const int n[3] = {nx_, ny_, nz_};
  for (std::size_t a = 0; a < 3; ++a) {
    if (!m_.grid.periodic[a] || (*x[a] >= 0 && *x[a] < n[a])) continue;
    turn += *x[a] < 0 ? -m_.grid.bloch_phase[a] : m_.grid.bloch_phase[a];
    *x[a] = *x[a] < 0 ? n[a] - 1 : 0;
  }
  if (static_cast<unsigned>(i) >= static_cast<unsigned>(nx_) || static_cast<unsigned>(j) >= static_cast<unsigned>(ny_) ||
      static_cast<unsigned>(k) >= static_cast<unsigned>(nzp_))
    return 0.0;  // past a wall of another axis, as at()
  const std::size_t q = (static_cast<std::size_t>(i) * ny_ + j) * nzp_ + k;
  const std::size_t c = static_cast<std::size_t>(&f - f_.data());
  return std::cos(turn) * f[q] + other_sign_ * std::sin(turn) * (*other_)[c][q];
}

// ---- Plain update brackets C --------------------------------------------------------------------
// H:  Hx -= db * ((Ez[i,j+1,k] - Ez[i,j,k])/dy - (Ey[i,j,k+1] - Ey[i,j,k])/dz)
//     Hy -= db * ((Ex[i,j,k+1] - Ex[i,j,k])/dz - (Ez[i+1,j,k] - Ez[i,j,k])/dx)
//     Hz -= db * ((Ey[i+1,j,k] - Ey[i,j,k])/dx - (Ex[i,j+1,k] - Ex[i,j,k])/dy)
inline double ReferenceBackend::curl_e(int u, int i, int j, int k) const {
  const auto& ex = f_[kEx];
  const auto& ey = f_[kEy];
  const auto& ez = f_[kEz];
  switch (u) {
    case 0:
      return (at(ez, i, j + 1, k) - at(ez, i, j, k)) * inv_dy_ -
             (at(ey, i, j, k + 1) - at(ey, i, j, k)) * inv_dz_;
    case 1:
      return (at(ex, i, j, k + 1) - at(ex, i, j, k)) * inv_dz_ -
             (at(ez, i + 1, j, k) - at(ez, i, j, k)) * inv_dx_;
    default:
      return (at(ey, i + 1, j, k) - at(ey, i, j, k)) * inv_dx_ -
             (at(ex, i, j + 1, k) - at(ex, i, j, k)) * inv_dy_;
  }
}

// E:  Ex = ca*Ex + cb * ((Hz[i,j,k] - Hz[i,j-1,k])/dy - (Hy[i,j,k] - Hy[i,j,k-1])/dz)
//     Ey = ca*Ey + cb * ((Hx[i,j,k] - Hx[i,j,k-1])/dz - (Hz[i,j,k] - Hz[i-1,j,k])/dx)
//     Ez = ca*Ez + cb * ((Hy[i,j,k] - Hy[i-1,j,k])/dx - (Hx[i,j,k] - Hx[i,j-1,k])/dy)
inline double ReferenceBackend::curl_h(int u, int i, int j, int k) const {
  const auto& hx = f_[kHx];
  const auto& hy = f_[kHy];
  const auto& hz = f_[kHz];
  switch (u) {
    case 0:
      return (at(hz, i, j, k) - at(hz, i, j - 1, k)) * inv_dy_ -
             (at(hy, i, j, k) - at(hy, i, j, k - 1)) * inv_dz_;
    case 1:
      return (at(hx, i, j, k) - at(hx, i, j, k - 1)) * inv_dz_ -
             (at(hz, i, j, k) - at(hz, i - 1, j, k)) * inv_dx_;
    default:
      return (at(hy, i, j, k) - at(hy, i - 1, j, k)) * inv_dx_ -
             (at(hx, i, j, k) - at(hx, i, j - 1, k)) * inv_dy_;
  }
}

// ---- Plain update: every cell (padding included) that is not a PML cell -------------------------
void ReferenceBackend::update_h_plain() {
  for (int i = 0; i < nx_; ++i) {
    for (int j = 0; j < ny_; ++j) {
      for (int k = 0; k < nzp_; ++k) {
        if (m_.upml.in_pml(i, j, k, n_)) continue;
        const std::size_t c = m_.layout.index(i, j, k);
        for (int u = 0; u < 3; ++u) {
          const HCoefficients& h = m_.magnetic ? hc_[m_.ids[3 + u][c]] : h_vacuum_;
          f_[3 + u][c] -= h.db * curl_e(u, i, j, k);
        }
      }
    }
  }
}

void ReferenceBackend::update_e_plain() {
  for (int i = 0; i < nx_; ++i) {
    for (int j = 0; j < ny_; ++j) {
      for (int k = 0; k < nzp_; ++k) {
        if (m_.upml.in_pml(i, j, k, n_)) continue;
        const std::size_t c = m_.layout.index(i, j, k);
        for (int u = 0; u < 3; ++u) {
          const ECoefficients& e = ec_[m_.ids[u][c]];
          f_[u][c] = e.ca * f_[u][c] + e.cb * curl_h(u, i, j, k);
        }
      }
    }
  }
}

// ---- UPML update: the cells of the PML boxes ----------------------------------------------------
// Component along u with the cyclic next axes v = u+1, w = u+2 (x -> y -> z -> x). E_u sits at a
// half position along u and integer along v, w:
//   D' = a_v D + b_v (dt/eps0) C;   E_u = a_w E_u + inv_eps_r (cp_u D' - cm_u D) b_w / 2;   D = D'
// H_u sits at an integer position along u and half along v, w:
//   B' = a_v B - b_v (dt/mu0) C;    H_u = a_w H_u + inv_mu_r (cp_u B' - cm_u B) b_w / 2;    B = B'
void ReferenceBackend::update_h_upml() {
  const UpmlProfile& p = m_.upml;
  const double dt_mu0 = dt_ / kMu0;
  for (const PmlBox& box : p.boxes) {
    for (int i = box.i0; i < box.i1; ++i) {
      for (int j = box.j0; j < box.j1; ++j) {
        for (int k = box.k0; k < box.k1; ++k) {
          const std::size_t q = box.offset +
                                (static_cast<std::size_t>(i - box.i0) * (box.j1 - box.j0) +
                                 (j - box.j0)) * (box.k1 - box.k0) + (k - box.k0);
          const std::size_t c = m_.layout.index(i, j, k);
          const int pos[3] = {i, j, k};
          for (int u = 0; u < 3; ++u) {
            const int v = (u + 1) % 3, w = (u + 2) % 3;
            const AxisProfile& pu = p.integer[u];
            const AxisProfile& pv = p.half[v];
            const AxisProfile& pw = p.half[w];
            const double inv_mu_r =
                m_.magnetic ? hc_[m_.ids[3 + u][c]].inv_mu_r : h_vacuum_.inv_mu_r;
            double& b = aux_b_[u][q];
            double& h = f_[3 + u][c];
            const double b_new = pv.a[pos[v]] * b - pv.b[pos[v]] * dt_mu0 * curl_e(u, i, j, k);
            h = pw.a[pos[w]] * h +
                inv_mu_r * (pu.cp[pos[u]] * b_new - pu.cm[pos[u]] * b) * pw.b[pos[w]] / 2;
            b = b_new;
          }
        }
      }
    }
  }
}

void ReferenceBackend::update_e_upml() {
  const UpmlProfile& p = m_.upml;
  const double dt_eps0 = dt_ / kEps0;
  for (const PmlBox& box : p.boxes) {
    for (int i = box.i0; i < box.i1; ++i) {
      for (int j = box.j0; j < box.j1; ++j) {
        for (int k = box.k0; k < box.k1; ++k) {
          const std::size_t q = box.offset +
                                (static_cast<std::size_t>(i - box.i0) * (box.j1 - box.j0) +
                                 (j - box.j0)) * (box.k1 - box.k0) + (k - box.k0);
          const std::size_t c = m_.layout.index(i, j, k);
          const int pos[3] = {i, j, k};
          for (int u = 0; u < 3; ++u) {
            const int v = (u + 1) % 3, w = (u + 2) % 3;
            const AxisProfile& pu = p.half[u];
            const AxisProfile& pv = p.integer[v];
            const AxisProfile& pw = p.integer[w];
            // Material conductivity is ignored in PML cells; PEC has inv_eps_r = 0.
            const double inv_eps_r = ec_[m_.ids[u][c]].inv_eps_r;
            double& d = aux_d_[u][q];
            double& e = f_[u][c];
            const double d_new = pv.a[pos[v]] * d + pv.b[pos[v]] * dt_eps0 * curl_h(u, i, j, k);
            e = pw.a[pos[w]] * e +
                inv_eps_r * (pu.cp[pos[u]] * d_new - pu.cm[pos[u]] * d) * pw.b[pos[w]] / 2;
            d = d_new;
          }
        }
      }
    }
  }
}

// ---- Sources: E_c[cell] -= cb[id] * J[s], J at (s + 1/2) dt -------------------------------------
void ReferenceBackend::apply_sources(long s) {
  for (const SourceModel& src : m_.sources) {
    if (s < 0 || s >= static_cast<long>(src.j.size())) continue;  // past the table: source off
    const int comp = static_cast<int>(src.component);
    const std::size_t c = m_.layout.index(src.cell[0], src.cell[1], src.cell[2]);
    f_[comp][c] -= ec_[m_.ids[comp][c]].cb * src.j[static_cast<std::size_t>(s)];
  }
}

// ---- Plane waves: the TFSF corrections, each right after the update it corrects ----------------
// (model/plane_wave.hpp): after H, H += w E_inc(s dt); after E, E += w H_inc((s + 1/2) dt).
void ReferenceBackend::apply_plane_waves(long s, bool magnetic_half) {
  add_plane_wave_terms(m_.plane_waves, s, magnetic_half, f_, [&](const std::array<int, 3>& c) {
    return m_.layout.index(c[0], c[1], c[2]);
  });
}

// ---- Dispersive materials: the semi-implicit step after every other E term (model/dispersion.hpp)
void ReferenceBackend::apply_dispersion() { step_dispersive_samples(m_.dispersion, f_, disp_); }

template <class F>
void ReferenceBackend::for_each_part(F&& update) {
  update();
  if (!m_.grid.bloch()) return;
  auto swap_parts = [&] {
    std::swap(f_, f_im_);
    std::swap(aux_d_, aux_d_im_);
    std::swap(aux_b_, aux_b_im_);
    other_sign_ = -other_sign_;
  };
  swap_parts();
  update();
  swap_parts();
}

// One step s -> s+1: H to (s+1/2) dt, E to (s+1) dt, then the sources (Time section), and last
// the dispersive samples, which need E with every other term in it. A Bloch model's imaginary
// part takes the same updates (the sources drive the real part only; it has no plane waves or
// dispersive samples: config/bloch_checks.hpp).
void ReferenceBackend::step(long s) {
  for_each_part([&] {
    update_h_plain();
    update_h_upml();
  });
  apply_plane_waves(s, true);
  for_each_part([&] {
    update_e_plain();
    update_e_upml();
  });
  apply_plane_waves(s, false);
  apply_sources(s);
  apply_dispersion();
}

void ReferenceBackend::sample_probes(int slot) {
  const auto& samples = m_.probes.samples;
  double* out = batches_.probe_slot(slot);
  for (std::size_t p = 0; p < samples.size(); ++p) {
    const ProbeSample& smp = samples[p];
    const std::size_t c = m_.layout.index(smp.cell[0], smp.cell[1], smp.cell[2]);
    out[p] = f_[static_cast<int>(smp.component)][c];
  }
}

void ReferenceBackend::read_probe_batch(int slots, std::vector<double>& out) {
  batches_.read_probes(slots, out);
}

void ReferenceBackend::read_field(Component c, std::vector<float>& out) {
  const auto& f = f_[static_cast<int>(c)];
  out.resize(static_cast<std::size_t>(nx_) * ny_ * nz_);
  for (int i = 0; i < nx_; ++i) {
    for (int j = 0; j < ny_; ++j) {
      for (int k = 0; k < nz_; ++k) {
        out[(static_cast<std::size_t>(i) * ny_ + j) * nz_ + k] =
            static_cast<float>(f[m_.layout.index(i, j, k)]);
      }
    }
  }
}

// ---- Energy (EQUATIONS.md, Energy): sums over every sample, PEC E (always zero) weighted 0 ------
void ReferenceBackend::sample_energy(int slot) {
  const std::size_t cells = m_.layout.cells();
  if (batches_.begin_energy(slot)) {
    for (std::size_t c = 0; c < h_prev_.size(); ++c)  // no earlier H: the first magnetic term is 0
      h_prev_[c].assign(c < 3 || m_.grid.bloch() ? cells : 0, 0.0);
  }
  double we = 0, wm = 0, wn = 0;  // sum eps_r E.E, sum mu_r H.H_prev, sum mu_r H.H
  // A Bloch model's energy is that of the complex field: both parts' sums, H_prev per part.
  const bool bloch = m_.grid.bloch();
  for (std::size_t c = 0; c < cells; ++c) {
    for (int u = 0; u < 3; ++u) {
      const MaterialEntry& e = m_.materials.entry(m_.ids[u][c]);
      const double eps_r = e.pec ? 0.0 : e.eps_r;
      const double mu_r = 1.0 / (m_.magnetic ? hc_[m_.ids[3 + u][c]] : h_vacuum_).inv_mu_r;
      for (int part = 0; part < (bloch ? 2 : 1); ++part) {
        const auto& f = part == 0 ? f_ : f_im_;
        double& prev = h_prev_[static_cast<std::size_t>(3 * part + u)][c];
        const double ev = f[static_cast<std::size_t>(u)][c], hv = f[static_cast<std::size_t>(3 + u)][c];
        we += eps_r * ev * ev;
        wm += mu_r * hv * prev;
        wn += mu_r * hv * hv;
        prev = hv;
      }
    }
  }
  const double dv = m_.grid.d[0] * m_.grid.d[1] * m_.grid.d[2];
  batches_.store_energy(
      slot, EnergyTerms{0.5 * kEps0 * dv * we, 0.5 * kMu0 * dv * wm, 0.5 * kMu0 * dv * wn});
}

void ReferenceBackend::read_energy_batch(int slots, std::vector<EnergyTerms>& out) {
  batches_.read_energy(slots, out);
}

bool ReferenceBackend::fields_finite() {
  for (const auto* set : {&f_, &f_im_})
    for (const auto& f : *set)
      for (double v : f)
        if (!std::isfinite(v)) return false;
  return true;
}

}  // namespace clfdtd

namespace clfdtd {

// ---- Monitors (model/monitors.hpp) --------------------------------------------------------------
void ReferenceBackend::accumulate_dft(long step) {
  const double two_pi = 2 * std::acos(-1.0);
  std::vector<std::complex<double>> w;  // e^(-i 2 pi f t) dt of the current region's component
  for (std::size_t mi = 0; mi < m_.monitors.size(); ++mi) {
    const MonitorModel& mon = m_.monitors[mi];
    if (mon.kind == MonitorKind::Modes) continue;
    const long every = std::max(1, mon.dft_every);
    if (step % every != 0) continue;
    const double weight = static_cast<double>(every) * dt_;
    const std::size_t nf = mon.frequencies_hz.size();
    std::size_t point = 0;
    for (const DftRegion& r : mon.regions) {
      const double t = dft_time(r.component, step, dt_);
      w.resize(nf);
      for (std::size_t f = 0; f < nf; ++f) {
        w[f] = std::polar(weight, -two_pi * mon.frequencies_hz[f] * t);
      }
      const auto& field = f_[static_cast<int>(r.component)];
      for (int i = r.lo[0]; i < r.hi[0]; ++i) {
        for (int j = r.lo[1]; j < r.hi[1]; ++j) {
          for (int k = r.lo[2]; k < r.hi[2]; ++k, ++point) {
            const double x = field[m_.layout.index(i, j, k)];
            for (std::size_t f = 0; f < nf; ++f) dft_[mi][point * nf + f] += x * w[f];
          }
        }
      }
    }
  }
}

void ReferenceBackend::read_dft(int monitor, std::vector<std::complex<double>>& out) {
  if (monitor < 0 || monitor >= static_cast<int>(m_.monitors.size()) ||
      m_.monitors[static_cast<std::size_t>(monitor)].kind == MonitorKind::Modes) {
    throw DeviceError("read_dft: monitor " + std::to_string(monitor) +
                      " is not a flux, dft or farfield monitor of the model");
  }
  out = dft_[static_cast<std::size_t>(monitor)];
}

void ReferenceBackend::sample_modes(int monitor, int slot) {
  if (monitor < 0 || monitor >= static_cast<int>(m_.monitors.size()) ||
      m_.monitors[static_cast<std::size_t>(monitor)].kind != MonitorKind::Modes) {
    throw DeviceError("sample_modes: monitor " + std::to_string(monitor) +
                      " is not a modes monitor of the model");
  }
  if (slot < 0 || slot >= kProbeBatchSteps) {
    throw DeviceError("mode batch slot " + std::to_string(slot) + " outside 0.." +
                      std::to_string(kProbeBatchSteps - 1));
  }
  const MonitorModel& mon = m_.monitors[static_cast<std::size_t>(monitor)];
  const std::size_t cells = m_.layout.cells();
  const double dv = m_.grid.d[0] * m_.grid.d[1] * m_.grid.d[2];
  for (int k = 0; k < mon.nmodes; ++k) {
    double sum = 0;  // sum over cells of E . mode_k
    for (int c = 0; c < 3; ++c) {
      const float* mode = mon.modes.data() + (static_cast<std::size_t>(k) * 3 + c) * cells;
      const auto& e = f_[c];
      for (std::size_t q = 0; q < cells; ++q) sum += e[q] * mode[q];
    }
    mode_batch_[static_cast<std::size_t>(monitor)]
               [static_cast<std::size_t>(slot) * mon.nmodes + k] = sum * dv;
  }
}

void ReferenceBackend::read_mode_batch(int monitor, int slots, std::vector<double>& out) {
  out.clear();
  if (monitor < 0 || monitor >= static_cast<int>(m_.monitors.size()) || slots <= 0) return;
  const auto& batch = mode_batch_[static_cast<std::size_t>(monitor)];
  const auto nmodes = static_cast<std::size_t>(m_.monitors[static_cast<std::size_t>(monitor)].nmodes);
  const std::size_t n = std::min(batch.size(), static_cast<std::size_t>(slots) * nmodes);
  out.assign(batch.begin(), batch.begin() + static_cast<std::ptrdiff_t>(n));
}

std::size_t ReferenceBackend::device_bytes(const SimulationModel& m) const {
  std::size_t values = batches_.probe_values();
  for (const auto* set : {&f_, &f_im_})
    for (const auto& f : *set) values += f.size();
  for (const auto* set : {&aux_d_, &aux_b_, &aux_d_im_, &aux_b_im_})
    for (const auto& f : *set) values += f.size();
  // With output.energy, the H copy and the energy slots are allocated at the first sample.
  if (m.energy) values += (m.grid.bloch() ? 6 : 3) * m.layout.cells();
  for (const auto& sums : dft_) values += 2 * sums.size();
  for (const auto& batch : mode_batch_) values += batch.size();
  return values * sizeof(double) + (m.energy ? kProbeBatchSteps * sizeof(EnergyTerms) : 0);
}

}  // namespace clfdtd
