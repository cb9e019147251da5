// The cylindrical modes over several devices (cyl_multi_engine.hpp).
#include "engine/cyl/cyl_multi_engine.hpp"

#include <algorithm>
#include <map>

#include "errors.hpp"

namespace clfdtd::engine {

namespace {

std::string orders_text(const SimulationModel& part) {
  std::string text = "m =";
  for (int m : part.grid.modes) text += " " + std::to_string(m);
  return text;
}

std::string device_list_text(const std::vector<std::string>& selects) {
  std::string text;
  for (const std::string& s : selects) text += (text.empty() ? "'" : ", '") + s + "'";
  return text;
}

EnergyTerms& operator+=(EnergyTerms& a, const EnergyTerms& b) {
  a.electric += b.electric;
  a.magnetic += b.magnetic;
  a.magnetic_now += b.magnetic_now;
  return a;
}

}  // namespace

template <class T, class Read>
void CylMultiEngine::sum_over_devices(std::vector<T>& out, Read read) {
  read(*engines_.front(), out);
  std::vector<T> part;
  for (std::size_t d = 1; d < engines_.size(); ++d) {
    read(*engines_[d], part);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] += part[i];
  }
}

std::vector<std::vector<int>> split_mode_slots(std::size_t modes, std::size_t devices) {
  if (devices == 0 || devices > modes) {
    throw ConfigError("", 0, "device.select",
                      "at most as many devices as modes (" + std::to_string(modes) +
                          " listed in grid.modes), got " + std::to_string(devices) + " devices");
  }
  std::vector<std::vector<int>> parts(devices);
  int q = 0;
  for (std::size_t d = 0; d < devices; ++d) {
    const std::size_t count = modes / devices + (d < modes % devices ? 1 : 0);
    for (std::size_t i = 0; i < count; ++i) parts[d].push_back(q++);
  }
  return parts;
}

SimulationModel cyl_model_with_slots(const SimulationModel& m, const std::vector<int>& slots) {
  SimulationModel part = m;
  part.grid.modes.clear();
  for (int q : slots) part.grid.modes.push_back(m.grid.modes.at(static_cast<std::size_t>(q)));
  for (std::size_t s = 0; s < m.sources.size(); ++s) {
    const auto& all = m.sources[s].mode_factor;
    auto& mine = part.sources[s].mode_factor;
    mine.clear();
    // A factor list of the wrong length is left for CylFields to refuse with its message.
    if (all.size() != m.grid.modes.size()) {
      mine = all;
      continue;
    }
    for (int q : slots) mine.push_back(all[static_cast<std::size_t>(q)]);
  }
  return part;
}

CylMultiEngine::CylMultiEngine(device::Api api, const SimulationModel& m, const DeviceConfig& cfg,
                               const std::vector<std::string>& selects) {
  if (!m.cylindrical()) {
    throw ConfigError("", 0, "device.select",
                      "one device: a list of devices needs a cylindrical model, or mpirun");
  }
  slots_ = split_mode_slots(m.grid.modes.size(), selects.size());
  const std::vector<device::DeviceInfo> list = device::list_devices(api);
  if (list.empty()) {
    throw DeviceError(std::string("no ") + (api == device::Api::Cuda ? "CUDA" : "OpenCL") +
                      " device found (no driver, platform or device on this machine)");
  }
  std::vector<std::size_t> at;  // position in `list` of each entry's device
  for (const std::string& s : selects) at.push_back(static_cast<std::size_t>(device::choose_device(list, s)));
  for (const auto& slots : slots_) parts_.push_back(std::make_unique<SimulationModel>(cyl_model_with_slots(m, slots)));

  // Opened all first, then each physical device checked for every part it will hold, before
  // any engine allocates: a refusal leaves nothing allocated anywhere.
  std::vector<std::unique_ptr<device::Device>> devs;
  for (std::size_t d = 0; d < selects.size(); ++d) devs.push_back(device::open_device(api, list[at[d]].index));
  std::map<std::size_t, std::vector<std::size_t>> by_device;  // list position -> parts
  for (std::size_t d = 0; d < selects.size(); ++d) by_device[at[d]].push_back(d);
  for (const auto& [pos, parts] : by_device) {
    std::size_t total = 0;
    std::vector<BufferNeed> needs;
    std::string which;
    for (std::size_t d : parts) {
      total += cyl_device_bytes(*parts_[d], DeviceEngine::kProbeBatchSteps);
      for (BufferNeed& b : cyl_buffer_needs(*parts_[d], DeviceEngine::kProbeBatchSteps)) needs.push_back(b);
      which += (which.empty() ? "" : ", ") + orders_text(*parts_[d]);
    }
    try {
      check_device_memory(total, needs, devs[parts.front()]->info(),
                          devs[parts.front()]->available_bytes());
    } catch (const OutOfMemoryError& e) {
      throw OutOfMemoryError("device.select " + device_list_text(selects) + ": the modes " + which +
                             " on " + list[pos].name + ": " + e.what());
    }
  }
  for (std::size_t d = 0; d < selects.size(); ++d) {
    engines_.push_back(std::make_unique<CylEngine>(*parts_[d], cfg, std::move(devs[d])));
    for (std::size_t i = 0; i < slots_[d].size(); ++i) where_.push_back({d, static_cast<int>(i)});
  }
}

// The engines wait for their devices and free their buffers before the parts they refer to go.
CylMultiEngine::~CylMultiEngine() { engines_.clear(); }

std::string CylMultiEngine::name() const { return engines_.front()->name(); }

std::string CylMultiEngine::device_description() const {
  std::string text;
  for (std::size_t d = 0; d < engines_.size(); ++d) {
    text += (d ? "; " : "") + orders_text(*parts_[d]) + " on " + engines_[d]->device_description();
  }
  return text;
}

std::vector<Backend::DevicePart> CylMultiEngine::device_parts() const {
  std::vector<DevicePart> out;
  for (std::size_t d = 0; d < engines_.size(); ++d) {
    out.push_back({engines_[d]->device_description(), parts_[d]->grid.modes});
  }
  return out;
}

std::string CylMultiEngine::kernel_variant() const {
  std::string text;
  for (std::size_t d = 0; d < engines_.size(); ++d) {
    text += (d ? "; " : "") + engines_[d]->kernel_variant();
  }
  return text;
}

void CylMultiEngine::step(long s) {
  for (auto& e : engines_) e->step(s);
}

void CylMultiEngine::sample_probes(int slot) {
  for (auto& e : engines_) e->sample_probes(slot);
}

void CylMultiEngine::read_probe_batch(int slots, std::vector<double>& out) {
  sum_over_devices(out, [&](CylEngine& e, std::vector<double>& v) { e.read_probe_batch(slots, v); });
}

void CylMultiEngine::read_field(Component c, std::vector<float>& out) {
  sum_over_devices(out, [&](CylEngine& e, std::vector<float>& v) { e.read_field(c, v); });
}

void CylMultiEngine::read_mode_field(int slot, Component c, std::vector<std::complex<float>>& out) {
  if (slot < 0 || static_cast<std::size_t>(slot) >= where_.size()) {
    throw DeviceError("mode slot " + std::to_string(slot) + " outside 0.." +
                      std::to_string(static_cast<long>(where_.size()) - 1));
  }
  const auto [d, local] = where_[static_cast<std::size_t>(slot)];
  engines_[d]->read_mode_field(local, c, out);
}

bool CylMultiEngine::fields_finite() {
  bool finite = true;
  for (auto& e : engines_) finite = e->fields_finite() && finite;
  return finite;
}

void CylMultiEngine::finish() {
  for (auto& e : engines_) e->finish();
}

void CylMultiEngine::sample_energy(int slot) {
  for (auto& e : engines_) e->sample_energy(slot);
}

void CylMultiEngine::read_energy_batch(int slots, std::vector<EnergyTerms>& out) {
  sum_over_devices(out, [&](CylEngine& e, std::vector<EnergyTerms>& v) {
    e.read_energy_batch(slots, v);
  });
}

double CylMultiEngine::copy_bandwidth() {
  double sum = 0;
  for (auto& e : engines_) sum += e->copy_bandwidth();
  return sum;
}

std::string CylMultiEngine::driver_version() const { return engines_.front()->driver_version(); }

std::size_t CylMultiEngine::device_bytes(const SimulationModel& /*m*/) const {
  std::size_t sum = 0;
  for (std::size_t d = 0; d < engines_.size(); ++d) sum += engines_[d]->device_bytes(*parts_[d]);
  return sum;
}

std::unique_ptr<Backend> make_cyl_device_backend(device::Api api, const SimulationModel& m,
                                                 const DeviceConfig& cfg) {
  const std::vector<std::string> selects = device::split_device_select(cfg.select);
  if (selects.size() == 1) {
    DeviceConfig one = cfg;
    one.select = selects.front();
    return make_cyl_engine(api, m, one);
  }
  return std::make_unique<CylMultiEngine>(api, m, cfg, selects);
}

}  // namespace clfdtd::engine
