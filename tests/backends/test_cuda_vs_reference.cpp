// The CUDA engine (the same cl_kernels/ compiled by nvcc) against the double-precision reference
// engine, cell by cell after a few hundred steps: the models and the bound of
// test_opencl_vs_reference.cpp (max |diff| < 1e-4 of each component's max |value|), with UPML,
// dielectric, lossy, PEC and magnetic materials, dipole and current sources, odd nx and ny, nz
// not a multiple of 4, and blocks that divide none of the grid's sizes: for the tile variant
// shapes nvcc compiled (CLFDTD_CUDA_TILES), for the plain and rows variants any shape. Skipped,
// with a message, on machines without a CUDA device.
#include <doctest/doctest.h>

#ifdef CLFDTD_HAVE_CUDA

#include "backends/test_cuda_helpers.hpp"

using namespace clfdtd;
using namespace clfdtd::cudatest;

namespace {

constexpr double kD = 1e-3;  // cell size, m
using Shape = std::optional<std::array<int, 3>>;
Shape wg(int x, int y, int z) { return std::array<int, 3>{x, y, z}; }

// 21 x 19 x 23 cells, UPML with a different layer count on every face and none on y-low, a
// dielectric sphere, a lossy box, a PEC box, a magnetic (mu_r = 2) sphere, and a magnetic
// dielectric slab that reaches into the z-low PML; a dipole (Ez) and a current source (Ex).
RunConfig mixed_config(long steps) {
  RunConfig cfg = box_config({21, 19, 23}, kD, steps, BoundaryType::Upml);
  cfg.boundary.layers = {3, 4, 0, 2, 5, 3};
  cfg.materials = {material("glass", 4, 1, 0), material("lossy", 2, 1, 0.5),
                   material("ferrite", 1, 2, 0), material("substrate", 3, 1.5, 0)};
  cfg.objects = {box("slab", "substrate", {10.5, 9.5, 2.5}, {30, 30, 5}, kD),
                 sphere("ball", "glass", {7, 6, 12}, 3, kD),
                 box("absorber", "lossy", {14, 12, 9}, {4, 5, 4}, kD),
                 box("plate", "pec", {13, 5, 15}, {3, 2, 3}, kD),
                 sphere("core", "ferrite", {9, 13, 16}, 2.5, kD)};
  cfg.sources = {point_source("dip", SourceKind::Dipole, Axis::Z, cells(10.2, 9.1, 11.3, kD),
                              WaveformKind::Sine, 15e9, 2e-13),
                 point_source("cur", SourceKind::Current, Axis::X, cells(6, 14, 8, kD),
                              WaveformKind::Sine, 11e9, 2e7)};
  cfg.probes = {
      point_probe("a", cells(12, 10, 12, kD), {Component::Ex, Component::Ez, Component::Hy}),
      point_probe("pml", cells(1, 1, 21, kD), {Component::Ey, Component::Hz}),
      point_probe("late", cells(16, 4, 7, kD), {Component::Hx})};
  cfg.probes[2].steps = std::array<long, 2>{100, 260};
  return cfg;
}

}  // namespace

TEST_CASE("cuda vs reference: mixed magnetic UPML model, several block shapes") {
  if (!cuda_available()) return;
  const SimulationModel m = SimulationModel::build(mixed_config(300));
  REQUIRE(m.magnetic);
  REQUIRE(m.upml.enabled());
  REQUIRE(m.layout.nz4 == 6);
  // Tile: the default 2 2 30 (30 float4s along z against 6), a shape dividing none of 21, 19, 6,
  // one thread per block (every neighbour from global memory), and a wide Hopper-style shape.
  for (const Shape& s : {Shape{}, wg(4, 5, 4), wg(1, 1, 1), wg(1, 8, 32)}) {
    compare_cuda_with_reference(m, cuda_device(KernelVariant::Tile, s));
  }
  // Plain: the default 1 1 64 (clamped to nz = 23) and shapes dividing none of 21, 19, 23.
  for (const Shape& s : {Shape{}, wg(8, 3, 5), wg(1, 1, 1), wg(2, 4, 32)}) {
    compare_cuda_with_reference(m, cuda_device(KernelVariant::Plain, s));
  }
  // Rows: the default 1 16 1 (clamped to ny = 19) and blocks dividing neither 21 nor 19.
  for (const Shape& s : {Shape{}, wg(4, 5, 1), wg(1, 1, 1)}) {
    compare_cuda_with_reference(m, cuda_device(KernelVariant::Rows, s));
  }
  // Fused: plain's blocks, the UPML cells in the same kernel.
  for (const Shape& s : {Shape{}, wg(8, 3, 5)}) {
    compare_cuda_with_reference(m, cuda_device(KernelVariant::Fused, s));
  }
  // Onepass: (planes, y, z4) with compiled 1 x y x z4 blocks; 4 planes split x into 6 chunks,
  // 16 x 8 tiles own 15 x 7 and so cut both y and z.
  for (const Shape& s : {Shape{}, wg(4, 4, 16), wg(3, 16, 8)}) {
    compare_cuda_with_reference(m, cuda_device(KernelVariant::OnePass, s));
  }
}

TEST_CASE("cuda vs reference: non-magnetic UPML model with vacuum H coefficients") {
  if (!cuda_available()) return;
  RunConfig cfg = box_config({15, 13, 10}, kD, 250, BoundaryType::Upml);
  cfg.boundary.layers = {2, 3, 4, 0, 3, 2};
  cfg.materials = {material("glass", 6, 1, 0), material("lossy", 3, 1, 1.0)};
  cfg.objects = {sphere("ball", "glass", {8, 7, 5}, 2.5, kD),
                 box("absorber", "lossy", {11, 9, 4}, {2, 3, 3}, kD),
                 box("wire", "pec", {5, 10, 6}, {1, 4, 1}, kD)};
  cfg.sources = {point_source("dip", SourceKind::Dipole, Axis::Z, cells(6, 6, 4, kD),
                              WaveformKind::Sine, 15e9, 2e-13),
                 point_source("cur", SourceKind::Current, Axis::Y, cells(9, 5, 5, kD),
                              WaveformKind::Ricker, 10e9, 2e7)};
  cfg.probes = {point_probe("p", cells(7, 8, 6, kD), {Component::Ez, Component::Hx})};
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE_FALSE(m.magnetic);
  REQUIRE(m.layout.nzp() == 12);
  compare_cuda_with_reference(m, cuda_device(KernelVariant::Auto, std::nullopt));
  compare_cuda_with_reference(m, cuda_device(KernelVariant::Tile, wg(2, 8, 16)));
  compare_cuda_with_reference(m, cuda_device(KernelVariant::Plain, wg(2, 3, 2)));
}

TEST_CASE("cuda vs reference: PEC cavity without UPML, two sources on one sample") {
  if (!cuda_available()) return;
  RunConfig cfg = box_config({11, 9, 7}, kD, 200, BoundaryType::Pec);
  cfg.materials = {material("glass", 2.5, 1, 0)};
  cfg.objects = {box("block", "glass", {3, 6, 4}, {3, 3, 3}, kD)};
  // Both drive the same Ez sample: the engine must add both currents.
  cfg.sources = {point_source("a", SourceKind::Current, Axis::Z, cells(6, 4, 3.5, kD),
                              WaveformKind::Ricker, 20e9, 5e7),
                 point_source("b", SourceKind::Dipole, Axis::Z, cells(6, 4, 3.5, kD),
                              WaveformKind::GaussianPulse, 15e9, 1e-12),
                 point_source("c", SourceKind::Current, Axis::X, cells(7.5, 2, 5, kD),
                              WaveformKind::Ricker, 20e9, 5e7)};
  cfg.probes = {
      point_probe("p", cells(4, 3, 2, kD), {Component::Ex, Component::Ey, Component::Hz})};
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE_FALSE(m.upml.enabled());
  REQUIRE(m.sources[0].cell == m.sources[1].cell);
  compare_cuda_with_reference(m, cuda_device(KernelVariant::Auto, std::nullopt));
  compare_cuda_with_reference(m, cuda_device(KernelVariant::Tile, wg(4, 4, 16)));
  compare_cuda_with_reference(m, cuda_device(KernelVariant::Plain, wg(3, 2, 1)));
}

TEST_CASE("cuda vs reference: plain cells next to every kind of UPML slab") {
  if (!cuda_available()) return;
  // physics_helpers.hpp slab_edge_config, as the OpenCL case: z-slab float4s around the plain
  // ones, y_lo slab rows beside plain rows (onepass reads their H_new from its output), faces
  // without layers; magnetic and not.
  for_each_slab_edge_model(160, [](const SimulationModel& m) {
    for (const Shape& s : {Shape{}, wg(4, 5, 4), wg(2, 4, 16)})
      compare_cuda_with_reference(m, cuda_device(KernelVariant::Tile, s));
    for (KernelVariant v : {KernelVariant::Plain, KernelVariant::Rows, KernelVariant::Fused})
      compare_cuda_with_reference(m, cuda_device(v, Shape{}));
    // (planes, y, z4): 2-row tiles put the first plain row after an even y_lo at a tile start.
    for (const Shape& s : {Shape{}, wg(3, 2, 32), wg(3, 4, 16)})
      compare_cuda_with_reference(m, cuda_device(KernelVariant::OnePass, s));
  });
}

TEST_CASE("cuda vs reference: tiny magnetic UPML model") {
  if (!cuda_available()) return;
  RunConfig cfg = box_config({7, 6, 5}, kD, 12, BoundaryType::Upml);
  cfg.boundary.layers = {1, 2, 0, 1, 1, 1};
  cfg.materials = {material("ferrite", 3, 2, 0.2)};
  cfg.objects = {box("core", "ferrite", {4, 3, 2}, {2, 2, 2}, kD)};
  cfg.sources = {point_source("dip", SourceKind::Dipole, Axis::Z, cells(3, 3, 2, kD),
                              WaveformKind::Gaussian, 60e9, 1e-12)};
  cfg.probes = {point_probe("p", cells(2, 2, 3, kD), {Component::Ez, Component::Hy})};
  cfg.probes[0].steps = std::array<long, 2>{0, 12};
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(m.magnetic);
  compare_cuda_with_reference(m, cuda_device(KernelVariant::Tile, wg(1, 4, 32)));
  compare_cuda_with_reference(m, cuda_device(KernelVariant::Plain, wg(2, 4, 2)));
  compare_cuda_with_reference(m, cuda_device(KernelVariant::Rows, wg(2, 4, 1)));
  compare_cuda_with_reference(m, cuda_device(KernelVariant::OnePass, wg(2, 4, 32)));
}

#else
TEST_CASE("cuda: backend not built") {
  MESSAGE("clfdtd was configured without -DCLFDTD_CUDA=ON: CUDA tests skipped");
}
#endif  // CLFDTD_HAVE_CUDA
