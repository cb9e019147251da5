// The GPU engine: setup once, then one walk of the stage list per step (gpu_engine.hpp).
#include "engine/gpu_engine.hpp"

#include <algorithm>
#include <cstdint>

#include "backends/device_tables.hpp"
#include "backends/tuning_cache.hpp"
#include "engine/plan.hpp"
#include "engine/variant_choice.hpp"
#include "errors.hpp"

#include <stdexcept>

namespace clfdtd::engine {

const char* phase_name(Phase p) {
  switch (p) {
    case Phase::H: return "H";
    case Phase::HE: return "H+E";
    case Phase::E: return "E";
    case Phase::Sources: return "sources";
    case Phase::Sample: return "sample";
  }
  return "?";
}

GpuEngine::GpuEngine(const SimulationModel& m, const DeviceConfig& cfg,
                     std::unique_ptr<device::Device> dev, bool in_place_only,
                     const RowSplit& split)
    : DeviceEngine(m, std::move(dev)) {
  if (!split.empty() && !in_place_only)
    throw std::logic_error("GpuEngine: a step split by rows needs an in-place variant");
  const device::DeviceInfo& info = dev_->info();
  if (in_place_only && (cfg.variant == KernelVariant::OnePass || cfg.variant == KernelVariant::TBlock)) {
    throw ConfigError("", 0, "device.variant",
                      "onepass is not offered for a model split over ranks, nor tblock (auto, tile or rows)");
  }
  std::optional<TunedChoice> tuned;
  if (cfg.variant == KernelVariant::Auto && !cfg.workgroup) {
    const std::string desc = device_description();
    tuned = tuned_for_model(m.upml.enabled(), in_place_only,
                            lookup_tuning(tuning_key(name(), desc, info.driver)),
                            lookup_tuning(no_upml_tuning_key(name(), desc, info.driver)));
  }
  const bool fits_onepass =
      !in_place_only && variant_device_bytes(m, KernelVariant::OnePass, kProbeBatchSteps) <=
                            dev_->available_bytes();
  // A tuned tblock would step as onepass with plane waves (below): ask for onepass itself.
  if (tuned && tuned->variant == KernelVariant::TBlock && steps_singly(m)) tuned.reset();
  const VariantRequest request =
      resolve_variant(cfg, info.type, fits_onepass, tuned,
                      tblock_preferred_for(m, info.compute_units));
  BuiltProgram built = build_variant_program(*dev_, m, request);
  variant_ = request.variant;
  tuned_ = request.tuned;
  wg_ = built.workgroup;
  upml_form_ = request.upml_form;
  tblock_e1_local_ = built.tblock_e1_local;
  // tblock keeps onepass's buffers and runs its single steps with onepass's plan and program.
  const KernelVariant buffers = variant_ == KernelVariant::TBlock ? KernelVariant::OnePass : variant_;
  // Checks the memory before allocating anything, then uploads.
  fields_ = std::make_unique<YeeFields>(*dev_, m, buffers, kProbeBatchSteps);
  if (variant_ == KernelVariant::TBlock) {
    const BuiltProgram single = build_variant_program(*dev_, m, {KernelVariant::OnePass, {}, false, request.upml_form});
    const PlanInputs one{*dev_, single.program, m, *fields_, KernelVariant::OnePass,
                         single.workgroup, {}};
    plan_ = plan_onepass(one);
    // Pairs need an owned box and, with UPML, room for the shell's second auxiliaries (checked
    // before plan_tblock allocates them); else the onepass plan steps throughout, and says why.
    // Plane waves correct both fields between steps (add_plane_waves): a pair has no room for it.
    // So does the dispersive samples' step, which needs each step's finished E.
    const bool boxed = !tblock_owned_box(m).empty() && !steps_singly(m);
    const bool room = tblock_shell_aux_bytes(m) <= dev_->available_bytes();
    unpaired_why_ = steps_singly(m) ? steps_singly_why(m)
                    : !boxed        ? "grid too small"
                                    : "no device memory for the shell's auxiliaries";
    // The shell's programs (UPML models): one for the x and y slabs' boxes, one for the z slabs',
    // whose tile holds a z box's width (plan.hpp TBlockPass, kShellXYWorkgroup, kShellZWorkgroup).
    std::array<std::optional<PlanInputs>, 2> shell;
    bool z_fits = true;
    if (m.upml.enabled() && boxed && room) {
      const bool z_slabs = m.upml.layers[4] > 0 || m.upml.layers[5] > 0;
      const int z_width = tblock_z_box_float4s(m);
      for (int z = 0; z < (z_slabs ? 2 : 1) && z_fits; ++z) {
        std::array<int, 3> wg = z ? kShellZWorkgroup : kShellXYWorkgroup;
        if (z) wg[2] = z_width;
        VariantRequest r{KernelVariant::TBlock, wg, false, request.upml_form};
        r.tblock_upml = z ? 2 : 1;
        const bool local =
            tblock_shell_e1_local(r.tblock_upml, built.tblock_e1_local, dev_->info(), z_width);
        r.tblock_staging = local ? TBlockStaging::Local : TBlockStaging::Registers;
        const BuiltProgram sp = build_variant_program(*dev_, m, r);
        // A z box wider than the group takes several tiles, each owning all but its two halo
        // float4s (tblock.cl): a group 1 float4 wide owns none.
        z_fits = !z || sp.workgroup[2] >= std::min(z_width, 2);
        shell[z].emplace(
            PlanInputs{*dev_, sp.program, m, *fields_, KernelVariant::TBlock, sp.workgroup, {}});
      }
    }
    if (!z_fits) unpaired_why_ = "the shell's z work-group too narrow";
    if (boxed && room && z_fits) {
      pair_ = plan_tblock({*dev_, built.program, m, *fields_, variant_, wg_, {}},
                          shell[0] ? &*shell[0] : nullptr,
                          shell[1] ? &*shell[1] : shell[0] ? &*shell[0] : nullptr);
    }
  }
  const PlanInputs in{*dev_, built.program, m, *fields_, buffers, wg_, {}};
  if (variant_ != KernelVariant::TBlock) {
    plan_ = variant_ == KernelVariant::OnePass ? plan_onepass(in)
            : variant_ == KernelVariant::Rows  ? plan_rows(in)
                                               : plan_tile(in);
  }
  if (!split.empty()) {
    split_ = true;
    for (int part = 0; part < 2; ++part) {
      for (const RowBox& box : part == 0 ? split.edges : split.rest) {
        PlanInputs rin = in;
        rin.region = box;
        const StepPlan p = variant_ == KernelVariant::Rows ? plan_rows(rin) : plan_tile(rin);
        StepPlan& to = part == 0 ? edge_plan_ : rest_plan_;
        to.insert(to.end(), p.begin(), p.end());
      }
    }
  }
  if (pair_) predict_ = plan_probe_prediction(in);
  const Samplers samplers = plan_samplers(in);
  take_samplers(samplers.probes, samplers.finite, samplers.energy, *fields_);
  start_monitors(monitor_inputs(in));
  dev_->finish();  // surface upload errors here, not in the first step
}

// Waits for queued work before the buffers and kernels go (they free themselves after this).
GpuEngine::~GpuEngine() { wait_before_release(); }

std::string GpuEngine::kernel_variant() const {
  const char* name = variant_ == KernelVariant::Rows      ? "rows"
                     : variant_ == KernelVariant::OnePass ? "onepass"
                     : variant_ == KernelVariant::TBlock  ? "tblock"
                                                          : "float4-tile";
  // The auxiliaries' storage where it applies (tile and onepass with UPML) and is not float.
  const bool slabs = m_.upml.enabled() && variant_ != KernelVariant::Rows;
  const std::string aux = slabs && upml_form_ == UpmlForm::BFloat16 ? " aux=bfloat16" : "";
  // What the kernels were compiled to (CUDA: "sm_90"), as the CUDA backend always said.
  // tblock: where E1 is staged (device.tblock_staging), or why it steps as onepass.
  const std::string tb = variant_ != KernelVariant::TBlock ? ""
                         : !pair_ ? " (onepass steps: " + unpaired_why_ + ")"
                         : tblock_e1_local_ ? " e1=local"
                                            : " e1=registers";
  return variant_text(name, aux + tb);
}

std::size_t GpuEngine::device_bytes(const SimulationModel& m) const {
  // tblock: onepass's buffers, plus its source index (an int per row (i, j) and per source) and
  // where it predicts probe samples, their source rows (an int per sample).
  if (variant_ == KernelVariant::TBlock) {
    const auto& L = m.layout;
    const std::size_t index = (static_cast<std::size_t>(L.nx) * L.ny + 1 +
                               std::max<std::size_t>(1, m.sources.size())) * sizeof(std::int32_t);
    return variant_device_bytes(m, KernelVariant::OnePass, kProbeBatchSteps) +
           (pair_ ? index + tblock_shell_aux_bytes(m) : 0) +
           (predict_ ? m.probes.samples.size() * sizeof(std::int32_t) : 0);
  }
  return variant_device_bytes(m, variant_, kProbeBatchSteps);
}

// One time step, s -> s + 1 (MEEP's fields::step): H to (s + 1/2) dt, plain cells and UPML;
// onepass's pass over the plain cells (H, then E); E to (s + 1) dt; the sources' J at
// (s + 1/2) dt. Then the field sets swap roles (onepass; a no-op for the in-place variants).
void GpuEngine::step(long s) {
  if (!pair_) return single_step(s);
  if (deferred_ >= 0 && deferred_ + 1 == s) {
    // Steps s - 1 and s in one pass: from the current set into the other, as one onepass step;
    // with UPML the shell's launches too, from the auxiliaries' current set (plan.hpp TBlockPass).
    // The boxes are disjoint and every launch reads the current set only, so the shell's groups
    // may fill the compute units the pass's last groups leave idle, and the other way round. The
    // pass goes first: the other orders ran 3-5% slower on the H200 (docs/BENCHMARKS.md). Where
    // side queues start late and the shell has x/y boxes too, the z boxes' launch (the shell's
    // last) follows the pass on its queue (plan.hpp TBlockPass).
    std::vector<TogetherStage> together{{&pair_->pass, false}};
    const StepPlan& shell = pair_->shell[aux_set_];
    const bool z_after_pass = pair_->shell_z_last && shell.size() > 1 &&
                              device().info().side_queue_starts_late;
    if (z_after_pass) together.push_back({&shell.back(), true});
    for (std::size_t n = 0; n + (z_after_pass ? 1 : 0) < shell.size(); ++n)
      together.push_back({&shell[n], false});
    launch_together(together, deferred_);
    if (!pair_->shell[aux_set_].empty()) aux_set_ ^= 1;
    parity_ ^= 1;
    deferred_ = -1;
    paired_steps_ += 2;
    return;
  }
  run_deferred_steps();
  deferred_ = s;
}

void GpuEngine::single_step(long s) {
  if (aux_set_ == 1) {  // the slab kernels update set 0 (plan.hpp TBlockPass)
    for (const BufferCopy& c : pair_->copies) dev_->copy(c.dst, c.src, c.bytes);
    aux_set_ = 0;
  }
  if (split_)
    run_split_step(edge_plan_, rest_plan_, s);
  else
    run_step_stages(plan_, s);
  parity_ ^= 1;
  if (variant_ == KernelVariant::TBlock) ++single_steps_;
}

bool GpuEngine::sample_deferred_probes(int slot) {
  if (!predict_ || deferred_ < 0) return false;
  // The samples of step deferred_ + 1 from the current fields (step deferred_), which the pair
  // reads but does not write (it writes the other set).
  predict_->stage.kernel[static_cast<std::size_t>(parity_)].set(predict_->step_arg,
                                                                static_cast<int>(deferred_));
  launch(predict_->stage, slot);
  return true;
}

void GpuEngine::run_deferred_steps() {
  if (deferred_ < 0) return;
  const long s = deferred_;
  deferred_ = -1;
  single_step(s);
}

void GpuEngine::read_field(Component c, std::vector<float>& out) {
  run_deferred_steps();
  const auto& L = m_.layout;
  out.resize(static_cast<std::size_t>(L.nx) * L.ny * L.nz);
  if (out.empty()) return;
  read_unpadded(fields_->set[parity_][static_cast<int>(c)], out);
}

std::unique_ptr<GpuEngine> make_gpu_engine(device::Api api, const SimulationModel& m,
                                           const DeviceConfig& cfg, bool in_place_only,
                                           const RowSplit& split) {
  if (m.cylindrical())  // its (r, z) fields are no x-y-z grid: never run as one
    throw DeviceError("the 3D engine was given a cylindrical model (the cylindrical engine runs it)");
  if (m.grid.any_periodic() || m.grid.any_pmc())  // a halo exchange: the distributed backend's
    throw DeviceError("the 3D engine was given a model with periodic axes or magnetic walls "
                      "whole (it runs as parts: parallel::DistributedBackend)");
  return std::make_unique<GpuEngine>(m, cfg, open_engine_device(api, cfg), in_place_only, split);
}

}  // namespace clfdtd::engine
