// Patent step 4: the time loop. Runs the backend step by step, samples probes into device batches,
// reads back what probes and snapshots need when they need it, drives the monitors (the DFT
// accumulation after every step, the mode projections in batches), checks for non-finite fields,
// and reports progress through a callback (the solver never prints). The DFT monitors' transforms
// stay on the backend: the caller reads them with Backend::read_dft after the loop.
#pragma once
#include <array>
#include <complex>
#include <functional>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "model/simulation_model.hpp"

namespace clfdtd {

// One row of energy.csv: the field energy at `step` in joules (docs/EQUATIONS.md, Energy).
struct EnergyRow {
  long step = 0;
  double total = 0;     // electric + magnetic: what the Yee scheme conserves (without loss/source)
  double electric = 0;  // 1/2 sum eps E.E dV, E at step dt
  double magnetic = 0;  // 1/2 sum mu H.H' dV, H at (step - 1/2) dt and H' at (step + 1/2) dt
  double naive = 0;     // electric + 1/2 sum mu H.H dV, H at (step - 1/2) dt: not conserved
};

// Where the loop's read-backs go (the CLI connects them to probes.csv and the .vti writers).
class LoopSink {
public:
  virtual ~LoopSink() = default;
  // values[slot * samples + sample] for steps first_step .. first_step + count - 1.
  virtual void probe_rows(long first_step, int count, const std::vector<double>& values) = 0;
  // fields[c]: component c unpadded ((i*ny + j)*nz + k); empty for components not saved.
  virtual void snapshot(long step, const std::array<std::vector<float>, 6>& fields) = 0;
  // Cylindrical models take this instead of snapshot(): modes[q][c] is mode slot q's complex
  // component c (Backend::read_mode_field, i*nz + k); empty for components not saved.
  virtual void mode_snapshot(
      long /*step*/, const std::vector<std::array<std::vector<std::complex<float>>, 6>>& /*modes*/) {}
  // Energy rows in step order (only when model.energy); the last row is step steps_done - 1,
  // because the energy of a step needs H from the step after it.
  virtual void energy_rows(const std::vector<EnergyRow>& /*rows*/) {}
  // A modes monitor's projections (model.monitors[monitor]), in step order:
  // values[row * nmodes + mode] at steps[row] (every `every` steps, Backend::sample_modes).
  virtual void mode_rows(int /*monitor*/, const std::vector<long>& /*steps*/,
                         const std::vector<double>& /*values*/) {}
};

struct LoopProgress {
  long step = 0, total = 0;     // steps done, steps planned
  double elapsed_s = 0;         // wall time of the loop so far (outputs included)
  double mcells_per_s = 0;      // cells (cylindrical: x modes) * steps / compute seconds (outputs excluded)
};

struct LoopResult {
  long steps_done = 0;
  double loop_seconds = 0;      // wall time spent stepping the fields (device work, outputs excluded)
  double output_seconds = 0;    // wall time spent reading back and writing outputs
  bool finite = true;           // false: stopped at steps_done on non-finite field values
  long last_finite_step = 0;    // the last step at which all fields were checked finite
  // The first step at which a probe sample read back was NaN or infinite (exact, since every
  // sample is read back), -1 if none was; and which one ("<probe>.<field>").
  long first_nonfinite_probe_step = -1;
  std::string nonfinite_probe;
  bool stopped = false;         // true: stopped at steps_done because stop_requested() said so
};

struct LoopOptions {
  double progress_interval_s = 1.0;  // how often on_progress is called
  long sync_interval_steps = 32;     // wait for the device this often so timing and progress are true
  // Fields are checked for NaN/inf after each of the first steps (where a model that cannot work
  // shows it), then every finite_check_interval_steps. A check reads the six fields once (24
  // bytes per cell); the leanest step (onepass, 56.4 bytes per cell at 512^3 on the H200, see
  // docs/BENCHMARKS.md) moves more than twice that, so a check costs under half a step: every
  // 128 steps under 0.35% of the loop (every 64 would be ~0.7%). Probe samples are scanned for
  // every step as they are read back, so a probe gives the exact first non-finite step.
  long finite_check_first_steps = 8;
  long finite_check_interval_steps = 128;
  // Asked after every step; true stops the loop there (outputs flushed), e.g. on SIGINT.
  std::function<bool()> stop_requested;
  // When set, kept at the steps done whose outputs were taken: what a caller whose loop ended in
  // an exception reports as done (the partial run.json's steps_done).
  long* steps_reached = nullptr;
  // Called once, after the outputs of step checkpoint_step (a loop stopped before it never
  // calls it): what the caller reads there to compare with the end (output/dft_convergence.hpp).
  long checkpoint_step = -1;
  std::function<void()> at_checkpoint;
};

LoopResult run_time_loop(const SimulationModel& model, Backend& backend, LoopSink& sink,
                         const std::function<void(const LoopProgress&)>& on_progress,
                         const LoopOptions& options = {});

}  // namespace clfdtd
