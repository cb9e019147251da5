// The host-side tables every GPU backend uploads once (OpenCL and CUDA alike), built from the
// model in the layouts the kernels in cl_kernels/ read.
#pragma once
#include <cstdint>
#include <vector>

#include "model/simulation_model.hpp"

namespace clfdtd {

// Sources that drive one sample share one table (their J summed), so add_sources never has two
// work-items writing one cell.
struct MergedSources {
  std::vector<std::int32_t> cells;  // (component, padded index) per merged source
  std::vector<float> j;             // [src * steps + s]
  long steps = 0;
};
MergedSources merge_sources(const SimulationModel& m);

// One axis profile as float4 entries (a, b, cp, cm) per cell index (upml.cl's int_* / half_*).
std::vector<float> profile_table(const AxisProfile& p);

// int[8] per PML box: i0 i1 j0 j1 k0 k1 offset 0 (the fused and rows variants find a cell's box).
std::vector<std::int32_t> pml_box_table(const UpmlProfile& u);

// The z profiles as 8 arrays of nz floats: a b cp cm at integer positions, then at half positions
// (the rows variant's loops load them as whole vectors).
std::vector<float> z_profile_split(const UpmlProfile& u);

}  // namespace clfdtd
