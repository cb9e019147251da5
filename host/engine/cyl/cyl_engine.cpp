// The cylindrical engine: setup once, then one walk of the stage list per step (cyl_engine.hpp).
#include "engine/cyl/cyl_engine.hpp"

#include <algorithm>

#include "backends/device_tables.hpp"
#include "backends/tuning_cache.hpp"
#include "engine/cyl/cyl_monitors.hpp"
#include "errors.hpp"

namespace clfdtd::engine {

CylEngine::CylEngine(const SimulationModel& m, const DeviceConfig& cfg,
                     std::unique_ptr<device::Device> dev)
    : DeviceEngine(m, std::move(dev)) {
  if (!m.cylindrical()) {
    throw DeviceError("the cylindrical engine was given a Cartesian model (the 3D or 2D engine runs it)");
  }
  if (m.grid.modes.empty()) throw DeviceError("the cylindrical model lists no mode");
  const device::DeviceInfo& info = dev_->info();
  variant_ = resolve_cyl_variant(cfg, info.type);
  tile_.local_staging = variant_ == KernelVariant::Tile && cfg.cyl_local_staging;
  tile_.align = cfg.cyl_align;
  // The limits come from the unstaged kernels; the staged ones are built for the chosen group.
  const UntiledProgram built = untiled_program(cyl_main_kernels(variant_));
  std::optional<std::array<int, 3>> asked = cfg.workgroup;
  if (!asked) {
    const std::string kernel = cyl_kernel_name(variant_, tile_.local_staging);
    const auto t = lookup_workgroup_tuning(
        plane_tuning_key(name(), device_description(), info.driver, "cyl", kernel), kernel);
    if (t) asked = t->workgroup;
    tuned_ = t.has_value();
  }
  wg_ = choose_cyl_workgroup(variant_, asked, m.layout, built.max_group, built.max_items,
                             cyl_simd_width(info), tile_.local_staging, info.local_mem_bytes);
  device::Program program = built.program;
  if (tile_.local_staging) {
    program = dev_->program({{"TILE_X", 1}, {"TILE_Y", wg_[0]}, {"TILE_Z4", wg_[1]},
                             {"MAGNETIC", m.magnetic ? 1 : 0}});
  }
  fields_ = std::make_unique<CylFields>(*dev_, m, kProbeBatchSteps);
  plan_ = plan_cyl(program, m, *fields_, variant_, wg_, tile_);
  // DeviceEngine adds the energy partial sums: the model's d = {dr, 1, dz} gives dr dz.
  take_samplers(plan_.probes, plan_.finite, plan_.energy, *fields_);
  // Flux monitors: the 3D runner over the planes stacked as one tall layout (cyl_monitors.hpp).
  monitor_model_ = cyl_monitor_model(m);
  start_monitors(MonitorInputs{*dev_, built.program, *monitor_model_, {fields_->field, fields_->field}});
  dev_->finish();  // surface upload errors here, not in the first step
}

// Waits for queued work before the buffers and kernels go (they free themselves after this).
CylEngine::~CylEngine() { wait_before_release(); }

std::string CylEngine::kernel_variant() const {
  const int nq = fields_->modes;
  const bool unaligned = variant_ == KernelVariant::Tile && !tile_.align;
  return variant_text(cyl_kernel_name(variant_, tile_.local_staging),
                      std::string(unaligned ? " unaligned" : "") + " (" + std::to_string(nq) +
                          (nq == 1 ? " mode)" : " modes)"));
}

std::size_t CylEngine::device_bytes(const SimulationModel& m) const {
  return cyl_device_bytes(m, kProbeBatchSteps);
}

// One time step, s -> s + 1: H to (s + 1/2) dt (plain rows, then PML cells), E to (s + 1) dt,
// then the sources' J at (s + 1/2) dt. In place: the one field set stays current.
void CylEngine::step(long s) { run_step_stages(plan_.step, s); }

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

std::unique_ptr<Backend> make_cyl_engine(device::Api api, const SimulationModel& m,
                                         const DeviceConfig& cfg) {
  return std::make_unique<CylEngine>(m, cfg, open_engine_device(api, cfg));
}

}  // namespace clfdtd::engine
