// The UPML slab stages of the tile and onepass variants: see plan.hpp.
#include <algorithm>
#include <cstdint>

#include "backends/device_tables.hpp"
#include "engine/plan.hpp"
#include "engine/variant_choice.hpp"
#include "model/grid_geometry.hpp"

namespace clfdtd::engine {

namespace {

// Work-items per group of the slab kernels, both kinds of group: 128 (at N = 512 an x/y group is
// one row of 128 float4s, a z group 16 rows of 8 slab float4s), or less where a device allows less.
constexpr std::size_t kSlabGroupItems = 128;

std::size_t groups_of(std::size_t items, std::size_t group) { return (items + group - 1) / group; }

// Float4s [first, end) of one kind's numbering (upml_slabs.cl): an interval that holds every
// float4 of the kind in the region's rows, and may hold others (the kernels skip those).
struct Span {
  std::size_t first = 0, end = 0;
  std::size_t size() const { return end - first; }
  void add(std::size_t a, std::size_t b) {  // grows to hold [a, b)
    if (a >= b) return;
    first = size() == 0 ? a : std::min(first, a);
    end = std::max(end, b);
  }
};

// The x/y-slab rows' float4s, r * nz4 + kq in upml_lanes.h xy_pml_cell's row order: the low x
// slab's rows i * ny + j, the high one's, then (ylo + yhi) y-slab rows per plane between them.
Span xy_span(const SimulationModel& m, const RowBox& r) {
  const int nx = m.layout.nx, ny = m.layout.ny;
  const auto& lay = m.upml.layers;
  const std::size_t nz4 = static_cast<std::size_t>(m.layout.nz4);
  Span rows;
  // Planes [a, b) of a slab whose first plane is i_first and first row `base`: their rows from
  // (a, j0) to (b - 1, j1 - 1).
  auto x_slab = [&](int a, int b, int i_first, std::size_t base) {
    if (a < b) {
      rows.add(base + static_cast<std::size_t>(a - i_first) * ny + r.j0,
               base + static_cast<std::size_t>(b - 1 - i_first) * ny + r.j1);
    }
  };
  x_slab(std::max(r.i0, 0), std::min(r.i1, lay[0]), 0, 0);
  x_slab(std::max(r.i0, nx - lay[1]), std::min(r.i1, nx), nx - lay[1],
         static_cast<std::size_t>(lay[0]) * ny);
  const int w = lay[2] + lay[3];
  const int a = std::max(r.i0, lay[0]), b = std::min(r.i1, nx - lay[1]);
  if (w > 0 && a < b) {
    const std::size_t base = static_cast<std::size_t>(lay[0] + lay[1]) * ny;
    rows.add(base + static_cast<std::size_t>(a - lay[0]) * w,
             base + static_cast<std::size_t>(b - lay[0]) * w);
  }
  return {rows.first * nz4, rows.end * nz4};
}

// The z-slab float4s, (ii * nyi + jj) * znq + slot over the x/y interior's rows (ii, jj).
Span z_span(const SimulationModel& m, const ZSlabLayout& z, const RowBox& r) {
  const auto& lay = m.upml.layers;
  const int a = std::max(r.i0, lay[0]) - lay[0], b = std::min(r.i1, m.layout.nx - lay[1]) - lay[0];
  const int c = std::max(r.j0, lay[2]) - lay[2], d = std::min(r.j1, m.layout.ny - lay[3]) - lay[2];
  Span s;
  if (z.znq > 0 && a < b && c < d) {
    const std::size_t nyi = static_cast<std::size_t>(z.nyi), znq = static_cast<std::size_t>(z.znq);
    s.add((a * nyi + c) * znq, ((b - 1) * nyi + d) * znq);
  }
  return s;
}

}  // namespace

std::uint32_t slab_z_share(std::size_t xy_groups, std::size_t z_groups) {
  if (xy_groups == 0 || z_groups == 0) return 0;
  const std::uint64_t g = xy_groups + z_groups;
  return static_cast<std::uint32_t>(((static_cast<std::uint64_t>(z_groups) << 32) + g - 1) / g);
}

SlabStages plan_upml_slabs(const PlanInputs& in) {
  const SimulationModel& m = in.m;
  const YeeFields& f = in.f;
  const auto& L = m.layout;
  SlabStages out;
  const RowBox r = region_args(in);
  if (!m.upml.enabled() || r.empty()) return out;

  const std::size_t rows = xy_pml_rows(m);
  const ZSlabLayout z = zslab_layout(m, in.variant);
  // Only the float4s of the region's rows (the whole grid: all of them), so that a step split
  // into boxes launches about one step's worth of work-items in all.
  const Span xy = xy_span(m, r), zs = z_span(m, z, r);
  if (xy.size() == 0 && zs.size() == 0) return out;

  // One group size for both kernels and both kinds of group (upml_slabs.cl).
  const std::size_t group = std::max<std::size_t>(
      1, std::min({kSlabGroupItems, in.program.kernel("upml_slabs_h").max_group_size(),
                   in.program.kernel("upml_slabs_e").max_group_size()}));
  const std::size_t xy_groups = groups_of(xy.size(), group);
  const std::size_t z_groups = groups_of(zs.size(), group);
  // The z auxiliaries exist where the model has z-slab float4s; elsewhere no group reads them.
  const bool has_z = z.float4s() > 0;
  auto zaux = [&](int n) -> const device::Buffer& { return has_z ? f.zaux[n] : f.placeholder; };
  // The z share is a uint in the kernel; int carries its bits.
  auto tail = [&](Args& a, int kind, float dt_over) {
    a << f.profiles[0] << f.profiles[1] << f.profiles[3] << f.profiles[4] << zaux(kind)
      << f.zlanes << dt_over;
    grid_args(a, m, L.nz4);
    a << static_cast<int>(rows) << z.zq_lo << z.zq_hi << z.znq << r.i0 << r.j0 << r.i1 << r.j1
      << static_cast<int>(xy.first) << static_cast<int>(zs.first) << static_cast<int>(xy_groups)
      << static_cast<int>(slab_z_share(xy_groups, z_groups)) << static_cast<int>(group);
  };
  const BoundKernel h = bind_kernel(in, "upml_slabs_h", [&](Args& a, const FieldSet& F, const FieldSet& O) {
    a << O[3] << O[4] << O[5] << F[3] << F[4] << F[5] << F[0] << F[1] << F[2];
    h_material_args(a, f);
    a << f.aux[3] << f.aux[4] << f.aux[5];
    tail(a, 0, static_cast<float>(m.grid.dt / kMu0));
  });
  const BoundKernel e = bind_kernel(in, "upml_slabs_e", [&](Args& a, const FieldSet& F, const FieldSet& O) {
    a << O[0] << O[1] << O[2] << F[0] << F[1] << F[2] << O[3] << O[4] << O[5] << f.ids[0]
      << f.ids[1] << f.ids[2] << f.ecoef << f.aux[0] << f.aux[1] << f.aux[2];
    tail(a, 1, static_cast<float>(m.grid.dt / kEps0));
  });
  auto stage = [&](const BoundKernel& k, Phase phase) {
    Stage s;
    s.phase = phase;
    s.kernel = k.kernel;
    s.local = device::Range(group);
    s.global = device::Range((xy_groups + z_groups) * group);
    return s;
  };
  out.h.push_back(stage(h, Phase::H));
  out.e.push_back(stage(e, Phase::E));
  return out;
}

}  // namespace clfdtd::engine
