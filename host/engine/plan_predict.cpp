// tblock's probe samples inside a pair of steps: see plan.hpp plan_probe_prediction.
#include "engine/plan.hpp"
#include "engine/probe_prediction.hpp"
#include "engine/yee_fields.hpp"

namespace clfdtd::engine {

std::optional<ProbePredictStage> plan_probe_prediction(const PlanInputs& in) {
  const YeeFields& f = in.f;
  const SimulationModel& m = in.m;
  if (f.nsamples == 0) return std::nullopt;
  const auto sources = predictable_sample_sources(m);
  if (!sources) return std::nullopt;
  ProbePredictStage out;
  out.sample_source = in.dev.alloc(sources->size() * sizeof(std::int32_t));
  in.dev.upload(out.sample_source, sources->data(), sources->size() * sizeof(std::int32_t));
  const auto& L = m.layout;
  const auto& d = m.grid.d;
  BoundKernel k = bind_kernel(in, "predict_probes", [&](Args& a, const FieldSet& cur, const FieldSet&) {
    for (const auto& c : cur) a << c;
    a << f.ids[0] << f.ids[1] << f.ids[2] << f.ecoef;
    h_material_args(a, f);
    a << static_cast<float>(1 / d[0]) << static_cast<float>(1 / d[1]) << static_cast<float>(1 / d[2])
      << L.nx << L.ny << L.nz << static_cast<int>(L.nzp());
    a << f.probe_cells << out.sample_source << f.src_j << static_cast<int>(f.src_steps)
      << f.probe_batch << f.nsamples;
    out.step_arg = a.next();
    a << 0;
    a.value();
  });
  out.stage = linear_stage(Phase::Sample, k, static_cast<std::size_t>(f.nsamples));
  return out;
}

}  // namespace clfdtd::engine
