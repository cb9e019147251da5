// The 2D problems of `clfdtd bench` (issue 19), built in code like the 3D ones: an n x n plane of
// 1 mm cells (n^2 cells, 1 m of depth), a line current at the centre (tm and wave: J along z; te:
// J along y), a Gaussian pulse at c / (20 d):
//   plane_tm, plane_te, plane_wave           10-layer UPML on the four edges (vacuum_upml's 2D
//                                            kin; plane_wave: the wave solver with its absorber);
//   plane_tm_pec, plane_te_pec, plane_wave_pec  bare PEC walls: the plain kernels alone, the work
//                                            seed 000's CPU loop (tools/plane_cpu_loop) does.
#pragma once
#include <string>
#include <vector>

#include "config/run_config.hpp"

namespace clfdtd {

const std::vector<std::string>& plane_problem_names();

// Whether `name` (a bench problem name, outputs suffix included) is one of the 2D problems.
bool is_plane_problem(const std::string& name);

// The kind of 2D model problem `name` is, as the tuning cache keys it: "tm", "te" or "wave".
// Throws ConfigError (key "bench.problem") for a name that is not a 2D problem.
std::string plane_problem_kind(const std::string& name);

// The RunConfig of 2D problem `name` on an n x n grid for `steps` steps. Throws ConfigError (key
// "bench.problem") for an unknown name or an outputs suffix (the 2D problems have none).
RunConfig plane_bench_problem(const std::string& name, int n, long steps);

}  // namespace clfdtd
