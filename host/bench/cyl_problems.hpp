// The cylindrical (body-of-revolution) problems of `clfdtd bench` (issue 20), built in code like
// the 3D and 2D ones: an (r, z) grid of n x n cells of 1 mm (nr = nz = n), angular modes 0 1 2
// batched in each launch, a z-directed current pulse (Gaussian at c / (20 d)) at r = n/3 cells,
// phi = 30 degrees, z = n/2 cells, which drives every listed mode:
//   cyl_cpml  vacuum, a 10-layer CPML on r = R and both z ends (the engine's r-slab 1/r~ terms
//             included): the work of a radiating body of revolution;
//   cyl_pec   the same with bare PEC walls: the plain kernels alone.
// Their rows count cell-mode updates: cells = nr * nz * modes (docs/BENCHMARKS.md).
#pragma once
#include <string>
#include <vector>

#include "config/run_config.hpp"

namespace clfdtd {

const std::vector<std::string>& cyl_problem_names();  // cyl_cpml, cyl_pec

// Whether `name` (a bench problem name, outputs suffix included) is a cylindrical problem.
bool is_cyl_problem(const std::string& name);

// The RunConfig of cylindrical problem `name` on an n x n (r, z) grid for `steps` steps. Throws
// ConfigError (key "bench.problem") for an unknown name or an outputs suffix (they have none).
RunConfig cyl_bench_problem(const std::string& name, int n, long steps);

}  // namespace clfdtd
