// The GPU engine: the 3D Yee solver on any device of the device API (host/device/device.hpp),
// OpenCL or CUDA alike. Setup happens once in the constructor: the variant and work-group
// (variant_choice.hpp), the device buffers (yee_fields.hpp, which owns the device memory), and
// the stage list of one step with every kernel argument bound (plan.hpp). step() walks that list
// phase by phase; probes, energy and the finite check are stages of the same kind, run between
// steps, and so are the monitors' (monitor_stages.hpp); what runs them is the device engine's
// (device_engine.hpp). The engine is destroyed before the SimulationModel it refers to.
#pragma once
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/device_engine.hpp"
#include "engine/plan.hpp"
#include "engine/stage.hpp"
#include "engine/yee_fields.hpp"

namespace clfdtd::engine {

class GpuEngine final : public DeviceEngine {
public:
  // Runs `m` on `dev` with cfg's variant and work-group (cfg.select was used to open `dev`).
  // Throws ConfigError (a variant the engine does not have), OutOfMemoryError, DeviceError.
  // in_place_only: never the onepass or tblock variant (a model split over ranks exchanges halos
  // between the H and E phases, which they fuse): auto and a tuned choice skip them, an explicit
  // device.variant = onepass or tblock is a ConfigError.
  // split: run every step split by rows (device_engine.hpp run_split_step; tile and rows only,
  // so in_place_only must be set); empty: the whole-grid plan.
  GpuEngine(const SimulationModel& m, const DeviceConfig& cfg, std::unique_ptr<device::Device> dev,
            bool in_place_only = false, const RowSplit& split = {});
  ~GpuEngine() override;

  // "onepass 8x2x32", "float4-tile 2x2x30", "rows 1x8x1"; " aux=bfloat16" for
  // tile and onepass with UPML and such a device.upml_form; then the device's code target where
  // it has one ("... (sm_90)", CUDA), and " (tuned)" when the choice came from the tuning cache.
  std::string kernel_variant() const override;

  // tblock: step(s) defers step s; step(s + 1) then runs both in one pass (update_tblock). Whatever
  // reads the fields first (a sampler, read_field, finish, timed_steps' end) runs a deferred step
  // alone (the onepass plan), so every state a caller can see is exact. A grid too small for an
  // owned box past the PML (plan.hpp TBlockPass), or a device without room for the shell's second
  // auxiliaries, steps with the onepass plan throughout. Probe samples of the step inside a pair
  // are computed from the step before (plan.hpp plan_probe_prediction) instead of running it
  // alone, where no sample sits at or beside a PML cell.
  void step(long s) override;
  void read_field(Component c, std::vector<float>& out) override;
  bool one_pass() const override {
    return variant_ == KernelVariant::OnePass || variant_ == KernelVariant::TBlock;
  }
  int steps_per_pass() const override { return pair_ ? 2 : 1; }
  bool upml_face_one_aux() const override { return true; }
  // The chosen variant's allocation (device_tables.hpp variant_device_bytes); m is the model
  // this engine was built for.
  std::size_t device_bytes(const SimulationModel& m) const override;

  KernelVariant variant() const { return variant_; }  // Tile, OnePass, Rows or TBlock, never Auto
  std::optional<std::array<int, 3>> workgroup_used() const override { return workgroup(); }
  // workgroup(): x, y, z (z4 for tile and onepass)
  // One step's stages (tblock: the onepass plan of its single steps).
  const StepPlan& plan() const { return plan_; }
  // The stages of a split step over its edge rows and over the rest (empty without a split).
  const StepPlan& edge_plan() const { return edge_plan_; }
  const StepPlan& rest_plan() const { return rest_plan_; }
  bool split() const { return split_; }
  // tblock: the two-step pass, when the grid allows it; else nullptr.
  const Stage* pair_stage() const { return pair_ ? &pair_->pass : nullptr; }
  // tblock: the pass, and with UPML the shell's launches (from either set of auxiliaries).
  const TBlockPass* pair() const { return pair_ ? &*pair_ : nullptr; }
  // tblock: whether probe samples inside a pair are predicted (plan_probe_prediction).
  bool predicts_probes() const { return predict_.has_value(); }
  // Steps run two at a time and one at a time so far (tblock; 0 otherwise).
  long paired_steps() const { return paired_steps_; }
  long single_steps() const { return single_steps_; }
  // The fields the next step starts from (Ex..Hz; the in-place variants' only set).
  const FieldSet& fields() const { return fields_->set[static_cast<std::size_t>(parity_)]; }

protected:
  void run_deferred_steps() override;
  bool sample_deferred_probes(int slot) override;

private:
  void single_step(long s);

  KernelVariant variant_ = KernelVariant::Tile;
  UpmlForm upml_form_ = UpmlForm::Float;
  bool tblock_e1_local_ = false;  // tblock: the pass's E1 in local memory (device.tblock_staging)
  std::unique_ptr<YeeFields> fields_;
  StepPlan plan_;
  bool split_ = false;
  StepPlan edge_plan_, rest_plan_;
  std::optional<TBlockPass> pair_;
  std::optional<ProbePredictStage> predict_;  // tblock with probes (sample_deferred_probes)
  std::string unpaired_why_;  // tblock without pairs: why (kernel_variant says it)
  int aux_set_ = 0;           // tblock with UPML: which set holds the auxiliaries (plan.hpp)
  long deferred_ = -1;  // tblock: the step deferred by step() (-1: none)
  long paired_steps_ = 0, single_steps_ = 0;
};

// The engine on the device of `api` that cfg.select names (device::choose_device).
// Throws ConfigError (no such device), DeviceError (none at all), as the constructor.
std::unique_ptr<GpuEngine> make_gpu_engine(device::Api api, const SimulationModel& m,
                                           const DeviceConfig& cfg, bool in_place_only = false,
                                           const RowSplit& split = {});

}  // namespace clfdtd::engine
