// The GPU engine's host side on every API with a device: identity strings, zero start, the
// finite flag, the stage list of each variant (and onepass's two bindings per kernel), device
// choice, the variants a model may ask for, and the memory check with made-up limits.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <utility>

#include "backends/device_tables.hpp"
#include "config/load_config.hpp"
#include "device/test_apis.hpp"
#include "engine/engine_suite.hpp"
#include "engine/variant_choice.hpp"
#include "errors.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

constexpr double kD = 1e-3;

std::vector<std::string> stage_names(const engine::GpuEngine& e) {
  std::vector<std::string> names;
  for (const auto& st : e.plan()) names.push_back(st.name());
  return names;
}

}  // namespace

TEST_CASE("engine: identity strings, zero start, finite flag, bad device") {
  RunConfig cfg = box_config({9, 7, 6}, kD, 40, BoundaryType::Pec);
  cfg.sources = {point_source("boom", SourceKind::Current, Axis::Z, cells(4, 3, 3, kD),
                              WaveformKind::Gaussian, 30e9, 1)};
  SimulationModel m = SimulationModel::build(cfg);
  // build() refuses a source whose field could overflow float (model/input_limits.hpp), so the
  // table is scaled to 1e38 A/m^2 here, past it.
  for (double& j : m.sources[0].j) j *= 1e38;
  for (device::Api api : engine_apis()) {
    INFO("api " << std::string(device::api_name(api)));
    auto b = engine::make_gpu_engine(api, m, engine_config(KernelVariant::Tile));
    const auto& info = b->device_info();
    const std::string target = info.code_target.empty() ? "" : " (" + info.code_target + ")";
    CHECK(b->name() == device::api_name(api));
    CHECK(b->kernel_variant() == "float4-tile 2x2x2" + target);  // 2 2 30 clamped to nz4 = 2
    CHECK(engine::make_gpu_engine(api, m, engine_config(KernelVariant::Rows))->kernel_variant() ==
          "rows 1x7x1" + target);  // 1 8 1 clamped to ny = 7
    CHECK(engine::make_gpu_engine(api, m, engine_config(KernelVariant::OnePass))->kernel_variant() ==
          "onepass 8x2x2" + target);  // 8 2 32 clamped to nz4 = 2
    // auto: rows on a CPU device; on a GPU, for a model that fits with its second set of fields
    // (this one does), onepass where the grid is too small to fill the GPU with tblock's pass, as
    // this one is (variant_choice.hpp tblock_preferred).
    CHECK(engine::make_gpu_engine(api, m, DeviceConfig{})->variant() ==
          (info.type == "cpu" ? KernelVariant::Rows : KernelVariant::OnePass));
    CHECK(b->device_description() == info.name + " (" + info.platform + ", " + info.version + ")");
    CHECK(b->probe_batch_steps() == 256);
    CHECK(b->has_device_timers());
    CHECK(b->driver_version() == info.driver);
    std::vector<float> f;
    for (int c = 0; c < 6; ++c) {
      b->read_field(static_cast<Component>(c), f);
      CHECK(f.size() == 9u * 7u * 6u);
      CHECK(std::all_of(f.begin(), f.end(), [](float v) { return v == 0.0f; }));
    }
    CHECK(b->fields_finite());
    // A current density of 1e38 A/m^2 overflows float within a few steps.
    for (long s = 0; s < m.grid.steps; ++s) b->step(s);
    b->finish();
    CHECK_FALSE(b->fields_finite());

    DeviceConfig none;
    none.select = "no-such-device-anywhere";
    CHECK_THROWS_AS(engine::make_gpu_engine(api, m, none), ConfigError);
  }
}

TEST_CASE("engine: one step's stage list per variant; onepass binds each kernel per parity") {
  RunConfig cfg = box_config({12, 11, 18}, kD, 10, BoundaryType::Upml, 2);
  cfg.sources = {point_source("s", SourceKind::Dipole, Axis::Z, cells(6, 5, 9, kD),
                              WaveformKind::Sine, 30e9, 1e-13)};
  cfg.probes = {point_probe("p", cells(6, 5, 9, kD), {Component::Ez})};
  const SimulationModel m = SimulationModel::build(cfg);
  using V = std::vector<std::string>;
  for (device::Api api : engine_apis()) {
    INFO("api " << std::string(device::api_name(api)));
    // One launch per field kind for all UPML slabs, x/y rows and z slabs alike.
    const auto tile = engine::make_gpu_engine(api, m, engine_config(KernelVariant::Tile));
    CHECK(stage_names(*tile) ==
          V{"update_h", "upml_slabs_h", "update_e", "upml_slabs_e", "add_sources"});
    const auto one = engine::make_gpu_engine(api, m, engine_config(KernelVariant::OnePass));
    CHECK(stage_names(*one) == V{"upml_slabs_h", "update_onepass", "upml_slabs_e", "add_sources"});
    // Its range: the x/y-slab rows' float4s, then the z-slab float4s, each in whole groups of one
    // size (upml_slabs.cl).
    for (const auto* e : {tile.get(), one.get()}) {
      INFO(e->kernel_variant());
      const std::size_t xy = xy_pml_rows(m) * static_cast<std::size_t>(m.layout.nz4);
      const std::size_t z = zslab_layout(m, e->variant()).float4s();
      REQUIRE(xy > 0);
      REQUIRE(z > 0);
      for (const auto& st : e->plan()) {
        if (st.name().rfind("upml_slabs_", 0) != 0) continue;
        const std::size_t g = st.local[0];
        CHECK(g == std::min<std::size_t>(128, st.kernel[0].max_group_size()));
        CHECK(st.global[0] == ((xy + g - 1) / g + (z + g - 1) / g) * g);
        CHECK(st.global.count() == st.global[0]);
        CHECK(st.local.count() == g);
      }
    }
    const auto rows = engine::make_gpu_engine(api, m, engine_config(KernelVariant::Rows));
    CHECK(stage_names(*rows) == V{"update_h_rows", "update_e_rows", "add_sources"});
    // Phases in order; the step index is the sources' only per-step argument.
    for (const auto* e : {tile.get(), one.get(), rows.get()}) {
      for (std::size_t n = 1; n < e->plan().size(); ++n) {
        CHECK(static_cast<int>(e->plan()[n - 1].phase) <= static_cast<int>(e->plan()[n].phase));
      }
      for (const auto& st : e->plan()) {
        INFO(st.name());
        CHECK((st.value_arg >= 0) == (st.phase == engine::Phase::Sources));
        // Two field sets only for onepass: there every kernel has an object per parity.
        CHECK((st.kernel[0].object() != st.kernel[1].object()) ==
              (e->variant() == KernelVariant::OnePass));
      }
    }
    CHECK(one->plan()[1].phase == engine::Phase::HE);
  }
}

TEST_CASE("engine: a UPML model has one H and one E slab stage, whichever slabs it has") {
  // physics_helpers.hpp's layer sets: x/y and z slabs, the z slabs only, the x/y slabs only.
  for (const auto& layers : kSlabEdgeLayers) {
    const SimulationModel m = SimulationModel::build(slab_edge_config(layers, false, 1));
    INFO("layers " << layers[0] << " " << layers[1] << " " << layers[2] << " " << layers[3] << " "
                   << layers[4] << " " << layers[5]);
    for (device::Api api : engine_apis()) {
      for (KernelVariant v : {KernelVariant::Tile, KernelVariant::OnePass}) {
        INFO("api " << std::string(device::api_name(api)) << ", variant " << static_cast<int>(v));
        const auto e = engine::make_gpu_engine(api, m, engine_config(v));
        int h = 0, el = 0;
        for (const auto& st : e->plan()) {
          if (st.name() == "upml_slabs_h" && st.phase == engine::Phase::H) ++h;
          if (st.name() == "upml_slabs_e" && st.phase == engine::Phase::E) ++el;
          const bool other_upml =
              st.name().rfind("upml_", 0) == 0 && st.name().rfind("upml_slabs_", 0) != 0;
          CHECK_FALSE(other_upml);
        }
        CHECK(h == 1);
        CHECK(el == 1);
      }
    }
  }
}

TEST_CASE("engine: the slab kernels' group kinds cover every x/y and z group once") {
  // upml_slabs.cl slab_group_is_z with the host's share: z groups where floor(g * share / 2^32)
  // steps up, which must happen exactly z times over the launch and never by more than 1, also
  // at 1600^3 (N = 1600, 10 layers: 198750 x/y and 156025 z groups of 128).
  for (auto [xy, z] : {std::pair<std::size_t, std::size_t>{1, 1}, {1, 7}, {7, 1}, {3, 5},
                       {20080, 15129}, {198750, 156025}, {5, 0}}) {
    INFO(xy << " x/y, " << z << " z groups");
    const std::uint64_t share = engine::slab_z_share(xy, z);
    CHECK(share < (std::uint64_t{1} << 32));
    std::size_t z_seen = 0, bad_steps = 0;
    std::uint64_t before = 0;
    for (std::uint64_t g = 0; g < xy + z; ++g) {
      const std::uint64_t upto = ((g + 1) * share) >> 32;
      if (upto > before + 1) ++bad_steps;
      if (upto > before) ++z_seen;
      before = upto;
    }
    CHECK(bad_steps == 0);
    CHECK(z_seen == z);
    CHECK(before == z);
  }
  CHECK(engine::slab_z_share(0, 9) == 0);  // no x/y groups: the kernel needs no share
}

TEST_CASE("engine: a step split by rows launches the slab kernels over its boxes' float4s only") {
  RunConfig cfg = box_config({12, 11, 18}, kD, 10, BoundaryType::Upml, 2);
  const SimulationModel m = SimulationModel::build(cfg);
  const int nx = m.layout.nx, ny = m.layout.ny, nz4 = m.layout.nz4;
  const ZSlabLayout z = zslab_layout(m, KernelVariant::Tile);
  REQUIRE(z.znq > 0);
  // Edges: plane x = 5 (interior: its 4 y-slab rows and its z slabs), plane x = 0 (x slab only);
  // the rest in two boxes.
  engine::RowSplit split;
  split.edges = {{5, 0, 6, ny}, {0, 0, 1, ny}};
  split.rest = {{1, 0, 5, ny}, {6, 0, nx, ny}};
  DeviceConfig dev;
  dev.variant = KernelVariant::Tile;
  if (!has_device(device::Api::OpenCL)) return;
  const auto whole = engine::make_gpu_engine(device::Api::OpenCL, m, dev, true);
  const auto parts = engine::make_gpu_engine(device::Api::OpenCL, m, dev, true, split);
  auto slab_items = [](const engine::StepPlan& plan) {
    std::vector<std::size_t> n;
    for (const auto& st : plan) {
      if (st.name() == "upml_slabs_h") n.push_back(st.global[0]);
    }
    return n;
  };
  const std::size_t g = std::min<std::size_t>(128, whole->plan()[1].kernel[0].max_group_size());
  auto groups = [&](std::size_t items) { return (items + g - 1) / g; };
  const auto edges = slab_items(parts->edge_plan());
  REQUIRE(edges.size() == 2);
  CHECK(edges[0] == (groups(4 * nz4) + groups(static_cast<std::size_t>(z.nyi) * z.znq)) * g);
  CHECK(edges[1] == groups(static_cast<std::size_t>(ny) * nz4) * g);
  // In all, one step's float4s and at most a group per kind and box more.
  std::size_t total = edges[0] + edges[1];
  for (std::size_t n : slab_items(parts->rest_plan())) total += n;
  const auto one = slab_items(whole->plan());
  REQUIRE(one.size() == 1);
  CHECK(total <= one[0] + 2 * 4 * g);
}

TEST_CASE("engine: a model without PML or sources has only the update stages") {
  RunConfig cfg = box_config({9, 7, 6}, kD, 5, BoundaryType::Pec);
  const SimulationModel m = SimulationModel::build(cfg);
  using V = std::vector<std::string>;
  for (device::Api api : engine_apis()) {
    INFO("api " << std::string(device::api_name(api)));
    CHECK(stage_names(*engine::make_gpu_engine(api, m, engine_config(KernelVariant::Tile))) ==
          V{"update_h", "update_e"});
    CHECK(stage_names(*engine::make_gpu_engine(api, m, engine_config(KernelVariant::OnePass))) ==
          V{"update_onepass"});
  }
}

TEST_CASE("engine variants: plain and fused are gone, the error names the remaining ones") {
  const std::string model = "[grid]\nsize = 0.01 0.01 0.01\nmax_frequency = 3e9\n[time]\nsteps = 1\n";
  for (const char* gone : {"plain", "fused"}) {
    CHECK_THROWS_WITH_AS(load_config_text(model, "m.ini", {std::string("--variant=") + gone}),
                         doctest::Contains("one of auto, tile, onepass, rows"), ConfigError);
  }
  CHECK(load_config_text(model, "m.ini", {"--variant=onepass"}).device.variant ==
        KernelVariant::OnePass);
  CHECK(load_config_text(model, "m.ini", {"--variant=rows"}).device.variant == KernelVariant::Rows);
  CHECK(load_config_text(model, "m.ini", {"--variant=tblock"}).device.variant ==
        KernelVariant::TBlock);
}

TEST_CASE("engine variant choice: auto, tuned and asked") {
  DeviceConfig cfg;
  TunedChoice t;
  t.variant = KernelVariant::Tile;
  t.workgroup = {1, 2, 32};
  using engine::resolve_variant;
  CHECK(resolve_variant(cfg, "cpu", true, std::nullopt, false).variant == KernelVariant::Rows);
  CHECK(resolve_variant(cfg, "cpu", true, std::nullopt, true).variant == KernelVariant::Rows);
  CHECK(resolve_variant(cfg, "gpu", true, std::nullopt, false).variant == KernelVariant::OnePass);
  // A GPU model where tblock is preferred (engine::tblock_preferred: a large grid, with UPML a
  // large owned box): tblock, which pairs its steps (the same two field sets as onepass).
  const auto paired = resolve_variant(cfg, "gpu", true, std::nullopt, true);
  CHECK(paired.variant == KernelVariant::TBlock);
  CHECK_FALSE(paired.workgroup.has_value());
  CHECK(resolve_variant(cfg, "gpu", false, std::nullopt, true).variant == KernelVariant::Tile);
  const auto fallback = resolve_variant(cfg, "gpu", false, std::nullopt, false);
  CHECK(fallback.variant == KernelVariant::Tile);
  CHECK(fallback.workgroup == kGpuAutoWorkgroup);
  const auto tuned = resolve_variant(cfg, "gpu", true, t, true);
  CHECK(tuned.tuned);
  CHECK(tuned.workgroup == std::array<int, 3>{1, 2, 32});
  cfg.variant = KernelVariant::Tile;  // asked for: the tuning cache is not consulted
  const auto asked = resolve_variant(cfg, "gpu", true, t, false);
  CHECK_FALSE(asked.tuned);
  CHECK_FALSE(asked.workgroup.has_value());
}

TEST_CASE("engine variant choice: the tuned entry for models with and without UPML") {
  TunedChoice with, without;
  with.variant = KernelVariant::Tile;
  with.workgroup = {1, 2, 32};
  without.variant = KernelVariant::TBlock;
  without.workgroup = {32, 8, 14};
  without.problem = "pec_cube";
  using engine::tuned_for_model;
  // A model without UPML takes the no-UPML entry, a model with UPML the UPML one.
  CHECK(tuned_for_model(false, false, with, without)->variant == KernelVariant::TBlock);
  CHECK(tuned_for_model(true, false, with, without)->variant == KernelVariant::Tile);
  // A cache from before the no-UPML entries: every model takes the UPML entry.
  CHECK(tuned_for_model(false, false, with, std::nullopt)->variant == KernelVariant::Tile);
  CHECK_FALSE(tuned_for_model(true, false, std::nullopt, without).has_value());
  CHECK_FALSE(tuned_for_model(false, false, std::nullopt, std::nullopt).has_value());
  // Split over ranks: tblock (and onepass) passed over, the UPML entry's tile taken, or none.
  CHECK(tuned_for_model(false, true, with, without)->variant == KernelVariant::Tile);
  CHECK_FALSE(tuned_for_model(false, true, std::nullopt, without).has_value());
  TunedChoice onepass = with;
  onepass.variant = KernelVariant::OnePass;
  CHECK_FALSE(tuned_for_model(false, true, onepass, without).has_value());
  CHECK_FALSE(tuned_for_model(true, true, onepass, without).has_value());
  CHECK(tuned_for_model(false, false, onepass, without)->variant == KernelVariant::TBlock);
  // The chosen entry then decides auto (resolve_variant), with its work-group.
  const auto r = engine::resolve_variant(DeviceConfig{}, "gpu", true,
                                         tuned_for_model(false, false, with, without), true);
  CHECK(r.variant == KernelVariant::TBlock);
  CHECK(r.workgroup == std::array<int, 3>{32, 8, 14});
  CHECK(r.tuned);
}

TEST_CASE("engine work-groups: default, clamping and shrinking") {
  const FieldLayout big(100, 80, 400), small(7, 1, 5);
  const std::array<std::size_t, 3> items{1024, 1024, 64};
  CHECK(choose_workgroup(std::nullopt, big, 1024, items) == std::array<int, 3>{2, 2, 30});
  CHECK(choose_workgroup(std::nullopt, small, 1024, items) == std::array<int, 3>{2, 1, 2});
  CHECK(choose_workgroup(std::array<int, 3>{0, -3, 7}, big, 1024, items) ==
        std::array<int, 3>{1, 1, 7});
  // Per-dimension limits are in NDRange order: dim0 = z4, dim2 = x.
  CHECK(choose_workgroup(std::array<int, 3>{100, 2, 100}, big, 1 << 20, {50, 8, 16}) ==
        std::array<int, 3>{16, 2, 50});
  // 4 * 4 * 64 = 1024 > 256: the largest axis halves until it fits.
  CHECK(choose_workgroup(std::array<int, 3>{4, 4, 64}, big, 256, items) ==
        std::array<int, 3>{4, 4, 16});
  // onepass: planes clamped to nx, y and z4 at least 2, the larger halved to fit.
  CHECK(choose_onepass_workgroup(std::nullopt, big, 1024, items) == std::array<int, 3>{8, 2, 32});
  CHECK(choose_onepass_workgroup(std::array<int, 3>{200, 1, 1}, big, 1024, items) ==
        std::array<int, 3>{100, 2, 2});
  // 16 x 64 = 1024 > 256: z4 halves to 32, then (y = 16 < 32) again to 16.
  CHECK(choose_onepass_workgroup(std::array<int, 3>{8, 16, 64}, big, 256, items) ==
        std::array<int, 3>{8, 16, 16});
  CHECK(round_up(10, 4) == 12);
  CHECK(round_up(12, 4) == 12);
}

TEST_CASE("engine memory check: numbers in the OutOfMemoryError") {
  device::DeviceInfo d;
  d.name = "Tiny GPU";
  d.global_mem_bytes = 1000;
  d.max_alloc_bytes = 400;
  using engine::check_device_memory;
  CHECK_NOTHROW(check_device_memory(900, {{"Ex", 400}}, d, 1000));
  CHECK_THROWS_WITH_AS(check_device_memory(2000, {}, d, 1000),
                       doctest::Contains("model needs 2000 bytes"), OutOfMemoryError);
  CHECK_THROWS_WITH_AS(check_device_memory(2000, {}, d, 1000),
                       doctest::Contains("device Tiny GPU has 1000 bytes"), OutOfMemoryError);
  // Where the API tells the free memory (CUDA), the message gives both.
  CHECK_THROWS_WITH_AS(check_device_memory(900, {}, d, 800),
                       doctest::Contains("has 800 bytes (0.0 MiB) free of 1000 bytes"),
                       OutOfMemoryError);
  CHECK_THROWS_WITH_AS(check_device_memory(900, {{"Ex", 401}}, d, 1000),
                       doctest::Contains("buffer Ex needs 401 bytes"), OutOfMemoryError);
}

TEST_CASE("the fields' floor before meshing: six float components in 3D, three in 2D Yee") {
  GridGeometry g;
  g.n = {10, 20, 30};
  // z padded to whole float4 lanes: 30 -> 32.
  CHECK(engine::field_floor_bytes(g, FieldLayout(10, 20, 30), Equation::Maxwell) ==
        6u * 4u * 10u * 20u * 32u);
  GridGeometry plane;
  plane.dims = 2;
  plane.n = {10, 21, 1};
  CHECK(engine::field_floor_bytes(plane, FieldLayout::xy_plane(10, 21), Equation::Maxwell) ==
        3u * 4u * 10u * 24u);
  CHECK(engine::field_floor_bytes(plane, FieldLayout::xy_plane(10, 21), Equation::Wave) == 0);
  GridGeometry cyl;
  cyl.cylindrical = true;
  CHECK(engine::field_floor_bytes(cyl, FieldLayout(10, 1, 30), Equation::Maxwell) == 0);

  device::DeviceInfo d;
  d.name = "Tiny GPU";
  d.global_mem_bytes = 1000;
  CHECK_NOTHROW(engine::check_field_floor(1000, d));
  CHECK_THROWS_WITH_AS(engine::check_field_floor(1001, d),
                       doctest::Contains("fields alone (float32, once) need 1001 bytes"),
                       OutOfMemoryError);
  CHECK_THROWS_WITH_AS(engine::check_field_floor(1001, d),
                       doctest::Contains("device Tiny GPU has 1000 bytes"), OutOfMemoryError);
}
