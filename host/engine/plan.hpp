// The planners: from the model, its buffers and the chosen variant, the stage list of one step
// (plan_tile.cpp, plan_onepass.cpp, plan_rows.cpp), with the UPML slab stages tile and onepass
// share (plan_slabs.cpp) and the stages every variant has (plan_common.cpp: the sources, the
// probe, energy and finite-check samplers). Every kernel's arguments are bound here, once per
// field-set parity (stage.hpp), and never again.
#pragma once
#include <array>
#include <cstdint>
#include <vector>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "device/device.hpp"
#include "engine/stage.hpp"
#include "engine/yee_fields.hpp"
#include "model/simulation_model.hpp"

namespace clfdtd::engine {

// Rows (i, j) with i0 <= i < i1 and j0 <= j < j1, every z: a part of the local grid that a
// region-restricted plan updates (docs/MPI.md, "overlap").
struct RowBox {
  int i0 = 0, j0 = 0, i1 = 0, j1 = 0;
  bool empty() const { return i1 <= i0 || j1 <= j0; }
};

// A step split in two: every phase runs over the `edges` boxes first, then over the `rest`
// boxes. The boxes are disjoint; cells in none of them are not updated (a model split over
// ranks: the ghost rows, which the halo exchange writes). Empty: no split.
struct RowSplit {
  std::vector<RowBox> edges, rest;
  bool empty() const { return edges.empty() && rest.empty(); }
};

struct PlanInputs {
  device::Device& dev;
  device::Program program;
  const SimulationModel& m;
  YeeFields& f;
  KernelVariant variant;
  std::array<int, 3> workgroup;  // as build_variant_program chose it
  // Set: the stages update the cells of these rows only (their kernels' region arguments and
  // ranges clipped to it, the sources of these rows only; stages with nothing to do dropped).
  // Unset: the whole grid, today's plan.
  std::optional<RowBox> region;
};

// The region arguments (ri0 rj0 ri1 rj1) the in-place kernels take for `in`: the region, or the
// whole grid.
RowBox region_args(const PlanInputs& in);

// Binds the arguments of a kernel for one parity: `cur` holds the state at the start of the
// step (set p), `out` receives what the kernel writes (set 1 - p where the model has two sets:
// onepass and tblock; else the same buffers).
using Bind = std::function<void(Args& a, const FieldSet& cur, const FieldSet& out)>;

// Kernel `name` bound for both parities: two objects when the model has two field sets, else one
// object in both slots. Returns them with the index Args::value() marked (-1 if none).
struct BoundKernel {
  std::array<device::Kernel, 2> kernel;
  int value_arg = -1;
};
BoundKernel bind_kernel(const PlanInputs& in, const std::string& name, const Bind& bind);

// Appends the grid arguments most kernels share: 1/dx 1/dy 1/dz, nx ny nz, n along z in the
// kernel's units (`nz_units`: float4s or padded floats), the six faces' PML layers.
void grid_args(Args& a, const SimulationModel& m, int nz_units);

// Appends the H material block every H-updating kernel takes, magnetic or not: the H ids, the
// H table (placeholders when not magnetic) and db_vacuum (cl_kernels/fdtd_common.h).
void h_material_args(Args& a, const YeeFields& f);
// The material block of onepass's and tblock's pass: the E ids, their ids per float4 and the E
// table, then the H ids, their ids per float4 (placeholders when not magnetic), the H table and
// db_vacuum.
void one_pass_material_args(Args& a, const YeeFields& f);

// A 1D range over n items in groups of up to 64 (whole groups; the kernels bound-check).
Stage linear_stage(Phase phase, BoundKernel k, std::size_t n);

StepPlan plan_tile(const PlanInputs& in);
// A box for the tile variant's plain-cell kernels: the interior rows of `rows` (unset: the
// whole grid's) and float4s [q0, q1) along z.
struct TileBox {
  std::optional<RowBox> rows;
  int q0 = 0, q1 = 0;
};
// Those kernels (update_h, phase H; update_e, phase E) over `boxes` in one launch each
// (cl_kernels/tile_boxes.h); nothing where no box has plain rows and float4s.
std::optional<std::array<Stage, 2>> tile_plain_stages(const PlanInputs& in,
                                                      const std::vector<TileBox>& boxes);
StepPlan plan_onepass(const PlanInputs& in);
StepPlan plan_rows(const PlanInputs& in);

// The cells update_tblock stores: planes [i0, i1), rows [j0, j1), float4s [q0, q1). The whole
// grid without UPML; with it, the plain cells at least 2 cells (z: float4s holding none) away
// from every PML cell and z-slab float4, so that no cell the pass stores depends, over its two
// steps, on a cell it would update with the plain formula where UPML applies.
struct TBlockBox {
  int i0 = 0, i1 = 0, j0 = 0, j1 = 0, q0 = 0, q1 = 0;
  bool empty() const { return i1 <= i0 || j1 <= j0 || q1 <= q0; }
};
TBlockBox tblock_owned_box(const SimulationModel& m);
// The share of the model's cells (nx ny nz) in that box (0 when it is empty).
double tblock_owned_share(const SimulationModel& m);
// engine/variant_choice.hpp tblock_preferred for model `m` on a device of `compute_units`.
bool tblock_preferred_for(const SimulationModel& m, unsigned compute_units);
// A model whose stages need every step's finished fields (plane waves, dispersive materials):
// tblock steps it as onepass, and steps_singly_why() says why in its variant text.
bool steps_singly(const SimulationModel& m);
const char* steps_singly_why(const SimulationModel& m);
// The widest z box of the shell (float4s; 0 without z layers): the z boxes' program holds it in
// one tile along z.
int tblock_z_box_float4s(const SimulationModel& m);

// The tblock variant's two steps s -> s + 2, from the current fields into the next ones, each
// launch of update_tblock reading the current fields only and storing its own box:
//   pass:  over the owned box (phase HE, value = the first step s; its workgroup is planes, owned
//          rows, owned float4s), a program without UPML;
//   shell: (UPML models) over the grid outside the owned box, at most six boxes, a program with
//          TBLOCK_UPML = 1 (cl_kernels/tblock.cl): its columns take the UPML form of the tile and
//          onepass variants' slab kernels, reading the auxiliaries at s from one set and storing
//          them at s + 2 into the other (a tile's halo reads its neighbours' auxiliaries while
//          they store theirs): shell[0] from set 0 (f.aux, f.zaux: what the slab kernels of
//          single steps update in place) into set 1 (aux_next, zaux_next), shell[1] back. The
//          engine alternates them pair by pair, and before a single step that finds the
//          auxiliaries in set 1 it runs `copies` (set 1 into set 0).
// The boxes are disjoint, so the launches may run in any order or at the same time: the engine
// launches them together (device::Device::launch_together), the pass first. shell[set] lists the
// x and y boxes' launch, then the z boxes' where there is one (shell_z_last). Where side queues
// start late (DeviceInfo::side_queue_starts_late: NVIDIA's OpenCL) and there are both, the
// engine runs the z boxes after the pass on its queue and the x/y boxes beside both (H200,
// tblock vacuum_upml, OpenCL: N = 160 35.6 -> 36.4, 192 48.5 -> 49.4, 256 68.8 -> 69.6, 512
// 88.8 -> 88.9 Gcells/s); through CUDA that order lost up to 18% (N = 160), so there, as on
// every device whose side queues start on time, all of them run beside the pass in shell's
// order (docs/BENCHMARKS.md).
// With the source index update_tblock reads, which the engine keeps: the merged sources by row
// (i, j), src_rows[i * ny + j] .. src_rows[i * ny + j + 1] indexing src_order
// (tblock_source_rows). `shell_xy`, `shell_z` (UPML models): the shell's programs and
// work-groups over the same fields (GpuEngine), for the boxes beside the x and y slabs and for
// those of the z slabs, which are a few float4s wide (kShellZWorkgroup).
struct BufferCopy {
  device::Buffer dst, src;
  std::size_t bytes = 0;
};
struct TBlockPass {
  Stage pass;
  std::array<StepPlan, 2> shell;
  bool shell_z_last = false;
  std::vector<BufferCopy> copies;
  std::array<device::Buffer, 6> aux_next;
  std::array<device::Buffer, 2> zaux_next;
  device::Buffer src_rows, src_order;
};
// Nothing (std::nullopt) where the owned box is empty.
std::optional<TBlockPass> plan_tblock(const PlanInputs& in, const PlanInputs* shell_xy,
                                      const PlanInputs* shell_z);
// The x and y slabs' boxes' work-group (planes, owned rows, owned float4s): ~250 registers (CUDA,
// H200), so one group of 256 work-items fills an SM's registers.
constexpr std::array<int, 3> kShellXYWorkgroup{32, 12, 14};
// The z boxes' work-group (planes, owned rows, owned float4s; planes unused: plan_tblock picks
// the chunks, kShellPlanes below; the engine replaces the float4s with the z boxes' width): the
// box past 10 layers and the 2-cell margin is 4 float4s (sector-aligned, zslab_layout), so the
// group owns 4 and computes 5 float4s along z (its halo on the interior side only: past the other
// lies the grid's end; cl_kernels/tblock.cl),
// 20 + 4 rows: 120 work-items, three groups per SM where the device takes the request
// (variant_choice.hpp tblock_shell_z_groups). H200, vacuum_upml N = 512, tblock, OpenCL / CUDA,
// Gcells/s, one call: one group of 36 + 4 rows 71.4 / 71.3, two of 32 + 4 rows 74.7 / 74.6,
// three of 20 + 4 rows 74.9 / 74.9; another: three of 20 + 4 74.5 / 74.5, four of 12 + 4 73.3 /
// 73.2 (docs/BENCHMARKS.md).
constexpr std::array<int, 3> kShellZWorkgroup{32, 20, 4};
// The shell's chunks of planes: shorter than the pass's, because its boxes are thin and its
// programs hold more registers (fewer groups per SM), so a launch needs more groups to fill the GPU.
// The x/y boxes' program takes 16 (H200, N = 512: 24 ran as fast, 32 and 48 slower); the z boxes'
// program the length whose groups finish first, from 16 to kShellZLongestPlanes
// (variant_choice.hpp tblock_chunk_planes; plan_tblock.cpp): measured on the H200 at N = 256 and
// 512 only (16 and 32 picked, as measured best; 48 and 64 ran slower at 512). Either at most the
// pass's planes.
constexpr int kShellPlanes = 16;
constexpr int kShellZLongestPlanes = 32;
// The device bytes of the shell's second set of auxiliaries (0 without UPML).
std::size_t tblock_shell_aux_bytes(const SimulationModel& m);
struct TBlockSourceRows {
  std::vector<std::int32_t> start, order;  // nx * ny + 1 offsets; source numbers (at least 1)
  int i0 = 0, i1 = -1;                     // the first and last plane with a source (none: i0 > i1)
};
TBlockSourceRows tblock_source_rows(const std::vector<std::int32_t>& cells, int nx, int ny,
                                    int nz4);

// The UPML of tile and onepass: one stage per field kind (upml_slabs.cl: upml_slabs_h, phase H;
// upml_slabs_e, phase E) whose groups update either float4s of the x/y slabs' rows (upml_xy4.cl)
// or the z slabs' float4s (upml_zslab.cl); none where the model (or the region) has no slab
// float4s. They read the current fields and write `out`: in place for tile, the next fields for
// onepass (H before its pass, E after it).
struct SlabStages {
  StepPlan h, e;  // at most one stage each
};
SlabStages plan_upml_slabs(const PlanInputs& in);
// How upml_slabs.cl spreads z_groups z-slab groups among xy_groups x/y groups (its
// slab_group_is_z): ceil(z_groups * 2^32 / (xy_groups + z_groups)), 0 when either count is 0.
std::uint32_t slab_z_share(std::size_t xy_groups, std::size_t z_groups);

// add_sources (phase Sources, value = the step index); appended when the model has sources.
void plan_sources(const PlanInputs& in, StepPlan& plan);

// The samplers, each reading the current fields: sample_probes (value = batch slot; empty
// kernels without probes), energy_sums (value = batch slot; empty without output.energy) and
// check_finite.
struct Samplers {
  Stage probes, energy, finite;
};
Samplers plan_samplers(const PlanInputs& in);

// tblock's probe samples of the step inside a pair (probe_predict.cl): predict_probes over the
// current fields, value = batch slot, and the step index s at `step_arg`. Unset where the model
// has no probe samples or one of them cannot be predicted (probe_prediction.hpp): then a sampled
// step runs alone.
struct ProbePredictStage {
  Stage stage;
  unsigned step_arg = 0;
  device::Buffer sample_source;  // per sample: its merged source's row in the J table, or -1
};
std::optional<ProbePredictStage> plan_probe_prediction(const PlanInputs& in);

}  // namespace clfdtd::engine
