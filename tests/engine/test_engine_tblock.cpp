// The tblock variant (two steps per pass, cl_kernels/tblock.cl) against the double-precision
// reference engine: PEC-walled models with dielectric, lossy, PEC and magnetic objects and
// sources near tile and chunk edges, after odd and even step counts, at work-groups whose owned
// tiles are smaller than their halos and whose chunks of planes cut the grid; the fallback to
// single steps where something reads the fields between the two steps of a pair, and with UPML.
#include <cmath>

#include <doctest/doctest.h>

#include "engine/engine_suite.hpp"
#include "engine/plan.hpp"
#include "engine/probe_prediction.hpp"
#include "engine/variant_choice.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

constexpr double kD = 1e-3;  // cell size, m

// 13 x 11 x 10 cells (nz4 = 3 with 2 padding lanes) in PEC walls: a glass ball, a lossy box, a
// PEC plate, a magnetic box when `magnetic`; a dipole (Ez), a current (Ex) at the z end of a
// float4 and a current (Ex) on the first plane.
// With `probe`, a probe of Ex and Hz; `extra` probes after it.
SimulationModel pec_model(long steps, bool magnetic, bool probe = false,
                          const std::vector<ProbeConfig>& extra = {}) {
  RunConfig cfg = box_config({13, 11, 10}, kD, steps, BoundaryType::Pec);
  cfg.materials = {material("glass", 4, 1, 0), material("lossy", 2, 1, 0.5)};
  if (magnetic) cfg.materials.push_back(material("ferrite", 1.5, 2, 0));
  cfg.objects = {sphere("ball", "glass", {5, 4, 5}, 2.5, kD),
                 box("absorber", "lossy", {10, 8, 3}, {3, 3, 3}, kD),
                 box("plate", "pec", {8, 3, 7}, {2, 2, 2}, kD)};
  if (magnetic) cfg.objects.push_back(box("core", "ferrite", {4, 8, 7}, {3, 2, 3}, kD));
  cfg.sources = {point_source("dip", SourceKind::Dipole, Axis::Z, cells(6.2, 5.1, 4.3, kD),
                              WaveformKind::Sine, 40e9, 2e-13),
                 point_source("cur", SourceKind::Current, Axis::X, cells(3.5, 7, 3, kD),
                              WaveformKind::Ricker, 60e9, 2e7),
                 point_source("edge", SourceKind::Current, Axis::X, cells(0.5, 2, 8, kD),
                              WaveformKind::Sine, 30e9, 2e7)};
  if (probe) cfg.probes = {point_probe("p", cells(4, 3, 2, kD), {Component::Ex, Component::Hz})};
  cfg.probes.insert(cfg.probes.end(), extra.begin(), extra.end());
  return SimulationModel::build(cfg);
}

// Runs `b` and the reference the model's steps without sampling in between, then compares every
// component (max |diff| below rel_tol of its max |value|).
void compare_fields(Backend& b, const SimulationModel& m, double rel_tol = 1e-4) {
  ReferenceBackend ref(m);
  INFO("device: " << b.device_description() << ", variant: " << b.kernel_variant()
                  << ", steps: " << m.grid.steps);
  for (long s = 0; s < m.grid.steps; ++s) {
    ref.step(s);
    b.step(s);
  }
  for (int c = 0; c < 6; ++c) {
    const auto comp = static_cast<Component>(c);
    const FieldError e = field_error(b, ref, m, comp);
    INFO(std::string(component_name(comp))
         << ": max |ref| = " << e.max_ref << ", max |diff| = " << e.max_diff << " at cell "
         << e.at[0] << "," << e.at[1] << "," << e.at[2]);
    CHECK(e.max_ref > 0);
    CHECK(e.max_diff <= rel_tol * e.max_ref);
  }
}

std::unique_ptr<engine::GpuEngine> tblock(device::Api api, const SimulationModel& m,
                                          std::optional<std::array<int, 3>> wg = std::nullopt,
                                          TBlockStaging staging = TBlockStaging::Auto) {
  DeviceConfig cfg = engine_config(KernelVariant::TBlock, wg);
  cfg.tblock_staging = staging;
  return engine::make_gpu_engine(api, m, cfg);
}

// Both places E1 waits in (device.tblock_staging), each named in the variant text.
constexpr std::array<TBlockStaging, 2> kStagings{TBlockStaging::Local, TBlockStaging::Registers};
const char* staging_text(TBlockStaging s) {
  return s == TBlockStaging::Local ? " e1=local" : " e1=registers";
}

}  // namespace

TEST_CASE("tblock: the source index by row (i, j)") {
  // nx 2, ny 3, nz4 2: float4 lane = (i * 3 + j) * 2 + kq; sources at rows 4, 1, 4, 5.
  const std::vector<std::int32_t> cells{0, 9, 1, 2, 2, 8, 8 + 2, 11};
  const engine::TBlockSourceRows r = engine::tblock_source_rows(cells, 2, 3, 2);
  CHECK(r.start == std::vector<std::int32_t>{0, 0, 1, 1, 1, 3, 4});
  CHECK(r.order == std::vector<std::int32_t>{1, 0, 2, 3});
  CHECK(r.i0 == 0);  // rows 1 .. 5: planes 0 .. 1
  CHECK(r.i1 == 1);
  const engine::TBlockSourceRows one = engine::tblock_source_rows({0, 9}, 2, 3, 2);
  CHECK(one.i0 == 1);
  CHECK(one.i1 == 1);
  const engine::TBlockSourceRows none = engine::tblock_source_rows({}, 2, 3, 2);
  CHECK(none.start == std::vector<std::int32_t>(7, 0));
  CHECK(none.i0 > none.i1);
  CHECK(none.order.size() == 1);  // never an empty buffer
}

TEST_CASE("tblock work-group: clamped to the grid, halved until the group and its halo fit") {
  const FieldLayout big(100, 100, 400), small(5, 3, 8);  // nz4 100 and 2
  const std::array<std::size_t, 3> items{1024, 1024, 64};
  constexpr std::size_t kLocal = 48 * 1024;
  // E1 staged in registers: 96 B of local memory per work-item; in local memory: 192 B.
  const std::size_t regs = tblock_local_bytes_per_item(false);
  const std::size_t local = tblock_local_bytes_per_item(true);
  CHECK(regs == 96);
  CHECK(local == 192);
  for (std::size_t per_item : {regs, local}) {
    CHECK(choose_tblock_workgroup(std::nullopt, big, 1024, items, kLocal, per_item) ==
          std::array<int, 3>{32, 9, 14});
    CHECK(choose_tblock_workgroup(std::nullopt, small, 1024, items, kLocal, per_item) ==
          std::array<int, 3>{5, 3, 2});
    CHECK(choose_tblock_workgroup(std::array<int, 3>{0, 0, 0}, big, 1024, items, kLocal,
                                  per_item) == std::array<int, 3>{1, 1, 1});
    // 128 items at most: (9 + 3) x (14 + 2) = 192 > 128, z4 halves to 7: 12 x 9 = 108.
    CHECK(choose_tblock_workgroup(std::nullopt, big, 128, items, kLocal, per_item) ==
          std::array<int, 3>{32, 9, 7});
    // An earlier default 8 x 30 at 256 items: 352 > 256, z4 halves to 15: 11 x 17 = 187.
    CHECK(choose_tblock_workgroup(std::array<int, 3>{32, 8, 30}, big, 256, items, kLocal,
                                  per_item) == std::array<int, 3>{32, 8, 15});
    // Never past 384 items, whatever the device allows: 15 x 32 = 480 halves z4 to 15 (15 x 17).
    CHECK(choose_tblock_workgroup(std::array<int, 3>{32, 12, 30}, big, 1024, items, 1 << 20,
                                  per_item) == std::array<int, 3>{32, 12, 15});
    // The NVIDIA default, (13 + 3) x (14 + 2) = 256 items: 24 or 48 KiB, both fit.
    CHECK(choose_tblock_workgroup(std::array<int, 3>{32, 13, 14}, big, 1024, items, kLocal,
                                  per_item) == std::array<int, 3>{32, 13, 14});
    // The shell's x/y boxes' program: (12 + 4) x (14 + 2) = 256 items too.
    CHECK(tblock_group_items(12, 14, 1) == 256);
    CHECK(tblock_group_items(13, 14, 0) == 256);
  }
  // (13 + 3) x (62 + 2) = 1024 items: z4 halves to 31 (16 x 33 = 528 items, past 384) and to 15:
  // 16 x 17 = 272 items, 25.5 KiB in registers' form; 51 KiB in local memory's, past 48, so z4
  // halves again to 7: 16 x 9 = 144 items, 27 KiB.
  CHECK(choose_tblock_workgroup(std::array<int, 3>{32, 13, 62}, big, 1024, items, kLocal, regs) ==
        std::array<int, 3>{32, 13, 15});
  CHECK(choose_tblock_workgroup(std::array<int, 3>{32, 13, 62}, big, 1024, items, kLocal, local) ==
        std::array<int, 3>{32, 13, 7});
  // The z boxes' shell program (one halo float4): 40 x 6 items x 192 B = 45 KiB fit in 48; with
  // two halo float4s (the x/y boxes' program) 40 x 7 would not (52.5 KiB), and the rows would
  // halve.
  CHECK(choose_tblock_workgroup(std::array<int, 3>{32, 36, 5}, big, 1024, items, kLocal, local,
                                2) == std::array<int, 3>{32, 36, 5});
  CHECK(choose_tblock_workgroup(std::array<int, 3>{32, 36, 5}, big, 1024, items, kLocal, local,
                                1) == std::array<int, 3>{32, 18, 5});
}

TEST_CASE("tblock z boxes' shell: groups per compute unit asked for, by the group's warps") {
  // The default group, (20 + 4) rows x 5 float4s: 120 work-items, 4 warps; three fit 384 threads.
  const std::size_t items = tblock_group_items(engine::kShellZWorkgroup[1], 4, 2);
  CHECK(items == 120);
  CHECK(tblock_shell_z_groups(items) == 3);
  CHECK(tblock_shell_z_groups(128) == 3);
  CHECK(tblock_shell_z_groups(129) == 2);  // 5 warps
  CHECK(tblock_shell_z_groups(192) == 2);
  CHECK(tblock_shell_z_groups(193) == 0);  // 7 warps: one group, as unasked
  CHECK(tblock_shell_z_groups(384) == 0);
  CHECK(tblock_shell_z_groups(32) == 12);
  CHECK(tblock_shell_z_groups(70) == 4);  // 3 warps (a group clamped on a small grid), not 5
  CHECK(tblock_shell_z_groups(48) == 6);  // 2 warps, not 8
  CHECK(tblock_shell_z_groups(0) == 0);
  // Only the z boxes' program asks, and only on a device that takes requests; its E1 is staged
  // in local memory exactly where its default group asks (z boxes of 1..7 float4s: up to 192
  // work-items), else as the pass's.
  device::DeviceInfo takes, ignores;
  takes.min_groups_hint = true;
  CHECK(tblock_shell_groups_request(2, takes, 120) == 3);
  CHECK(tblock_shell_groups_request(1, takes, 120) == 0);
  CHECK(tblock_shell_groups_request(0, takes, 120) == 0);
  CHECK(tblock_shell_groups_request(2, ignores, 120) == 0);
  CHECK(tblock_shell_e1_local(2, false, takes, 4));
  CHECK(tblock_shell_e1_local(2, false, takes, 7));        // 24 x 8 = 192 work-items: two
  CHECK_FALSE(tblock_shell_e1_local(2, false, takes, 8));  // 24 x 9 = 216: 7 warps, one
  CHECK_FALSE(tblock_shell_e1_local(2, false, ignores, 4));
  CHECK_FALSE(tblock_shell_e1_local(1, false, takes, 4));
  CHECK(tblock_shell_e1_local(1, true, ignores, 4));
  CHECK(tblock_shell_e1_local(2, true, takes, 40));
}

TEST_CASE("tblock staging: auto is local on NVIDIA (OpenCL and CUDA) only; local and registers as asked") {
  device::DeviceInfo nvidia_cl, cuda, other_cl;
  nvidia_cl.api = device::Api::OpenCL;
  nvidia_cl.platform = "NVIDIA CUDA";
  cuda.api = device::Api::Cuda;
  cuda.platform = "CUDA 13.0";
  other_cl.api = device::Api::OpenCL;
  other_cl.platform = "Portable Computing Language";
  CHECK(tblock_e1_local(TBlockStaging::Auto, nvidia_cl));
  CHECK(tblock_e1_local(TBlockStaging::Auto, cuda));
  CHECK_FALSE(tblock_e1_local(TBlockStaging::Auto, other_cl));
  for (const auto* info : {&nvidia_cl, &cuda, &other_cl}) {
    CHECK(tblock_e1_local(TBlockStaging::Local, *info));
    CHECK_FALSE(tblock_e1_local(TBlockStaging::Registers, *info));
  }
}

TEST_CASE("tblock chunk length: the planes whose groups finish first") {
  // The H200's 132 SMs at two groups each; the pass's tiles (owned rows 12, float4s 14) and
  // planes at N = 512 with 10 UPML layers (41 x 9 tiles over 488 planes) and without (43 x 10
  // over 512), at N = 384 with UPML (30 x 7 over 360): the picks measured there against 32
  // (variant_choice.hpp).
  CHECK(tblock_chunk_planes(41 * 9, 488, 264) == 96);
  CHECK(tblock_chunk_planes(43 * 10, 512, 264) == 88);
  CHECK(tblock_chunk_planes(30 * 7, 360, 264) == 72);
  // The z boxes' shell program (plan_tblock.cpp: 16 to 32 planes, three groups per SM): N = 512
  // (2 x 25 tiles of 20 rows over 488 planes) 32, N = 256 (2 x 12 over 232) 16, as measured (at
  // N = 512 also where longer chunks are offered); 24 with one group per SM at N = 256.
  CHECK(tblock_chunk_planes(2 * 25, 488, 396, 16, 32) == 32);
  CHECK(tblock_chunk_planes(2 * 12, 232, 396, 16, 32) == 16);
  CHECK(tblock_chunk_planes(2 * 12, 232, 132, 16, 32) == 24);
  CHECK(tblock_chunk_planes(2 * 25, 488, 396, 16) == 32);
  CHECK(tblock_chunk_planes(2 * 12, 10, 396, 16, 32) == 10);
  CHECK(tblock_chunk_planes(2 * 12, 30, 396, 16, 32) == 16);
  // Unknown units: the default's 32; boxes of at most 32 planes in one chunk.
  CHECK(tblock_chunk_planes(41 * 9, 488, 0) == 32);
  CHECK(tblock_chunk_planes(100, 20, 264) == 20);
  CHECK(tblock_chunk_planes(100, 0, 264) == 1);
  // Every group at once (4 tiles x 16 chunks on 64 units): the shortest groups finish first.
  CHECK(tblock_chunk_planes(4, 500, 64) == 32);
  // One unit runs them one after another: the fewest planes recomputed.
  CHECK(tblock_chunk_planes(50, 500, 1) == 128);
  // A box of at most 128 planes may take one chunk: one wave of 264 tiles on 264 units (104
  // plane-times, against four waves of 36 + 36 + 36 + 8 at 32 planes).
  CHECK(tblock_chunk_planes(264, 100, 264) == 100);
  // More than 2^20 groups at 32 planes (a shape of a few work-items on a huge grid): not
  // simulated, 32.
  CHECK(tblock_chunk_planes(640000, 1600, 264) == 32);
}

TEST_CASE("tblock vs reference: PEC walls, materials, sources; odd and even step counts") {
  for (device::Api api : engine_apis()) {
    INFO("api " << std::string(device::api_name(api)));
    // Non-magnetic after an odd step count, magnetic after an even one.
    for (const auto& [magnetic, steps] : {std::pair{false, 21L}, std::pair{true, 24L}}) {
      const SimulationModel m = pec_model(steps, magnetic);
      REQUIRE(m.magnetic == magnetic);
      REQUIRE_FALSE(m.upml.enabled());
      // The default (8 14 clamped to 11 3; the box's 13 planes in one chunk), owned tiles of one
      // column and of a few, and chunks of 1, 2 and 5 planes.
      for (const auto& wg : std::vector<std::optional<std::array<int, 3>>>{
               std::nullopt, std::array<int, 3>{1, 1, 1}, std::array<int, 3>{2, 3, 2},
               std::array<int, 3>{5, 4, 1}}) {
        for (TBlockStaging staging : kStagings) {
          const auto e = tblock(api, m, wg, staging);
          REQUIRE(e->pair_stage() != nullptr);
          CHECK(e->kernel_variant().find(staging_text(staging)) != std::string::npos);
          compare_fields(*e, m);
          CHECK(e->paired_steps() == steps / 2 * 2);
          CHECK(e->single_steps() == steps % 2);
        }
      }
    }
  }
}

TEST_CASE("tblock: samplers between the steps of a pair run single steps, still exact") {
  const SimulationModel m = pec_model(9, true);
  for (device::Api api : engine_apis()) {
    INFO("api " << std::string(device::api_name(api)));
    const auto e = tblock(api, m, std::array<int, 3>{3, 2, 1});
    ReferenceBackend ref(m);
    for (long s = 0; s < 9; ++s) {
      ref.step(s);
      e->step(s);
      if (s == 4) {  // an odd state read between pairs: the deferred step runs alone
        const FieldError err = field_error(*e, ref, m, Component::Ez);
        CHECK(err.max_diff <= 1e-4 * err.max_ref);
      }
    }
    for (int c = 0; c < 6; ++c) {
      const FieldError err = field_error(*e, ref, m, static_cast<Component>(c));
      CHECK(err.max_diff <= 1e-4 * err.max_ref);
    }
    // Steps 0-3 paired, 4 alone (read), 5-6 and 7-8 paired.
    CHECK(e->paired_steps() == 8);
    CHECK(e->single_steps() == 1);
  }
}

namespace {

// A UPML model for the shell pass: `layers` (x lo, x hi, y lo, y hi, z lo, z hi), a glass block
// across the owned box's low x edge, a lossy block in the x-high PML and its band, a PEC plate in
// the y-high margin, a magnetic box inside when `magnetic`; sources on the first plane past the
// x-low PML, in the margin, in the band, deep in the owned box and at its z edge.
SimulationModel upml_model(std::array<int, 3> n, std::array<int, 6> layers, long steps, bool magnetic,
                           const std::vector<ProbeConfig>& probes = {}) {
  RunConfig cfg = box_config(n, kD, steps, BoundaryType::Upml);
  cfg.boundary.layers = layers;
  cfg.materials = {material("glass", 2.5, 1, 0), material("lossy", 2, 1, 0.5)};
  if (magnetic) cfg.materials.push_back(material("ferrite", 1.5, 2, 0));
  const int x0 = layers[0] + 2;  // the owned box's first plane
  cfg.objects = {box("block", "glass", {x0 + 0.5, n[1] / 2.0, n[2] / 2.0}, {4, 5, 6}, kD),
                 box("absorber", "lossy", {n[0] - layers[1] - 1.0, 6, n[2] / 2.0}, {3, 3, 5}, kD),
                 box("plate", "pec", {n[0] / 2.0, n[1] - layers[3] - 1.5, 10}, {3, 1, 3}, kD)};
  if (magnetic) cfg.objects.push_back(box("core", "ferrite", {n[0] / 2.0, 8, 14}, {3, 3, 4}, kD));
  cfg.sources = {
      point_source("wall", SourceKind::Current, Axis::Y, cells(layers[0], 7, 12, kD),
                   WaveformKind::Sine, 30e9, 2e7),
      point_source("margin", SourceKind::Dipole, Axis::Z, cells(x0 - 1, 9, 15.5, kD),
                   WaveformKind::Sine, 40e9, 2e-13),
      point_source("band", SourceKind::Current, Axis::X, cells(x0 + 1.5, 10, 17, kD),
                   WaveformKind::Ricker, 60e9, 2e7),
      point_source("deep", SourceKind::Dipole, Axis::Z, cells(n[0] / 2.0, n[1] / 2.0, n[2] / 2.0, kD),
                   WaveformKind::Sine, 40e9, 2e-13),
      point_source("zedge", SourceKind::Current, Axis::Y, cells(n[0] / 2.0 + 1, 9, 4 * 3 + 0.5, kD),
                   WaveformKind::Sine, 50e9, 2e7)};
  cfg.probes = probes;
  return SimulationModel::build(cfg);
}

}  // namespace

TEST_CASE("tblock with UPML: the owned box keeps 2 cells (z: whole float4s) from the PML") {
  const SimulationModel a = upml_model({22, 20, 40}, {2, 3, 0, 2, 1, 2}, 2, false);
  const engine::TBlockBox b = engine::tblock_owned_box(a);
  // x: [2 + 2, 22 - 3 - 2); y: no low layers, so from 0, to 20 - 2 - 2; z (nz4 = 10): from the
  // first float4 past the z slab (zq_lo = 2, sector-aligned), to float4 8 (zq_hi, 9 rounded down).
  CHECK(b.i0 == 4);
  CHECK(b.i1 == 17);
  CHECK(b.j0 == 0);
  CHECK(b.j1 == 16);
  CHECK(b.q0 == 2);
  CHECK(b.q1 == 8);
  CHECK(engine::tblock_owned_share(a) == doctest::Approx(13.0 * 16 * 24 / (22 * 20 * 40)));
  // Without UPML: the whole grid.
  const SimulationModel pec = pec_model(2, false);
  const engine::TBlockBox w = engine::tblock_owned_box(pec);
  CHECK((w.i0 == 0 && w.i1 == 13 && w.j0 == 0 && w.j1 == 11 && w.q0 == 0 && w.q1 == 3));
  CHECK(engine::tblock_owned_share(pec) == doctest::Approx(1.0));  // the padding lanes not counted
}

TEST_CASE("untuned auto: tblock where its pass fills the GPU, with UPML from kTBlockUpmlShare") {
  // N^3 cubes on the H200 (132 compute units) against what was measured there (variant_choice.hpp:
  // tblock over onepass; with UPML through OpenCL / CUDA).
  struct Case {
    int n, layers;  // layers 0: PEC walls
    double share;   // of the cells in the owned box
    bool tblock;
  };
  // Each rule's edges: N = 135 / 136 (cells, with or without UPML), 155 / 156 and 221 / 222 (share).
  for (const Case& c : {Case{96, 0, 1.0, false},       // 0.72x
                        Case{128, 0, 1.0, false},      // 0.89x
                        Case{135, 0, 1.0, false},
                        Case{136, 0, 1.0, true},
                        Case{144, 0, 1.0, true},       // 1.37x
                        Case{160, 0, 1.0, true},       // 1.65x
                        Case{128, 10, 0.49512, false}, // 1.04x / 0.85x (OpenCL / CUDA)
                        Case{135, 10, 0.52081, false},
                        Case{136, 10, 0.51862, true},  // 1.20x / 1.03x
                        Case{144, 10, 0.54012, true},  // 1.14x / 1.07x
                        Case{192, 10, 0.63802, true},  // 1.29x / 1.31x
                        Case{256, 10, 0.71860, true},
                        Case{120, 5, 0.67624, false},  // 1.05x / 0.84x
                        Case{135, 5, 0.71409, false},
                        Case{136, 5, 0.71004, true},   // 1.00x / 1.15x
                        Case{160, 5, 0.74939, true},   // 1.20x / 1.23x
                        Case{144, 20, 0.32150, false}, // 1.02x / 0.97x
                        Case{155, 20, 0.34410, false},
                        Case{156, 20, 0.35685, true},
                        Case{160, 20, 0.36794, true},  // 1.09x / 1.05x
                        Case{192, 20, 0.44564, true},  // 1.13x / 1.09x
                        Case{192, 30, 0.29630, false}, // 1.02x / 1.01x
                        Case{221, 30, 0.34711, false},
                        Case{222, 30, 0.35594, true},
                        Case{224, 30, 0.36443, true},  // 1.17x / 1.12x
                        Case{352, 30, 0.54771, true}}) { // 1.15x / 1.10x
    INFO("N = " << c.n << ", layers " << c.layers);
    const SimulationModel g = SimulationModel::build(box_config(
        {c.n, c.n, c.n}, kD, 1, c.layers ? BoundaryType::Upml : BoundaryType::Pec, c.layers));
    CHECK(engine::tblock_owned_share(g) == doctest::Approx(c.share).epsilon(1e-4));
    CHECK(engine::tblock_preferred_for(g, 132) == c.tblock);
  }
  // Scaled by the compute units: a GPU of 16 takes tblock for N = 96 with PEC walls, one of 132
  // does not; a device that reports none counts as one unit; the share still counts.
  CHECK(engine::tblock_preferred(false, 1.0, std::pow(96, 3.0), 16));
  CHECK_FALSE(engine::tblock_preferred(false, 1.0, std::pow(96, 3.0), 132));
  CHECK(engine::tblock_preferred(false, 1.0, 19000, 0));
  CHECK_FALSE(engine::tblock_preferred(false, 1.0, 18999, 0));
  CHECK_FALSE(engine::tblock_preferred(true, 0.34, 1e9, 132));
  CHECK(engine::tblock_preferred(true, 0.35, 19000, 0));
  CHECK_FALSE(engine::tblock_preferred(true, 1.0, 18999, 0));
}

TEST_CASE("tblock vs reference: UPML models step in pairs (the shell pass); odd and even counts") {
  struct Case {
    std::array<int, 3> n;
    std::array<int, 6> layers;
    long steps;
    bool magnetic;
  };
  // Layers on some faces (nz a multiple of 4), and 4 on every face with nz = 34 (2 padding lanes).
  for (const Case& c : {Case{{22, 20, 40}, {2, 3, 0, 2, 1, 2}, 31, false},
                        Case{{26, 26, 34}, {4, 4, 4, 4, 4, 4}, 30, true}}) {
    const SimulationModel m = upml_model(c.n, c.layers, c.steps, c.magnetic);
    REQUIRE(m.upml.enabled());
    REQUIRE(m.magnetic == c.magnetic);
    for (device::Api api : engine_apis()) {
      INFO("api " << std::string(device::api_name(api)) << ", grid " << c.n[0] << "x" << c.n[1]
                  << "x" << c.n[2]);
      for (const auto& wg : std::vector<std::optional<std::array<int, 3>>>{
               std::nullopt, std::array<int, 3>{1, 1, 1}, std::array<int, 3>{5, 4, 1}}) {
        for (TBlockStaging staging : kStagings) {
          const auto e = tblock(api, m, wg, staging);
          REQUIRE(e->pair() != nullptr);
          CHECK_FALSE(e->pair()->shell[0].empty());
          CHECK(e->pair()->shell[1].size() == e->pair()->shell[0].size());
          CHECK_FALSE(e->pair()->copies.empty());
          CHECK(e->kernel_variant().find("onepass steps") == std::string::npos);
          CHECK(e->kernel_variant().find(staging_text(staging)) != std::string::npos);
          compare_fields(*e, m);
          CHECK(e->paired_steps() == c.steps / 2 * 2);
          CHECK(e->single_steps() == c.steps % 2);
        }
      }
    }
  }
}

TEST_CASE("tblock vs reference: probes every step, and a UPML grid too small to pair, step singly") {
  RunConfig cfg = box_config({11, 9, 7}, kD, 40, BoundaryType::Upml);
  cfg.boundary.layers = {2, 3, 0, 2, 1, 2};
  cfg.materials = {material("glass", 2.5, 1, 0)};
  cfg.objects = {box("block", "glass", {4, 5, 3}, {3, 3, 3}, kD)};
  cfg.sources = {point_source("a", SourceKind::Dipole, Axis::Z, cells(6, 4, 3.5, kD),
                              WaveformKind::Sine, 40e9, 2e-13)};
  cfg.probes = {point_probe("p", cells(4, 3, 2, kD), {Component::Ey, Component::Hz})};
  const SimulationModel upml = SimulationModel::build(cfg);
  const SimulationModel pec = pec_model(12, false, true);
  for (device::Api api : engine_apis()) {
    INFO("api " << std::string(device::api_name(api)));
    const auto u = tblock(api, upml);
    CHECK(u->pair_stage() == nullptr);
    CHECK(u->kernel_variant().find("(onepass steps: grid too small)") != std::string::npos);
    compare_with_reference(*u, upml);
    CHECK(u->paired_steps() == 0);
    // Probes on a PEC model, sampled after every step: the samples inside a pair are predicted
    // (probe_predict.cl), so the steps still pair.
    const auto p = tblock(api, pec);
    CHECK(p->predicts_probes());
    compare_with_reference(*p, pec);  // its ProbeRecorder samples after every step
    CHECK(p->paired_steps() == 12);
    CHECK(p->single_steps() == 0);
  }
}

TEST_CASE("tblock: probe samples inside a pair predicted, at a source's own sample too") {
  // Beside the Ex/Hz probe: one on the dipole's own Ez sample (its J enters the prediction), one
  // at each corner of the grid (neighbours past the walls), one in the magnetic box.
  const std::vector<ProbeConfig> extra = {
      point_probe("src", cells(6.2, 5.1, 4.3, kD), {Component::Ez, Component::Hx, Component::Ey}),
      point_probe("corner", cells(0, 0, 0, kD), {Component::Ex, Component::Hy, Component::Ez}),
      point_probe("far", cells(12.9, 10.9, 9.9, kD), {Component::Hz, Component::Ex, Component::Ey}),
      point_probe("core", cells(4, 8, 7, kD), {Component::Hx, Component::Ez})};
  for (const auto& [magnetic, steps] : {std::pair{false, 13L}, std::pair{true, 16L}}) {
    INFO("magnetic " << magnetic << ", steps " << steps);
    const SimulationModel m = pec_model(steps, magnetic, true, extra);
    const auto rows = engine::predictable_sample_sources(m);
    REQUIRE(rows.has_value());
    REQUIRE(rows->size() == m.probes.samples.size());
    for (std::size_t n = 0; n < rows->size(); ++n) {
      const ProbeSample& s = m.probes.samples[n];
      const bool dipole_sample = m.probes.probes[static_cast<std::size_t>(s.probe)].name == "src" &&
                                 s.component == Component::Ez;
      CHECK(((*rows)[n] >= 0) == dipole_sample);
    }
    for (device::Api api : engine_apis()) {
      INFO("api " << std::string(device::api_name(api)));
      for (const auto& wg : std::vector<std::optional<std::array<int, 3>>>{
               std::nullopt, std::array<int, 3>{3, 2, 1}}) {
        const auto e = tblock(api, m, wg);
        REQUIRE(e->predicts_probes());
        compare_with_reference(*e, m);
        CHECK(e->paired_steps() == steps / 2 * 2);
        CHECK(e->single_steps() == steps % 2);
      }
    }
  }
}

TEST_CASE("tblock with UPML: probes predicted away from the PML; a sample beside it steps singly") {
  // layers x 2/3, y 0/2, z 1/2 on 22 x 20 x 40: a probe deep inside and one on the first cell
  // past the x-low PML, then one at or beside the x-high PML (its first cell is i = 19).
  const std::vector<ProbeConfig> inside = {
      point_probe("deep", cells(11, 10, 20, kD), {Component::Ez, Component::Hx}),
      point_probe("edge", cells(3.6, 5, 8, kD), {Component::Ey, Component::Hz})};
  std::vector<ProbeConfig> near_pml = inside;
  near_pml.push_back(point_probe("near", cells(18.6, 10, 20, kD), {Component::Hy}));
  const SimulationModel a = upml_model({22, 20, 40}, {2, 3, 0, 2, 1, 2}, 10, false, inside);
  const SimulationModel b = upml_model({22, 20, 40}, {2, 3, 0, 2, 1, 2}, 10, false, near_pml);
  REQUIRE(engine::predictable_sample_sources(a).has_value());
  std::string why;
  CHECK_FALSE(engine::predictable_sample_sources(b, &why).has_value());
  CHECK(why.find("PML") != std::string::npos);
  for (device::Api api : engine_apis()) {
    INFO("api " << std::string(device::api_name(api)));
    const auto ea = tblock(api, a);
    REQUIRE(ea->pair_stage() != nullptr);
    CHECK(ea->predicts_probes());
    compare_with_reference(*ea, a);
    CHECK(ea->paired_steps() == 10);
    const auto eb = tblock(api, b);
    CHECK_FALSE(eb->predicts_probes());
    compare_with_reference(*eb, b);
    CHECK(eb->paired_steps() == 0);
    CHECK(eb->single_steps() == 10);
  }
}

// Small enough for tools/oclgrind_check.sh: the pass and both shell programs (out-of-bounds
// reads of the auxiliaries, races between a tile's halo and its neighbour's stores).
TEST_CASE("tblock: tiny UPML model in pairs (oclgrind)") {
  const SimulationModel m = upml_model({14, 16, 24}, {2, 2, 2, 2, 2, 2}, 6, true);
  REQUIRE_FALSE(engine::tblock_owned_box(m).empty());
  for (device::Api api : engine_apis()) {
    INFO("api " << std::string(device::api_name(api)));
    for (TBlockStaging staging : kStagings) {
      const auto e = tblock(api, m, std::array<int, 3>{3, 2, 1}, staging);
      REQUIRE(e->pair() != nullptr);
      compare_fields(*e, m);
      CHECK(e->paired_steps() == 6);
    }
  }
}

// The z boxes' program holds a box in one tile whose halo lies on the interior side only; at the
// grid's z ends its neighbours are zero (tblock.cl). Sources beside one-cell z layers put field
// into the z ends; 13 z layers a side make the boxes 4 and 5 float4s wide; layers on one z side
// only, with padding lanes (nz = 26, 27); 150 layers make a box 38 float4s wide, more than a
// group of 6 rows holds (a tile of 10 x 39 work-items is over 384): tiles of 18 + 2 float4s
// (TILE_Z4 = 20) with a halo on both sides, the wave past the border at cell 144 after 40 steps,
// in the same launch as a box of 40 layers that fits one tile.
TEST_CASE("tblock with UPML: the z boxes' tiles at the grid's z ends, thin and thick z layers") {
  struct Case {
    std::array<int, 3> n;
    int xy_layers, z_lo, z_hi;
    long steps;
    int z_box_float4s;  // the widest z box
  };
  for (const Case& c : {Case{{12, 14, 24}, 2, 1, 1, 16, 2}, Case{{12, 14, 44}, 2, 13, 13, 16, 5},
                        Case{{12, 10, 26}, 2, 0, 3, 12, 3}, Case{{12, 10, 27}, 2, 3, 0, 12, 2},
                        Case{{6, 6, 206}, 0, 150, 40, 40, 38}}) {
    const int nz = c.n[2], xy = c.xy_layers;
    RunConfig cfg = box_config(c.n, kD, c.steps, BoundaryType::Upml);
    cfg.boundary.layers = {xy, xy, xy, xy, c.z_lo, c.z_hi};
    cfg.sources = {point_source("lo", SourceKind::Current, Axis::X,
                                cells(c.n[0] / 2, c.n[1] / 2, c.z_lo + 0.5, kD),
                                WaveformKind::Sine, 50e9, 2e7),
                   point_source("hi", SourceKind::Current, Axis::Y,
                                cells(c.n[0] / 2 + 0.5, c.n[1] / 2 - 1, nz - c.z_hi - 1.0, kD),
                                WaveformKind::Ricker, 60e9, 2e7)};
    const SimulationModel m = SimulationModel::build(cfg);
    INFO("z layers " << c.z_lo << ", " << c.z_hi << ", nz " << nz);
    CHECK(engine::tblock_z_box_float4s(m) == c.z_box_float4s);
    for (device::Api api : engine_apis()) {
      INFO("api " << std::string(device::api_name(api)));
      for (TBlockStaging staging : kStagings) {
        const auto e = tblock(api, m, std::nullopt, staging);
        REQUIRE(e->pair() != nullptr);
        compare_fields(*e, m);
        CHECK(e->paired_steps() == c.steps);
      }
    }
  }
}

TEST_CASE("tblock with UPML: a single step between pairs takes the auxiliaries where the last pair left them") {
  const SimulationModel m = upml_model({22, 20, 40}, {2, 3, 0, 2, 1, 2}, 21, false);
  for (device::Api api : engine_apis()) {
    INFO("api " << std::string(device::api_name(api)));
    const auto e = tblock(api, m, std::array<int, 3>{3, 2, 1});
    ReferenceBackend ref(m);
    for (long s = 0; s < 21; ++s) {
      ref.step(s);
      e->step(s);
      if (s == 14) {  // seven pairs (the auxiliaries now in the second set), then step 14 alone
        const FieldError err = field_error(*e, ref, m, Component::Ez);
        CHECK(err.max_diff <= 1e-4 * err.max_ref);
      }
    }
    for (int c = 0; c < 6; ++c) {
      const FieldError err = field_error(*e, ref, m, static_cast<Component>(c));
      CHECK(err.max_diff <= 1e-4 * err.max_ref);
    }
    // Steps 0-13 paired, 14 alone (read), 15-20 paired.
    CHECK(e->paired_steps() == 20);
    CHECK(e->single_steps() == 1);
  }
}
