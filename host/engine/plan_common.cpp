// The stages every variant has: sources and samplers, and the binding helpers: see plan.hpp.
#include <algorithm>

#include <cstdint>
#include <vector>

#include "backends/device_tables.hpp"
#include "engine/plan.hpp"
#include "engine/variant_choice.hpp"
#include "errors.hpp"

namespace clfdtd::engine {

BoundKernel bind_kernel(const PlanInputs& in, const std::string& name, const Bind& bind) {
  BoundKernel out;
  const bool two_sets = !in.f.set[0][0].same(in.f.set[1][0]);
  for (int p = 0; p < (two_sets ? 2 : 1); ++p) {
    out.kernel[p] = in.program.kernel(name);
    Args a(out.kernel[p]);
    bind(a, in.f.set[p], in.f.set[1 - p]);
    out.value_arg = a.value_arg();
  }
  if (!two_sets) out.kernel[1] = out.kernel[0];
  return out;
}

void grid_args(Args& a, const SimulationModel& m, int nz_units) {
  const auto& L = m.layout;
  const auto& d = m.grid.d;
  a << static_cast<float>(1 / d[0]) << static_cast<float>(1 / d[1])
    << static_cast<float>(1 / d[2]) << L.nx << L.ny << L.nz << nz_units;
  for (int f = 0; f < 6; ++f) a << m.upml.layers[f];
}

void h_material_args(Args& a, const YeeFields& f) {
  a << f.ids[3] << f.ids[4] << f.ids[5] << f.hcoef << f.db_vacuum;
}

void one_pass_material_args(Args& a, const YeeFields& f) {
  a << f.ids[0] << f.ids[1] << f.ids[2] << f.e_ids4 << f.ecoef;
  a << f.ids[3] << f.ids[4] << f.ids[5] << f.h_ids4 << f.hcoef << f.db_vacuum;
}

Stage linear_stage(Phase phase, BoundKernel k, std::size_t n) {
  Stage s;
  s.phase = phase;
  s.kernel = k.kernel;
  s.value_arg = k.value_arg;
  const std::size_t group =
      std::max<std::size_t>(1, std::min<std::size_t>(64, k.kernel[0].max_group_size()));
  s.local = device::Range(group);
  s.global = device::Range(round_up(std::max<std::size_t>(n, 1), group));
  return s;
}

RowBox region_args(const PlanInputs& in) {
  return in.region ? *in.region : RowBox{0, 0, in.m.layout.nx, in.m.layout.ny};
}

namespace {

// The merged sources whose cell lies in the rows of `r`, as tables of their own (each source
// lies in one region of a split, so every J is added once).
struct RegionSources {
  device::Buffer cells, j;
  int count = 0;
};
RegionSources region_sources(const PlanInputs& in, const RowBox& r) {
  const MergedSources src = merge_sources(in.m, [&](const std::array<int, 3>& c) {
    return c[0] >= r.i0 && c[0] < r.i1 && c[1] >= r.j0 && c[1] < r.j1;
  });
  const std::vector<std::int32_t>& cells = src.cells;
  const std::vector<float>& j = src.j;
  RegionSources out;
  out.count = static_cast<int>(cells.size() / 2);
  if (out.count == 0) return out;
  out.cells = in.dev.alloc(cells.size() * sizeof(std::int32_t));
  in.dev.upload(out.cells, cells.data(), cells.size() * sizeof(std::int32_t));
  out.j = in.dev.alloc(j.size() * sizeof(float));
  in.dev.upload(out.j, j.data(), j.size() * sizeof(float));
  return out;
}

}  // namespace

namespace {

// add_plane_waves, queued before add_sources (both add to the fields after the E update, into
// the set E went to; they commute). Never in a step split by rows: a run over ranks with plane
// waves exchanges its halo after the whole step (DistributedBackend turns the overlap off).
void plan_plane_waves(const PlanInputs& in, StepPlan& plan) {
  const YeeFields& f = in.f;
  if (f.pw.count == 0) return;
  if (in.region) throw std::logic_error("plane waves in a step split by rows");
  BoundKernel k = bind_kernel(in, "add_plane_waves", [&](Args& a, const FieldSet&, const FieldSet& out) {
    for (const auto& c : out) a << c;
    plane_wave_table_args(a, f.pw);
    a.value();
  });
  Stage s = linear_stage(Phase::Sources, k, static_cast<std::size_t>(f.pw.count));
  s.runs_below = f.pw.steps;
  plan.push_back(s);
}

// update_dispersion last of all: it needs E with every other term of the step in it.
void plan_dispersion(const PlanInputs& in, StepPlan& plan) {
  const YeeFields& f = in.f;
  if (f.disp.count == 0) return;
  const SimulationModel& m = in.m;
  if (in.region) throw std::logic_error("dispersive samples in a step split by rows (no halo overlap with them)");
  // With two field sets E of the step before is the set the step read (`before`, which the
  // stage itself corrected a step ago); with one, the stage keeps it in its state.
  BoundKernel k = bind_kernel(in, "update_dispersion", [&](Args& a, const FieldSet& before, const FieldSet& out) {
    const bool one_set = before[0].same(out[0]);
    a << out[0] << out[1] << out[2] << out[3] << out[4] << out[5];
    for (int c = 0; c < 3; ++c) a << (one_set ? f.placeholder : before[c]);
    dispersion_table_args(a, f.disp, one_set);
    a << static_cast<int>(m.layout.ny * m.layout.nzp()) << static_cast<int>(m.layout.nzp());
    for (int axis = 0; axis < 3; ++axis) a << static_cast<float>(m.grid.dt / kEps0 / m.grid.d[axis]);
  });
  plan.push_back(linear_stage(Phase::Sources, k, static_cast<std::size_t>(f.disp.count)));
}

void plan_point_sources(const PlanInputs& in, StepPlan& plan) {
  const YeeFields& f = in.f;
  if (f.nsrc == 0) return;
  RegionSources src{f.src_cells, f.src_j, f.nsrc};
  if (in.region) src = region_sources(in, *in.region);
  if (src.count == 0) return;
  // After the E update: onepass wrote E into `out`, the others into the current set.
  BoundKernel k = bind_kernel(in, "add_sources", [&](Args& a, const FieldSet&, const FieldSet& out) {
    a << out[0] << out[1] << out[2] << f.ids[0] << f.ids[1] << f.ids[2] << f.ecoef
      << src.cells << src.j << src.count << static_cast<int>(f.src_steps);
    a.value();
  });
  Stage s = linear_stage(Phase::Sources, k, static_cast<std::size_t>(src.count));
  // J exists for s < steps only; a step past the table adds nothing.
  s.runs_below = f.src_steps;
  plan.push_back(s);
}

}  // namespace

void plan_sources(const PlanInputs& in, StepPlan& plan) {
  plan_plane_waves(in, plan);
  plan_point_sources(in, plan);
  plan_dispersion(in, plan);
}

Samplers plan_samplers(const PlanInputs& in) {
  const YeeFields& f = in.f;
  const SimulationModel& m = in.m;
  const auto& L = m.layout;
  const std::size_t count4 = static_cast<std::size_t>(L.nx) * L.ny * L.nz4;
  Samplers out;
  if (f.nsamples > 0) {
    BoundKernel k = bind_kernel(in, "sample_probes", [&](Args& a, const FieldSet& cur, const FieldSet&) {
      for (const auto& c : cur) a << c;
      a << f.probe_cells << f.probe_batch << f.nsamples;
      a.value();
    });
    out.probes = linear_stage(Phase::Sample, k, static_cast<std::size_t>(f.nsamples));
  }
  if (m.energy) {
    const int group = energy_group_items(in.program, "energy_sums");
    BoundKernel k = bind_kernel(in, "energy_sums", [&](Args& a, const FieldSet& cur, const FieldSet&) {
      for (const auto& c : cur) a << c;
      for (const auto& h : f.h_prev) a << h;
      a << f.ids[0] << f.ids[1] << f.ids[2] << f.energy_eps;
      a << f.ids[3] << f.ids[4] << f.ids[5] << f.energy_mu;
      a << f.energy_partial << static_cast<int>(count4)
        << f.energy_groups * group << f.energy_groups;
      a.value();
    });
    out.energy.phase = Phase::Sample;
    out.energy.kernel = k.kernel;
    out.energy.value_arg = k.value_arg;
    out.energy.local = device::Range(static_cast<std::size_t>(group));
    out.energy.global = device::Range(static_cast<std::size_t>(f.energy_groups) * group);
  }
  BoundKernel k = bind_kernel(in, "check_finite", [&](Args& a, const FieldSet& cur, const FieldSet&) {
    for (const auto& c : cur) a << c;
    a << f.flag << static_cast<int>(count4);
  });
  out.finite = linear_stage(Phase::Sample, k, count4);
  return out;
}

}  // namespace clfdtd::engine
