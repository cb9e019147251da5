// The 2D Yee engine: setup once, then one walk of the stage list per step (plane_engine.hpp).
#include "engine/plane/plane_engine.hpp"

#include <algorithm>

#include "backends/device_tables.hpp"
#include "engine/plane/plane_variant.hpp"
#include "errors.hpp"

namespace clfdtd::engine {

PlaneEngine::PlaneEngine(const SimulationModel& m, const DeviceConfig& cfg,
                         std::unique_ptr<device::Device> dev)
    : DeviceEngine(m, std::move(dev)) {
  if (!m.two_d() || !m.layout.plane) {
    throw DeviceError("the 2D engine was given a 3D model (the 3D engine runs it)");
  }
  if (m.equation != Equation::Maxwell) {
    throw DeviceError(
        "the 2D Yee engine was given an equation = wave model (the wave engine runs it)");
  }
  const device::DeviceInfo& info = dev_->info();
  variant_ = resolve_plane_variant(cfg, info.type);
  const UntiledProgram built = untiled_program(plane_main_kernels(m, variant_));
  const WorkgroupRequest asked =
      plane_workgroup_request(cfg, variant_, m.mode, name(), device_description(), info.driver);
  tuned_ = asked.tuned;
  wg_ = choose_plane_workgroup(variant_, asked.workgroup, m.layout, built.max_group,
                               built.max_items);
  // Checks the memory before allocating anything, then uploads.
  fields_ = std::make_unique<PlaneFields>(*dev_, m, kProbeBatchSteps);
  plan_ = plan_plane(built.program, m, *fields_, variant_, wg_);
  take_samplers(plan_.probes, plan_.finite, plan_.energy, *fields_);
  // The monitors' buffers were checked with the fields' (plane_buffer_needs).
  start_monitors(MonitorInputs{*dev_, built.program, m, {fields_->field, fields_->field}});
  dev_->finish();  // surface upload errors here, not in the first step
}

// Waits for queued work before the buffers and kernels go (they free themselves after this).
PlaneEngine::~PlaneEngine() { wait_before_release(); }

std::string PlaneEngine::kernel_variant() const {
  return variant_text(variant_ == KernelVariant::Rows ? "plane-rows" : "plane-tile");
}

std::size_t PlaneEngine::device_bytes(const SimulationModel& m) const {
  return plane_device_bytes(m, kProbeBatchSteps);
}

// One time step, s -> s + 1: H to (s + 1/2) dt (interior, then PML cells), E to (s + 1) dt,
// then the sources' J at (s + 1/2) dt, then the dispersive samples' step. In place: the one
// field set stays current.
void PlaneEngine::step(long s) { run_step_stages(plan_.step, s); }

void PlaneEngine::read_field(Component c, std::vector<float>& out) {
  const auto& L = m_.layout;
  out.assign(static_cast<std::size_t>(L.nx) * L.ny, 0.0f);
  if (out.empty() || !m_.is_active(c)) return;
  read_unpadded(fields_->field[static_cast<int>(c)], out);
}

std::unique_ptr<Backend> make_plane_engine(device::Api api, const SimulationModel& m,
                                           const DeviceConfig& cfg) {
  return std::make_unique<PlaneEngine>(m, cfg, open_engine_device(api, cfg));
}

}  // namespace clfdtd::engine
