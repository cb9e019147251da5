// The 2D Yee engine: setup once, then one walk of the stage list per step (plane_engine.hpp).
#include "engine/plane/plane_engine.hpp"

#include <algorithm>

#include "backends/device_tables.hpp"
#include "engine/gpu_engine.hpp"
#include "engine/plane/plane_variant.hpp"
#include "errors.hpp"

namespace clfdtd::engine {

PlaneEngine::PlaneEngine(const SimulationModel& m, const DeviceConfig& cfg,
                         std::unique_ptr<device::Device> dev)
    : m_(m), dev_(std::move(dev)) {
  if (!m.two_d() || !m.layout.plane) {
    throw DeviceError("the 2D engine was given a 3D model (the 3D engine runs it)");
  }
  if (m.equation != Equation::Maxwell) {
    throw DeviceError(
        "the 2D Yee engine was given an equation = wave model (the wave engine runs it)");
  }
  const device::DeviceInfo& info = dev_->info();
  variant_ = resolve_plane_variant(cfg, info.type);
  std::array<std::size_t, 3> max_items{1, 1, 1};
  for (std::size_t d = 0; d < 3; ++d)
    max_items[d] = std::max<std::size_t>(1, info.max_group_dims[d]);
  const device::Program program = dev_->program(
      {{"TILE_X", 1}, {"TILE_Y", 1}, {"TILE_Z4", 1}, {"MAGNETIC", m.magnetic ? 1 : 0}});
  // The main kernels may allow fewer work-items than the device (registers).
  std::size_t max_group = info.max_group_size;
  for (const std::string& k : plane_main_kernels(m, variant_)) {
    max_group = std::min(max_group, program.kernel(k).max_group_size());
  }
  const WorkgroupRequest asked =
      plane_workgroup_request(cfg, variant_, m.mode, name(), device_description(), info.driver);
  tuned_ = asked.tuned;
  wg_ = choose_plane_workgroup(variant_, asked.workgroup, m.layout, max_group, max_items);
  // Checks the memory before allocating anything, then uploads.
  fields_ = std::make_unique<PlaneFields>(*dev_, m, kProbeBatchSteps);
  plan_ = plan_plane(program, m, *fields_, variant_, wg_);
  if (!m.monitors.empty()) {  // their buffers were checked with the fields' (plane_buffer_needs)
    monitors_ = std::make_unique<MonitorRunner>(
        MonitorInputs{*dev_, program, m, {fields_->field, fields_->field}}, kProbeBatchSteps,
        [this](const Stage& st, long value) { launch(st, value); });
  }
  dev_->finish();  // surface upload errors here, not in the first step
}

// Waits for queued work before the buffers and kernels go (they free themselves after this).
PlaneEngine::~PlaneEngine() {
  try {
    dev_->finish();
  } catch (...) {
    // Nothing can be reported from a destructor; the device frees what it can.
  }
}

std::string PlaneEngine::name() const { return device::api_name(dev_->info().api); }

std::string PlaneEngine::device_description() const {
  const device::DeviceInfo& info = dev_->info();
  std::string in = info.platform;
  if (!info.version.empty()) in += (in.empty() ? "" : ", ") + info.version;
  return info.name + " (" + in + ")";
}

std::string PlaneEngine::kernel_variant() const {
  std::string text = std::string(variant_ == KernelVariant::Rows ? "plane-rows " : "plane-tile ") +
                     std::to_string(wg_[0]) + "x" + std::to_string(wg_[1]) + "x" +
                     std::to_string(wg_[2]);
  const std::string& target = dev_->info().code_target;
  if (!target.empty()) text += " (" + target + ")";
  return text + (tuned_ ? " (tuned)" : "");
}

std::size_t PlaneEngine::device_bytes(const SimulationModel& m) const {
  return plane_device_bytes(m, kProbeBatchSteps);
}

void PlaneEngine::launch(const Stage& st, long value) {
  device::Kernel k = st.kernel[0];
  if (st.value_arg >= 0) k.set(static_cast<unsigned>(st.value_arg), static_cast<int>(value));
  dev_->launch(k, st.global, st.local);
}

// One time step, s -> s + 1: H to (s + 1/2) dt (interior, then PML cells), E to (s + 1) dt,
// then the sources' J at (s + 1/2) dt; the plan lists the stages in that order.
void PlaneEngine::step(long s) {
  for (const Stage& st : plan_.step) {
    if (s >= 0 && s < st.runs_below) launch(st, s);
  }
}

void PlaneEngine::sample_probes(int slot) {
  if (fields_->nsamples == 0) return;
  if (slot < 0 || slot >= kProbeBatchSteps) {
    throw DeviceError("probe batch slot " + std::to_string(slot) + " outside 0.." +
                      std::to_string(kProbeBatchSteps - 1));
  }
  launch(plan_.probes, slot);
}

void PlaneEngine::read_probe_batch(int slots, std::vector<double>& out) {
  out.clear();
  const int n = fields_->nsamples;
  if (n == 0 || slots <= 0) return;
  slots = std::min(slots, kProbeBatchSteps);
  std::vector<float> buf(static_cast<std::size_t>(slots) * n);
  dev_->read(fields_->probe_batch, buf.data(), buf.size() * sizeof(float));
  out.assign(buf.begin(), buf.end());
}

void PlaneEngine::read_field(Component c, std::vector<float>& out) {
  const auto& L = m_.layout;
  out.assign(static_cast<std::size_t>(L.nx) * L.ny, 0.0f);
  if (out.empty() || !m_.is_active(c)) return;
  // One rectangular read drops the y padding: rows of ny floats out of rows of nyp floats.
  device::Rect r;
  r.row_bytes = static_cast<std::size_t>(L.ny) * sizeof(float);
  r.rows = static_cast<std::size_t>(L.nx);
  r.row_pitch = L.nyp() * sizeof(float);
  r.slice_pitch = r.row_pitch * r.rows;
  dev_->read_rect(fields_->field[static_cast<int>(c)], r, out.data());
}

bool PlaneEngine::fields_finite() {
  std::int32_t flag = 0;
  dev_->fill_zero(fields_->flag);
  launch(plan_.finite, 0);
  dev_->read(fields_->flag, &flag, sizeof flag);
  return flag == 0;
}

void PlaneEngine::finish() { dev_->finish(); }

void PlaneEngine::sample_energy(int slot) {
  if (!m_.energy) throw DeviceError("sample_energy: the model was built without output.energy");
  if (slot < 0 || slot >= kProbeBatchSteps) {
    throw DeviceError("energy batch slot " + std::to_string(slot) + " outside 0.." +
                      std::to_string(kProbeBatchSteps - 1));
  }
  launch(plan_.energy, slot);
}

void PlaneEngine::read_energy_batch(int slots, std::vector<EnergyTerms>& out) {
  out.clear();
  if (!m_.energy || slots <= 0) return;
  slots = std::min(slots, kProbeBatchSteps);
  const auto groups = static_cast<std::size_t>(fields_->energy_groups);
  std::vector<float> buf(static_cast<std::size_t>(slots) * 3 * groups);
  dev_->read(fields_->energy_partial, buf.data(), buf.size() * sizeof(float));
  out = energy_terms_from_partials(buf, slots, groups, m_);
}

double PlaneEngine::timed_steps(long first, long count) {
  if (count <= 0) return 0;
  finish();
  dev_->timer_start();
  for (long s = first; s < first + count; ++s) step(s);
  return dev_->timer_stop();
}

double PlaneEngine::copy_bandwidth() { return device_copy_bandwidth(*dev_); }

std::unique_ptr<Backend> make_plane_engine(device::Api api, const SimulationModel& m,
                                           const DeviceConfig& cfg) {
  const std::vector<device::DeviceInfo> devices = device::list_devices(api);
  if (devices.empty()) {
    throw DeviceError(std::string("no ") + (api == device::Api::Cuda ? "CUDA" : "OpenCL") +
                      " device found (no driver, platform or device on this machine)");
  }
  const auto at = static_cast<std::size_t>(device::choose_device(devices, cfg.select));
  return std::make_unique<PlaneEngine>(m, cfg, device::open_device(api, devices[at].index));
}

void PlaneEngine::accumulate_dft(long step) {
  if (monitors_) monitors_->accumulate_dft(step);
}

void PlaneEngine::read_dft(int monitor, std::vector<std::complex<double>>& out) {
  if (!monitors_) throw DeviceError("read_dft: the model has no monitors");
  monitors_->read_dft(monitor, out);
}

void PlaneEngine::sample_modes(int monitor, int slot) {
  if (!monitors_) throw DeviceError("sample_modes: the model has no monitors");
  monitors_->sample_modes(monitor, slot);
}

void PlaneEngine::read_mode_batch(int monitor, int slots, std::vector<double>& out) {
  if (!monitors_) throw DeviceError("read_mode_batch: the model has no monitors");
  monitors_->read_mode_batch(monitor, slots, out);
}

}  // namespace clfdtd::engine
