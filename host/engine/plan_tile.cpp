// The tile variant (the patent's float4 lanes and local tiles) in one step:
//   H: update_h over the x/y interior's plain float4s, then the UPML H of the x/y and z slabs
//      in one launch (upml_slabs_h);
//   E: update_e, upml_slabs_e;
//   sources: add_sources.
// Everything in place on the one field set; over the rows of in.region only where it is set.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "backends/device_tables.hpp"
#include "engine/plan.hpp"
#include "engine/field_buffers.hpp"
#include "engine/variant_choice.hpp"

namespace clfdtd::engine {

namespace {

// Where the plain-cell kernels run for `region` (unset: the whole grid): from row (window[0],
// window[1]) in the x/y interior, rows[0] x rows[1] rows, storing below (window[2], window[3]);
// rows 0 where none is plain.
struct TileWindow {
  std::array<int, 4> window;
  std::array<int, 2> rows;
};
TileWindow tile_window(const SimulationModel& m, const std::optional<RowBox>& region) {
  // The range starts at row (ri0, rj0): the x/y interior's first row, or the region's first row
  // in it; the kernels store nothing at i >= ri1 or j >= rj1.
  const auto& L = m.layout;
  const auto& lay = m.upml.layers;
  TileWindow w{{lay[0], lay[2], L.nx, L.ny}, tile_rows(m)};
  if (region) {
    const RowBox& r = *region;
    w.window = {std::max(r.i0, lay[0]), std::max(r.j0, lay[2]), std::min(r.i1, L.nx),
                std::min(r.j1, L.ny)};
    w.rows = {std::max(0, std::min(r.i1, L.nx - lay[1]) - w.window[0]),
              std::max(0, std::min(r.j1, L.ny - lay[3]) - w.window[1])};
  }
  return w;
}

}  // namespace

std::optional<std::array<Stage, 2>> tile_plain_stages(const PlanInputs& in,
                                                      const std::vector<TileBox>& boxes) {
  const SimulationModel& m = in.m;
  const YeeFields& f = in.f;
  const auto& L = m.layout;
  const auto& wg = in.workgroup;
  const ZSlabLayout z = zslab_layout(m, in.variant);
  // tile_boxes.h: first plane, row, float4; store limits; groups along z and y; first group.
  std::vector<std::int32_t> table;
  int groups = 0;
  for (const TileBox& b : boxes) {
    const TileWindow w = tile_window(m, b.rows);
    if (w.rows[0] <= 0 || w.rows[1] <= 0 || b.q1 <= b.q0) continue;
    const int gz = (b.q1 - b.q0 + wg[2] - 1) / wg[2], gy = (w.rows[1] + wg[1] - 1) / wg[1],
              gx = (w.rows[0] + wg[0] - 1) / wg[0];
    table.insert(table.end(), {w.window[0], w.window[1], b.q0, w.window[2], w.window[3], b.q1, gz,
                               gy, groups});
    groups += gx * gy * gz;
  }
  if (groups == 0) return std::nullopt;
  const device::Buffer boxes_buf = BufferAllocator(in.dev).upload(table);
  const int nboxes = static_cast<int>(table.size() / 9);
  // Float4s kq < zq_lo or >= zq_hi of interior rows belong to upml_zslab.cl.
  auto tail = [&](Args& a) {
    grid_args(a, m, L.nz4);
    a << z.zq_lo << z.zq_hi << boxes_buf << nboxes;
  };
  const BoundKernel h = bind_kernel(in, "update_h", [&](Args& a, const FieldSet& F, const FieldSet& O) {
    a << O[3] << O[4] << O[5] << F[3] << F[4] << F[5] << F[0] << F[1] << F[2];
    h_material_args(a, f);
    tail(a);
  });
  // E reads the H just written (`out`: the current set in place).
  const BoundKernel e = bind_kernel(in, "update_e", [&](Args& a, const FieldSet& F, const FieldSet& O) {
    a << O[0] << O[1] << O[2] << F[0] << F[1] << F[2] << O[3] << O[4] << O[5] << f.ids[0]
      << f.ids[1] << f.ids[2] << f.ecoef;
    tail(a);
  });
  // Every group along dimension 0 (tile_boxes.h numbers them); a group is z4 x y x x.
  Stage sh;
  sh.local = device::Range(wg[2], wg[1], wg[0]);
  sh.global = device::Range(static_cast<std::size_t>(wg[2]) * static_cast<std::size_t>(groups),
                            static_cast<std::size_t>(wg[1]), static_cast<std::size_t>(wg[0]));
  Stage se = sh;
  sh.phase = Phase::H;
  sh.kernel = h.kernel;
  se.phase = Phase::E;
  se.kernel = e.kernel;
  return std::array<Stage, 2>{sh, se};
}

StepPlan plan_tile(const PlanInputs& in) {
  const auto plain = tile_plain_stages(in, {TileBox{in.region, 0, in.m.layout.nz4}});
  const SlabStages slabs = plan_upml_slabs(in);
  StepPlan plan;
  if (plain) plan.push_back((*plain)[0]);
  plan.insert(plan.end(), slabs.h.begin(), slabs.h.end());
  if (plain) plan.push_back((*plain)[1]);
  plan.insert(plan.end(), slabs.e.begin(), slabs.e.end());
  plan_sources(in, plan);
  return plan;
}

}  // namespace clfdtd::engine
