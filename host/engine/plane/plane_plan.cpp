// The 2D Yee step's stages: see plane_plan.hpp.
#include "engine/plane/plane_plan.hpp"

#include <algorithm>
#include <string>

#include "engine/in_place_stage.hpp"
#include "engine/variant_choice.hpp"
#include "errors.hpp"
#include "model/grid_geometry.hpp"

namespace clfdtd::engine {

namespace {

// One work-item per item of n, in groups of up to 64 (whole groups; the kernels bound-check).
Stage linear(Phase phase, const InPlaceKernel& b, std::size_t n) {
  const std::size_t group =
      std::max<std::size_t>(1, std::min<std::size_t>(64, b.kernel.max_group_size()));
  return in_place_stage(phase, b, device::Range(round_up(std::max<std::size_t>(n, 1), group)),
                    device::Range(group));
}

const device::Buffer& F(const PlaneFields& f, Component c) { return f.field[static_cast<int>(c)]; }
const device::Buffer& Id(const PlaneFields& f, Component c) { return f.ids[static_cast<int>(c)]; }

}  // namespace

std::array<std::string, 2> plane_main_kernels(const SimulationModel& m, KernelVariant v) {
  const std::string kind = v == KernelVariant::Rows ? "plane_rows_" : "plane_tile_";
  const std::string mode = m.mode == PlaneMode::Te ? "te" : "tm";
  return {kind + "h_" + mode, kind + "e_" + mode};
}

PlanePlan plan_plane(const device::Program& program, const SimulationModel& m, const PlaneFields& f,
                     KernelVariant v, const std::array<int, 3>& wg) {
  const auto& L = m.layout;
  const auto& layers = m.upml.layers;
  const bool te = m.mode == PlaneMode::Te;
  const float inv_dx = static_cast<float>(1 / m.grid.d[0]),
              inv_dy = static_cast<float>(1 / m.grid.d[1]);
  // The interior: rows [i0, i1) along x, cells [jlo, jhi) along y.
  const int i0 = layers[0], i1 = L.nx - layers[1], jlo = layers[2], jhi = L.ny - layers[3];
  const int nyp = static_cast<int>(L.nyp());
  PlanePlan out;

  // Field, id and table arguments of the H and E passes, shared by the interior and PML kernels.
  auto h_fields = [&](Args& a) {
    if (te) {
      a << F(f, Component::Hz) << F(f, Component::Ex) << F(f, Component::Ey);
    } else {
      a << F(f, Component::Hx) << F(f, Component::Hy) << F(f, Component::Ez);
    }
  };
  auto h_ids = [&](Args& a) {
    if (te) {
      a << Id(f, Component::Hz);
    } else {
      a << Id(f, Component::Hx) << Id(f, Component::Hy);
    }
    a << f.hcoef;
  };
  auto e_fields = [&](Args& a) {
    if (te) {
      a << F(f, Component::Ex) << F(f, Component::Ey) << F(f, Component::Hz);
    } else {
      a << F(f, Component::Ez) << F(f, Component::Hx) << F(f, Component::Hy);
    }
  };
  auto e_ids = [&](Args& a) {
    if (te) {
      a << Id(f, Component::Ex) << Id(f, Component::Ey);
    } else {
      a << Id(f, Component::Ez);
    }
    a << f.ecoef;
  };

  const auto names = plane_main_kernels(m, v);
  const bool interior = i1 > i0 && jhi > jlo;
  Stage main_h, main_e;
  if (interior) {
    if (v == KernelVariant::Rows) {
      auto grid = [&](Args& a) {
        a << inv_dx << inv_dy << L.nx << L.ny << nyp << i0 << i1 << jlo << jhi;
      };
      const InPlaceKernel h = bind_in_place(program, names[0], [&](Args& a) {
        h_fields(a);
        h_ids(a);
        a << f.db_vacuum;
        grid(a);
      });
      const InPlaceKernel e = bind_in_place(program, names[1], [&](Args& a) {
        e_fields(a);
        e_ids(a);
        grid(a);
      });
      const device::Range global(round_up(static_cast<std::size_t>(i1 - i0), wg[1])), local(wg[1]);
      main_h = in_place_stage(Phase::H, h, global, local);
      main_e = in_place_stage(Phase::E, e, global, local);
    } else {
      const int jq0 = jlo / 4, jq1 = (jhi + 3) / 4;
      auto grid = [&](Args& a) {
        a << inv_dx << inv_dy << L.nx << L.ny4 << i0 << i1 << jq0 << jq1 << jlo << jhi;
      };
      const InPlaceKernel h = bind_in_place(program, names[0], [&](Args& a) {
        h_fields(a);
        h_ids(a);
        a << f.db_vacuum;
        grid(a);
      });
      const InPlaceKernel e = bind_in_place(program, names[1], [&](Args& a) {
        e_fields(a);
        e_ids(a);
        grid(a);
      });
      // dim0 = float4s along y, dim1 = rows along x.
      const device::Range global(round_up(static_cast<std::size_t>(jq1 - jq0), wg[1]),
                                 round_up(static_cast<std::size_t>(i1 - i0), wg[0]));
      const device::Range local(wg[1], wg[0]);
      main_h = in_place_stage(Phase::H, h, global, local);
      main_e = in_place_stage(Phase::E, e, global, local);
    }
  }

  Stage pml_h, pml_e;
  if (f.pml_cells > 0) {
    auto grid = [&](Args& a, double scale) {
      for (const auto& p : f.profiles) a << p;
      a << static_cast<float>(scale) << inv_dx << inv_dy << L.nx << L.ny << nyp << layers[0]
        << layers[1] << layers[2] << layers[3] << static_cast<int>(f.pml_cells);
    };
    // Auxiliaries in the kernels' order: tm Bx By | Dz, te Bz | Dx Dy (plane_fields.hpp).
    const InPlaceKernel h = bind_in_place(program, te ? "plane_upml_h_te" : "plane_upml_h_tm", [&](Args& a) {
      h_fields(a);
      if (te) {
        a << f.aux[2];
      } else {
        a << f.aux[0] << f.aux[1];
      }
      h_ids(a);
      grid(a, -m.grid.dt / kMu0);
    });
    const InPlaceKernel e = bind_in_place(program, te ? "plane_upml_e_te" : "plane_upml_e_tm", [&](Args& a) {
      e_fields(a);
      if (te) {
        a << f.aux[0] << f.aux[1];
      } else {
        a << f.aux[2];
      }
      e_ids(a);
      grid(a, m.grid.dt / kEps0);
    });
    pml_h = linear(Phase::H, h, f.pml_cells);
    pml_e = linear(Phase::E, e, f.pml_cells);
  }
  if (interior) out.step.push_back(main_h);
  if (f.pml_cells > 0) out.step.push_back(pml_h);
  if (interior) out.step.push_back(main_e);
  if (f.pml_cells > 0) out.step.push_back(pml_e);

  // The plane waves' corrections after the whole step (post_step_entries), before the sources
  // (both add to E; they commute).
  if (f.pw.count > 0) {
    const InPlaceKernel k = bind_in_place(program, "add_plane_waves", [&](Args& a) {
      for (const auto& c : f.field) a << c;
      plane_wave_table_args(a, f.pw);
      a.value();
    });
    Stage st = linear(Phase::Sources, k, static_cast<std::size_t>(f.pw.count));
    st.runs_below = f.pw.steps;  // the incident table ends with the run
    out.step.push_back(st);
  }

  if (f.nsrc > 0) {
    const InPlaceKernel s = bind_in_place(program, "add_sources", [&](Args& a) {
      a << F(f, Component::Ex) << F(f, Component::Ey) << F(f, Component::Ez) << Id(f, Component::Ex)
        << Id(f, Component::Ey) << Id(f, Component::Ez) << f.ecoef << f.src_cells << f.src_j
        << f.nsrc << static_cast<int>(f.src_steps);
      a.value();
    });
    Stage st = linear(Phase::Sources, s, static_cast<std::size_t>(f.nsrc));
    st.runs_below = f.src_steps;  // J exists for s < steps only
    out.step.push_back(st);
  }

  // update_dispersion last of all: it needs E with every other term of the step in it. Its curl
  // (UPML samples only) is the 3D one with the plane's strides (x: nyp, y: 1) and cz = 0; te binds
  // Hz to all three H arguments (Ex and Ey read only Hz once the z terms vanish), tm Hx, Hy and a
  // placeholder (Ez reads Hx and Hy only).
  if (f.disp.count > 0) {
    const InPlaceKernel k = bind_in_place(program, "update_dispersion", [&](Args& a) {
      a << F(f, Component::Ex) << F(f, Component::Ey) << F(f, Component::Ez);
      if (te) {
        a << F(f, Component::Hz) << F(f, Component::Hz) << F(f, Component::Hz);
      } else {
        a << F(f, Component::Hx) << F(f, Component::Hy) << f.placeholder;
      }
      // One field set: E of the step before kept in the stage's state.
      a << f.placeholder << f.placeholder << f.placeholder;
      dispersion_table_args(a, f.disp, true);
      a << nyp << 1;
      a << static_cast<float>(m.grid.dt / kEps0 / m.grid.d[0])
        << static_cast<float>(m.grid.dt / kEps0 / m.grid.d[1]) << 0.0f;
    });
    out.step.push_back(linear(Phase::Sources, k, static_cast<std::size_t>(f.disp.count)));
  }

  if (f.nsamples > 0) {
    const InPlaceKernel p = bind_in_place(program, "sample_probes", [&](Args& a) {
      for (const auto& c : f.field) a << c;
      a << f.probe_cells << f.probe_batch << f.nsamples;
      a.value();
    });
    out.probes = linear(Phase::Sample, p, static_cast<std::size_t>(f.nsamples));
  }

  const int count4 = L.nx * L.ny4;
  {
    // Each inactive component's slot gets an active one (checked twice, harmlessly).
    const std::vector<Component> active = m.active_components();
    const InPlaceKernel k = bind_in_place(program, "check_finite", [&](Args& a) {
      for (int c = 0; c < 6; ++c) {
        const auto comp = static_cast<Component>(c);
        a << (m.is_active(comp) ? F(f, comp) : F(f, active.front()));
      }
      a << f.flag << count4;
    });
    out.finite = linear(Phase::Sample, k, static_cast<std::size_t>(count4));
  }

  if (m.energy) {
    const int group = energy_group_items(program, "plane_energy_sums");
    const InPlaceKernel k = bind_in_place(program, "plane_energy_sums", [&](Args& a) {
      if (te) {
        a << F(f, Component::Ex) << F(f, Component::Ey) << Id(f, Component::Ex)
          << Id(f, Component::Ey) << f.energy_eps << 2;
        a << F(f, Component::Hz) << f.placeholder << f.h_prev[0] << f.placeholder
          << Id(f, Component::Hz) << f.placeholder << f.energy_mu << 1;
      } else {
        a << F(f, Component::Ez) << f.placeholder << Id(f, Component::Ez) << f.placeholder
          << f.energy_eps << 1;
        a << F(f, Component::Hx) << F(f, Component::Hy) << f.h_prev[0] << f.h_prev[1]
          << Id(f, Component::Hx) << Id(f, Component::Hy) << f.energy_mu << 2;
      }
      a << f.energy_partial << count4 << f.energy_groups * group << f.energy_groups;
      a.value();
    });
    out.energy = in_place_stage(Phase::Sample, k,
                                device::Range(static_cast<std::size_t>(f.energy_groups) * group),
                                device::Range(static_cast<std::size_t>(group)));
  }
  return out;
}

}  // namespace clfdtd::engine
