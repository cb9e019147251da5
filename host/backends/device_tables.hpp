// The host-side tables the GPU engine uploads once (host/engine/yee_fields.cpp), built from the
// model in the layouts the kernels in cl_kernels/ read.
#pragma once
#include <array>
#include <functional>
#include <map>
#include <utility>
#include <cstdint>
#include <vector>

#include "backends/backend.hpp"
#include "config/run_config.hpp"
#include "model/simulation_model.hpp"

namespace clfdtd {

// A (component, padded scalar index) entry of the source and probe tables as add_sources and
// sample_probes read it (cl_kernels/fdtd_common.h entry_cell): {component + 8 * (index % 4),
// index / 4}, so that a grid of up to 2^31 float4 lanes per component (more than 2^31 cells)
// fits two ints.
std::array<std::int32_t, 2> cell_entry(int component, std::size_t index);
// Appends cell_entry(component, index) to a table.
void push_cell_entry(std::vector<std::int32_t>& table, int component, std::size_t index);

// Sources that drive one sample share one table (their J summed), so add_sources never has two
// work-items writing one cell.
struct MergedSources {
  std::vector<std::int32_t> cells;  // cell_entry per merged source
  std::vector<float> j;             // [src * steps + s]
  long steps = 0;
};
// `keep`, where given, picks the sources by their cell (i, j, k): a region's own table.
using SourceCellFilter = std::function<bool(const std::array<int, 3>&)>;
// The rows of merge_sources' table: per driven sample (component, cell index), in that order,
// the indices of m.sources that drive it.
using SourceGroups = std::map<std::pair<int, std::size_t>, std::vector<std::size_t>>;
SourceGroups source_groups(const SimulationModel& m, const SourceCellFilter& keep = {});
MergedSources merge_sources(const SimulationModel& m, const SourceCellFilter& keep = {});

// One axis profile as float4 entries (a, b, cp, cm) per cell index (the kernels' int_* / half_*).
std::vector<float> profile_table(const AxisProfile& p);

// int[8] per PML box: i0 i1 j0 j1 k0 k1 offset 0 (the rows variant finds a cell's box).
std::vector<std::int32_t> pml_box_table(const UpmlProfile& u);

// The z profiles as 8 arrays of nz floats: a b cp cm at integer positions, then at half positions
// (the rows variant's loops load them as whole vectors).
std::vector<float> z_profile_split(const UpmlProfile& u);

// The tile and onepass variants update the z slabs of the x/y interior float4-wise
// (cl_kernels/upml_zslab.cl) with float4-aligned auxiliaries, the x and y slabs as float4 rows
// (upml_xy4.cl, xy_pml_rows below).
// Float4 kq of an interior row is a slab float4 when kq < zq_lo or kq >= zq_hi.
struct ZSlabLayout {
  int zq_lo = 0, zq_hi = 0;  // no slab float4s: zq_lo = 0, zq_hi = nz4
  int znq = 0;               // slab float4s per interior row
  int nxi = 0, nyi = 0;      // x and y interior extents
  std::size_t float4s() const { return static_cast<std::size_t>(nxi) * nyi * znq; }
};
// The slab faces are rounded out to even float4 indices (whole 32-byte sectors of float4 pairs): a
// sector shared by a slab float4 and a plain one was written by both upml_zslab.cl and the tile
// or onepass kernels; now only by the former, which updates the plain lanes too (H200, N = 512,
// vacuum_upml: tile 1x1x32 45.9 -> 46.85 Gcells/s; onepass, since its pass leaves the PML float4s
// to the UPML kernels, 50.3 -> 51.8, where tight slabs lost 9%).
ZSlabLayout zslab_layout(const SimulationModel& m, KernelVariant v);

// Floats in each of the 6 UPML auxiliary arrays (Dx Dy Dz Bx By Bz) of variant v: tile and
// onepass keep the x/y slabs' as float4 rows (xy_pml_rows x nz4 float4s, at least 1 float so no
// buffer is empty; their z slabs have 2 more arrays of ZSlabLayout::float4s()), the others one
// float per PML cell.
std::size_t upml_aux_floats(const SimulationModel& m, KernelVariant v);

// Device bytes of one set of the tile and onepass variants' UPML auxiliaries: the six arrays of
// upml_aux_floats and the z slabs' Bz and Dz (two arrays of ZSlabLayout::float4s()); 0 without UPML.
std::size_t slab_aux_bytes(const SimulationModel& m, KernelVariant v);

// Device bytes of variant v for m: SimulationModel::device_bytes (onepass: both sets of fields)
// with the UPML auxiliaries as v lays them out, plus the monitors' buffers
// (engine/monitor_buffers.hpp). The tile and onepass variants keep 6 float4 rows
// per x/y-slab row (padding lanes included) and 4 float4s per z-slab float4 (rounded out), plus
// their z-lane table, a few percent more than 6 floats per PML cell; the GPU engine checks and
// reports this count.
std::size_t variant_device_bytes(const SimulationModel& m, KernelVariant v, int probe_batch_steps);

// Rows (i, j) of the x and y slabs: the tile and onepass variants keep their auxiliaries as float4
// rows (cl_kernels/upml_lanes.h xy_pml_cell numbers them, upml_xy4.cl updates them); 0 without
// UPML on those faces.
std::size_t xy_pml_rows(const SimulationModel& m);

// x and y extents of the rows the tile kernels (update_h.cl, update_e.cl) cover: the x/y interior,
// from row (x_lo layers, y_lo layers); at least 1 each, so that a launch is never empty.
std::array<int, 2> tile_rows(const SimulationModel& m);

// onepass and tblock's id_e4 (cl_kernels/fdtd_common.h): per float4 of the padded layout, the id its
// twelve E samples (Ex, Ey, Ez at four lanes) share, or kIdsMixed (IDS_MIXED) where they differ
// or share 255. Away from material boundaries the kernels then read 0.25 B of ids per cell, not 3.
// id_h4: the same for the twelve H samples, for a magnetic model only (the others read no H ids).
constexpr std::uint8_t kIdsMixed = 255;
std::vector<std::uint8_t> e_id_float4_table(const SimulationModel& m);
std::vector<std::uint8_t> h_id_float4_table(const SimulationModel& m);

// Per float4 kq, 8 float4s over its four lanes: H's (a, b) at half z and (cp, cm) at integer z,
// then E's (a, b) at integer z and (cp, cm) at half z; neutral (1, 1, 2, 2) past nz.
std::vector<float> zslab_lane_table(const SimulationModel& m);

// energy.cl's weights per material id, all 256 ids (so no id reads past the end): eps_r for E
// (0 for PEC, whose E is zero), mu_r for H.
std::vector<float> energy_weights(const SimulationModel& m, bool electric);

// energy.cl's partial sums, partial[(slot * 3 + t) * groups + group] for `slots` samples, added per
// slot in double and scaled to joules (eps0 dV / 2, mu0 dV / 2): what the GPU engine's
// read_energy_batch() returns.
std::vector<EnergyTerms> energy_terms_from_partials(const std::vector<float>& partial, int slots,
                                                    std::size_t groups,
                                                    const SimulationModel& m);

}  // namespace clfdtd
