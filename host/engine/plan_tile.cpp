// The tile variant (the patent's float4 lanes and local tiles) in one step:
//   H: update_h over the x/y interior's plain float4s, then the UPML H of the x/y and z slabs
//      in one launch (upml_slabs_h);
//   E: update_e, upml_slabs_e;
//   sources: add_sources.
// Everything in place on the one field set; over the rows of in.region only where it is set.
#include <algorithm>

#include "backends/device_tables.hpp"
#include "engine/plan.hpp"
#include "engine/variant_choice.hpp"

namespace clfdtd::engine {

StepPlan plan_tile(const PlanInputs& in) {
  const SimulationModel& m = in.m;
  const YeeFields& f = in.f;
  const auto& L = m.layout;
  const auto& wg = in.workgroup;
  const ZSlabLayout z = zslab_layout(m, in.variant);
  // The range starts at row (ri0, rj0): the x/y interior's first row, or the region's first row
  // in it; the kernels store nothing at i >= ri1 or j >= rj1.
  const auto& lay = m.upml.layers;
  std::array<int, 2> rows = tile_rows(m);
  std::array<int, 4> window{lay[0], lay[2], L.nx, L.ny};
  if (in.region) {
    const RowBox& r = *in.region;
    window = {std::max(r.i0, lay[0]), std::max(r.j0, lay[2]), std::min(r.i1, L.nx),
              std::min(r.j1, L.ny)};
    rows = {std::max(0, std::min(r.i1, L.nx - lay[1]) - window[0]),
            std::max(0, std::min(r.j1, L.ny - lay[3]) - window[1])};
  }
  // Float4s kq < zq_lo or >= zq_hi of interior rows belong to upml_zslab.cl.
  const BoundKernel h = bind_kernel(in, "update_h", [&](Args& a, const FieldSet& F, const FieldSet&) {
    a << F[3] << F[4] << F[5] << F[0] << F[1] << F[2];
    h_material_args(a, f);
    grid_args(a, m, L.nz4);
    a << z.zq_lo << z.zq_hi;
    for (int v : window) a << v;
  });
  const BoundKernel e = bind_kernel(in, "update_e", [&](Args& a, const FieldSet& F, const FieldSet&) {
    a << F[0] << F[1] << F[2] << F[3] << F[4] << F[5] << f.ids[0] << f.ids[1] << f.ids[2]
      << f.ecoef;
    grid_args(a, m, L.nz4);
    a << z.zq_lo << z.zq_hi;
    for (int v : window) a << v;
  });
  // dim0 = z4 (contiguous), dim1 = y, dim2 = x, over the x/y interior from row (x_lo, y_lo).
  Stage sh;
  sh.local = device::Range(wg[2], wg[1], wg[0]);
  sh.global = device::Range(round_up(L.nz4, wg[2]), round_up(rows[1], wg[1]),
                            round_up(rows[0], wg[0]));
  Stage se = sh;
  sh.phase = Phase::H;
  sh.kernel = h.kernel;
  se.phase = Phase::E;
  se.kernel = e.kernel;

  const SlabStages slabs = plan_upml_slabs(in);
  const bool plain = rows[0] > 0 && rows[1] > 0;
  StepPlan plan;
  if (plain) plan.push_back(sh);
  plan.insert(plan.end(), slabs.h.begin(), slabs.h.end());
  if (plain) plan.push_back(se);
  plan.insert(plan.end(), slabs.e.begin(), slabs.e.end());
  plan_sources(in, plan);
  return plan;
}

}  // namespace clfdtd::engine
