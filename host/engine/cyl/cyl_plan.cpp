// The cylindrical step's stages and variant: see cyl_plan.hpp.
#include "engine/cyl/cyl_plan.hpp"

#include <algorithm>
#include <cctype>

#include "engine/plane/plane_variant.hpp"
#include "engine/in_place_stage.hpp"
#include "engine/variant_choice.hpp"
#include "errors.hpp"
#include "model/cyl_pml.hpp"
#include "model/grid_geometry.hpp"

namespace clfdtd::engine {

namespace {

std::size_t linear_group(const InPlaceKernel& b) {
  return std::max<std::size_t>(1, std::min<std::size_t>(64, b.kernel.max_group_size()));
}

// n items along dimension 0 (groups of up to 64), `slots` along dimension 1.
Stage linear(Phase phase, const InPlaceKernel& b, std::size_t n, std::size_t slots = 1) {
  const std::size_t group = linear_group(b);
  return in_place_stage(phase, b, device::Range(round_up(std::max<std::size_t>(n, 1), group), slots),
                    device::Range(group, 1));
}

const device::Buffer& F(const CylFields& f, Component c) { return f.field[static_cast<int>(c)]; }
const device::Buffer& Id(const CylFields& f, Component c) { return f.ids[static_cast<int>(c)]; }

}  // namespace

std::array<std::string, 2> cyl_main_kernels(KernelVariant v, bool local_staging) {
  if (v == KernelVariant::Rows) return {"cyl_rows_h", "cyl_rows_e"};
  if (local_staging) return {"cyl_tile_local_h", "cyl_tile_local_e"};
  return {"cyl_tile_h", "cyl_tile_e"};
}

std::string cyl_kernel_name(KernelVariant v, bool local_staging) {
  if (v == KernelVariant::Rows) return "cyl-rows";
  return local_staging ? "cyl-tile-local" : "cyl-tile";
}

int cyl_tile_first_float4(int klo, bool align) {
  constexpr int kSegmentFloat4s = 8;  // 128 B
  const int kq0 = klo / 4;
  return align ? kq0 / kSegmentFloat4s * kSegmentFloat4s : kq0;
}

KernelVariant resolve_cyl_variant(const DeviceConfig& cfg, const std::string& device_type) {
  switch (cfg.variant) {
    case KernelVariant::OnePass:
    case KernelVariant::TBlock:
      throw ConfigError("", 0, "device.variant",
                        "auto, tile or rows for a cylindrical model (onepass is a 3D kernel, tblock too)");
    case KernelVariant::Auto:
      return device_type == "cpu" ? KernelVariant::Rows : KernelVariant::Tile;
    default:
      return cfg.variant;
  }
}

namespace {
bool contains_nocase(std::string text, std::string part) {
  for (auto* s : {&text, &part})
    std::transform(s->begin(), s->end(), s->begin(), [](unsigned char ch) { return std::tolower(ch); });
  return text.find(part) != std::string::npos;
}
}  // namespace

int cyl_simd_width(const device::DeviceInfo& info) {
  if (info.api == device::Api::Cuda) return 32;
  if (info.type == "cpu") return 1;
  const std::string who = info.vendor + " " + info.platform + " " + info.name;
  if (contains_nocase(who, "nvidia")) return 32;
  if (contains_nocase(who, "amd") || contains_nocase(who, "advanced micro")) return 64;
  if (contains_nocase(who, "intel")) return 16;
  return 32;
}

std::size_t cyl_local_bytes(const std::array<int, 3>& wg) {
  return 6 * static_cast<std::size_t>(wg[0] + 1) * static_cast<std::size_t>(wg[1] + 1) * 16;
}

// The (r, z) grid is shaped like a 2D plane of nr rows by nz cells in float4s: the 2D clamps.
std::array<int, 3> choose_cyl_workgroup(KernelVariant v,
                                        const std::optional<std::array<int, 3>>& requested,
                                        const FieldLayout& layout, std::size_t max_group,
                                        const std::array<std::size_t, 3>& max_items,
                                        int simd_width, bool local_staging,
                                        std::size_t local_mem_bytes) {
  std::optional<std::array<int, 3>> want = requested;
  if (!want && v != KernelVariant::Rows && simd_width > 1) {
    constexpr int kItems = 256;
    const int wz4 = std::min(simd_width, kItems);
    want = std::array<int, 3>{kItems / wz4, wz4, 1};
  }
  std::array<int, 3> wg = choose_plane_workgroup(v, want, FieldLayout::xy_plane(layout.nx, layout.nz),
                                                 max_group, max_items);
  if (v != KernelVariant::Rows && local_staging && local_mem_bytes > 0) {
    while (cyl_local_bytes(wg) > local_mem_bytes && wg[0] * wg[1] > 1) {
      int& larger = wg[0] >= wg[1] ? wg[0] : wg[1];
      larger = (larger + 1) / 2;
    }
  }
  return wg;
}

std::vector<std::array<int, 3>> cyl_tuning_candidates(KernelVariant v) {
  if (v == KernelVariant::Rows) return plane_tuning_candidates(v);
  // (wr, wz4, 1): the engine's first default 8 x 16, then one-warp rows (x 32) of 1..16 rows (the
  // seed's 32 x 4 analogue is 4 x 32), two-warp rows, and squat tiles.
  return {{8, 16, 1}, {1, 32, 1}, {2, 32, 1}, {4, 32, 1}, {8, 32, 1}, {16, 32, 1},
          {1, 64, 1}, {2, 64, 1}, {4, 64, 1}, {8, 64, 1}, {4, 16, 1}, {16, 16, 1},
          {16, 8, 1}, {32, 8, 1}, {32, 4, 1}, {2, 128, 1}};
}

CylPlan plan_cyl(const device::Program& program, const SimulationModel& m, const CylFields& f,
                 KernelVariant v, const std::array<int, 3>& wg, const CylTileChoice& tile) {
  const auto& L = m.layout;
  const CylPml pml = build_cyl_pml(m.upml, m.grid.n);
  const float dr = static_cast<float>(m.grid.d[0]);
  const float inv_dr = static_cast<float>(1 / m.grid.d[0]),
              inv_dz = static_cast<float>(1 / m.grid.d[2]);
  const int nr = L.nx, nz = L.nz, nzp = static_cast<int>(L.nzp()), nq = f.modes;
  const int cells = static_cast<int>(f.cells), cells4 = cells / 4;
  // The plain region: rows [0, i1), cells [klo, khi).
  const int i1 = nr - pml.layers_r, klo = pml.layers_z_lo, khi = nz - pml.layers_z_hi;
  CylPlan out;

  auto h_args = [&](Args& a) {
    a << F(f, Component::Hx) << F(f, Component::Hy) << F(f, Component::Hz) << F(f, Component::Ex)
      << F(f, Component::Ey) << F(f, Component::Ez) << Id(f, Component::Hx) << Id(f, Component::Hy)
      << Id(f, Component::Hz) << f.hcoef << f.db_vacuum;
  };
  auto e_args = [&](Args& a) {
    a << F(f, Component::Ex) << F(f, Component::Ey) << F(f, Component::Ez) << F(f, Component::Hx)
      << F(f, Component::Hy) << F(f, Component::Hz) << Id(f, Component::Ex) << Id(f, Component::Ey)
      << Id(f, Component::Ez) << f.ecoef;
  };

  const auto names = cyl_main_kernels(v, tile.local_staging);
  const bool plain = i1 > 0 && khi > klo;
  Stage main_h, main_e;
  if (plain) {
    if (v == KernelVariant::Rows) {
      auto grid = [&](Args& a) {
        a << f.mode_m << dr << inv_dr << inv_dz << nr << nz << nzp << cells << nq << i1 << klo
          << khi;
      };
      const InPlaceKernel h = bind_in_place(program, names[0], [&](Args& a) {
        h_args(a);
        grid(a);
      });
      const InPlaceKernel e = bind_in_place(program, names[1], [&](Args& a) {
        e_args(a);
        grid(a);
      });
      const device::Range global(round_up(static_cast<std::size_t>(i1), wg[1]), nq),
          local(wg[1], 1);
      main_h = in_place_stage(Phase::H, h, global, local);
      main_e = in_place_stage(Phase::E, e, global, local);
    } else {
      const int kq0 = cyl_tile_first_float4(klo, tile.align), kq1 = (khi + 3) / 4;
      auto grid = [&](Args& a) {
        a << f.mode_m << dr << inv_dr << inv_dz << nr << L.nz4 << cells4 << nq << i1 << kq0 << kq1
          << klo << khi;
      };
      const InPlaceKernel h = bind_in_place(program, names[0], [&](Args& a) {
        h_args(a);
        grid(a);
      });
      const InPlaceKernel e = bind_in_place(program, names[1], [&](Args& a) {
        e_args(a);
        grid(a);
      });
      // dim0 = float4s along z, dim1 = rows along r, dim2 = mode slots.
      const device::Range global(round_up(static_cast<std::size_t>(kq1 - kq0), wg[1]),
                                 round_up(static_cast<std::size_t>(i1), wg[0]), nq);
      const device::Range local(wg[1], wg[0], 1);
      main_h = in_place_stage(Phase::H, h, global, local);
      main_e = in_place_stage(Phase::E, e, global, local);
    }
  }

  Stage pml_h, pml_e;
  if (f.pml_cells > 0) {
    auto grid = [&](Args& a) {
      a << f.psi << f.r_tilde << f.r_over;
      for (const auto& t : f.pml_tables) a << t;
      a << f.mode_m << dr << inv_dr << inv_dz << nr << nz << nzp << cells << nq << pml.layers_r
        << pml.layers_z_lo << pml.layers_z_hi << static_cast<int>(f.pml_cells);
    };
    const InPlaceKernel h = bind_in_place(program, "cyl_pml_h", [&](Args& a) {
      h_args(a);
      grid(a);
    });
    const InPlaceKernel e = bind_in_place(program, "cyl_pml_e", [&](Args& a) {
      e_args(a);
      grid(a);
    });
    pml_h = linear(Phase::H, h, f.pml_cells, nq);
    pml_e = linear(Phase::E, e, f.pml_cells, nq);
  }
  if (plain) out.step.push_back(main_h);
  if (f.pml_cells > 0) out.step.push_back(pml_h);
  if (plain) out.step.push_back(main_e);
  if (f.pml_cells > 0) out.step.push_back(pml_e);

  if (f.nsrc > 0) {
    const InPlaceKernel s = bind_in_place(program, "cyl_add_sources", [&](Args& a) {
      a << F(f, Component::Ex) << F(f, Component::Ey) << F(f, Component::Ez) << Id(f, Component::Ex)
        << Id(f, Component::Ey) << Id(f, Component::Ez) << f.ecoef << f.src_cells << f.src_j
        << f.nsrc << nq << cells << static_cast<int>(f.src_steps);
      a.value();
    });
    Stage st = linear(Phase::Sources, s, static_cast<std::size_t>(f.nsrc) * nq);
    st.runs_below = f.src_steps;  // J exists for s < steps only
    out.step.push_back(st);
  }

  if (f.nsamples > 0) {
    const InPlaceKernel p = bind_in_place(program, "cyl_sample_probes", [&](Args& a) {
      for (const auto& c : f.field) a << c;
      a << f.probe_cells << f.probe_phase << f.probe_batch << f.nsamples << nq << cells;
      a.value();
    });
    out.probes = linear(Phase::Sample, p, static_cast<std::size_t>(f.nsamples));
  }

  {
    const int count4 = 2 * nq * cells4;
    const InPlaceKernel k = bind_in_place(program, "check_finite", [&](Args& a) {
      for (const auto& c : f.field) a << c;
      a << f.flag << count4;
    });
    out.finite = linear(Phase::Sample, k, static_cast<std::size_t>(count4));
  }

  if (m.energy) {
    const int group = energy_group_items(program, "cyl_energy_sums");
    const InPlaceKernel k = bind_in_place(program, "cyl_energy_sums", [&](Args& a) {
      for (const auto& c : f.field) a << c;
      for (const auto& h : f.h_prev) a << h;
      for (const auto& id : f.ids) a << id;
      a << f.energy_eps << f.energy_mu << f.energy_rweight << f.mode_m << f.energy_partial << cells4
        << L.nz4 << nq << f.energy_groups * group << f.energy_groups;
      a.value();
    });
    out.energy = in_place_stage(Phase::Sample, k,
                                device::Range(static_cast<std::size_t>(f.energy_groups) * group),
                                device::Range(static_cast<std::size_t>(group)));
  }
  return out;
}

}  // namespace clfdtd::engine
