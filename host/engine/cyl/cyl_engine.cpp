// The cylindrical engine: setup once, then one walk of the stage list per step (cyl_engine.hpp).
#include "engine/cyl/cyl_engine.hpp"

#include <algorithm>

#include "backends/device_tables.hpp"
#include "engine/gpu_engine.hpp"
#include "errors.hpp"

namespace clfdtd::engine {

CylEngine::CylEngine(const SimulationModel& m, const DeviceConfig& cfg,
                     std::unique_ptr<device::Device> dev)
    : m_(m), dev_(std::move(dev)) {
  if (!m.cylindrical()) {
    throw DeviceError("the cylindrical engine was given a Cartesian model (the 3D or 2D engine runs it)");
  }
  if (!m.monitors.empty()) {
    throw ConfigError("", 0, "monitor." + m.monitors.front().name,
                      "no monitors in a cylindrical model (not supported yet)");
  }
  if (m.grid.modes.empty()) throw DeviceError("the cylindrical model lists no mode");
  const device::DeviceInfo& info = dev_->info();
  variant_ = resolve_cyl_variant(cfg, info.type);
  std::array<std::size_t, 3> max_items{1, 1, 1};
  for (std::size_t d = 0; d < 3; ++d)
    max_items[d] = std::max<std::size_t>(1, info.max_group_dims[d]);
  const device::Program program = dev_->program(
      {{"TILE_X", 1}, {"TILE_Y", 1}, {"TILE_Z4", 1}, {"MAGNETIC", m.magnetic ? 1 : 0}});
  std::size_t max_group = info.max_group_size;
  for (const std::string& k : cyl_main_kernels(variant_)) {
    max_group = std::min(max_group, program.kernel(k).max_group_size());
  }
  wg_ = choose_cyl_workgroup(variant_, cfg.workgroup, m.layout, max_group, max_items);
  fields_ = std::make_unique<CylFields>(*dev_, m, kProbeBatchSteps);
  plan_ = plan_cyl(program, m, *fields_, variant_, wg_);
  dev_->finish();  // surface upload errors here, not in the first step
}

CylEngine::~CylEngine() {
  try {
    dev_->finish();
  } catch (...) {
    // Nothing can be reported from a destructor; the device frees what it can.
  }
}

std::string CylEngine::name() const { return device::api_name(dev_->info().api); }

std::string CylEngine::device_description() const {
  const device::DeviceInfo& info = dev_->info();
  std::string in = info.platform;
  if (!info.version.empty()) in += (in.empty() ? "" : ", ") + info.version;
  return info.name + " (" + in + ")";
}

std::string CylEngine::kernel_variant() const {
  const int nq = fields_->modes;
  std::string text = std::string(variant_ == KernelVariant::Rows ? "cyl-rows " : "cyl-tile ") +
                     std::to_string(wg_[0]) + "x" + std::to_string(wg_[1]) + "x" +
                     std::to_string(wg_[2]) + " (" + std::to_string(nq) +
                     (nq == 1 ? " mode)" : " modes)");
  const std::string& target = dev_->info().code_target;
  if (!target.empty()) text += " (" + target + ")";
  return text;
}

std::size_t CylEngine::device_bytes(const SimulationModel& m) const {
  return cyl_device_bytes(m, kProbeBatchSteps);
}

void CylEngine::launch(const Stage& st, long value) {
  device::Kernel k = st.kernel[0];
  if (st.value_arg >= 0) k.set(static_cast<unsigned>(st.value_arg), static_cast<int>(value));
  dev_->launch(k, st.global, st.local);
}

// One time step, s -> s + 1: H to (s + 1/2) dt (plain rows, then PML cells), E to (s + 1) dt,
// then the sources' J at (s + 1/2) dt.
void CylEngine::step(long s) {
  for (const Stage& st : plan_.step) {
    if (s >= 0 && s < st.runs_below) launch(st, s);
  }
}

void CylEngine::sample_probes(int slot) {
  if (fields_->nsamples == 0) return;
  if (slot < 0 || slot >= kProbeBatchSteps) {
    throw DeviceError("probe batch slot " + std::to_string(slot) + " outside 0.." +
                      std::to_string(kProbeBatchSteps - 1));
  }
  launch(plan_.probes, slot);
}

void CylEngine::read_probe_batch(int slots, std::vector<double>& out) {
  out.clear();
  const int n = fields_->nsamples;
  if (n == 0 || slots <= 0) return;
  slots = std::min(slots, kProbeBatchSteps);
  std::vector<float> buf(static_cast<std::size_t>(slots) * n);
  dev_->read(fields_->probe_batch, buf.data(), buf.size() * sizeof(float));
  out.assign(buf.begin(), buf.end());
}

std::vector<float> CylEngine::read_planes(Component c) {
  std::vector<float> all(2 * static_cast<std::size_t>(fields_->modes) * fields_->cells);
  dev_->read(fields_->field[static_cast<int>(c)], all.data(), all.size() * sizeof(float));
  return all;
}

void CylEngine::read_field(Component c, std::vector<float>& out) {
  const auto& L = m_.layout;
  const std::vector<float> all = read_planes(c);
  out.assign(static_cast<std::size_t>(L.nx) * L.nz, 0.0f);
  for (int q = 0; q < fields_->modes; ++q) {
    const float* re = all.data() + 2 * static_cast<std::size_t>(q) * fields_->cells;
    for (int i = 0; i < L.nx; ++i) {
      for (int k = 0; k < L.nz; ++k) out[static_cast<std::size_t>(i) * L.nz + k] += re[L.index(i, 0, k)];
    }
  }
}

void CylEngine::read_mode_field(int slot, Component c, std::vector<std::complex<float>>& out) {
  if (slot < 0 || slot >= fields_->modes) {
    throw DeviceError("mode slot " + std::to_string(slot) + " outside 0.." +
                      std::to_string(fields_->modes - 1));
  }
  const auto& L = m_.layout;
  const std::vector<float> all = read_planes(c);
  const float* re = all.data() + 2 * static_cast<std::size_t>(slot) * fields_->cells;
  const float* im = re + fields_->cells;
  out.assign(static_cast<std::size_t>(L.nx) * L.nz, {});
  for (int i = 0; i < L.nx; ++i) {
    for (int k = 0; k < L.nz; ++k) {
      const std::size_t at = L.index(i, 0, k);
      out[static_cast<std::size_t>(i) * L.nz + k] = {re[at], im[at]};
    }
  }
}

bool CylEngine::fields_finite() {
  std::int32_t flag = 0;
  dev_->fill_zero(fields_->flag);
  launch(plan_.finite, 0);
  dev_->read(fields_->flag, &flag, sizeof flag);
  return flag == 0;
}

void CylEngine::finish() { dev_->finish(); }

void CylEngine::sample_energy(int slot) {
  if (!m_.energy) throw DeviceError("sample_energy: the model was built without output.energy");
  if (slot < 0 || slot >= kProbeBatchSteps) {
    throw DeviceError("energy batch slot " + std::to_string(slot) + " outside 0.." +
                      std::to_string(kProbeBatchSteps - 1));
  }
  launch(plan_.energy, slot);
}

void CylEngine::read_energy_batch(int slots, std::vector<EnergyTerms>& out) {
  out.clear();
  if (!m_.energy || slots <= 0) return;
  slots = std::min(slots, kProbeBatchSteps);
  const auto groups = static_cast<std::size_t>(fields_->energy_groups);
  std::vector<float> buf(static_cast<std::size_t>(slots) * 3 * groups);
  dev_->read(fields_->energy_partial, buf.data(), buf.size() * sizeof(float));
  out = energy_terms_from_partials(buf, slots, groups, m_);  // d = {dr, 1, dz}: dr dz
}

double CylEngine::timed_steps(long first, long count) {
  if (count <= 0) return 0;
  finish();
  dev_->timer_start();
  for (long s = first; s < first + count; ++s) step(s);
  return dev_->timer_stop();
}

double CylEngine::copy_bandwidth() { return device_copy_bandwidth(*dev_); }

std::unique_ptr<Backend> make_cyl_engine(device::Api api, const SimulationModel& m,
                                         const DeviceConfig& cfg) {
  const std::vector<device::DeviceInfo> devices = device::list_devices(api);
  if (devices.empty()) {
    throw DeviceError(std::string("no ") + (api == device::Api::Cuda ? "CUDA" : "OpenCL") +
                      " device found (no driver, platform or device on this machine)");
  }
  const auto at = static_cast<std::size_t>(device::choose_device(devices, cfg.select));
  return std::make_unique<CylEngine>(m, cfg, device::open_device(api, devices[at].index));
}

}  // namespace clfdtd::engine
