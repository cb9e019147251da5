// The 2D reference engine: the x-y plane models of issue 19 (SimulationModel::two_d()) in double
// precision, as plain loops a reader can check against docs/EQUATIONS.md with d/dz = 0:
//   tm (Ez Hx Hy) and te (Ex Ey Hz) Yee updates, plain and UPML (the z profile neutral), sources
//   after E, probes, read_field, energy per metre of depth (dV = dx dy);
//   the scalar wave equation for tm Ez (equation = wave):
//     u^(n+1) = (1+ca) u^n - ca u^(n-1) + cb (dt/mu0) Lap u^n - cb (J[n] - J[n-1]),
//   which is Yee tm with H eliminated (plane_reference_wave.cpp derives it), so both equations
//   give the same Ez to rounding. Where the UPML is, H cannot be eliminated: the "frame" (the
//   PML cells plus one ring inside them) keeps Hx, Hy (compact, frame cells only) and the
//   auxiliaries (PML cells only) and is advanced by Yee tm with UPML.
// It is the oracle the 2D GPU engines (PlaneEngine, WaveEngine) are compared with cell by cell,
// so the discretisation is exactly the one of the contract, storage mirroring the device:
// the plane layout (FieldLayout::xy_plane, phi[i*nyp + j], padding j >= ny stays zero).
#pragma once
#include <array>
#include <complex>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "backends/reference/monitor_sums.hpp"
#include "backends/reference/reference_batches.hpp"

namespace clfdtd {

class PlaneReference final : public Backend {
public:
  static constexpr int kProbeBatchSteps = 256;

  // Keeps a reference to the model (a 2D one): it must outlive the backend. Throws ConfigError
  // for what the wave equation cannot carry (te, a magnetic material) and for a source that
  // drives a component the model does not carry.
  explicit PlaneReference(const SimulationModel& m);

  std::string name() const override { return "reference"; }
  std::string device_description() const override {
    return "host CPU (double precision reference)";
  }
  std::string kernel_variant() const override;  // "double loops, 2D tm", "... 2D wave"

  void step(long s) override;

  void sample_probes(int slot) override;
  void read_probe_batch(int slots, std::vector<double>& out) override;
  int probe_batch_steps() const override { return kProbeBatchSteps; }

  // out[i*ny + j], nx*ny values; components the model does not carry read zero.
  void read_field(Component c, std::vector<float>& out) override;
  bool fields_finite() override;
  void finish() override {}

  // Yee tm and te only (the wave equation keeps no H outside the frame).
  void sample_energy(int slot) override;
  void read_energy_batch(int slots, std::vector<EnergyTerms>& out) override;

  // Monitors (plane_reference_monitors.cpp): MonitorSums over the carried components' arrays
  // (with the wave equation, Ez alone).
  void accumulate_dft(long step) override;
  void read_dft(int monitor, std::vector<std::complex<double>>& out) override;
  void sample_modes(int monitor, int slot) override;
  void read_mode_batch(int monitor, int slots, std::vector<double>& out) override;

  // The bytes this engine holds (double fields, auxiliaries, batches): what it allocates.
  std::size_t device_bytes(const SimulationModel& m) const override;
  bool in_host_memory() const override { return true; }

  // Not part of Backend: the double-precision state over the plane layout (m.layout.index(i, j, 0)),
  // for tests. Components the model does not carry are empty; with the wave equation Ez is u and
  // Hx, Hy hold the frame's H only (compact, not the plane layout).
  const std::vector<double>& field(Component c) const;
  // Replaces the state of component c (plane layout, m.layout.cells() values): an initial field
  // for tests (a cavity mode). Yee models only (the wave equation also needs u one step back).
  void set_field(Component c, const std::vector<double>& values);
  // Wave equation: cells whose Ez is advanced by Yee tm (PML cells and the cells whose curl of H
  // reads a PML H sample); every other cell takes the wave update. False for Yee models.
  bool yee_ez_cell(int i, int j) const;

private:
  struct FrameBox {  // cells [i0,i1) x [j0,j1); their frame H start at offset, j fastest
    int i0 = 0, i1 = 0, j0 = 0, j1 = 0;
    std::size_t offset = 0;
  };

  bool wave() const { return m_.equation == Equation::Wave; }
  bool in_pml(int i, int j) const {
    const auto& L = m_.upml.layers;
    return i < L[0] || i >= nx_ - L[1] || j < L[2] || j >= ny_ - L[3];
  }
  bool inside(int i, int j) const {
    return static_cast<unsigned>(i) < static_cast<unsigned>(nx_) &&
           static_cast<unsigned>(j) < static_cast<unsigned>(ny_);
  }
  std::size_t cell(int i, int j) const { return m_.layout.index(i, j, 0); }
  // Where H of cell (i, j) is stored: the plane layout (Yee), the compact frame (wave).
  std::size_t h_slot(int i, int j) const;
  // A field value at (i, j); outside the grid zero (the PEC wall and past the high end).
  double e_at(const std::vector<double>& f, int i, int j) const {
    return inside(i, j) ? f[cell(i, j)] : 0.0;
  }
  double h_at(const std::vector<double>& f, int i, int j) const {
    return inside(i, j) ? f[h_slot(i, j)] : 0.0;
  }
  // The brackets C of the plain update (curl E for H, curl H for E) of component c at (i, j).
  // Forced inline: it is the inner loop, and the switch on c then folds away.
  [[gnu::always_inline]] inline double curl(Component c, int i, int j) const;

  // H to (s+1/2) dt in every cell whose H is stored (the plane, or the wave frame): plain cells,
  // then the UPML cells.
  void update_h();
  // E of component c, written to out (the same array for Yee; the next u for the wave equation).
  void update_e(Component c, std::vector<double>& out);
  void apply_sources(long s);
  void apply_plane_waves(long s, bool magnetic_half);
  void apply_dispersion();
  // The current density a source adds to its cell's E at step s (J at (s+1/2) dt; 0 past its
  // table): J[s], or J[s] - J[s-1] in a cell that takes the wave update.
  double source_term(const SourceModel& src, long s) const;

  // Wave equation (plane_reference_wave.cpp): the frame's boxes, the compact H slot of a frame
  // cell, and the wave update of every cell that is not a Yee Ez cell, written into u_prev_.
  void build_frame();
  std::size_t frame_slot(int i, int j) const;
  void update_wave_interior();
  // Calls f(i, j) for every cell whose H is stored.
  template <class F> void for_each_h_cell(F f) const;

  const SimulationModel& m_;
  int nx_, ny_;
  double dt_, inv_dx_, inv_dy_;
  std::vector<Component> e_comps_, h_comps_;  // the active ones (wave: Ez; the frame's Hx Hy)

  std::array<std::vector<double>, 6> f_;    // Ex..Hz: plane layout (H: compact frame, wave)
  std::vector<double> u_prev_;              // wave: Ez one step back (plane layout)
  std::array<std::vector<double>, 6> aux_;  // UPML D/eps0 (E) or B/mu0 (H) per PML cell
  // Dispersive samples' state (model/dispersion.hpp): [slot * count + sample], slot 0 the E of
  // the step before.
  std::vector<double> disp_;
  std::vector<FrameBox> frame_;             // wave: where H is stored
  std::size_t frame_cells_ = 0;

  std::vector<ECoefficients> ec_;  // per material id
  std::vector<HCoefficients> hc_;  // per material id (used when m.magnetic)
  HCoefficients h_vacuum_;

  ReferenceBatches batches_;  // kProbeBatchSteps slots of probes and energy
  std::array<std::vector<double>, 6> h_prev_;  // H at the previous sample_energy()

  void init_monitors();                   // plane_reference_monitors.cpp
  std::unique_ptr<MonitorSums> monitors_;  // null without monitors
};

}  // namespace clfdtd
