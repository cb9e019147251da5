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
  const auto& lay = m.upml.layers;
  SlabStages out;
  const RowBox r = region_args(in);
  if (!m.upml.enabled() || r.empty()) return out;

  // A region inside the x/y interior holds no x/y-slab row.
  const bool region_in_interior = in.region && r.i0 >= lay[0] && r.i1 <= L.nx - lay[1] &&
                                  r.j0 >= lay[2] && r.j1 <= L.ny - lay[3];
  const std::size_t rows = xy_pml_rows(m);
  const std::size_t xy_float4s = region_in_interior ? 0 : rows * static_cast<std::size_t>(L.nz4);
  const ZSlabLayout z = zslab_layout(m, in.variant);
  // A region outside the x/y interior holds no z-slab float4.
  const bool meets_interior = !in.region || std::max(r.i0, lay[0]) < std::min(r.i1, L.nx - lay[1]) &&
                              std::max(r.j0, lay[2]) < std::min(r.j1, L.ny - lay[3]);
  const std::size_t z_float4s = meets_interior ? z.float4s() : 0;
  if (xy_float4s == 0 && z_float4s == 0) return out;

  // One group size for both kernels and both kinds of group (upml_slabs.cl).
  const std::size_t group = std::max<std::size_t>(
      1, std::min({kSlabGroupItems, in.program.kernel("upml_slabs_h").max_group_size(),
                   in.program.kernel("upml_slabs_e").max_group_size()}));
  const std::size_t xy_groups = groups_of(xy_float4s, group);
  const std::size_t z_groups = groups_of(z_float4s, group);
  // The z auxiliaries exist where the model has z-slab float4s; elsewhere no group reads them.
  const bool has_z = z.float4s() > 0;
  auto zaux = [&](int n) -> const device::Buffer& { return has_z ? f.zaux[n] : f.placeholder; };
  // The z share is a uint in the kernel; int carries its bits.
  auto tail = [&](Args& a, int zaux0, float dt_over) {
    a << f.profiles[0] << f.profiles[1] << f.profiles[3] << f.profiles[4] << zaux(zaux0)
      << zaux(zaux0 + 1) << f.zlanes << dt_over;
    grid_args(a, m, L.nz4);
    a << static_cast<int>(rows) << z.zq_lo << z.zq_hi << z.znq << r.i0 << r.j0 << r.i1 << r.j1
      << static_cast<int>(xy_groups) << static_cast<int>(slab_z_share(xy_groups, z_groups))
      << static_cast<int>(group);
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
    tail(a, 2, static_cast<float>(m.grid.dt / kEps0));
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
