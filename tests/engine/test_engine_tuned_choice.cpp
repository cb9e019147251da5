// device.variant = auto with both 3D entries of `clfdtd bench --tune` in the tuning cache (models
// with UPML, models without): the engine a model gets, on every API with a device. The choice
// rules alone are in test_engine_host.cpp; the tuner writing both entries in tests/cli.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "engine/engine_suite.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

constexpr double kD = 1e-3;  // cell size, m

bool starts_with(const std::string& text, const std::string& start) {
  return text.rfind(start, 0) == 0;
}

bool tuned(const std::string& variant) { return variant.find("(tuned)") != std::string::npos; }

}  // namespace

TEST_CASE("engine auto: a model without UPML runs the no-UPML entry (tblock), one with UPML the UPML entry") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("clfdtd_engine_tuned_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const char* before = std::getenv("CLFDTD_CACHE_DIR");
  const std::string saved = before ? before : "";
  ::setenv("CLFDTD_CACHE_DIR", dir.c_str(), 1);

  RunConfig pc = box_config({13, 11, 10}, kD, 4, BoundaryType::Pec);
  pc.sources = {point_source("dip", SourceKind::Dipole, Axis::Z, cells(6.2, 5.1, 4.3, kD),
                             WaveformKind::Sine, 40e9, 2e-13)};
  const SimulationModel pec = SimulationModel::build(pc);
  RunConfig uc = box_config({11, 9, 10}, kD, 4, BoundaryType::Upml);
  uc.boundary.layers = {2, 2, 2, 2, 2, 2};
  const SimulationModel upml = SimulationModel::build(uc);
  REQUIRE_FALSE(pec.upml.enabled());
  REQUIRE(upml.upml.enabled());
  const DeviceConfig aut = engine_config(KernelVariant::Auto);

  for (device::Api api : engine_apis()) {
    INFO("api " << std::string(device::api_name(api)));
    fs::remove(dir / "tuning.json");
    const auto probe = engine::make_gpu_engine(api, pec, engine_config(KernelVariant::Tile));
    const std::string name = probe->name(), device = probe->device_description(),
                      driver = probe->driver_version();
    TunedChoice with;  // vacuum_upml's winner
    with.variant = KernelVariant::Tile;
    with.workgroup = {1, 2, 2};
    with.gcells_per_s = 1;
    with.n = 24;
    store_tuning(tuning_key(name, device, driver), with);
    // The UPML entry alone (a cache from before the no-UPML entries): the PEC model takes it.
    {
      const auto e = engine::make_gpu_engine(api, pec, aut);
      CHECK(e->variant() == KernelVariant::Tile);
      CHECK_MESSAGE(starts_with(e->kernel_variant(), "float4-tile 1x2x2"), e->kernel_variant());
      CHECK(tuned(e->kernel_variant()));
    }
    TunedChoice without;  // pec_cube's winner
    without.variant = KernelVariant::TBlock;
    without.workgroup = {4, 4, 2};
    without.gcells_per_s = 2;
    without.n = 24;
    without.problem = "pec_cube";
    store_tuning(no_upml_tuning_key(name, device, driver), without);
    {
      const auto e = engine::make_gpu_engine(api, pec, aut);
      CHECK(e->variant() == KernelVariant::TBlock);
      CHECK_MESSAGE(starts_with(e->kernel_variant(), "tblock 4x4x2"), e->kernel_variant());
      CHECK(tuned(e->kernel_variant()));
      REQUIRE(e->pair_stage() != nullptr);  // its own two-step pass, not onepass's single steps
      for (long s = 0; s < 4; ++s) e->step(s);
      e->finish();
      CHECK(e->paired_steps() == 4);
    }
    // Planes 0 (the tuner's tblock entries): the chunk model's for this grid, whose 13 planes
    // along x make one chunk.
    without.workgroup = {0, 4, 2};
    store_tuning(no_upml_tuning_key(name, device, driver), without);
    {
      const auto e = engine::make_gpu_engine(api, pec, aut);
      CHECK(e->variant() == KernelVariant::TBlock);
      CHECK_MESSAGE(starts_with(e->kernel_variant(), "tblock 13x4x2"), e->kernel_variant());
      CHECK(tuned(e->kernel_variant()));
    }
    {
      const auto e = engine::make_gpu_engine(api, upml, aut);
      CHECK(e->variant() == KernelVariant::Tile);
      CHECK_MESSAGE(starts_with(e->kernel_variant(), "float4-tile 1x2x2"), e->kernel_variant());
      CHECK(tuned(e->kernel_variant()));
    }
    // Split over ranks (in place only): tblock passed over, the UPML entry's tile taken ...
    {
      const auto e = engine::make_gpu_engine(api, pec, aut, /*in_place_only=*/true);
      CHECK(e->variant() == KernelVariant::Tile);
      CHECK_MESSAGE(starts_with(e->kernel_variant(), "float4-tile 1x2x2"), e->kernel_variant());
    }
    // ... and with onepass as the UPML entry, neither: auto's untuned choice.
    with.variant = KernelVariant::OnePass;
    with.workgroup = {8, 2, 32};
    store_tuning(tuning_key(name, device, driver), with);
    {
      const auto e = engine::make_gpu_engine(api, pec, aut, /*in_place_only=*/true);
      CHECK(e->variant() != KernelVariant::TBlock);
      CHECK(e->variant() != KernelVariant::OnePass);
      CHECK_FALSE(tuned(e->kernel_variant()));
    }
  }
  if (before) {
    ::setenv("CLFDTD_CACHE_DIR", saved.c_str(), 1);
  } else {
    ::unsetenv("CLFDTD_CACHE_DIR");
  }
  fs::remove_all(dir);
}
