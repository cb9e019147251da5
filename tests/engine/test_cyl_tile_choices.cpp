// The cylindrical tile's work-group and launch choices (issue 20, the seed's optimisations): the
// automatic work-group rule from the device's SIMD width and limits, the local-memory clamp of the
// staged kernels, the 128-byte aligned z start, and a tuning cache entry of kind "cyl" taken by
// the engine (kernel_variant ends " (tuned)"). The variants' fields against the reference are in
// test_cyl_engine_vs_reference.cpp.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "backends/tuning_cache.hpp"
#include "engine/cyl/cyl_plan.hpp"
#include "engine/cyl_engine_models.hpp"

using namespace clfdtd;
using namespace clfdtd::engine;
using namespace clfdtd::test;

TEST_CASE("cylindrical tile: SIMD width and the automatic work-group rule") {
  device::DeviceInfo nv;
  nv.api = device::Api::OpenCL;
  nv.type = "gpu";
  nv.vendor = "NVIDIA Corporation";
  CHECK(cyl_simd_width(nv) == 32);
  device::DeviceInfo amd = nv;
  amd.vendor = "Advanced Micro Devices, Inc.";
  CHECK(cyl_simd_width(amd) == 64);
  device::DeviceInfo cpu = nv;
  cpu.type = "cpu";
  cpu.vendor = "GenuineIntel";
  CHECK(cyl_simd_width(cpu) == 1);
  device::DeviceInfo cuda = nv;
  cuda.api = device::Api::Cuda;
  cuda.vendor = "";
  CHECK(cyl_simd_width(cuda) == 32);

  const FieldLayout big(4000, 1, 4000);
  const std::array<std::size_t, 3> items{1024, 1024, 64};
  // One warp along z (32 float4s), 256 items: 8 rows.
  CHECK(choose_cyl_workgroup(KernelVariant::Tile, std::nullopt, big, 1024, items, 32) ==
        std::array<int, 3>{8, 32, 1});
  CHECK(choose_cyl_workgroup(KernelVariant::Tile, std::nullopt, big, 1024, items, 64) ==
        std::array<int, 3>{4, 64, 1});
  // A device allowing 128 items halves the larger axis.
  CHECK(choose_cyl_workgroup(KernelVariant::Tile, std::nullopt, big, 128, items, 32) ==
        std::array<int, 3>{8, 16, 1});
  // Without a SIMD width (a CPU): the plane default 8 x 16; rows: 64.
  CHECK(choose_cyl_workgroup(KernelVariant::Tile, std::nullopt, big, 1024, items, 1) ==
        std::array<int, 3>{8, 16, 1});
  CHECK(choose_cyl_workgroup(KernelVariant::Rows, std::nullopt, big, 1024, items, 32) ==
        std::array<int, 3>{1, 64, 1});
  // Asked for: kept, clamped to the grid (nz4 = 6 float4s, 17 rows).
  CHECK(choose_cyl_workgroup(KernelVariant::Tile, std::array<int, 3>{32, 32, 1},
                             FieldLayout(17, 1, 23), 1024, items, 32) ==
        std::array<int, 3>{17, 6, 1});
}

TEST_CASE("cylindrical tile: local staging stays within the device's local memory") {
  const FieldLayout big(4000, 1, 4000);
  const std::array<std::size_t, 3> items{1024, 1024, 64};
  CHECK(cyl_local_bytes({8, 32, 1}) == 6u * 9 * 33 * 16);
  // 32 x 32 asks 6 x 33 x 33 x 16 B = 104 kB: halved (the larger axis, rows on a tie) until it
  // fits 48 kB: 16 x 32 (53.9 kB), 16 x 16 (27.7 kB).
  const auto wg = choose_cyl_workgroup(KernelVariant::Tile, std::array<int, 3>{32, 32, 1}, big,
                                       1024, items, 32, true, 48 * 1024);
  CHECK(cyl_local_bytes(wg) <= 48u * 1024);
  CHECK(wg == std::array<int, 3>{16, 16, 1});
  // Unstaged: no local memory limit applies.
  CHECK(choose_cyl_workgroup(KernelVariant::Tile, std::array<int, 3>{32, 32, 1}, big, 1024, items,
                             32, false, 48 * 1024) == std::array<int, 3>{32, 32, 1});
}

TEST_CASE("cylindrical tile: the aligned z start is a whole 128-byte segment") {
  CHECK(cyl_tile_first_float4(10, true) == 0);
  CHECK(cyl_tile_first_float4(10, false) == 2);
  CHECK(cyl_tile_first_float4(40, true) == 8);
  CHECK(cyl_tile_first_float4(40, false) == 10);
  CHECK(cyl_tile_first_float4(0, true) == 0);
}

TEST_CASE("cylindrical engine: a tuning cache entry of kind cyl sets the work-group") {
  const SimulationModel m = cyl_model(mixed_spec());
  const std::string dir =
      (std::filesystem::temp_directory_path() / ("clfdtd_cyl_tune_" + std::to_string(::getpid())))
          .string();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const char* before = std::getenv("CLFDTD_CACHE_DIR");
  const std::string saved = before ? before : "";
  ::setenv("CLFDTD_CACHE_DIR", dir.c_str(), 1);
  for (device::Api api : apis()) {
    auto plain = engine_on(api, m, config(KernelVariant::Tile));
    CHECK(plain->kernel_variant().find("(tuned)") == std::string::npos);
    TunedWorkgroup t;
    t.kernel = "cyl-tile-local";
    t.workgroup = {3, 2, 1};
    t.gcells_per_s = 1;
    t.n = 24;
    t.problem = "cyl_cpml";
    store_workgroup_tuning(plane_tuning_key(plain->name(), plain->device_description(),
                                            plain->driver_version(), "cyl", t.kernel),
                           t);
    // The entry is the staged kernel's: the unstaged tile does not take it.
    CHECK(engine_on(api, m, config(KernelVariant::Tile))->kernel_variant().find("(tuned)") ==
          std::string::npos);
    DeviceConfig local = config(KernelVariant::Tile);
    local.cyl_local_staging = true;
    auto tuned = engine_on(api, m, local);
    const std::string text = tuned->kernel_variant();
    CHECK_MESSAGE(text.rfind("cyl-tile-local 3x2x1", 0) == 0, text);
    const std::string suffix = " (tuned)";
    REQUIRE_MESSAGE(text.size() > suffix.size(), text);
    CHECK(text.substr(text.size() - suffix.size()) == suffix);
    // device.workgroup given: the cache is not read.
    local.workgroup = std::array<int, 3>{2, 2, 1};
    CHECK(engine_on(api, m, local)->kernel_variant().find("(tuned)") == std::string::npos);
  }
  if (before) {
    ::setenv("CLFDTD_CACHE_DIR", saved.c_str(), 1);
  } else {
    ::unsetenv("CLFDTD_CACHE_DIR");
  }
  std::filesystem::remove_all(dir);
}
