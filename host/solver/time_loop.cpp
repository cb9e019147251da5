// Patent step 4: the time loop, in the order the step is defined in docs/EQUATIONS.md.
// The patent's "apply the source" (4.1) runs inside Backend::step after the E update, because the
// current density J at (s + 1/2) dt belongs to the E update from s to s + 1.
#include "solver/time_loop.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace clfdtd {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Collects probe samples into the backend's device batch and hands full batches to the sink,
// noting the first step at which a sample is NaN or infinite.
class ProbeBatcher {
public:
  ProbeBatcher(const ProbeSet& probes, bool cylindrical, Backend& backend, LoopSink& sink)
      : probes_(probes), cylindrical_(cylindrical), backend_(backend), sink_(sink),
        capacity_(backend.probe_batch_steps()) {}

  // record(step) reads the batch back (waiting for the device).
  bool reads_at(long step) const { return probes_.active(step) && slots_ + 1 == capacity_; }
  void record(long step) {
    if (!probes_.active(step)) return;
    if (slots_ == 0) first_step_ = step;
    backend_.sample_probes(slots_++);
    if (slots_ == capacity_) flush();
  }
  void flush() {
    if (slots_ == 0) return;
    backend_.read_probe_batch(slots_, values_);
    sink_.probe_rows(first_step_, slots_, values_);
    if (first_nonfinite_step_ < 0) find_nonfinite();
    slots_ = 0;
  }
  long first_nonfinite_step() const { return first_nonfinite_step_; }
  const std::string& nonfinite_sample() const { return nonfinite_sample_; }

private:
  void find_nonfinite() {
    const std::size_t n = probes_.samples.size();
    for (int slot = 0; slot < slots_; ++slot)
      for (std::size_t k = 0; k < n; ++k) {
        const std::size_t at = static_cast<std::size_t>(slot) * n + k;
        if (at < values_.size() && !std::isfinite(values_[at])) {
          const ProbeSample& sample = probes_.samples[k];
          first_nonfinite_step_ = first_step_ + slot;
          nonfinite_sample_ = probes_.probes.at(static_cast<std::size_t>(sample.probe)).name +
                              "." + (cylindrical_ ? cyl_component_name(sample.component)
                                                  : component_name(sample.component));
          return;
        }
      }
  }

  const ProbeSet& probes_;
  bool cylindrical_;  // names the sample Er .. Hz
  Backend& backend_;
  LoopSink& sink_;
  int capacity_;
  int slots_ = 0;
  long first_step_ = 0;
  std::vector<double> values_;
  long first_nonfinite_step_ = -1;
  std::string nonfinite_sample_;
};

// Samples the energy terms after every step into the backend's device batch and turns them into
// rows: the energy of step s is electric(s) + magnetic(s + 1), so a row waits for the next sample.
class EnergyBatcher {
public:
  EnergyBatcher(bool enabled, Backend& backend, LoopSink& sink)
      : enabled_(enabled), backend_(backend), sink_(sink), capacity_(backend.probe_batch_steps()) {}

  bool reads_at(long /*step*/) const { return enabled_ && slots_ + 1 == capacity_; }
  void record(long step) {
    if (!enabled_) return;
    if (slots_ == 0) first_step_ = step;
    backend_.sample_energy(slots_++);
    if (slots_ == capacity_) flush();
  }
  void flush() {
    if (!enabled_ || slots_ == 0) return;
    backend_.read_energy_batch(slots_, terms_);
    rows_.clear();
    for (int k = 0; k < slots_ && k < static_cast<int>(terms_.size()); ++k) {
      const EnergyTerms& t = terms_[static_cast<std::size_t>(k)];
      if (have_prev_) {
        rows_.push_back(EnergyRow{prev_step_, prev_.electric + t.magnetic, prev_.electric,
                                  t.magnetic, prev_.electric + prev_.magnetic_now});
      }
      prev_ = t;
      prev_step_ = first_step_ + k;
      have_prev_ = true;
    }
    slots_ = 0;
    if (!rows_.empty()) sink_.energy_rows(rows_);
  }

private:
  bool enabled_;
  Backend& backend_;
  LoopSink& sink_;
  int capacity_;
  int slots_ = 0;
  long first_step_ = 0;
  std::vector<EnergyTerms> terms_;
  std::vector<EnergyRow> rows_;
  EnergyTerms prev_;
  long prev_step_ = 0;
  bool have_prev_ = false;
};

// Samples one modes monitor every `every` steps into the backend's device batch and hands full
// batches (and the last, partial one) to the sink with their steps.
class ModeBatcher {
public:
  ModeBatcher(int monitor, const MonitorModel& mon, Backend& backend, LoopSink& sink)
      : monitor_(monitor), every_(std::max(1L, mon.every)), backend_(backend), sink_(sink),
        capacity_(backend.probe_batch_steps()) {}

  bool reads_at(long step) const {
    return step % every_ == 0 && static_cast<int>(steps_.size()) + 1 == capacity_;
  }
  void record(long step) {
    if (step % every_ != 0) return;
    backend_.sample_modes(monitor_, static_cast<int>(steps_.size()));
    steps_.push_back(step);
    if (static_cast<int>(steps_.size()) == capacity_) flush();
  }
  void flush() {
    if (steps_.empty()) return;
    backend_.read_mode_batch(monitor_, static_cast<int>(steps_.size()), values_);
    sink_.mode_rows(monitor_, steps_, values_);
    steps_.clear();
  }

private:
  int monitor_;
  long every_;
  Backend& backend_;
  LoopSink& sink_;
  int capacity_;
  std::vector<long> steps_;
  std::vector<double> values_;
};

bool has_dft_monitor(const SimulationModel& model) {
  for (const MonitorModel& mon : model.monitors) {
    if (mon.kind != MonitorKind::Modes) return true;
  }
  return false;
}

void take_snapshot(const SimulationModel& model, Backend& backend, LoopSink& sink, long step) {
  if (model.cylindrical()) {  // one complex field set per mode slot
    std::vector<std::array<std::vector<std::complex<float>>, 6>> modes(model.grid.modes.size());
    for (std::size_t q = 0; q < modes.size(); ++q)
      for (int c = 0; c < 6; ++c) {
        const bool wanted = c < 3 ? model.snapshot_e : model.snapshot_h;
        if (wanted) backend.read_mode_field(static_cast<int>(q), static_cast<Component>(c), modes[q][c]);
      }
    sink.mode_snapshot(step, modes);
    return;
  }
  std::array<std::vector<float>, 6> fields;
  for (int c = 0; c < 6; ++c) {
    const bool wanted = c < 3 ? model.snapshot_e : model.snapshot_h;
    if (wanted) backend.read_field(static_cast<Component>(c), fields[c]);
  }
  sink.snapshot(step, fields);
}

}  // namespace

LoopResult run_time_loop(const SimulationModel& model, Backend& backend, LoopSink& sink,
                         const std::function<void(const LoopProgress&)>& on_progress,
                         const LoopOptions& options) {
  const long total = model.grid.steps;
  // Cylindrical: every mode's (r, z) cells, as run.json's mcells_per_s counts them.
  const double cells = static_cast<double>(model.grid.cells()) *
                       (model.cylindrical() ? static_cast<double>(model.grid.modes.size()) : 1.0);
  ProbeBatcher probes(model.probes, model.cylindrical(), backend, sink);
  EnergyBatcher energy(model.energy, backend, sink);
  const bool dft = has_dft_monitor(model);
  std::vector<ModeBatcher> modes;
  for (std::size_t i = 0; i < model.monitors.size(); ++i) {
    if (model.monitors[i].kind == MonitorKind::Modes) {
      modes.emplace_back(static_cast<int>(i), model.monitors[i], backend, sink);
    }
  }
  auto next_snapshot = model.snapshot_steps.begin();
  LoopResult result;
  const auto loop_start = Clock::now();
  auto last_report = loop_start;

  // Output work (read-backs and writes) is timed apart so Mcells/s measures the field updates.
  // The DFT monitors' accumulation is device work of the step, timed with it: its weight upload
  // waits for the queued steps, which would otherwise count as output time.
  auto outputs_at = [&](long step) {
    if (dft) backend.accumulate_dft(step);
    // A read-back waits for the steps still queued on the device: that wait is the steps' time,
    // not the output's, so it is taken here, outside the output's clock.
    const bool snapshot = next_snapshot != model.snapshot_steps.end() && *next_snapshot == step;
    bool reads = snapshot || probes.reads_at(step) || energy.reads_at(step);
    for (const ModeBatcher& b : modes) reads = reads || b.reads_at(step);
    if (reads) backend.finish();
    const auto t0 = Clock::now();
    probes.record(step);
    energy.record(step);
    for (ModeBatcher& b : modes) b.record(step);
    if (next_snapshot != model.snapshot_steps.end() && *next_snapshot == step) {
      probes.flush();  // keep probes.csv ahead of the snapshot in case the run stops later
      take_snapshot(model, backend, sink, step);
      ++next_snapshot;
    }
    result.output_seconds += seconds_since(t0);
  };
  auto report = [&](long step) {
    LoopProgress p;
    p.step = step;
    p.total = total;
    p.elapsed_s = seconds_since(loop_start);
    const double compute_s = p.elapsed_s - result.output_seconds;
    p.mcells_per_s = compute_s > 0 ? cells * step / compute_s / 1e6 : 0;
    if (on_progress) on_progress(p);
  };

  // Ends the loop early at `done`: what was sampled is written, the result says why.
  auto stop_at = [&](long done) -> LoopResult {
    probes.flush();
    energy.flush();
    for (ModeBatcher& b : modes) b.flush();
    backend.finish();
    result.steps_done = done;
    result.first_nonfinite_probe_step = probes.first_nonfinite_step();
    result.nonfinite_probe = probes.nonfinite_sample();
    result.loop_seconds = seconds_since(loop_start) - result.output_seconds;
    return result;
  };

  const long check_every = std::max(1L, options.finite_check_interval_steps);
  const long sync_every = std::max(1L, options.sync_interval_steps);
  outputs_at(0);
  for (long s = 0; s < total; ++s) {
    backend.step(s);
    const long done = s + 1;
    outputs_at(done);
    if (done == options.checkpoint_step && options.at_checkpoint) {
      const auto t0 = Clock::now();
      options.at_checkpoint();
      result.output_seconds += seconds_since(t0);
    }
    if (options.steps_reached) *options.steps_reached = done;
    if (probes.first_nonfinite_step() >= 0) {  // a batch just read back holds NaN or inf
      result.finite = false;
      return stop_at(done);
    }
    const bool last = done == total;
    const bool check = done <= options.finite_check_first_steps ||
                       done % check_every == 0 || last;
    const bool sync = check || done % sync_every == 0;
    if (sync) backend.finish();
    if (check) {
      const auto t0 = Clock::now();
      const bool finite = backend.fields_finite();
      result.output_seconds += seconds_since(t0);
      if (!finite) {
        result.finite = false;
        return stop_at(done);
      }
      result.last_finite_step = done;
    }
    if (sync && (last || seconds_since(last_report) >= options.progress_interval_s)) {
      last_report = Clock::now();
      report(done);
    }
    if (!last && options.stop_requested && options.stop_requested()) {
      result.stopped = true;
      return stop_at(done);
    }
  }
  if (total == 0) report(0);
  LoopResult r = stop_at(total);
  if (r.first_nonfinite_probe_step >= 0) r.finite = false;  // seen in the last batch
  return r;
}

}  // namespace clfdtd
