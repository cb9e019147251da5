// The tblock variant's two steps (cl_kernels/tblock.cl, and with UPML the shell stage before
// it): s -> s + 2, from the current fields into the next ones, sources included (plan.hpp
// TBlockPass). Single steps (a sampler between the two steps) run the onepass plan over the same
// two field sets.
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <vector>

#include "backends/device_tables.hpp"
#include "engine/field_buffers.hpp"
#include "engine/plan.hpp"
#include "engine/variant_choice.hpp"

namespace clfdtd::engine {

TBlockSourceRows tblock_source_rows(const std::vector<std::int32_t>& cells, int nx, int ny,
                                    int nz4) {
  TBlockSourceRows out;
  const std::size_t rows = static_cast<std::size_t>(nx) * ny;
  out.start.assign(rows + 1, 0);
  const std::size_t n = cells.size() / 2;
  std::vector<std::size_t> row_of(n);
  for (std::size_t q = 0; q < n; ++q) {
    // cell_entry: {component + 8 * (index % 4), index / 4}; float4 lane / nz4 = i * ny + j.
    row_of[q] = static_cast<std::size_t>(static_cast<std::uint32_t>(cells[2 * q + 1])) / nz4;
    ++out.start[row_of[q] + 1];
  }
  for (std::size_t r = 0; r < rows; ++r) out.start[r + 1] += out.start[r];
  out.order.assign(std::max<std::size_t>(n, 1), 0);
  std::vector<std::int32_t> next(out.start.begin(), out.start.end() - 1);
  for (std::size_t q = 0; q < n; ++q) out.order[next[row_of[q]]++] = static_cast<std::int32_t>(q);
  return out;
}

TBlockBox tblock_owned_box(const SimulationModel& m) {
  const auto& L = m.layout;
  TBlockBox b{0, L.nx, 0, L.ny, 0, L.nz4};
  if (!m.upml.enabled()) return b;
  // Two cells: a pass's four sub-steps carry a wrong value two cells each way (tblock.cl).
  constexpr int kMargin = 2;
  const auto& lay = m.upml.layers;
  const ZSlabLayout z = zslab_layout(m, KernelVariant::OnePass);
  if (lay[0] > 0) b.i0 = lay[0] + kMargin;
  if (lay[1] > 0) b.i1 = L.nx - lay[1] - kMargin;
  if (lay[2] > 0) b.j0 = lay[2] + kMargin;
  if (lay[3] > 0) b.j1 = L.ny - lay[3] - kMargin;
  // Along z whole float4s, none of them a z-slab float4 (upml_zslab.cl updates those).
  if (lay[4] > 0) b.q0 = std::max(z.zq_lo, (lay[4] + kMargin + 3) / 4);
  if (lay[5] > 0) b.q1 = std::min(z.zq_hi, (L.nz - lay[5] - kMargin) / 4);
  return b;
}

double tblock_owned_share(const SimulationModel& m) {
  const auto& L = m.layout;
  const TBlockBox b = tblock_owned_box(m);
  if (b.empty()) return 0;
  const double cells = static_cast<double>(L.nx) * L.ny * L.nz;
  const double z = std::min(L.nz, 4 * b.q1) - 4.0 * b.q0;
  return static_cast<double>(b.i1 - b.i0) * (b.j1 - b.j0) * z / cells;
}

namespace {

// The box `b` shrunk by `cells` (z: `quads` float4s) on every side that is not the grid's.
TBlockBox shrink(const TBlockBox& b, const FieldLayout& L, int cells, int quads) {
  TBlockBox c = b;
  if (b.i0 > 0) c.i0 += cells;
  if (b.i1 < L.nx) c.i1 -= cells;
  if (b.j0 > 0) c.j0 += cells;
  if (b.j1 < L.ny) c.j1 -= cells;
  if (b.q0 > 0) c.q0 += quads;
  if (b.q1 < L.nz4) c.q1 -= quads;
  return c;
}

// The grid outside `b` as at most six disjoint boxes: the planes before and after it, the rows
// before and after it in its planes, the float4s before and after it in its rows.
std::vector<TBlockBox> outside(const TBlockBox& b, const FieldLayout& L) {
  const std::vector<TBlockBox> all{{0, b.i0, 0, L.ny, 0, L.nz4},     {b.i1, L.nx, 0, L.ny, 0, L.nz4},
                                   {b.i0, b.i1, 0, b.j0, 0, L.nz4},  {b.i0, b.i1, b.j1, L.ny, 0, L.nz4},
                                   {b.i0, b.i1, b.j0, b.j1, 0, b.q0}, {b.i0, b.i1, b.j0, b.j1, b.q1, L.nz4}};
  std::vector<TBlockBox> out;
  for (const TBlockBox& x : all)
    if (!x.empty()) out.push_back(x);
  return out;
}

// One step of the shell (see plan.hpp) with `roles`: the UPML slabs over the whole grid (every
// PML cell lies outside the owned box), the plain cells of the boxes around `core`, the sources
// (those inside the owned box land in cells the pass then overwrites).
StepPlan shell_step(const PlanInputs& shell, const TBlockBox& core, PlanInputs::Roles roles) {
  PlanInputs in = shell;
  in.roles = roles;
  in.region.reset();
  const SlabStages slabs = plan_upml_slabs(in);
  const ZSlabLayout z = zslab_layout(in.m, in.variant);
  StepPlan h = slabs.h, e = slabs.e;
  std::vector<TileBox> boxes;
  for (const TBlockBox& b : outside(core, in.m.layout)) {
    // Along z only the float4s the plain kernels update (the z slabs' are upml_zslab.cl's).
    boxes.push_back({RowBox{b.i0, b.j0, b.i1, b.j1}, std::max(b.q0, z.zq_lo), std::min(b.q1, z.zq_hi)});
  }
  if (const auto plain = tile_plain_stages(in, boxes)) {
    h.push_back((*plain)[0]);
    e.push_back((*plain)[1]);
  }
  StepPlan plan = h;
  plan.insert(plan.end(), e.begin(), e.end());
  plan_sources(in, plan);
  return plan;
}

}  // namespace

std::optional<TBlockPass> plan_tblock(const PlanInputs& in, const PlanInputs* shell) {
  const SimulationModel& m = in.m;
  const YeeFields& f = in.f;
  const auto& L = m.layout;
  const auto& wg = in.workgroup;  // planes, owned rows, owned float4s
  TBlockPass out;
  const TBlockBox b = tblock_owned_box(m);
  // The shell's band: the cells of the owned box its second step reads (2 cells, z: 1 float4).
  const TBlockBox core = shrink(b, L, 2, 1);
  if (b.empty() || core.empty()) return std::nullopt;
  BufferAllocator alloc(in.dev);
  const MergedSources src = merge_sources(m);
  const TBlockSourceRows rows = tblock_source_rows(src.cells, L.nx, L.ny, L.nz4);
  out.src_rows = alloc.upload(rows.start);
  out.src_order = alloc.upload(rows.order);
  const BoundKernel k = bind_kernel(in, "update_tblock", [&](Args& a, const FieldSet& F, const FieldSet& O) {
    for (const auto& c : F) a << c;
    for (const auto& c : O) a << c;
    a << f.ids[0] << f.ids[1] << f.ids[2] << f.ecoef;
    h_material_args(a, f);
    const auto& d = m.grid.d;
    a << static_cast<float>(1 / d[0]) << static_cast<float>(1 / d[1])
      << static_cast<float>(1 / d[2]) << L.nx << L.ny << L.nz4 << wg[0];
    a << b.i0 << b.i1 << b.j0 << b.j1 << b.q0 << b.q1;
    a << f.src_cells << f.src_j << out.src_rows << out.src_order << f.nsrc
      << static_cast<int>(f.src_steps);
    a.value();
  });
  // dim0 = z4, dim1 = y: one group per owned tile plus its halo; dim2 = chunks of planes.
  const std::size_t ty = static_cast<std::size_t>(wg[1]) + 4, tz = static_cast<std::size_t>(wg[2]) + 2;
  out.pass.phase = Phase::HE;
  out.pass.kernel = k.kernel;
  out.pass.value_arg = k.value_arg;
  out.pass.local = device::Range(tz, ty, 1);
  out.pass.global = device::Range((b.q1 - b.q0 + wg[2] - 1) / wg[2] * tz,
                                  (b.j1 - b.j0 + wg[1] - 1) / wg[1] * ty,
                                  static_cast<std::size_t>((b.i1 - b.i0 + wg[0] - 1) / wg[0]));
  if (m.upml.enabled()) {
    if (!shell) throw std::logic_error("plan_tblock: a UPML model needs the shell's program");
    out.first = shell_step(*shell, core, PlanInputs::Roles::Step);
    out.second = shell_step(*shell, core, PlanInputs::Roles::InPlaceNext);
  }
  return out;
}

}  // namespace clfdtd::engine
