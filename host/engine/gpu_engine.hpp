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
  // in_place_only: never the onepass variant (a model split over ranks exchanges halos between
  // the H and E phases, which onepass fuses): auto and a tuned choice skip it, an explicit
  // device.variant = onepass is a ConfigError.
  // split: run every step split by rows (device_engine.hpp run_split_step; tile and rows only,
  // so in_place_only must be set); empty: the whole-grid plan.
  GpuEngine(const SimulationModel& m, const DeviceConfig& cfg, std::unique_ptr<device::Device> dev,
            bool in_place_only = false, const RowSplit& split = {});
  ~GpuEngine() override;

  // "onepass 8x2x32", "float4-tile 2x2x30", "rows 1x8x1"; " aux=bfloat16" for
  // tile and onepass with UPML and such a device.upml_form; then the device's code target where
  // it has one ("... (sm_90)", CUDA), and " (tuned)" when the choice came from the tuning cache.
  std::string kernel_variant() const override;

  void step(long s) override;
  void read_field(Component c, std::vector<float>& out) override;
  bool one_pass() const override { return variant_ == KernelVariant::OnePass; }
  // The chosen variant's allocation (device_tables.hpp variant_device_bytes); m is the model
  // this engine was built for.
  std::size_t device_bytes(const SimulationModel& m) const override;

  KernelVariant variant() const { return variant_; }  // Tile, OnePass or Rows, never Auto
  // workgroup(): x, y, z (z4 for tile and onepass)
  const StepPlan& plan() const { return plan_; }
  // The stages of a split step over its edge rows and over the rest (empty without a split).
  const StepPlan& edge_plan() const { return edge_plan_; }
  const StepPlan& rest_plan() const { return rest_plan_; }
  bool split() const { return split_; }
  // The fields the next step starts from (Ex..Hz; the in-place variants' only set).
  const FieldSet& fields() const { return fields_->set[static_cast<std::size_t>(parity_)]; }

private:
  KernelVariant variant_ = KernelVariant::Tile;
  UpmlForm upml_form_ = UpmlForm::Float;
  std::unique_ptr<YeeFields> fields_;
  StepPlan plan_;
  bool split_ = false;
  StepPlan edge_plan_, rest_plan_;
};

// The engine on the device of `api` that cfg.select names (device::choose_device).
// Throws ConfigError (no such device), DeviceError (none at all), as the constructor.
std::unique_ptr<GpuEngine> make_gpu_engine(device::Api api, const SimulationModel& m,
                                           const DeviceConfig& cfg, bool in_place_only = false,
                                           const RowSplit& split = {});

}  // namespace clfdtd::engine
