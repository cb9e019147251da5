// The GPU engine: setup once, then one walk of the stage list per step (gpu_engine.hpp).
#include "engine/gpu_engine.hpp"

#include <algorithm>

#include "backends/device_tables.hpp"
#include "backends/tuning_cache.hpp"
#include "engine/plan.hpp"
#include "engine/variant_choice.hpp"
#include "errors.hpp"

namespace clfdtd::engine {

const char* phase_name(Phase p) {
  switch (p) {
    case Phase::H: return "H";
    case Phase::HE: return "H+E";
    case Phase::E: return "E";
    case Phase::Sources: return "sources";
    case Phase::Sample: return "sample";
  }
  return "?";
}

GpuEngine::GpuEngine(const SimulationModel& m, const DeviceConfig& cfg,
                     std::unique_ptr<device::Device> dev)
    : m_(m), dev_(std::move(dev)) {
  const device::DeviceInfo& info = dev_->info();
  std::optional<TunedChoice> tuned;
  if (cfg.variant == KernelVariant::Auto && !cfg.workgroup) {
    tuned = lookup_tuning(tuning_key(name(), device_description(), info.driver));
  }
  const bool fits_onepass = variant_device_bytes(m, KernelVariant::OnePass, kProbeBatchSteps) <=
                            dev_->available_bytes();
  const VariantRequest request = resolve_variant(cfg, info.type, fits_onepass, tuned);
  BuiltProgram built = build_variant_program(*dev_, m, request);
  variant_ = request.variant;
  tuned_ = request.tuned;
  wg_ = built.workgroup;
  // Checks the memory before allocating anything, then uploads.
  fields_ = std::make_unique<YeeFields>(*dev_, m, variant_, kProbeBatchSteps);
  const PlanInputs in{*dev_, built.program, m, *fields_, variant_, wg_};
  plan_ = variant_ == KernelVariant::OnePass ? plan_onepass(in)
          : variant_ == KernelVariant::Rows  ? plan_rows(in)
                                             : plan_tile(in);
  Samplers samplers = plan_samplers(in);
  probes_ = samplers.probes;
  energy_ = samplers.energy;
  finite_ = samplers.finite;
  if (!m.monitors.empty()) {
    monitors_ = std::make_unique<MonitorRunner>(
        in, kProbeBatchSteps, [this](const Stage& st, long value) { launch(st, value); });
  }
  dev_->finish();  // surface upload errors here, not in the first step
}

// Waits for queued work before the buffers and kernels go (they free themselves after this).
GpuEngine::~GpuEngine() {
  try {
    dev_->finish();
  } catch (...) {
    // Nothing can be reported from a destructor; the device frees what it can.
  }
}

std::string GpuEngine::name() const { return device::api_name(dev_->info().api); }

std::string GpuEngine::device_description() const {
  const device::DeviceInfo& info = dev_->info();
  std::string in = info.platform;
  if (!info.version.empty()) in += (in.empty() ? "" : ", ") + info.version;
  return info.name + " (" + in + ")";
}

std::string GpuEngine::kernel_variant() const {
  const char* name = variant_ == KernelVariant::Rows      ? "rows "
                     : variant_ == KernelVariant::OnePass ? "onepass "
                                                          : "float4-tile ";
  std::string text = name + std::to_string(wg_[0]) + "x" + std::to_string(wg_[1]) + "x" +
                     std::to_string(wg_[2]);
  // What the kernels were compiled to (CUDA: "sm_90"), as the CUDA backend always said.
  const std::string& target = dev_->info().code_target;
  if (!target.empty()) text += " (" + target + ")";
  return text + (tuned_ ? " (tuned)" : "");
}

std::size_t GpuEngine::device_bytes(const SimulationModel& m) const {
  return variant_device_bytes(m, variant_, kProbeBatchSteps);
}

void GpuEngine::launch(const Stage& st, long value) {
  device::Kernel k = st.kernel[parity_];
  if (st.value_arg >= 0) k.set(static_cast<unsigned>(st.value_arg), static_cast<int>(value));
  dev_->launch(k, st.global, st.local);
}

void GpuEngine::run_phase(Phase phase, long s) {
  for (const Stage& st : plan_) {
    if (st.phase == phase && s >= 0 && s < st.runs_below) launch(st, s);
  }
}

// One time step, s -> s + 1 (MEEP's fields::step): H to (s + 1/2) dt, plain cells and UPML;
// onepass's pass over the plain cells (H, then E); E to (s + 1) dt; the sources' J at
// (s + 1/2) dt. Then the field sets swap roles (onepass; a no-op for the in-place variants).
void GpuEngine::step(long s) {
  run_phase(Phase::H, s);
  run_phase(Phase::HE, s);
  run_phase(Phase::E, s);
  run_phase(Phase::Sources, s);
  parity_ ^= 1;
}

void GpuEngine::sample_probes(int slot) {
  if (fields_->nsamples == 0) return;
  if (slot < 0 || slot >= kProbeBatchSteps) {
    throw DeviceError("probe batch slot " + std::to_string(slot) + " outside 0.." +
                      std::to_string(kProbeBatchSteps - 1));
  }
  launch(probes_, slot);
}

void GpuEngine::read_probe_batch(int slots, std::vector<double>& out) {
  out.clear();
  const int n = fields_->nsamples;
  if (n == 0 || slots <= 0) return;
  slots = std::min(slots, kProbeBatchSteps);
  std::vector<float> buf(static_cast<std::size_t>(slots) * n);
  dev_->read(fields_->probe_batch, buf.data(), buf.size() * sizeof(float));
  out.assign(buf.begin(), buf.end());
}

void GpuEngine::read_field(Component c, std::vector<float>& out) {
  const auto& L = m_.layout;
  out.resize(static_cast<std::size_t>(L.nx) * L.ny * L.nz);
  if (out.empty()) return;
  // One rectangular read drops the z padding: rows of nz floats out of rows of nzp floats.
  device::Rect r;
  r.row_bytes = static_cast<std::size_t>(L.nz) * sizeof(float);
  r.rows = static_cast<std::size_t>(L.nx) * L.ny;
  r.row_pitch = L.nzp() * sizeof(float);
  r.slice_pitch = r.row_pitch * r.rows;
  dev_->read_rect(fields_->set[parity_][static_cast<int>(c)], r, out.data());
}

bool GpuEngine::fields_finite() {
  std::int32_t flag = 0;
  dev_->fill_zero(fields_->flag);
  launch(finite_, 0);
  dev_->read(fields_->flag, &flag, sizeof flag);
  return flag == 0;
}

void GpuEngine::finish() { dev_->finish(); }

void GpuEngine::sample_energy(int slot) {
  if (!m_.energy) throw DeviceError("sample_energy: the model was built without output.energy");
  if (slot < 0 || slot >= kProbeBatchSteps) {
    throw DeviceError("energy batch slot " + std::to_string(slot) + " outside 0.." +
                      std::to_string(kProbeBatchSteps - 1));
  }
  launch(energy_, slot);
}

void GpuEngine::read_energy_batch(int slots, std::vector<EnergyTerms>& out) {
  out.clear();
  if (!m_.energy || slots <= 0) return;
  slots = std::min(slots, kProbeBatchSteps);
  const auto groups = static_cast<std::size_t>(fields_->energy_groups);
  std::vector<float> buf(static_cast<std::size_t>(slots) * 3 * groups);
  dev_->read(fields_->energy_partial, buf.data(), buf.size() * sizeof(float));
  out = energy_terms_from_partials(buf, slots, groups, m_);
}

void GpuEngine::accumulate_dft(long step) {
  if (monitors_) monitors_->accumulate_dft(step);
}

void GpuEngine::read_dft(int monitor, std::vector<std::complex<double>>& out) {
  if (!monitors_) throw DeviceError("read_dft: the model has no monitors");
  monitors_->read_dft(monitor, out);
}

void GpuEngine::sample_modes(int monitor, int slot) {
  if (!monitors_) throw DeviceError("sample_modes: the model has no monitors");
  monitors_->sample_modes(monitor, slot);
}

void GpuEngine::read_mode_batch(int monitor, int slots, std::vector<double>& out) {
  if (!monitors_) throw DeviceError("read_mode_batch: the model has no monitors");
  monitors_->read_mode_batch(monitor, slots, out);
}

double GpuEngine::timed_steps(long first, long count) {
  if (count <= 0) return 0;
  finish();
  dev_->timer_start();
  for (long s = first; s < first + count; ++s) step(s);
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

double GpuEngine::copy_bandwidth() { return device_copy_bandwidth(*dev_); }

std::unique_ptr<GpuEngine> make_gpu_engine(device::Api api, const SimulationModel& m,
                                           const DeviceConfig& cfg) {
  if (m.cylindrical())  // its (r, z) fields are no x-y-z grid: never run as one
    throw DeviceError("the 3D engine was given a cylindrical model (the cylindrical engine runs it)");
  const std::vector<device::DeviceInfo> devices = device::list_devices(api);
  if (devices.empty()) {
    throw DeviceError(std::string("no ") + (api == device::Api::Cuda ? "CUDA" : "OpenCL") +
                      " device found (no driver, platform or device on this machine)");
  }
  const auto at = static_cast<std::size_t>(device::choose_device(devices, cfg.select));
  return std::make_unique<GpuEngine>(m, cfg, device::open_device(api, devices[at].index));
}

}  // namespace clfdtd::engine
