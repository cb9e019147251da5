// The cylindrical reference engine: body-of-revolution models (SimulationModel::cylindrical(),
// docs/CYLINDRICAL.md) in double precision, as plain loops a reader can check against the
// contract's equations. Per angular mode slot q (m = grid.modes[q]) six complex fields
// F_q(r, z) over the layout (nr, 1, nz) (index i*nzp + k; Ex..Hz stand for Er, Ephi, Ez, Hr,
// Hphi, Hz), with d/dphi -> i m:
//   eps dEr/dt   = (i m / r) Hz - dHphi/dz          mu dHr/dt   = -(i m / r) Ez + dEphi/dz
//   eps dEphi/dt = dHr/dz - dHz/dr                  mu dHphi/dt = -dEr/dz + dEz/dr
//   eps dEz/dt   = (1/r) d(r Hphi)/dr - (i m / r) Hr   mu dHz/dt = -(1/r) d(r Ephi)/dr + (i m / r) Er
// on the Yee positions Er (i+1/2, k), Ephi (i, k), Ez (i, k+1/2), Hr (i, k+1/2),
// Hphi (i+1/2, k+1/2), Hz (i+1/2, k), with the usual ca, cb, db per material id
// (E = ca E + cb C_E, H -= db C_H). The axis (i = 0) rules:
//   m = 0:  Ez(0) takes 4 Hphi(1/2) / dr (circulation over the disc of radius dr/2); Ephi, Hr = 0;
//   m = 1:  Ez(0) = 0; Ephi(0) takes dHz/dr = 2 Hz(1/2) / dr; Hr(0) takes (i m / r) Ez = i Ez(1)/dr;
//   m >= 2: Ez(0) = Ephi(0) = Hr(0) = 0.
// The absorber is the contract's CPML (model/cyl_pml.hpp): psi auxiliaries only in the r slab and
// the z slabs, on the d/dr and d/dz differences; in Ez and Hz the radial term is split as
// [F+ - F-]/dr + [F+ + F-]/(2 r) and only the first part is stretched.
// It is the oracle the cylindrical GPU engine is compared with cell by cell.
#pragma once
#include <array>
#include <complex>
#include <cstddef>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "model/cyl_pml.hpp"

namespace clfdtd {

class CylReference final : public Backend {
public:
  static constexpr int kProbeBatchSteps = 256;
  using cplx = std::complex<double>;

  // Keeps a reference to the model (a cylindrical one): it must outlive the backend. Throws
  // std::invalid_argument for a model that is not cylindrical or breaks the contract's shape
  // (layout ny = 1, one mode_factor per mode slot, r layers leaving the axis outside the slab).
  explicit CylReference(const SimulationModel& m);

  std::string name() const override { return "reference"; }
  std::string device_description() const override {
    return "host CPU (double precision reference)";
  }
  std::string kernel_variant() const override { return "double loops, cylindrical"; }

  void step(long s) override;

  void sample_probes(int slot) override;
  void read_probe_batch(int slots, std::vector<double>& out) override;
  int probe_batch_steps() const override { return kProbeBatchSteps; }

  // The physical field at phi = 0 (sum_q Re F_q), out[i*nz + k].
  void read_field(Component c, std::vector<float>& out) override;
  void read_mode_field(int slot, Component c, std::vector<std::complex<float>>& out) override;
  bool fields_finite() override;
  void finish() override {}

  // The physical field's energy: sum_q c_q sum 1/2 eps |E_q|^2 V (c_q = 1 for m = 0, 1/2 for
  // m > 0; V the ring volume 2 pi r dr dz at the sample's r, pi (dr/2)^2 dz on the axis),
  // magnetic alike with Re(H_q conj(H_q')) against the previous call's H. Ephi and Hr on the
  // axis (m = 1's only nonzero axis samples) are left out: they are driven by the interior and
  // feed nothing back, and without them electric(s) + magnetic(s + 1) is the scheme's invariant.
  void sample_energy(int slot) override;
  void read_energy_batch(int slots, std::vector<EnergyTerms>& out) override;

  // Flux monitors (cyl_reference_monitors.cpp): the plain double sum of every field plane's
  // samples (mode slot q, Re and Im of F_q: model/cyl_monitor_build.hpp) times
  // exp(-i 2 pi f t) D dt, in read_dft's order out[(plane * P + p) * frequencies + f].
  void accumulate_dft(long step) override;
  void read_dft(int monitor, std::vector<std::complex<double>>& out) override;

  // The bytes this engine holds (complex double fields, psi, batches): what it allocates.
  std::size_t device_bytes(const SimulationModel& m) const override;
  bool in_host_memory() const override { return true; }

  // Not part of Backend: mode slot q's complex double state of component c over the layout
  // (m.layout.index(i, 0, k)), and setting it (initial fields for tests).
  const std::vector<cplx>& field(int slot, Component c) const;
  void set_field(int slot, Component c, const std::vector<cplx>& values);

private:
  struct ModeState {
    int m = 0;
    std::array<std::vector<cplx>, 6> f;      // Er..Hz over the layout
    std::array<std::vector<cplx>, 6> psi_r;  // CPML of d/dr: Ephi, Ez, Hphi, Hz; r-slab cells
    std::array<std::vector<cplx>, 6> psi_z;  // CPML of d/dz: Er, Ephi, Hr, Hphi; z-slab cells
    // The r slab's 1/r~ terms of Er, Ez, Hr, Hz: G = F / r~ and the last input F (r-slab cells).
    std::array<std::vector<cplx>, 6> g_r, f_prev;
    std::array<std::vector<cplx>, 3> h_prev; // H at the previous sample_energy()
  };

  std::size_t cell(int i, int k) const { return m_.layout.index(i, 0, k); }
  // Field value at (i, k); outside [0, nr) x [0, nz) zero (the PEC walls past the high ends).
  cplx at(const std::vector<cplx>& f, int i, int k) const {
    return (static_cast<unsigned>(i) < static_cast<unsigned>(nr_) &&
            static_cast<unsigned>(k) < static_cast<unsigned>(nz_))
               ? f[cell(i, k)]
               : cplx(0.0);
  }
  // Slot of cell (i, k) in the r-slab / z-slab psi arrays; -1 outside the slab.
  long r_slot(int i, int k) const;
  long z_slot(int i, int k) const;
  // The stretched difference quotient diff/d of the CPML: inv_kappa diff/d + psi, psi updated
  // in place (slot >= 0); diff/d where the cell has no psi.
  static cplx stretched(const CylPmlAxis& axis, int index, cplx quotient, std::vector<cplx>& psi,
                        long slot);

  // F / r at sample (i, k) (half: r = (i + 1/2) dr, else i dr); in the r slab the stretched
  // F / r~, advancing that component's G (see the comment in cyl_reference.cpp).
  cplx over_r(ModeState& st, int comp, int i, int k, bool half, cplx f);

  void update_h(ModeState& st);
  void update_e(ModeState& st);
  void apply_sources(long s);

  const SimulationModel& m_;
  int nr_, nz_;
  double dt_, dr_, dz_;
  CylPml pml_;
  // The stretched radius r~ = r_kappa + S / (i w) at positions j dr/2 (j = 0 .. 2 nr):
  // r_kappa = integral of kappa dr, S = integral of sigma/eps0 dr, times dt/2 (trapezoids).
  std::vector<double> r_kappa_, s_half_dt_;
  std::vector<ModeState> modes_;

  std::vector<ECoefficients> ec_;  // per material id
  std::vector<HCoefficients> hc_;  // per material id (used when m.magnetic)
  HCoefficients h_vacuum_;

  std::vector<double> batch_;  // kProbeBatchSteps * samples, [slot * samples + sample]
  std::vector<EnergyTerms> energy_batch_;
  std::vector<std::vector<cplx>> dft_;  // per monitor (model order), allocated at the first sum
};

}  // namespace clfdtd
