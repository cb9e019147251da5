// What every engine on the device API (host/device/device.hpp) shares, whatever it solves: the
// model it runs, the opened device, the work-group it chose, the stages run between steps
// (probes, the finite check, energy where the engine has it: stage.hpp) with the buffers they
// fill, the monitors' runner (monitor_stages.hpp), and the Backend members that only read or
// drive those (names, probe and energy batches, monitors, timers, bandwidth). A derived engine
// builds its buffers and stage lists in its constructor, fills the members below, and keeps
// only what differs: step(), read_field(), kernel_variant(), device_bytes().
// The 3D Yee engine (gpu_engine.hpp), the 2D Yee engine (plane/plane_engine.hpp), the 2D wave
// engine (wave/wave_engine.hpp) and the cylindrical engine (cyl/cyl_engine.hpp) derive from it.
#pragma once
#include <array>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "device/device.hpp"
#include "engine/monitor_stages.hpp"
#include "engine/stage.hpp"

namespace clfdtd::engine {

class DeviceEngine : public Backend {
public:
  static constexpr int kProbeBatchSteps = 256;

  // Waits for queued work before the monitors' buffers and the device go. A derived engine's
  // destructor calls wait_before_release() first, for its own buffers.
  ~DeviceEngine() override;

  std::string name() const override;                // "opencl", "cuda"
  std::string device_description() const override;  // "<device> (<platform>, <version>)"

  void sample_probes(int slot) override;
  void read_probe_batch(int slots, std::vector<double>& out) override;
  int probe_batch_steps() const override { return kProbeBatchSteps; }
  bool fields_finite() override;
  void finish() override;
  // Energy where the derived engine has it (has_energy_; else Backend's refusal).
  void sample_energy(int slot) override;
  void read_energy_batch(int slots, std::vector<EnergyTerms>& out) override;
  // Monitors (monitor_stages.hpp), once the derived engine started them (start_monitors).
  void accumulate_dft(long step) override;
  void read_dft(int monitor, std::vector<std::complex<double>>& out) override;
  void sample_modes(int monitor, int slot) override;
  void read_mode_batch(int monitor, int slots, std::vector<double>& out) override;
  double timed_steps(long first, long count) override;  // the device's timers
  double copy_bandwidth() override;  // best of five device-to-device copies, device-timed
  bool has_device_timers() const override { return dev_->last_timing_on_device(); }
  std::string driver_version() const override { return dev_->info().driver; }

  const device::DeviceInfo& device_info() const { return dev_->info(); }
  // The opened device, for an owner that adds its own launches between the phases of a step.
  device::Device& device() { return *dev_; }
  // Called by every step(s) after its H phase (H at (s + 1/2) dt) and after its E phase and
  // sources (E at (s + 1) dt), on the engine's queue order: the halo exchange of a model split
  // over ranks (parallel/halo_exchange.hpp) runs there. Empty functions: nothing. Not run
  // inside a onepass step (its HE phase updates H and E in one pass).
  // A step split by rows (run_split_step) runs each phase over the edge rows first and calls
  // after_h_edges / after_e_edges then (the phase's edge rows are final: the exchange can start
  // while the rest is computed), and after_h / after_e once the rest is launched too.
  struct StepHooks {
    std::function<void(long)> after_h, after_e;
    std::function<void(long)> after_h_edges, after_e_edges;
  };
  void set_step_hooks(StepHooks hooks) { hooks_ = std::move(hooks); }
  std::array<int, 3> workgroup() const { return wg_; }
  // Bytes of the monitors' buffers as allocated (0 without monitors): part of device_bytes().
  std::size_t monitor_bytes_allocated() const {
    return monitors_ ? monitors_->allocated_bytes() : 0;
  }

protected:
  DeviceEngine(const SimulationModel& m, std::unique_ptr<device::Device> dev);

  // Runs one stage on the current field set (kernel[parity_]), its value argument set to `value`.
  void launch(const Stage& st, long value);
  // The same for stages that may run at the same time (device::Device::launch_together), each
  // marked whether it runs after the one before it on that one's queue. Every value argument is
  // set before anything is enqueued, so two stages sharing a kernel object would both run with
  // the last value: the stages hold kernel objects of their own.
  struct TogetherStage {
    const Stage* stage;
    bool after_previous;
  };
  void launch_together(const std::vector<TogetherStage>& stages, long value);
  // Stage `st`'s kernel for the current field set, its value argument set to `value`.
  device::Device::Launch launch_of(const Stage& st, long value) const;
  // Runs the step stages of `plan` for step s, phase by phase (H, H+E, E, sources), each in
  // list order, those whose runs_below exceeds s only.
  void run_step_stages(const StepPlan& plan, long s);
  // The same over a step split by rows: H of `edges`, after_h_edges, H of `rest`, after_h, then
  // E and sources of `edges`, after_e_edges, E and sources of `rest`, after_e.
  void run_split_step(const StepPlan& edges, const StepPlan& rest, long s);
  // Allocates the monitors' buffers (the derived engine checked their memory with its own) and
  // binds their stages over `in`'s field sets; nothing when the model has no monitors.
  void start_monitors(const MonitorInputs& in);
  // "<name> WxHxD<detail>", then " (<code target>)" where the device has one (CUDA: "sm_90"),
  // then " (tuned)" when the work-group came from the tuning cache (tuned_).
  std::string variant_text(const std::string& name, const std::string& detail = "") const;
  // Copies a field buffer in the model's layout to out, unpadded: 3D out[(i*ny + j)*nz + k]
  // from rows of nzp floats, 2D (FieldLayout::xy_plane) out[i*ny + j] from rows of nyp floats.
  void read_unpadded(const device::Buffer& field, std::vector<float>& out);
  // The program of the untiled kernels (TILE_* = 1, MAGNETIC as the model) and the largest
  // work-group the device and both `main_kernels` allow (they may allow fewer items than the
  // device: registers), with the device's per-dimension limits.
  struct UntiledProgram {
    device::Program program;
    std::size_t max_group = 1;
    std::array<std::size_t, 3> max_items{1, 1, 1};
  };
  UntiledProgram untiled_program(const std::array<std::string, 2>& main_kernels);
  // Takes the samplers of a plan and the buffers they fill from the engine's fields (any type
  // with probe_batch, flag, nsamples, energy_partial and energy_groups), energy included.
  template <class Fields>
  void take_samplers(const Stage& probes, const Stage& finite, const Stage& energy,
                     const Fields& f) {
    probes_ = probes;
    finite_ = finite;
    probe_batch_ = f.probe_batch;
    finite_flag_ = f.flag;
    nsamples_ = f.nsamples;
    has_energy_ = true;
    energy_ = energy;
    energy_partial_ = f.energy_partial;
    energy_groups_ = f.energy_groups;
  }
  // Runs the steps a derived engine deferred (tblock pairs steps), before anything reads the
  // fields or waits for the device: the samplers, finish() and timed_steps() call it.
  virtual void run_deferred_steps() {}
  // Records the probe samples of the step a derived engine deferred, without running it, into
  // batch slot `slot`; false where it cannot (then the step runs first and the samples are read).
  virtual bool sample_deferred_probes(int /*slot*/) { return false; }
  // What the derived destructor calls before its buffers go: finish(), errors swallowed.
  void wait_before_release() noexcept;

  const SimulationModel& m_;
  std::unique_ptr<device::Device> dev_;
  std::array<int, 3> wg_{};
  bool tuned_ = false;  // wg_ (and the variant) came from the tuning cache
  int parity_ = 0;  // steps taken, mod 2: which field set is current (stage.hpp)

  // Set by the derived constructor. Probes: sample_probes (value = batch slot) filling
  // probe_batch_[slot * nsamples_ + sample]; finite: check_finite raising finite_flag_.
  Stage probes_, finite_;
  device::Buffer probe_batch_, finite_flag_;
  int nsamples_ = 0;
  // output.energy, where the engine has it (has_energy_): energy_sums (value = batch slot)
  // filling energy_partial_[slot][3][group] when the model asks for energy.
  bool has_energy_ = false;
  Stage energy_;
  device::Buffer energy_partial_;
  int energy_groups_ = 0;

private:
  void check_slot(const char* what, int slot) const;

  std::unique_ptr<MonitorRunner> monitors_;  // null when the model has no monitors
  StepHooks hooks_;
};

// The device's copy bandwidth in bytes per second (read + write counted): the best of five
// device-to-device copies of a large buffer, device-timed; 0 when too little memory is free.
double device_copy_bandwidth(device::Device& dev);

// Opens the device of `api` that cfg.select names (device::choose_device), for an engine.
// Throws ConfigError (no such device, or a list of devices), DeviceError (none at all).
std::unique_ptr<device::Device> open_engine_device(device::Api api, const DeviceConfig& cfg);

}  // namespace clfdtd::engine
