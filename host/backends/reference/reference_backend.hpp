// The reference engine: a plain host-CPU implementation of docs/EQUATIONS.md in double precision,
// written as obvious loops so a reader can check it line by line against the document.
// It serves two purposes:
//   - a cross-check engine users can pick with --backend=reference (no GPU or OpenCL needed);
//   - the oracle of the backend tests, which compare the device kernels with it cell by cell.
// Storage mirrors the device: six fields over the padded layout (SimulationModel::layout), and the
// UPML auxiliaries (D for Ex..Ez, B for Hx..Hz) only for the PML cells, box by box
// (UpmlProfile::boxes). Speed is secondary, but the loops avoid per-cell virtual calls so the test
// grids (~40^3, hundreds of steps) run in about a second.
#pragma once
#include <array>
#include <complex>
#include <cstddef>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "backends/reference/reference_batches.hpp"

namespace clfdtd {

class ReferenceBackend final : public Backend {
public:
  static constexpr int kProbeBatchSteps = 256;

  // Keeps a reference to the model: it must outlive the backend.
  explicit ReferenceBackend(const SimulationModel& m);
  ReferenceBackend(const ReferenceBackend&) = delete;  // other_ points into this object
  ReferenceBackend& operator=(const ReferenceBackend&) = delete;

  std::string name() const override { return "reference"; }
  std::string device_description() const override {
    return "host CPU (double precision reference)";
  }
  std::string kernel_variant() const override { return "double loops"; }
  std::size_t device_bytes(const SimulationModel& m) const override;
  bool in_host_memory() const override { return true; }

  void step(long s) override;

  void sample_probes(int slot) override;
  void read_probe_batch(int slots, std::vector<double>& out) override;
  int probe_batch_steps() const override { return kProbeBatchSteps; }

  void read_field(Component c, std::vector<float>& out) override;
  bool fields_finite() override;
  void finish() override {}

  void sample_energy(int slot) override;
  void read_energy_batch(int slots, std::vector<EnergyTerms>& out) override;

  // Monitors, the obvious way in double: per step, point and frequency
  // acc += x e^(-i 2 pi f t) dt; the projection as a plain sum over the padded cells times dV.
  void accumulate_dft(long step) override;
  void read_dft(int monitor, std::vector<std::complex<double>>& out) override;
  void sample_modes(int monitor, int slot) override;
  void read_mode_batch(int monitor, int slots, std::vector<double>& out) override;

  // Not part of Backend: the double-precision state itself, padded layout
  // (m.layout.index(i, j, k)), for tests and diagnostics.
  const std::vector<double>& field(Component c) const { return f_[static_cast<int>(c)]; }
  // A Bloch model's imaginary part, as field() (empty otherwise).
  const std::vector<double>& field_imag(Component c) const { return f_im_[static_cast<int>(c)]; }

private:
  // Field value at (i, j, k); indices outside [0,nx) x [0,ny) x [0,nzp) read zero (EQUATIONS.md).
  // f is one of f_. Small, so that it inlines into the update loops: a Bloch model's read across
  // a periodic end takes the out-of-line at_turned.
  double at(const std::vector<double>& f, int i, int j, int k) const {
    if (bloch_ && ((m_.grid.periodic[0] && (i < 0 || i == nx_)) || (m_.grid.periodic[1] && (j < 0 || j == ny_)) ||
                   (m_.grid.periodic[2] && (k < 0 || k == nz_))))
      return at_turned(f, i, j, k);
    // A periodic axis (boundary.periodic): one step past either end is the other end.
    if (m_.grid.periodic[0]) i = i < 0 ? nx_ - 1 : i == nx_ ? 0 : i;
    if (m_.grid.periodic[1]) j = j < 0 ? ny_ - 1 : j == ny_ ? 0 : j;
    if (m_.grid.periodic[2]) k = k < 0 ? nz_ - 1 : k == nz_ ? 0 : k;
    // A magnetic wall on the low face (boundary.pmc): only tangential H is read one step before
    // it, and that is odd about the wall.
    if ((m_.grid.pmc[0] && i < 0) || (m_.grid.pmc[1] && j < 0) || (m_.grid.pmc[2] && k < 0))
      return -at(f, i < 0 && m_.grid.pmc[0] ? 0 : i, j < 0 && m_.grid.pmc[1] ? 0 : j,
                 k < 0 && m_.grid.pmc[2] ? 0 : k);
    // (unsigned compare: a negative index wraps to a huge value and fails the test too)
    if (static_cast<unsigned>(i) >= static_cast<unsigned>(nx_) ||
        static_cast<unsigned>(j) >= static_cast<unsigned>(ny_) ||
        static_cast<unsigned>(k) >= static_cast<unsigned>(nzp_)) {
      return 0.0;
    }
    return f[(static_cast<std::size_t>(i) * ny_ + j) * nzp_ + k];
  }
  // A Bloch model's (boundary.bloch_k) read one step past an end of a periodic axis: the other
  // end's value times exp(+-i phase) per axis crossed, (re + i im) exp(i turn), whose part in
  // this copy takes the other copy's with other_sign_.
  double at_turned(const std::vector<double>& f, int i, int j, int k) const;
  // The brackets C of the plain update: curl E (for H_u) and curl H (for E_u), u = 0, 1, 2.
  // Forced inline: they are the inner loop, and the branch on u then folds away.
  [[gnu::always_inline]] inline double curl_e(int u, int i, int j, int k) const;
  [[gnu::always_inline]] inline double curl_h(int u, int i, int j, int k) const;

  void update_h_plain();
  void update_h_upml();
  void update_e_plain();
  void update_e_upml();
  void apply_sources(long s);
  void apply_plane_waves(long s, bool magnetic_half);
  void apply_dispersion();

  const SimulationModel& m_;
  int nx_, ny_, nz_, nzp_;
  double dt_;
  double inv_dx_, inv_dy_, inv_dz_;
  std::array<int, 3> n_;

  std::array<std::vector<double>, 6> f_;    // Ex, Ey, Ez, Hx, Hy, Hz (padded layout)
  std::array<std::vector<double>, 3> aux_d_;  // UPML D/eps0 of Ex, Ey, Ez, per PML cell
  std::array<std::vector<double>, 3> aux_b_;  // UPML B/mu0 of Hx, Hy, Hz, per PML cell
  // A Bloch-periodic model's (grid.bloch()) imaginary part, as f_, aux_d_, aux_b_ (empty
  // otherwise). Each phase updates the real part in f_, swaps the two, updates the imaginary
  // part and swaps back; other_ points at the copy not in f_ and other_sign_ is -1 while f_
  // holds the real part (re' = cos re - sin im) and +1 for the imaginary (im' = cos im + sin re).
  std::array<std::vector<double>, 6> f_im_;
  std::array<std::vector<double>, 3> aux_d_im_, aux_b_im_;
  const std::array<std::vector<double>, 6>* other_ = &f_im_;
  double other_sign_ = -1;
  bool bloch_ = false;  // m_.grid.bloch()
  // Runs update() on the real part, then (a Bloch model) on the imaginary part.
  template <class F>
  void for_each_part(F&& update);
  // Dispersive samples' state (model/dispersion.hpp): [slot * count + sample], slot 0 the E of
  // the step before, then Q and K of each pole.
  std::vector<double> disp_;

  std::vector<ECoefficients> ec_;  // per material id
  std::vector<HCoefficients> hc_;  // per material id (only used when m.magnetic)
  HCoefficients h_vacuum_;

  ReferenceBatches batches_;  // kProbeBatchSteps slots of probes and energy
  // H at the previous sample_energy() (padded layout): Hx Hy Hz, then a Bloch model's imaginary.
  std::array<std::vector<double>, 6> h_prev_;

  // Per monitor (model order): DFT sums [point * frequencies + f] (flux, dft, farfield) and the
  // projection batch [slot * nmodes + mode] (modes); empty for the other kind.
  std::vector<std::vector<std::complex<double>>> dft_;
  std::vector<std::vector<double>> mode_batch_;
};

}  // namespace clfdtd
