// The UPML slab stages of the tile and onepass variants: see plan.hpp.
#include <algorithm>

#include "backends/device_tables.hpp"
#include "engine/plan.hpp"
#include "engine/variant_choice.hpp"
#include "model/grid_geometry.hpp"

namespace clfdtd::engine {

namespace {

// Groups of about `target` work-items over (n0 along dim 0, n1 along dim 1, n2 along dim 2):
// up to `z_max` along dim 0 (contiguous), then rows along dim 1; the limit is the smaller of the
// H and E kernels' (one geometry serves both).
void slab_ranges(const BoundKernel& h, const BoundKernel& e, std::size_t target, std::size_t z_max,
                 std::size_t n0, std::size_t n1, std::size_t n2, Stage& sh, Stage& se) {
  const std::size_t fit = std::min(h.kernel[0].max_group_size(), e.kernel[0].max_group_size());
  target = std::max<std::size_t>(1, std::min(target, fit));
  const std::size_t l0 = std::min({n0, z_max, target});
  const std::size_t l1 = std::max<std::size_t>(1, std::min(n1, target / l0));
  for (Stage* s : {&sh, &se}) {
    s->local = device::Range(l0, l1, 1);
    s->global = device::Range(round_up(n0, l0), round_up(n1, l1), n2);
  }
  sh.kernel = h.kernel;
  se.kernel = e.kernel;
  sh.phase = Phase::H;
  se.phase = Phase::E;
}

}  // namespace

SlabStages plan_upml_slabs(const PlanInputs& in) {
  const SimulationModel& m = in.m;
  const YeeFields& f = in.f;
  const auto& L = m.layout;
  const auto& lay = m.upml.layers;
  const auto& d = m.grid.d;
  const float dt_mu0 = static_cast<float>(m.grid.dt / kMu0);
  const float dt_eps0 = static_cast<float>(m.grid.dt / kEps0);
  SlabStages out;
  const RowBox r = region_args(in);

  const std::size_t rows = xy_pml_rows(m);
  // A region inside the x/y interior holds no x/y-slab row.
  const bool region_in_interior = in.region && r.i0 >= lay[0] && r.i1 <= L.nx - lay[1] && r.j0 >= lay[2] &&
                                  r.j1 <= L.ny - lay[3];
  if (rows > 0 && !r.empty() && !region_in_interior) {
    // dim0 = kq (32 float4s, 512 B per row), dim1 = x/y-slab rows: 128 items.
    auto tail = [&](Args& a, float dt_over) {
      a << dt_over << static_cast<float>(1 / d[0]) << static_cast<float>(1 / d[1])
        << static_cast<float>(1 / d[2]) << L.nx << L.ny << L.nz4;
      for (int face = 0; face < 4; ++face) a << lay[face];
      a << static_cast<int>(rows) << r.i0 << r.j0 << r.i1 << r.j1;
    };
    const BoundKernel h = bind_kernel(in, "upml_xy4_h", [&](Args& a, const FieldSet& F, const FieldSet& O) {
      a << O[3] << O[4] << O[5] << F[3] << F[4] << F[5] << F[0] << F[1] << F[2] << f.aux[3]
        << f.aux[4] << f.aux[5] << f.profiles[0] << f.profiles[1] << f.profiles[3]
        << f.profiles[4] << f.zlanes;
      h_material_args(a, f);
      tail(a, dt_mu0);
    });
    const BoundKernel e = bind_kernel(in, "upml_xy4_e", [&](Args& a, const FieldSet& F, const FieldSet& O) {
      a << O[0] << O[1] << O[2] << F[0] << F[1] << F[2] << O[3] << O[4] << O[5] << f.aux[0]
        << f.aux[1] << f.aux[2] << f.profiles[0] << f.profiles[1] << f.profiles[3]
        << f.profiles[4] << f.zlanes << f.ids[0] << f.ids[1] << f.ids[2] << f.ecoef;
      tail(a, dt_eps0);
    });
    Stage sh, se;
    slab_ranges(h, e, 128, 32, static_cast<std::size_t>(L.nz4), rows, 1, sh, se);
    out.h.push_back(sh);
    out.e.push_back(se);
  }

  const ZSlabLayout z = zslab_layout(m, in.variant);
  // A region outside the x/y interior holds no z-slab float4.
  const bool meets_interior = !in.region || std::max(r.i0, lay[0]) < std::min(r.i1, L.nx - lay[1]) &&
                              std::max(r.j0, lay[2]) < std::min(r.j1, L.ny - lay[3]);
  if (z.float4s() > 0 && meets_interior) {
    // dim0 = the slab float4s of one row (contiguous per slab), then rows along y: ~64 items.
    auto tail = [&](Args& a, float dt_over) {
      a << f.zlanes << dt_over;
      grid_args(a, m, L.nz4);
      a << z.zq_lo << z.zq_hi << z.znq << r.i0 << r.j0 << r.i1 << r.j1;
    };
    const BoundKernel h = bind_kernel(in, "upml_zslab_h", [&](Args& a, const FieldSet& F, const FieldSet& O) {
      a << O[3] << O[4] << O[5] << F[3] << F[4] << F[5] << F[0] << F[1] << F[2];
      h_material_args(a, f);
      a << f.zaux[0] << f.zaux[1];
      tail(a, dt_mu0);
    });
    const BoundKernel e = bind_kernel(in, "upml_zslab_e", [&](Args& a, const FieldSet& F, const FieldSet& O) {
      a << O[0] << O[1] << O[2] << F[0] << F[1] << F[2] << O[3] << O[4] << O[5] << f.ids[0]
        << f.ids[1] << f.ids[2] << f.ecoef << f.zaux[2] << f.zaux[3];
      tail(a, dt_eps0);
    });
    Stage sh, se;
    slab_ranges(h, e, 64, 64, static_cast<std::size_t>(z.znq), static_cast<std::size_t>(z.nyi),
                static_cast<std::size_t>(z.nxi), sh, se);
    out.h.push_back(sh);
    out.e.push_back(se);
  }
  return out;
}

}  // namespace clfdtd::engine
