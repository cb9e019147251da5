// The onepass variant (the GPU default) in one step, from the current fields into the next ones:
//   H:   the UPML H of the x/y and z slabs in one launch (upml_slabs_h), written into the next
//        fields, where the pass reads them;
//   H+E: update_onepass, one pass over the plain cells: H, then E from the new H;
//   E:   upml_slabs_e (reading the new H from the next fields);
//   sources: add_sources, into the next fields.
// Then the sets swap roles: every kernel is bound for both parities (stage.hpp).
#include <algorithm>

#include "backends/device_tables.hpp"
#include "engine/plan.hpp"
#include "engine/variant_choice.hpp"

namespace clfdtd::engine {

StepPlan plan_onepass(const PlanInputs& in) {
  const SimulationModel& m = in.m;
  const YeeFields& f = in.f;
  const auto& L = m.layout;
  const auto& wg = in.workgroup;
  const ZSlabLayout z = zslab_layout(m, in.variant);
  const BoundKernel k = bind_kernel(in, "update_onepass", [&](Args& a, const FieldSet& F, const FieldSet& O) {
    for (const auto& c : F) a << c;
    for (const auto& c : O) a << c;
    one_pass_material_args(a, f);
    grid_args(a, m, L.nz4);
    a << z.zq_lo << z.zq_hi << wg[0];
  });
  // dim0 = z4, dim1 = y: one group per y x z4 tile; dim2 = chunks of wg[0] planes along x; over
  // the x/y interior only (at least one group: a grid all PML has nothing for it to store).
  const auto& lay = m.upml.layers;
  const std::size_t rows = static_cast<std::size_t>(std::max(1, L.ny - lay[2] - lay[3]));
  const int planes = std::max(1, L.nx - lay[0] - lay[1]);
  Stage pass;
  pass.phase = Phase::HE;
  pass.kernel = k.kernel;
  pass.local = device::Range(wg[2], wg[1], 1);
  pass.global = device::Range(round_up(L.nz4, wg[2]), round_up(rows, wg[1]),
                              static_cast<std::size_t>((planes + wg[0] - 1) / wg[0]));

  const SlabStages slabs = plan_upml_slabs(in);
  StepPlan plan = slabs.h;
  plan.push_back(pass);
  plan.insert(plan.end(), slabs.e.begin(), slabs.e.end());
  plan_sources(in, plan);
  return plan;
}

}  // namespace clfdtd::engine
