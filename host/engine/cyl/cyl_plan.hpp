// The stage list of one cylindrical step, every kernel argument bound once (stage.hpp), all mode
// slots in each launch (the slot is the last NDRange dimension):
//   H: the rows left of the r slab outside the z slabs (cyl_tile_h or cyl_rows_h), then the PML
//      cells (cyl_pml_h);  E: the same for E;  sources: cyl_add_sources (value = the step index);
// and the samplers run between steps: cyl_sample_probes, check_finite (check_finite.cl over all
// planes of the six components) and cyl_energy_sums. In place on the one field set.
#pragma once
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "device/device.hpp"
#include "engine/cyl/cyl_fields.hpp"
#include "engine/stage.hpp"
#include "model/simulation_model.hpp"

namespace clfdtd::engine {

struct CylPlan {
  StepPlan step;
  Stage probes, energy, finite;  // empty kernels when the model has no probes / no energy
};

// The tile variant's two measured choices (docs/BENCHMARKS.md, "cylindrical"): local-memory
// staging of the stencil's neighbours (device.cyl_staging = local: kernels cyl_tile_local_*,
// built with the work-group as TILE_Z4 x TILE_Y) and the launch's z range starting on a 128-byte
// boundary (device.cyl_align).
struct CylTileChoice {
  bool local_staging = false;
  bool align = true;
};

// The first float4 of a row the tile launch covers: klo / 4 (the first holding a non-PML cell),
// or with `align` that rounded down to a multiple of 8 float4s (128 B: whole memory segments when
// rows start on one, i.e. nz4 a multiple of 8; the float4s before klo are masked, unchanged).
int cyl_tile_first_float4(int klo, bool align);

// v: Tile or Rows; wg as choose_cyl_workgroup gave it; `program` holds the kernels of `tile`'s
// choice (for local staging: built with TILE_Z4 = wg[1], TILE_Y = wg[0], TILE_X = 1).
CylPlan plan_cyl(const device::Program& program, const SimulationModel& m, const CylFields& f,
                 KernelVariant v, const std::array<int, 3>& wg, const CylTileChoice& tile = {});

// The kernels of variant v's H and E passes ("cyl_tile_h", "cyl_tile_e", "cyl_tile_local_h", ...).
std::array<std::string, 2> cyl_main_kernels(KernelVariant v, bool local_staging = false);

// The kernel name the tuning cache keys the work-group by: "cyl-tile", "cyl-tile-local", "cyl-rows".
std::string cyl_kernel_name(KernelVariant v, bool local_staging);

// Which variant runs (device.variant: auto = rows on a CPU, tile elsewhere; onepass refused with
// a ConfigError naming device.variant).
KernelVariant resolve_cyl_variant(const DeviceConfig& cfg, const std::string& device_type);

// The SIMD width the automatic work-group rule aligns to: 32 (CUDA, NVIDIA), 64 (AMD's
// wavefront), 16 (Intel GPUs' widest SIMD), 1 on a CPU, else 32; from the device's API, vendor
// and type (OpenCL 1.2 has no device query for it).
int cyl_simd_width(const device::DeviceInfo& info);

// Local memory one group of the staged kernels uses: 6 tiles of (wr + 1) x (wz4 + 1) float4s.
std::size_t cyl_local_bytes(const std::array<int, 3>& wg);

// The work-group: tile (wr, wz4, 1), wr rows along r by wz4 float4s along z; rows (1, W, 1).
// device.workgroup (`requested`: tile X and Y; rows the product) or the tuning cache's entry when
// given; else the automatic rule from the device's limits: tile wz4 = the SIMD width (one warp
// spans a z row of the group: 32 float4s = 512 B, whole 128-B segments), wr = 256 / wz4 rows
// (256 items per group; 8 x 32 on NVIDIA, 4 x 64 on AMD), rows W = 64. Then clamped to the grid,
// the device's per-dimension limits and max_group items, and for local staging to
// `local_mem_bytes` (halving the larger axis).
std::array<int, 3> choose_cyl_workgroup(KernelVariant v,
                                        const std::optional<std::array<int, 3>>& requested,
                                        const FieldLayout& layout, std::size_t max_group,
                                        const std::array<std::size_t, 3>& max_items,
                                        int simd_width = 0, bool local_staging = false,
                                        std::size_t local_mem_bytes = 0);

// The shapes `clfdtd bench --tune` tries for the cylindrical tile (wr, wz4, 1) or rows (1, W, 1):
// the first default 8 x 16, the seed's 32-wide rows, squatter tiles; the automatic rule's shapes
// (8 x 32, 4 x 64) are among them.
std::vector<std::array<int, 3>> cyl_tuning_candidates(KernelVariant v);

}  // namespace clfdtd::engine
