// Which kernel variant and work-group the engine runs: device.variant and device.workgroup as
// asked, else the winner of `clfdtd bench --tune` for the device, else the defaults below; each
// shape clamped to the grid, the device's limits and the kernels' own limits. Free of any device
// in the shape rules, so tests can exercise them with made-up limits.
#pragma once
#include <array>
#include <cstddef>
#include <optional>
#include <string>

#include "backends/tuning_cache.hpp"
#include "config/run_config.hpp"
#include "device/device.hpp"
#include "model/field_layout.hpp"
#include "model/simulation_model.hpp"

namespace clfdtd {

// The patent's work-group: 2 x 2 x 30 in (x, y, z4), z4 counting float4s along z.
constexpr std::array<int, 3> kDefaultWorkgroup{2, 2, 30};
// The tile shape device.variant = auto uses on an untuned GPU when onepass does not fit: 2 x 4 x 16
// (x y z4). Since the tile kernels skip the z-slab float4s' loads (2ef1449) the shapes lie within
// 1.5% of each other on the H200 (vacuum with UPML, OpenCL 47.2-47.9 Gcells/s, CUDA 47.2-48.1);
// 2 x 4 x 16 is among the best on both APIs and wastes the least on grids with short z rows
// (docs/BENCHMARKS.md).
constexpr std::array<int, 3> kGpuAutoWorkgroup{2, 4, 16};
// The rows variant's work-group, (x, y, 1): 8 rows along y (fastest on PoCL and the H200).
constexpr std::array<int, 3> kDefaultRowsWorkgroup{1, 8, 1};
// The onepass variant's work-group (x, y, z4): a group of 2 x 32 work-items (y, z4) marching
// through 8 planes along x: the fastest measured on the H200 since the pass leaves the PML cells
// to the UPML kernels (vacuum_upml 52.3 against 51.8 Gcells/s for 8 x 4 x 32, pec_cube 67.6
// against 66.8; docs/BENCHMARKS.md; more, smaller groups keep more loads in flight than long
// marches).
constexpr std::array<int, 3> kDefaultOnePassWorkgroup{8, 2, 32};
// The tblock variant's work-group (planes, owned rows y, owned float4s z4): a group of
// (9 + 3) x (14 + 2) = 192 work-items (its owned tile and a halo of 2 rows before and 1 after
// along y, 1 float4 on each side along z: cl_kernels/tblock.cl); 18 KiB of local memory (36
// staging E1 in local memory). Rows of 16 work-items fill whole warps.
// The default where the compiler takes no request for groups per compute unit
// (device/min_groups.hpp). The planes of a default work-group are the pass's chunk length from
// tblock_chunk_planes (below).
constexpr std::array<int, 3> kDefaultTBlockWorkgroup{32, 9, 14};
// Where it does (CUDA, NVIDIA's OpenCL): (13 + 3) x (14 + 2) = 256 work-items, two groups per SM
// at 128 registers (variant_choice.cpp). H200, N = 512, against 8 x 14 owned (with 2 halo rows
// after them then): CUDA pec_cube 91.9 against 67.6, OpenCL 88.0 / 80.8, vacuum_upml OpenCL 66.9
// / 63.2; H100 (CUDA) pec_cube 75.0 against 63.1 (docs/BENCHMARKS.md).
constexpr std::array<int, 3> kDefaultTBlockWorkgroupTwoGroups{32, 13, 14};
// The largest tblock group that asks for two per compute unit (variant_choice.cpp).
constexpr std::size_t kTBlockTwoGroupItems = 256;
// Local memory of one tblock group per work-item (cl_kernels/tblock.cl): staging E1 in local
// memory, twelve float4 arrays (E at step s and E1 of two planes by parity; H1; H2); in
// registers, six (E; H).
constexpr std::size_t tblock_local_bytes_per_item(bool e1_local) { return (e1_local ? 12 : 6) * 16; }
// device.tblock_staging resolved for a device: auto is local on NVIDIA (CUDA, and NVIDIA's
// OpenCL platform by its name; measured faster on the H200 through both since ba58c15),
// registers elsewhere (not measured).
bool tblock_e1_local(TBlockStaging staging, const device::DeviceInfo& info);
// At most 384 work-items a tblock group: its program holds every kernel compiled with the group's
// TILE_Y and TILE_Z4, and cl_kernels/cyl_tile_local.cl's local arrays pass NVIDIA's 48 KiB past
// that (nvcc sm_90: 41184 B at 12 x 32, 53856 B at 16 x 32, which fails the whole program).
constexpr std::size_t kTBlockMaxItems = 384;
// The float4s a tblock group computes along z on each side of those it owns, by program
// (VariantRequest::tblock_upml): 2 (one each way) for the pass and the x/y boxes' shell, 1 (on the
// interior side only) for the z boxes' shell (cl_kernels/tblock.cl).
constexpr int tblock_z_halo(int tblock_upml) { return tblock_upml == 2 ? 1 : 2; }
// The rows a tblock group computes along y besides those it owns, by program: 2 before them and
// 1 after in the pass (its last row reads the E at step s of the row after it from memory), 2
// after in the shell's (cl_kernels/tblock.cl TB_Y_AFTER).
constexpr int tblock_y_after(int tblock_upml) { return tblock_upml == 0 ? 1 : 2; }
constexpr int tblock_y_halo(int tblock_upml) { return 2 + tblock_y_after(tblock_upml); }
// The work-items of a tblock group owning `rows` x `z4`: its tile with the halo, tblock_y_halo
// rows and tblock_z_halo float4s.
constexpr std::size_t tblock_group_items(int rows, int z4, int tblock_upml) {
  return static_cast<std::size_t>(rows + tblock_y_halo(tblock_upml)) *
         static_cast<std::size_t>(z4 + tblock_z_halo(tblock_upml));
}
// The groups per compute unit the z boxes' shell program asks for (0: no request), by its group's
// work-items: as many as kShellZUnitThreads hold, counting whole warps of 32, where that is at
// least two. The program holds ~168 registers with E1 in local memory when asked for 12 warps
// per SM (nvcc sm_90: 20 B spilled), 179-189 unasked, so 384 threads of it fit an SM's 65536
// registers: three groups of 20 + 4 rows x 5 float4s (120 work-items, 4 warps), two of up to 192
// work-items; a wider group (z boxes over 7 float4s wide) asks nothing (docs/BENCHMARKS.md).
// 384 is a multiple of 4 warps: registers are given per quarter of an SM, so a request that
// left a quarter a partial share would cap them lower (200 work-items asked for two: 128).
constexpr std::size_t kShellZUnitThreads = 384;
static_assert(kShellZUnitThreads % 128 == 0, "whole warps in each quarter of an SM");
constexpr int tblock_shell_z_groups(std::size_t items) {
  const std::size_t threads = (items + 31) / 32 * 32;
  const std::size_t groups = threads == 0 ? 0 : kShellZUnitThreads / threads;
  return groups >= 2 ? static_cast<int>(groups) : 0;
}
// The request of a tblock shell program (VariantRequest::tblock_upml) on a device, by its group's
// work-items: the z boxes' program's (tblock_shell_z_groups) where the device takes requests
// (DeviceInfo::min_groups_hint), none for the x/y boxes' program (~250 registers: two groups of
// 192 or 256 spill, and ran slower) nor elsewhere.
int tblock_shell_groups_request(int tblock_upml, const device::DeviceInfo& info, std::size_t items);
// Where a tblock shell program stages E1: as the pass (pass_e1_local), except the z boxes'
// program, whose default group (kShellZWorkgroup rows, z_width float4s) asks for more groups on
// this device: local memory then (it spills less there: 20 B against 120 B in registers).
bool tblock_shell_e1_local(int tblock_upml, bool pass_e1_local, const device::DeviceInfo& info,
                           int z_width);

// Work-group (x, y, z4) for the tile kernels: `requested` (default kDefaultWorkgroup), each axis
// at least 1 and clamped to the grid (nx, ny, nz4) and to the device's per-dimension limits
// (max_items in NDRange order: dim0 = z4, dim1 = y, dim2 = x); then, while the product exceeds
// max_group, the largest axis is halved (rounding up).
std::array<int, 3> choose_workgroup(const std::optional<std::array<int, 3>>& requested,
                                    const FieldLayout& layout, std::size_t max_group,
                                    const std::array<std::size_t, 3>& max_items);

// The same rule for any kernel form: `grid` is (nx, ny, n along z in the kernel's z units).
std::array<int, 3> choose_workgroup(const std::optional<std::array<int, 3>>& requested,
                                    const std::array<int, 3>& fallback,
                                    const std::array<int, 3>& grid, std::size_t max_group,
                                    const std::array<std::size_t, 3>& max_items);

// Work-group for the onepass kernel: `requested` (default kDefaultOnePassWorkgroup); planes
// clamped to [1, nx]; y and z4 to [2, max(2, n)] and to the device's limits; then the larger of
// y and z4 is halved (not below 2) while y * z4 exceeds max_group.
std::array<int, 3> choose_onepass_workgroup(const std::optional<std::array<int, 3>>& requested,
                                            const FieldLayout& layout, std::size_t max_group,
                                            const std::array<std::size_t, 3>& max_items);

// Work-group for the tblock kernel: `requested` (default kDefaultTBlockWorkgroup) as (planes,
// owned y, owned z4); planes clamped to [1, nx], owned y to [1, ny], owned z4 to [1, nz4]; then
// the larger owned extent is halved (not below 1) while the group with its halo (program
// `tblock_upml`: tblock_group_items) exceeds max_group, kTBlockMaxItems or the device's
// per-dimension limits, or its local memory (bytes_per_item per work-item,
// tblock_local_bytes_per_item) exceeds local_bytes.
std::array<int, 3> choose_tblock_workgroup(const std::optional<std::array<int, 3>>& requested,
                                           const FieldLayout& layout, std::size_t max_group,
                                           const std::array<std::size_t, 3>& max_items,
                                           std::size_t local_bytes, std::size_t bytes_per_item,
                                           int tblock_upml = 0);

// The tblock pass's chunk length (planes per group along x) where the work-group's planes were
// not asked for (no work-group, or a tuned one stored with planes 0), on any device. A box of at
// most 32 planes (`length`) is one chunk. Otherwise the candidates are 32, 40, .., 128, and
// `length` itself where it is at most 128; the pick is the one whose groups finish first when
// `resident` of them run at once. Each group costs its planes plus kTBlockChunkOverheadPlanes (the
// 2 planes a chunk computes first, and its start), and the groups are handed out in launch order
// (chunk by chunk, `tiles` groups each; the last chunk may be shorter) to whichever slot runs out
// first. The shortest of equals wins. Why: longer chunks recompute fewer planes, but a last wave
// of long groups on a few compute units leaves the rest idle. Measured on the H200 (two groups per
// SM, CUDA / OpenCL Gcells/s at 32 planes -> at the pick; docs/BENCHMARKS.md): vacuum_upml
// N = 384 61.4 / 59.7 -> 62.0 / 60.3 (72 planes; 96 ran 58.5 / 56.8), N = 512 68.6 / 66.8 ->
// 70.3 / 68.3 (96), N = 768 77.3 / 74.3 -> 79.3 / 76.3 (120); pec_cube N = 384 94.6 / 90.4 ->
// 99.6 / 94.1 (112), N = 512 91.9 / 88.0 -> 95.2 / 90.4 (88; 96 planes 95.7 / 91.2). `resident`
// 0 (unknown) or more than 2^20 groups at 32 planes: 32. `shortest` and `longest` replace 32 and
// 128 (the candidates then run from the one to the other in steps of 8): tblock's z boxes' shell
// program takes its chunks so from 16 to 32 (plan_tblock.cpp; H200, vacuum_upml, OpenCL / CUDA
// Gcells/s at 16 planes against 32: N = 512 74.9 / 74.9 against 75.4 / 75.3, the pick; N = 256
// 56.0 / 56.9 against 51.0 / 51.6, where the pick is 16; 48 and 64 planes ran slower than both
// at N = 512, in the model's order; the model would pick longer chunks on larger grids, 48 at
// N = 768 and 88 at N = 1024, which were not measured, so they are not offered).
constexpr int kTBlockChunkOverheadPlanes = 4;
int tblock_chunk_planes(long long tiles, int length, long long resident,
                        int shortest = kDefaultTBlockWorkgroup[0], int longest = 128);

constexpr std::size_t round_up(std::size_t n, std::size_t multiple) {
  return (n + multiple - 1) / multiple * multiple;
}

}  // namespace clfdtd

namespace clfdtd::engine {

// The variant to run and the work-group asked for it (nullopt: the variant's default).
struct VariantRequest {
  KernelVariant variant = KernelVariant::Tile;
  std::optional<std::array<int, 3>> workgroup;
  bool tuned = false;  // both came from the tuning cache
  UpmlForm upml_form = UpmlForm::Float;  // device.upml_form (tile and onepass kernels)
  // tblock's shell programs (TBLOCK_UPML: 1 every UPML form, 2 the z slabs' only; plan.hpp
  // TBlockPass); 0 the pass.
  int tblock_upml = 0;
  TBlockStaging tblock_staging = TBlockStaging::Auto;  // device.tblock_staging (tblock)
};

// The tuned entry device.variant = auto takes for a model (`bench --tune` stores one per device
// for models with UPML, `upml`, and one for models without, `no_upml`): a model with UPML takes
// `upml`; a model without takes `no_upml` when there is one, else `upml` (a cache written before
// the no-UPML entries). A model split over ranks (`in_place_only`) runs neither onepass nor
// tblock: such an entry is passed over (the no-UPML one for the UPML one, that one for none).
std::optional<TunedChoice> tuned_for_model(bool model_has_upml, bool in_place_only,
                                           const std::optional<TunedChoice>& upml,
                                           const std::optional<TunedChoice>& no_upml);

// device.variant = auto without device.workgroup takes `tuned` when there is one. Otherwise auto
// is rows on a CPU (no barriers, vectorised along z); on a GPU, when `fits_onepass` (the model fits
// with its second set of fields) and no work-group was asked for, tblock where `prefer_tblock`
// (tblock_preferred) and onepass elsewhere, else tile with kGpuAutoWorkgroup (--variant=tile alone
// keeps the patent's 2x2x30).
VariantRequest resolve_variant(const DeviceConfig& dev, const std::string& device_type,
                               bool fits_onepass, const std::optional<TunedChoice>& tuned,
                               bool prefer_tblock);

// Where untuned auto runs tblock rather than onepass on a GPU: a grid of at least
// kTBlockCellsPerUnit cells per compute unit, below which the pass has too few groups to fill the
// device, and with UPML an owned box (plan.hpp tblock_owned_box) of at least kTBlockUpmlShare of
// the cells, so that the shell around it costs no more than the pass saves. Measured on the H200
// (132 compute units; docs/BENCHMARKS.md), tblock over onepass, N^3 cubes, OpenCL / CUDA:
// - pec_cube (bench, 4cab44a): N = 96 0.72x / 0.57x, N = 128 0.89x / 0.86x, N = 144 1.37x /
//   1.39x, N = 160 1.65x / 1.66x; again at 1423fe3 (tools/auto_crossover.sh): N = 112 0.76x /
//   0.69x, 120 0.85x / 0.78x, 128 0.86x / 0.80x. From 19000 cells a compute unit (N >= 136).
// - vacuum_upml (tools/auto_crossover.sh, 1423fe3; the owned share in brackets), 10 layers:
//   N = 120 (47%) 1.08x / 0.83x, 128 (50%) 1.04x / 0.85x, 136 (52%) 1.20x / 1.03x, 144 (54%)
//   1.14x / 1.07x, 160 1.15x / 1.26x, 176 1.20x / 1.13x, 192 1.29x / 1.31x; 5 layers: N = 120
//   1.05x / 0.84x, 136 (71%) 1.00x / 1.15x, 160 1.20x / 1.23x, 192 1.30x / 1.31x; 20 layers: N =
//   144 (32%) 1.02x / 0.97x, 160 (37%) 1.09x / 1.05x, 176 (41%) 1.04x / 1.04x, 192 (45%) 1.13x /
//   1.09x, 208 .. 256 1.19x to 1.31x; 30 layers: N = 192 (30%) 1.02x / 1.01x, 224 (36%) 1.17x /
//   1.12x, 256 .. 352 1.06x to 1.20x.
// So with UPML the same cells a unit and 35% owned: with 5 or 10 layers N >= 136, with 20
// N >= 156, with 30 N >= 222. Not measured on other GPUs: the counts per compute unit are the
// H200's, and assume units like its SMs (Intel's OpenCL counts execution units). A device that
// reports none counts as one.
constexpr double kTBlockUpmlShare = 0.35;
constexpr double kTBlockCellsPerUnit = 19000;
bool tblock_preferred(bool has_upml, double owned_share, double cells, unsigned compute_units);

// The program built for a variant and the work-group it runs with.
struct BuiltProgram {
  device::Program program;
  // x, y, z4 (tile; onepass: planes, y, z4; tblock: planes, owned y, owned z4; rows: x, y, 1)
  std::array<int, 3> workgroup{};
  bool tblock_e1_local = false;  // tblock: compiled with E1 in local memory (TB_E1_LOCAL)
};

// Clamps the request to the grid and the device, builds the program with the variant's tile as
// -D defines (tile: the work-group; onepass: 1 x y x z4; tblock: 1 x (y + 4) x (z4 + z halo), its
// group with the halo, tblock_z_halo; rows: 1 x 1 x 1), MAGNETIC and UPML_AUX (the request's
// upml_form), and where the main kernels allow fewer work-items than the device (registers),
// shrinks the group and builds again. Throws DeviceError from the device.
BuiltProgram build_variant_program(device::Device& dev, const SimulationModel& m,
                                   const VariantRequest& request);

}  // namespace clfdtd::engine
