// The cylindrical reference engine (see cyl_reference.hpp): the contract's update equations per
// angular mode, in complex double precision, over the layout (nr, 1, nz).
#include "backends/reference/cyl_reference.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "model/cyl_monitor_build.hpp"
#include "model/grid_geometry.hpp"
#include "model/host_memory.hpp"

namespace clfdtd {

namespace {
constexpr int kEr = 0, kEphi = 1, kEz = 2, kHr = 3, kHphi = 4, kHz = 5;
constexpr double kPi = 3.14159265358979323846;
}  // namespace

CylReference::CylReference(const SimulationModel& m)
    : m_(m),
      nr_(m.layout.nx),
      nz_(m.layout.nz),
      dt_(m.grid.dt),
      dr_(m.grid.d[0]),
      dz_(m.grid.d[2]),
      pml_(build_cyl_pml(m.upml, m.grid.n)) {
  if (!m.cylindrical() || m.layout.plane || m.layout.ny != 1) {
    throw std::invalid_argument("CylReference needs a cylindrical model on the layout (nr, 1, nz)");
  }
  if (m.grid.modes.empty()) throw std::invalid_argument("CylReference: grid.modes is empty");
  if (pml_.layers_r >= nr_) {
    throw std::invalid_argument("CylReference: " + std::to_string(pml_.layers_r) +
                                " r layers leave no cells between the axis and the absorber (nr = " +
                                std::to_string(nr_) + ")");
  }
  for (const SourceModel& s : m.sources) {
    if (s.mode_factor.size() != m.grid.modes.size()) {
      throw std::invalid_argument("CylReference: source " + s.name + " has " +
                                  std::to_string(s.mode_factor.size()) + " mode factors, expected " +
                                  std::to_string(m.grid.modes.size()) + " (one per mode slot)");
    }
  }
  const std::size_t cells = m.layout.cells();
  const std::size_t r_cells = static_cast<std::size_t>(pml_.layers_r) * nz_;
  const std::size_t z_cells =
      static_cast<std::size_t>(nr_) * (pml_.layers_z_lo + pml_.layers_z_hi);
  check_host_memory(sizeof(cplx) * m.grid.modes.size() * (6 * cells + 12 * r_cells + 4 * z_cells),
                    "the cylindrical reference engine's complex fields");
  for (int mq : m.grid.modes) {
    ModeState st;
    st.m = mq;
    for (auto& f : st.f) f.assign(cells, cplx(0.0));
    for (int c : {kEphi, kEz, kHphi, kHz}) st.psi_r[c].assign(r_cells, cplx(0.0));
    for (int c : {kEr, kEphi, kHr, kHphi}) st.psi_z[c].assign(z_cells, cplx(0.0));
    for (int c : {kEr, kEz, kHr, kHz}) {
      st.g_r[c].assign(r_cells, cplx(0.0));
      st.f_prev[c].assign(r_cells, cplx(0.0));
    }
    modes_.push_back(std::move(st));
  }
  // kappa and s = sigma dt / eps0 at j dr/2 from the tables, integrated.
  r_kappa_.assign(2 * static_cast<std::size_t>(nr_) + 1, 0.0);
  s_half_dt_.assign(r_kappa_.size(), 0.0);
  auto kappa_s = [&](int j, double& kappa, double& sdt) {
    j = std::min(j, 2 * nr_ - 1);  // the wall (j = 2 nr): the profile's last entry
    const auto i = static_cast<std::size_t>(j / 2);
    const CylPmlAxis& a = pml_.r[j % 2];
    kappa = a.kappa[i];
    sdt = a.sigma_dt[i];
  };
  for (std::size_t j = 1; j < r_kappa_.size(); ++j) {
    double k0, s0, k1, s1;
    kappa_s(static_cast<int>(j) - 1, k0, s0);
    kappa_s(static_cast<int>(j), k1, s1);
    r_kappa_[j] = r_kappa_[j - 1] + 0.25 * dr_ * (k0 + k1);
    s_half_dt_[j] = s_half_dt_[j - 1] + 0.125 * dr_ * (s0 + s1);
  }
  for (std::size_t id = 0; id < m.materials.size(); ++id) {
    ec_.push_back(m.materials.e_coefficients(static_cast<std::uint8_t>(id), dt_));
    hc_.push_back(m.materials.h_coefficients(static_cast<std::uint8_t>(id), dt_));
  }
  h_vacuum_ = m.materials.h_coefficients(MaterialTable::kVacuum, dt_);
  batch_.assign(static_cast<std::size_t>(kProbeBatchSteps) * m.probes.samples.size(), 0.0);
}

const std::vector<CylReference::cplx>& CylReference::field(int slot, Component c) const {
  return modes_.at(static_cast<std::size_t>(slot)).f[static_cast<int>(c)];
}

void CylReference::set_field(int slot, Component c, const std::vector<cplx>& values) {
  auto& f = modes_.at(static_cast<std::size_t>(slot)).f[static_cast<int>(c)];
  if (values.size() != f.size()) {
    throw std::invalid_argument(std::string("set_field: ") + cyl_component_name(c) + " needs " +
                                std::to_string(f.size()) + " values");
  }
  f = values;
}

long CylReference::r_slot(int i, int k) const {
  const int i0 = nr_ - pml_.layers_r;
  return i >= i0 ? static_cast<long>(i - i0) * nz_ + k : -1;
}

long CylReference::z_slot(int i, int k) const {
  const int lo = pml_.layers_z_lo, hi = pml_.layers_z_hi;
  int kk;
  if (k < lo) {
    kk = k;
  } else if (k >= nz_ - hi) {
    kk = lo + (k - (nz_ - hi));
  } else {
    return -1;
  }
  return static_cast<long>(i) * (lo + hi) + kk;
}

CylReference::cplx CylReference::stretched(const CylPmlAxis& axis, int index, cplx quotient,
                                           std::vector<cplx>& psi, long slot) {
  if (slot < 0) return quotient;
  const auto n = static_cast<std::size_t>(index);
  cplx& p = psi[static_cast<std::size_t>(slot)];
  p = axis.b[n] * p + axis.c[n] * quotient;
  return axis.inv_kappa[n] * quotient + p;
}

// ---- 1/r terms: F / r, or F / r~ in the r slab ---------------------------------------------------
// With r~ = r_kappa + S / (a + i w) (S the integral of sigma / eps0, a = alpha / eps0 the CFS
// alpha, the same in every layer), G = F / r~ obeys
//   r_kappa dG/dt + (a r_kappa + S) G = dF/dt + a F,
// centred between the last and the current input (A = a dt/2):
//   G <- [(r_kappa (1 - A) - S dt/2) G + F - F_prev + A (F + F_prev)] / (r_kappa (1 + A) + S dt/2),
//   F_prev <- F.
// Outside the absorber r_kappa = r, S = 0, and G stays F / r exactly (up to rounding).
CylReference::cplx CylReference::over_r(ModeState& st, int comp, int i, int k, bool half, cplx f) {
  const long slot = r_slot(i, k);
  const std::size_t j = 2 * static_cast<std::size_t>(i) + (half ? 1 : 0);
  if (slot < 0) return f / (static_cast<double>(j) * (0.5 * dr_));
  const auto q = static_cast<std::size_t>(slot);
  cplx& g = st.g_r[comp][q];
  cplx& fp = st.f_prev[comp][q];
  const double rk = r_kappa_[j], sh = s_half_dt_[j], ah = 0.5 * pml_.alpha_dt;
  g = ((rk * (1 - ah) - sh) * g + f - fp + ah * (f + fp)) / (rk * (1 + ah) + sh);
  fp = f;
  return g;
}

// ---- H to (s + 1/2) dt: H -= db * C_H, C_H = -(the right-hand side of mu dH/dt) ----------------
//   Hr   (i, k+1/2):     C = (i m / r_i) Ez(i, k+1/2) - [Ephi(i, k+1) - Ephi(i, k)]/dz
//   Hphi (i+1/2, k+1/2): C = [Er(k+1) - Er(k)]/dz - [Ez(i+1) - Ez(i)]/dr
//   Hz   (i+1/2, k):     C = [Ephi(i+1) - Ephi(i)]/dr + [Ephi(i+1) + Ephi(i)]/(2 r_{i+1/2})
//                            - (i m / r_{i+1/2}) Er(i+1/2, k)
// (the Hz form is (1/r)[r_{i+1} Ephi(i+1) - r_i Ephi(i)]/dr rewritten; at i = 0 it is 2 Ephi(1)/dr
// whatever Ephi(0) holds.)
void CylReference::update_h(ModeState& st) {
  const cplx im(0.0, static_cast<double>(st.m));
  auto& F = st.f;
  for (int i = 0; i < nr_; ++i) {
    for (int k = 0; k < nz_; ++k) {
      const std::size_t c = cell(i, k);
      const long rs = r_slot(i, k), zs = z_slot(i, k);
      auto db = [&](int comp) {
        return (m_.magnetic ? hc_[m_.ids[comp][c]] : h_vacuum_).db;
      };
      // Hr: on the axis only m = 1 carries it, with (i m / r) Ez -> i Ez(1)/dr (Ez_1 ~ r).
      if (i > 0 || st.m == 1) {
        const cplx dephi = stretched(pml_.z[1], k, (at(F[kEphi], i, k + 1) - at(F[kEphi], i, k)) / dz_,
                                     st.psi_z[kHr], zs);
        const cplx im_ez_over_r =
            i > 0 ? over_r(st, kHr, i, k, false, im * F[kEz][c]) : im * at(F[kEz], 1, k) / dr_;
        F[kHr][c] -= db(kHr) * (im_ez_over_r - dephi);
      }
      {
        const cplx der = stretched(pml_.z[1], k, (at(F[kEr], i, k + 1) - F[kEr][c]) / dz_,
                                   st.psi_z[kHphi], zs);
        const cplx dez = stretched(pml_.r[1], i, (at(F[kEz], i + 1, k) - F[kEz][c]) / dr_,
                                   st.psi_r[kHphi], rs);
        F[kHphi][c] -= db(kHphi) * (der - dez);
      }
      {
        const cplx ep = at(F[kEphi], i + 1, k), em = F[kEphi][c];
        const cplx dephi = stretched(pml_.r[1], i, (ep - em) / dr_, st.psi_r[kHz], rs);
        F[kHz][c] -= db(kHz) * (dephi + over_r(st, kHz, i, k, true, 0.5 * (ep + em) - im * F[kEr][c]));
      }
    }
  }
}

// ---- E to (s + 1) dt: E = ca E + cb C_E, C_E the right-hand side of eps dE/dt --------------------
//   Er   (i+1/2, k): C = (i m / r_{i+1/2}) Hz - [Hphi(k+1/2) - Hphi(k-1/2)]/dz
//   Ephi (i, k):     C = [Hr(k+1/2) - Hr(k-1/2)]/dz - [Hz(i+1/2) - Hz(i-1/2)]/dr
//   Ez   (i, k+1/2): C = [Hphi(i+1/2) - Hphi(i-1/2)]/dr + [Hphi(i+1/2) + Hphi(i-1/2)]/(2 r_i)
//                        - (i m / r_i) Hr
// with the axis rules of cyl_reference.hpp at i = 0.
void CylReference::update_e(ModeState& st) {
  const cplx im(0.0, static_cast<double>(st.m));
  auto& F = st.f;
  for (int i = 0; i < nr_; ++i) {
    for (int k = 0; k < nz_; ++k) {
      const std::size_t c = cell(i, k);
      const long rs = r_slot(i, k), zs = z_slot(i, k);
      {
        const ECoefficients& e = ec_[m_.ids[kEr][c]];
        const cplx dhphi = stretched(pml_.z[0], k, (F[kHphi][c] - at(F[kHphi], i, k - 1)) / dz_,
                                     st.psi_z[kEr], zs);
        F[kEr][c] = e.ca * F[kEr][c] + e.cb * (over_r(st, kEr, i, k, true, im * F[kHz][c]) - dhphi);
      }
      if (i > 0 || st.m == 1) {
        const ECoefficients& e = ec_[m_.ids[kEphi][c]];
        const cplx dhr = stretched(pml_.z[0], k, (F[kHr][c] - at(F[kHr], i, k - 1)) / dz_,
                                   st.psi_z[kEphi], zs);
        // On the axis (m = 1): Hz_1 is odd in r, so dHz/dr at 0 is Hz(1/2) / (dr/2).
        const cplx dhz = i > 0 ? stretched(pml_.r[0], i, (F[kHz][c] - at(F[kHz], i - 1, k)) / dr_,
                                           st.psi_r[kEphi], rs)
                               : 2.0 * F[kHz][c] / dr_;
        F[kEphi][c] = e.ca * F[kEphi][c] + e.cb * (dhr - dhz);
      }
      if (i > 0) {
        const ECoefficients& e = ec_[m_.ids[kEz][c]];
        const cplx hp = F[kHphi][c], hm = at(F[kHphi], i - 1, k);
        const cplx dhphi = stretched(pml_.r[0], i, (hp - hm) / dr_, st.psi_r[kEz], rs);
        F[kEz][c] = e.ca * F[kEz][c] +
                    e.cb * (dhphi + over_r(st, kEz, i, k, false, 0.5 * (hp + hm) - im * F[kHr][c]));
      } else if (st.m == 0) {
        // Circulation 2 pi (dr/2) Hphi(1/2) over the disc area pi (dr/2)^2.
        const ECoefficients& e = ec_[m_.ids[kEz][c]];
        F[kEz][c] = e.ca * F[kEz][c] + e.cb * (4.0 * F[kHphi][c] / dr_);
      }
    }
  }
}

// ---- Sources: E_q(cell) -= cb * j[s] * mode_factor[q], J at (s + 1/2) dt --------------------------
void CylReference::apply_sources(long s) {
  for (const SourceModel& src : m_.sources) {
    if (s < 0 || s >= static_cast<long>(src.j.size())) continue;  // past the table: source off
    const int comp = static_cast<int>(src.component);
    const std::size_t c = cell(src.cell[0], src.cell[2]);
    const double cbj = ec_[m_.ids[comp][c]].cb * src.j[static_cast<std::size_t>(s)];
    for (std::size_t q = 0; q < modes_.size(); ++q) modes_[q].f[comp][c] -= cbj * src.mode_factor[q];
  }
}

// One step s -> s+1 (every mode): H to (s+1/2) dt, E to (s+1) dt, then the sources.
void CylReference::step(long s) {
  for (ModeState& st : modes_) {
    update_h(st);
    update_e(st);
  }
  apply_sources(s);
}

// ---- Probes and read-back -----------------------------------------------------------------------
void CylReference::sample_probes(int slot) {
  const auto& samples = m_.probes.samples;
  const std::size_t base = static_cast<std::size_t>(slot) * samples.size();
  for (std::size_t p = 0; p < samples.size(); ++p) {
    const ProbeSample& smp = samples[p];
    const std::size_t c = cell(smp.cell[0], smp.cell[2]);
    double v = 0;
    for (const ModeState& st : modes_) {
      v += (st.f[static_cast<int>(smp.component)][c] * std::polar(1.0, st.m * smp.phi_rad)).real();
    }
    batch_[base + p] = v;
  }
}

void CylReference::read_probe_batch(int slots, std::vector<double>& out) {
  const std::size_t n = static_cast<std::size_t>(slots) * m_.probes.samples.size();
  out.assign(batch_.begin(), batch_.begin() + static_cast<std::ptrdiff_t>(n));
}

void CylReference::read_field(Component c, std::vector<float>& out) {
  out.assign(static_cast<std::size_t>(nr_) * nz_, 0.0f);
  for (int i = 0; i < nr_; ++i) {
    for (int k = 0; k < nz_; ++k) {
      double v = 0;
      for (const ModeState& st : modes_) v += st.f[static_cast<int>(c)][cell(i, k)].real();
      out[static_cast<std::size_t>(i) * nz_ + k] = static_cast<float>(v);
    }
  }
}

void CylReference::read_mode_field(int slot, Component c, std::vector<std::complex<float>>& out) {
  if (slot < 0 || slot >= static_cast<int>(modes_.size())) {
    throw DeviceError("read_mode_field: mode slot " + std::to_string(slot) + " outside 0.." +
                      std::to_string(modes_.size() - 1));
  }
  const auto& f = modes_[static_cast<std::size_t>(slot)].f[static_cast<int>(c)];
  out.assign(static_cast<std::size_t>(nr_) * nz_, std::complex<float>());
  for (int i = 0; i < nr_; ++i)
    for (int k = 0; k < nz_; ++k)
      out[static_cast<std::size_t>(i) * nz_ + k] = std::complex<float>(f[cell(i, k)]);
}

bool CylReference::fields_finite() {
  for (const ModeState& st : modes_)
    for (const auto* set : {&st.f, &st.psi_r, &st.psi_z, &st.g_r, &st.f_prev})
      for (const auto& f : *set)
        for (const cplx& v : f)
          if (!std::isfinite(v.real()) || !std::isfinite(v.imag())) return false;
  return true;
}

// ---- Energy (docs/CYLINDRICAL.md): ring volumes, c_q = 1 (m = 0) or 1/2 (m > 0) -----------------
// Ephi and Hr on the axis (nonzero for m = 1 only) are left out: they follow the interior without
// acting back on it, so the scheme's invariant does not hold them (their share moves with time).
void CylReference::sample_energy(int slot) {
  if (slot < 0 || slot >= kProbeBatchSteps) {
    throw DeviceError("energy batch slot " + std::to_string(slot) + " outside 0.." +
                      std::to_string(kProbeBatchSteps - 1));
  }
  const std::size_t cells = m_.layout.cells();
  if (energy_batch_.empty()) {
    for (ModeState& st : modes_)
      for (auto& h : st.h_prev) h.assign(cells, cplx(0.0));  // the first magnetic term is 0
    energy_batch_.assign(kProbeBatchSteps, EnergyTerms{});
  }
  // Ring volume / (2 pi dz) of a sample at r = (i + half/2) dr: r dr, or (dr/2)^2 / 2 on the axis.
  auto ring = [&](int i, bool half) {
    return half ? (i + 0.5) * dr_ * dr_ : (i > 0 ? i * dr_ * dr_ : 0.125 * dr_ * dr_);
  };
  double we = 0, wm = 0, wn = 0;  // sums of c_q eps_r |E|^2 V, c_q mu_r Re(H H'*) V, c_q mu_r |H|^2 V
  for (ModeState& st : modes_) {
    const double cq = st.m == 0 ? 1.0 : 0.5;
    for (int i = 0; i < nr_; ++i) {
      for (int k = 0; k < nz_; ++k) {
        const std::size_t c = cell(i, k);
        for (int u = 0; u < 3; ++u) {
          const bool e_half = u == kEr, h_half = u != 0;  // Er; Hphi, Hz at r_{i+1/2}
          if (i > 0 || u != kEphi) {
            const MaterialEntry& me = m_.materials.entry(m_.ids[u][c]);
            we += cq * (me.pec ? 0.0 : me.eps_r) * std::norm(st.f[u][c]) * ring(i, e_half);
          }
          const cplx h = st.f[3 + u][c];
          cplx& prev = st.h_prev[u][c];
          if (i > 0 || u != 0) {  // H_0 = Hr
            const double mu_r = 1.0 / (m_.magnetic ? hc_[m_.ids[3 + u][c]] : h_vacuum_).inv_mu_r;
            wm += cq * mu_r * (h * std::conj(prev)).real() * ring(i, h_half);
            wn += cq * mu_r * std::norm(h) * ring(i, h_half);
          }
          prev = h;
        }
      }
    }
  }
  const double dv = 2 * kPi * dz_;
  energy_batch_[static_cast<std::size_t>(slot)] =
      EnergyTerms{0.5 * kEps0 * dv * we, 0.5 * kMu0 * dv * wm, 0.5 * kMu0 * dv * wn};
}

void CylReference::read_energy_batch(int slots, std::vector<EnergyTerms>& out) {
  const std::size_t n = std::min<std::size_t>(static_cast<std::size_t>(std::max(slots, 0)),
                                              energy_batch_.size());
  out.assign(energy_batch_.begin(), energy_batch_.begin() + static_cast<std::ptrdiff_t>(n));
}

std::size_t CylReference::device_bytes(const SimulationModel& /*m*/) const {
  std::size_t values = 0;
  for (const ModeState& st : modes_)
    for (const auto* set : {&st.f, &st.psi_r, &st.psi_z, &st.g_r, &st.f_prev})
      for (const auto& f : *set) values += f.size();
  for (const MonitorModel& mon : m_.monitors)  // the flux monitors' sums
    values += cyl_monitor_points(mon, static_cast<int>(modes_.size())) * mon.frequencies_hz.size();
  // With output.energy, the H copy and the energy slots are allocated at the first sample.
  const std::size_t h_copy = m_.energy ? modes_.size() * 3 * m_.layout.cells() : 0;
  return (values + h_copy) * sizeof(cplx) + batch_.size() * sizeof(double) +
         (m_.energy ? kProbeBatchSteps * sizeof(EnergyTerms) : 0);
}

}  // namespace clfdtd
