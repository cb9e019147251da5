// What every engine on the device API shares (device_engine.hpp).
#include "engine/device_engine.hpp"

#include <algorithm>
#include <cstdint>
#include <initializer_list>

#include "backends/device_tables.hpp"
#include "errors.hpp"

namespace clfdtd::engine {

DeviceEngine::DeviceEngine(const SimulationModel& m, std::unique_ptr<device::Device> dev)
    : m_(m), dev_(std::move(dev)) {}

DeviceEngine::~DeviceEngine() { wait_before_release(); }

void DeviceEngine::wait_before_release() noexcept {
  try {
    dev_->finish();
  } catch (...) {
    // Nothing can be reported from a destructor; the device frees what it can.
  }
}

std::string DeviceEngine::name() const { return device::api_name(dev_->info().api); }

std::string DeviceEngine::device_description() const {
  const device::DeviceInfo& info = dev_->info();
  std::string in = info.platform;
  if (!info.version.empty()) in += (in.empty() ? "" : ", ") + info.version;
  return info.name + " (" + in + ")";
}

std::string DeviceEngine::variant_text(const std::string& name, const std::string& detail) const {
  std::string text = name + " " + std::to_string(wg_[0]) + "x" + std::to_string(wg_[1]) + "x" +
                     std::to_string(wg_[2]) + detail;
  const std::string& target = dev_->info().code_target;
  if (!target.empty()) text += " (" + target + ")";
  return text + (tuned_ ? " (tuned)" : "");
}

DeviceEngine::UntiledProgram DeviceEngine::untiled_program(
    const std::array<std::string, 2>& main_kernels) {
  const device::DeviceInfo& info = dev_->info();
  UntiledProgram out;
  for (std::size_t d = 0; d < 3; ++d)
    out.max_items[d] = std::max<std::size_t>(1, info.max_group_dims[d]);
  out.program = dev_->program(
      {{"TILE_X", 1}, {"TILE_Y", 1}, {"TILE_Z4", 1}, {"MAGNETIC", m_.magnetic ? 1 : 0}});
  out.max_group = info.max_group_size;
  for (const std::string& k : main_kernels) {
    out.max_group = std::min(out.max_group, out.program.kernel(k).max_group_size());
  }
  return out;
}

device::Device::Launch DeviceEngine::launch_of(const Stage& st, long value) const {
  device::Kernel k = st.kernel[static_cast<std::size_t>(parity_)];
  if (st.value_arg >= 0) k.set(static_cast<unsigned>(st.value_arg), static_cast<int>(value));
  return {k, st.global, st.local};
}

void DeviceEngine::launch(const Stage& st, long value) {
  const device::Device::Launch l = launch_of(st, value);
  dev_->launch(l.kernel, l.global, l.local);
}

void DeviceEngine::launch_together(const std::vector<TogetherStage>& stages, long value) {
  std::vector<device::Device::Launch> launches;
  for (const TogetherStage& t : stages) {
    launches.push_back(launch_of(*t.stage, value));
    launches.back().after_previous = t.after_previous;
  }
  dev_->launch_together(launches);
}

void DeviceEngine::run_step_stages(const StepPlan& plan, long s) {
  for (Phase phase : {Phase::H, Phase::HE, Phase::E, Phase::Sources}) {
    for (const Stage& st : plan) {
      if (st.phase == phase && s >= 0 && s < st.runs_below) launch(st, s);
    }
    if (phase == Phase::H && hooks_.after_h) hooks_.after_h(s);
    if (phase == Phase::Sources && hooks_.after_e) hooks_.after_e(s);
  }
}

void DeviceEngine::run_split_step(const StepPlan& edges, const StepPlan& rest, long s) {
  auto run = [&](const StepPlan& plan, std::initializer_list<Phase> phases) {
    for (Phase phase : phases)
      for (const Stage& st : plan)
        if (st.phase == phase && s >= 0 && s < st.runs_below) launch(st, s);
  };
  run(edges, {Phase::H});
  if (hooks_.after_h_edges) hooks_.after_h_edges(s);
  run(rest, {Phase::H});
  if (hooks_.after_h) hooks_.after_h(s);
  run(edges, {Phase::E, Phase::Sources});
  if (hooks_.after_e_edges) hooks_.after_e_edges(s);
  run(rest, {Phase::E, Phase::Sources});
  if (hooks_.after_e) hooks_.after_e(s);
}

void DeviceEngine::start_monitors(const MonitorInputs& in) {
  if (m_.monitors.empty()) return;
  monitors_ = std::make_unique<MonitorRunner>(
      in, kProbeBatchSteps, [this](const Stage& st, long value) { launch(st, value); });
}

void DeviceEngine::read_unpadded(const device::Buffer& field, std::vector<float>& out) {
  const FieldLayout& L = m_.layout;
  // One rectangular read drops the padding of the innermost axis (z in 3D, y in 2D).
  const std::size_t inner = L.plane ? static_cast<std::size_t>(L.ny) : static_cast<std::size_t>(L.nz);
  const std::size_t pitch = L.plane ? L.nyp() : L.nzp();
  device::Rect r;
  r.row_bytes = inner * sizeof(float);
  r.rows = L.plane ? static_cast<std::size_t>(L.nx) : static_cast<std::size_t>(L.nx) * L.ny;
  r.row_pitch = pitch * sizeof(float);
  r.slice_pitch = r.row_pitch * r.rows;
  dev_->read_rect(field, r, out.data());
}

void DeviceEngine::check_slot(const char* what, int slot) const {
  if (slot < 0 || slot >= kProbeBatchSteps) {
    throw DeviceError(std::string(what) + " batch slot " + std::to_string(slot) + " outside 0.." +
                      std::to_string(kProbeBatchSteps - 1));
  }
}

void DeviceEngine::sample_probes(int slot) {
  if (nsamples_ == 0) return;
  check_slot("probe", slot);
  if (sample_deferred_probes(slot)) return;
  run_deferred_steps();
  launch(probes_, slot);
}

void DeviceEngine::read_probe_batch(int slots, std::vector<double>& out) {
  out.clear();
  if (nsamples_ == 0 || slots <= 0) return;
  slots = std::min(slots, kProbeBatchSteps);
  std::vector<float> buf(static_cast<std::size_t>(slots) * nsamples_);
  dev_->read(probe_batch_, buf.data(), buf.size() * sizeof(float));
  out.assign(buf.begin(), buf.end());
}

bool DeviceEngine::fields_finite() {
  std::int32_t flag = 0;
  run_deferred_steps();
  dev_->fill_zero(finite_flag_);
  launch(finite_, 0);
  dev_->read(finite_flag_, &flag, sizeof flag);
  return flag == 0;
}

void DeviceEngine::finish() {
  run_deferred_steps();
  dev_->finish();
}

void DeviceEngine::sample_energy(int slot) {
  if (!has_energy_) return Backend::sample_energy(slot);
  if (!m_.energy) throw DeviceError("sample_energy: the model was built without output.energy");
  check_slot("energy", slot);
  run_deferred_steps();
  launch(energy_, slot);
}

void DeviceEngine::read_energy_batch(int slots, std::vector<EnergyTerms>& out) {
  if (!has_energy_) return Backend::read_energy_batch(slots, out);
  out.clear();
  if (!m_.energy || slots <= 0) return;
  slots = std::min(slots, kProbeBatchSteps);
  const auto groups = static_cast<std::size_t>(energy_groups_);
  std::vector<float> buf(static_cast<std::size_t>(slots) * 3 * groups);
  dev_->read(energy_partial_, buf.data(), buf.size() * sizeof(float));
  out = energy_terms_from_partials(buf, slots, groups, m_);
}

void DeviceEngine::accumulate_dft(long step) {
  if (!monitors_ || !monitors_->dft_due(step)) return;  // a deferred step may stay deferred
  run_deferred_steps();
  monitors_->accumulate_dft(step);
}

void DeviceEngine::read_dft(int monitor, std::vector<std::complex<double>>& out) {
  if (!monitors_) throw DeviceError("read_dft: the model has no monitors");
  monitors_->read_dft(monitor, out);
}

void DeviceEngine::sample_modes(int monitor, int slot) {
  if (!monitors_) throw DeviceError("sample_modes: the model has no monitors");
  run_deferred_steps();
  monitors_->sample_modes(monitor, slot);
}

void DeviceEngine::read_mode_batch(int monitor, int slots, std::vector<double>& out) {
  if (!monitors_) throw DeviceError("read_mode_batch: the model has no monitors");
  monitors_->read_mode_batch(monitor, slots, out);
}

double DeviceEngine::timed_steps(long first, long count) {
  if (count <= 0) return 0;
  finish();
  dev_->timer_start();
  for (long s = first; s < first + count; ++s) step(s);
  run_deferred_steps();
  return dev_->timer_stop();
}

double device_copy_bandwidth(device::Device& dev) {
  const device::DeviceInfo& info = dev.info();
  // Large enough to leave every cache behind, small enough to fit beside a model.
  std::size_t bytes = std::size_t{512} << 20;
  bytes = std::min(bytes, info.max_alloc_bytes / 2);
  bytes = std::min(bytes, dev.available_bytes() / 8);
  bytes = bytes / 4096 * 4096;
  if (bytes < (std::size_t{1} << 20)) return 0;
  device::Buffer a = dev.alloc(bytes), b = dev.alloc(bytes);
  dev.fill_zero(a);
  dev.fill_zero(b);
  dev.finish();
  double best = 0;
  for (int rep = 0; rep < 6; ++rep) {  // the first copy pays for first-touch work
    dev.timer_start();
    dev.copy(b, a, bytes);
    const double sec = dev.timer_stop();
    if (rep > 0 && sec > 0) best = std::max(best, 2.0 * static_cast<double>(bytes) / sec);
  }
  return best;
}

double DeviceEngine::copy_bandwidth() { return device_copy_bandwidth(*dev_); }

std::unique_ptr<device::Device> open_engine_device(device::Api api, const DeviceConfig& cfg) {
  // One engine, one device: a list is the cylindrical multi-device engine's (or mpirun's).
  if (device::split_device_select(cfg.select).size() > 1) {
    throw ConfigError("", 0, "device.select",
                      "one device: a list of devices needs a cylindrical model, or mpirun");
  }
  const std::vector<device::DeviceInfo> devices = device::list_devices(api);
  if (devices.empty()) {
    throw DeviceError(std::string("no ") + (api == device::Api::Cuda ? "CUDA" : "OpenCL") +
                      " device found (no driver, platform or device on this machine)");
  }
  const auto at = static_cast<std::size_t>(device::choose_device(devices, cfg.select));
  return device::open_device(api, devices[at].index);
}

}  // namespace clfdtd::engine
