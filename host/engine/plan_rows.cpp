// The rows variant (CPUs: one work-item per (i, j) row looping over z, PML cells included) in
// one step:
//   H: update_h_rows;  E: update_e_rows;  sources: add_sources.
// In place on the one field set; over the rows of in.region only where it is set.
#include "engine/plan.hpp"
#include "engine/variant_choice.hpp"
#include "model/grid_geometry.hpp"

namespace clfdtd::engine {

StepPlan plan_rows(const PlanInputs& in) {
  const SimulationModel& m = in.m;
  const YeeFields& f = in.f;
  const auto& L = m.layout;
  const auto& wg = in.workgroup;
  const int nzp = static_cast<int>(L.nzp());
  // The UPML tail; without PML cells nothing reads it, but every argument must be a valid buffer.
  const bool pml = m.upml.enabled();
  auto buf = [&](const device::Buffer& b) -> const device::Buffer& {
    return pml ? b : f.placeholder;
  };
  const RowBox r = region_args(in);
  auto upml_tail = [&](Args& a, int aux0, double dt_over) {
    a << buf(f.aux[aux0]) << buf(f.aux[aux0 + 1]) << buf(f.aux[aux0 + 2]) << buf(f.boxes)
      << static_cast<int>(m.upml.boxes.size());
    for (const auto& p : f.profiles) a << buf(p);
    a << static_cast<float>(dt_over) << buf(f.z_split);
    a << r.i0 << r.j0 << r.i1 << r.j1;
  };
  const BoundKernel h = bind_kernel(in, "update_h_rows", [&](Args& a, const FieldSet& F, const FieldSet&) {
    a << F[3] << F[4] << F[5] << F[0] << F[1] << F[2];
    h_material_args(a, f);
    grid_args(a, m, nzp);
    upml_tail(a, 3, m.grid.dt / kMu0);
  });
  const BoundKernel e = bind_kernel(in, "update_e_rows", [&](Args& a, const FieldSet& F, const FieldSet&) {
    a << F[0] << F[1] << F[2] << F[3] << F[4] << F[5] << f.ids[0] << f.ids[1] << f.ids[2]
      << f.ecoef;
    grid_args(a, m, nzp);
    upml_tail(a, 0, m.grid.dt / kEps0);
  });
  // dim0 = y, dim1 = x; each work-item loops over z.
  Stage sh;
  sh.local = device::Range(wg[1], wg[0]);
  sh.global = device::Range(round_up(r.j1 - r.j0, wg[1]), round_up(r.i1 - r.i0, wg[0]));
  Stage se = sh;
  sh.phase = Phase::H;
  sh.kernel = h.kernel;
  se.phase = Phase::E;
  se.kernel = e.kernel;
  StepPlan plan;
  if (!r.empty()) plan = {sh, se};
  plan_sources(in, plan);
  return plan;
}

}  // namespace clfdtd::engine
