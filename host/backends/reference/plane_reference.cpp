// The 2D reference engine (see plane_reference.hpp): docs/EQUATIONS.md with d/dz = 0, in double
// precision, over the plane layout. The wave equation's own parts are in plane_reference_wave.cpp.
#include "backends/reference/plane_reference.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "model/grid_geometry.hpp"
#include "model/host_memory.hpp"

namespace clfdtd {

namespace {

constexpr int kX = 0, kY = 1, kZ = 2;

// One entry of a UPML axis profile (upml_profile.hpp); z is always neutral in 2D.
struct ProfileEntry {
  double a = 1, b = 1, cp = 2, cm = 2;
};

ProfileEntry profile(const UpmlProfile& p, int axis, bool half, int index) {
  if (axis == kZ) return {};
  const AxisProfile& q = half ? p.half[axis] : p.integer[axis];
  const auto k = static_cast<std::size_t>(index);
  return {q.a[k], q.b[k], q.cp[k], q.cm[k]};
}

const char* mode_name(const SimulationModel& m) {
  if (m.equation == Equation::Wave) return "wave";
  return m.mode == PlaneMode::Tm ? "tm" : "te";
}

}  // namespace

PlaneReference::PlaneReference(const SimulationModel& m)
    : m_(m),
      nx_(m.layout.nx),
      ny_(m.layout.ny),
      dt_(m.grid.dt),
      inv_dx_(1.0 / m.grid.d[0]),
      inv_dy_(1.0 / m.grid.d[1]),
      batches_(kProbeBatchSteps, m.probes.samples.size()) {
  if (!m.two_d() || !m.layout.plane) {
    throw std::invalid_argument("PlaneReference needs a 2D model on the plane layout");
  }
  if (wave() && m.mode != PlaneMode::Tm) {
    throw ConfigError("", 0, "grid.equation", "maxwell for a te model (wave carries tm Ez only)");
  }
  if (wave() && m.magnetic) {
    throw ConfigError("", 0, "grid.equation",
                      "maxwell for a model with a magnetic material (wave needs mu_r = 1)");
  }
  for (Component c : m.active_components()) (is_electric(c) ? e_comps_ : h_comps_).push_back(c);
  if (wave()) h_comps_ = {Component::Hx, Component::Hy};  // the frame's H
  for (const SourceModel& s : m.sources) {
    if (!m.is_active(s.component)) {
      throw ConfigError("", 0, "source." + s.name + ".axis",
                        std::string("a component the ") + mode_name(m) + " model carries, not " +
                            component_name(s.component));
    }
  }
  if (wave()) build_frame();

  const std::size_t cells = m.layout.cells();
  const std::size_t h_cells = wave() ? frame_cells_ : cells;
  check_host_memory(sizeof(double) * (e_comps_.size() * cells + (wave() ? cells : 0) +
                                      h_comps_.size() * h_cells +
                                      (e_comps_.size() + h_comps_.size()) * m.upml.cells),
                    "the 2D reference engine's double fields");
  for (Component c : e_comps_) f_[static_cast<int>(c)].assign(cells, 0.0);
  for (Component c : h_comps_) f_[static_cast<int>(c)].assign(h_cells, 0.0);
  if (wave()) u_prev_.assign(cells, 0.0);
  for (Component c : e_comps_) aux_[static_cast<int>(c)].assign(m.upml.cells, 0.0);
  for (Component c : h_comps_) aux_[static_cast<int>(c)].assign(m.upml.cells, 0.0);
  check_host_memory(sizeof(double) * m.dispersion.count() * m.dispersion.state_slots(),
                    "the 2D reference engine's dispersive state");
  disp_.assign(m.dispersion.count() * m.dispersion.state_slots(), 0.0);
  for (std::size_t id = 0; id < m.materials.size(); ++id) {
    ec_.push_back(m.materials.e_coefficients(static_cast<std::uint8_t>(id), dt_));
    hc_.push_back(m.materials.h_coefficients(static_cast<std::uint8_t>(id), dt_));
  }
  h_vacuum_ = m.materials.h_coefficients(MaterialTable::kVacuum, dt_);
  init_monitors();
}

std::string PlaneReference::kernel_variant() const {
  return std::string("double loops, 2D ") + mode_name(m_);
}

const std::vector<double>& PlaneReference::field(Component c) const {
  return f_[static_cast<int>(c)];
}

void PlaneReference::set_field(Component c, const std::vector<double>& values) {
  auto& f = f_[static_cast<int>(c)];
  if (wave() || f.empty() || values.size() != f.size()) {
    throw std::invalid_argument(std::string("set_field: ") + component_name(c) +
                                " needs a Yee model carrying it and " + std::to_string(f.size()) +
                                " values");
  }
  f = values;
}

// ---- Plain update brackets C (H -= db C, E = ca E + cb C) ---------------------------------------
// tm: Hx: (Ez[i,j+1] - Ez[i,j])/dy          te: Hz: (Ey[i+1,j] - Ey[i,j])/dx - (Ex[i,j+1] - Ex[i,j])/dy
//     Hy: -(Ez[i+1,j] - Ez[i,j])/dx             Ex: (Hz[i,j] - Hz[i,j-1])/dy
//     Ez: (Hy[i,j] - Hy[i-1,j])/dx - (Hx[i,j] - Hx[i,j-1])/dy      Ey: -(Hz[i,j] - Hz[i-1,j])/dx
inline double PlaneReference::curl(Component c, int i, int j) const {
  const auto& F = f_;
  auto e = [&](Component k, int a, int b) { return e_at(F[static_cast<int>(k)], a, b); };
  auto h = [&](Component k, int a, int b) { return h_at(F[static_cast<int>(k)], a, b); };
  using C = Component;
  switch (c) {
    case C::Hx: return (e(C::Ez, i, j + 1) - e(C::Ez, i, j)) * inv_dy_;
    case C::Hy: return -((e(C::Ez, i + 1, j) - e(C::Ez, i, j)) * inv_dx_);
    case C::Hz:
      return (e(C::Ey, i + 1, j) - e(C::Ey, i, j)) * inv_dx_ -
             (e(C::Ex, i, j + 1) - e(C::Ex, i, j)) * inv_dy_;
    case C::Ex: return (h(C::Hz, i, j) - h(C::Hz, i, j - 1)) * inv_dy_;
    case C::Ey: return -((h(C::Hz, i, j) - h(C::Hz, i - 1, j)) * inv_dx_);
    case C::Ez:
      return (h(C::Hy, i, j) - h(C::Hy, i - 1, j)) * inv_dx_ -
             (h(C::Hx, i, j) - h(C::Hx, i, j - 1)) * inv_dy_;
  }
  return 0.0;
}

std::size_t PlaneReference::h_slot(int i, int j) const {
  return wave() ? frame_slot(i, j) : cell(i, j);
}

template <class F>
void PlaneReference::for_each_h_cell(F f) const {
  if (!wave()) {
    for (int i = 0; i < nx_; ++i)
      for (int j = 0; j < ny_; ++j) f(i, j);
    return;
  }
  for (const FrameBox& b : frame_)
    for (int i = b.i0; i < b.i1; ++i)
      for (int j = b.j0; j < b.j1; ++j) f(i, j);
}

// ---- H: plain cells, then the UPML cells (EQUATIONS.md, UPML update) ----------------------------
// H_u is at an integer position along u and half along v, w (v, w the cyclic next axes):
//   B' = a_v B - b_v (dt/mu0) C;   H_u = a_w H_u + inv_mu_r (cp_u B' - cm_u B) b_w / 2;   B = B'
void PlaneReference::update_h() {
  for_each_h_cell([&](int i, int j) {
    if (in_pml(i, j)) return;
    const std::size_t q = h_slot(i, j), c = cell(i, j);
    for (Component k : h_comps_) {
      const HCoefficients& h = m_.magnetic ? hc_[m_.id(k)[c]] : h_vacuum_;
      f_[static_cast<int>(k)][q] -= h.db * curl(k, i, j);
    }
  });
  const double dt_mu0 = dt_ / kMu0;
  for (const PmlBox& box : m_.upml.boxes) {
    for (int i = box.i0; i < box.i1; ++i) {
      for (int j = box.j0; j < box.j1; ++j) {
        const std::size_t a = box.offset + (static_cast<std::size_t>(i - box.i0) * (box.j1 - box.j0) +
                                            (j - box.j0)) * (box.k1 - box.k0) - box.k0;
        const std::size_t q = h_slot(i, j), c = cell(i, j);
        const int pos[3] = {i, j, 0};
        for (Component k : h_comps_) {
          const int u = component_axis(k), v = (u + 1) % 3, w = (u + 2) % 3;
          const ProfileEntry pu = profile(m_.upml, u, false, pos[u]);
          const ProfileEntry pv = profile(m_.upml, v, true, pos[v]);
          const ProfileEntry pw = profile(m_.upml, w, true, pos[w]);
          const double inv_mu_r = m_.magnetic ? hc_[m_.id(k)[c]].inv_mu_r : h_vacuum_.inv_mu_r;
          double& b = aux_[static_cast<int>(k)][a];
          double& h = f_[static_cast<int>(k)][q];
          const double b_new = pv.a * b - pv.b * dt_mu0 * curl(k, i, j);
          h = pw.a * h + inv_mu_r * (pu.cp * b_new - pu.cm * b) * pw.b / 2;
          b = b_new;
        }
      }
    }
  }
}

// ---- E of component k into out (cells of the Yee update), plain then UPML -----------------------
// E_u is at a half position along u and integer along v, w:
//   D' = a_v D + b_v (dt/eps0) C;   E_u = a_w E_u + inv_eps_r (cp_u D' - cm_u D) b_w / 2;   D = D'
// Material conductivity is ignored in PML cells; PEC there has inv_eps_r = 0.
void PlaneReference::update_e(Component k, std::vector<double>& out) {
  const std::vector<double>& e = f_[static_cast<int>(k)];
  const std::vector<std::uint8_t>& ids = m_.id(k);
  for (int i = 0; i < nx_; ++i) {
    for (int j = 0; j < ny_; ++j) {
      if (in_pml(i, j) || (wave() && !yee_ez_cell(i, j))) continue;
      const std::size_t c = cell(i, j);
      const ECoefficients& co = ec_[ids[c]];
      out[c] = co.ca * e[c] + co.cb * curl(k, i, j);
    }
  }
  const double dt_eps0 = dt_ / kEps0;
  const int u = component_axis(k), v = (u + 1) % 3, w = (u + 2) % 3;
  for (const PmlBox& box : m_.upml.boxes) {
    for (int i = box.i0; i < box.i1; ++i) {
      for (int j = box.j0; j < box.j1; ++j) {
        const std::size_t a = box.offset + (static_cast<std::size_t>(i - box.i0) * (box.j1 - box.j0) +
                                            (j - box.j0)) * (box.k1 - box.k0) - box.k0;
        const std::size_t c = cell(i, j);
        const int pos[3] = {i, j, 0};
        const ProfileEntry pu = profile(m_.upml, u, true, pos[u]);
        const ProfileEntry pv = profile(m_.upml, v, false, pos[v]);
        const ProfileEntry pw = profile(m_.upml, w, false, pos[w]);
        double& d = aux_[static_cast<int>(k)][a];
        const double d_new = pv.a * d + pv.b * dt_eps0 * curl(k, i, j);
        out[c] = pw.a * e[c] + ec_[ids[c]].inv_eps_r * (pu.cp * d_new - pu.cm * d) * pw.b / 2;
        d = d_new;
      }
    }
  }
}

// ---- Sources: E_c[cell] -= cb[id] * J[s], J at (s + 1/2) dt (the wave update: plane_reference_wave)
void PlaneReference::apply_sources(long s) {
  for (const SourceModel& src : m_.sources) {
    const int comp = static_cast<int>(src.component);
    const std::size_t c = cell(src.cell[0], src.cell[1]);
    f_[comp][c] -= ec_[m_.id(src.component)[c]].cb * source_term(src, s);
  }
}

// ---- Plane waves (model/plane_wave.hpp): after the H update the incident E read across the box,
// after the E update the incident H, each from the wave's line at step s
void PlaneReference::apply_plane_waves(long s, bool magnetic_half) {
  add_plane_wave_terms(m_.plane_waves, s, magnetic_half, f_,
                       [&](const std::array<int, 3>& c) { return cell(c[0], c[1]); });
}

// ---- Dispersive materials: the semi-implicit step after every other E term (model/dispersion.hpp)
// Its UPML samples' E came from the update above with the true D in the auxiliary, as in the 3D
// reference engine, so the same correction (dispersive_step_upml) applies.
void PlaneReference::apply_dispersion() { step_dispersive_samples(m_.dispersion, f_, disp_); }

// One step s -> s+1: H to (s+1/2) dt (and the plane waves' H terms), E to (s+1) dt (and their E
// terms), then the sources (EQUATIONS.md, Time), and last the dispersive samples, which need E
// with every other term in it.
void PlaneReference::step(long s) {
  update_h();
  apply_plane_waves(s, true);
  if (wave()) {
    // The new u goes into u_prev_ (each cell's old value there is read by that cell only).
    update_e(Component::Ez, u_prev_);
    update_wave_interior();
    std::swap(f_[kZ], u_prev_);
  } else {
    for (Component k : e_comps_) update_e(k, f_[static_cast<int>(k)]);
  }
  apply_plane_waves(s, false);
  apply_sources(s);
  apply_dispersion();
}

// ---- Probes and read-back ----------------------------------------------------------------------
void PlaneReference::sample_probes(int slot) {
  const auto& samples = m_.probes.samples;
  double* out = batches_.probe_slot(slot);
  for (std::size_t p = 0; p < samples.size(); ++p) {
    const ProbeSample& smp = samples[p];
    out[p] = m_.is_active(smp.component)
                 ? f_[static_cast<int>(smp.component)][cell(smp.cell[0], smp.cell[1])]
                 : 0.0;
  }
}

void PlaneReference::read_probe_batch(int slots, std::vector<double>& out) {
  batches_.read_probes(slots, out);
}

void PlaneReference::read_field(Component c, std::vector<float>& out) {
  out.assign(static_cast<std::size_t>(nx_) * ny_, 0.0f);
  if (!m_.is_active(c)) return;
  const auto& f = f_[static_cast<int>(c)];
  for (int i = 0; i < nx_; ++i)
    for (int j = 0; j < ny_; ++j)
      out[static_cast<std::size_t>(i) * ny_ + j] = static_cast<float>(f[cell(i, j)]);
}

bool PlaneReference::fields_finite() {
  for (const auto* set : {&f_, &aux_})
    for (const auto& f : *set)
      for (double v : f)
        if (!std::isfinite(v)) return false;
  return std::all_of(u_prev_.begin(), u_prev_.end(), [](double v) { return std::isfinite(v); });
}

// ---- Energy (EQUATIONS.md, Energy) per metre of depth: dV = dx dy -------------------------------
void PlaneReference::sample_energy(int slot) {
  if (wave()) {
    throw DeviceError("output.energy is not supported by the wave equation (it keeps no H)");
  }
  const std::size_t cells = m_.layout.cells();
  if (batches_.begin_energy(slot)) {
    for (Component k : h_comps_) h_prev_[static_cast<int>(k)].assign(cells, 0.0);
  }
  double we = 0, wm = 0, wn = 0;  // sum eps_r E.E, sum mu_r H.H_prev, sum mu_r H.H
  for (Component k : e_comps_) {
    const auto& e = f_[static_cast<int>(k)];
    const auto& ids = m_.id(k);
    for (std::size_t c = 0; c < cells; ++c) {
      const MaterialEntry& me = m_.materials.entry(ids[c]);
      we += (me.pec ? 0.0 : me.eps_r) * e[c] * e[c];
    }
  }
  for (Component k : h_comps_) {
    const auto& h = f_[static_cast<int>(k)];
    auto& prev = h_prev_[static_cast<int>(k)];
    for (std::size_t c = 0; c < cells; ++c) {
      const double mu_r = 1.0 / (m_.magnetic ? hc_[m_.id(k)[c]] : h_vacuum_).inv_mu_r;
      wm += mu_r * h[c] * prev[c];
      wn += mu_r * h[c] * h[c];
      prev[c] = h[c];
    }
  }
  const double dv = m_.grid.d[0] * m_.grid.d[1];
  batches_.store_energy(
      slot, EnergyTerms{0.5 * kEps0 * dv * we, 0.5 * kMu0 * dv * wm, 0.5 * kMu0 * dv * wn});
}

void PlaneReference::read_energy_batch(int slots, std::vector<EnergyTerms>& out) {
  batches_.read_energy(slots, out);
}

std::size_t PlaneReference::device_bytes(const SimulationModel& /*m*/) const {
  std::size_t values = batches_.probe_values() + u_prev_.size();
  for (const auto* set : {&f_, &aux_})
    for (const auto& f : *set) values += f.size();
  // With output.energy, the H copy and the energy slots are allocated at the first sample.
  if (m_.energy && !wave()) values += h_comps_.size() * m_.layout.cells();
  return values * sizeof(double) +
         (m_.energy && !wave() ? kProbeBatchSteps * sizeof(EnergyTerms) : 0);
}

}  // namespace clfdtd
