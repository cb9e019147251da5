// The standard problems of `clfdtd bench` (issue: vendor-comparison benchmark), built in code so
// every device runs exactly the same model:
//   vacuum_upml  an n^3 vacuum cube, 10-layer UPML on all six faces, a dipole at the centre;
//   pec_cube     the same cube with bare PEC walls (no UPML): the plain kernels alone;
//   sphere       vacuum_upml with a dielectric sphere (eps_r 4, radius n/4) lit by the dipole;
//   either with "@L" (vacuum_upml@20): L layers instead of 10.
// With `outputs`: vacuum_upml plus a probe of all six components sampled every step
// ("+probes"), or plus one full E/H snapshot in the middle of the run ("+snapshot"), or plus a
// closed flux box 2 cells inside the UPML with 10 frequencies, transformed at the decimation a
// whole run of the problem takes ("+flux"); "+loop" is the same
// whole time loop with no outputs, the baseline of those three.
// The 2D problems (plane_tm, plane_te, plane_wave and their _pec forms) are in plane_problems.hpp;
// bench_problem() builds them too, n x n; the cylindrical ones (cyl_cpml, cyl_pec) are in
// cyl_problems.hpp, n x n cells (r, z).
#pragma once
#include <string>
#include <vector>

#include "config/run_config.hpp"

namespace clfdtd {

const std::vector<std::string>& bench_problem_names();  // vacuum_upml, pec_cube, sphere

// The RunConfig of problem `name` ("vacuum_upml", "pec_cube", "sphere", "ferrite" (the sphere's
// ball with mu_r = 2: a magnetic model), "vacuum_upml@20",
// "vacuum_upml+probes",
// "vacuum_upml+snapshot", "vacuum_upml+flux", "vacuum_upml+loop") on an n^3 grid of 1 mm cells for `steps` steps.
// A 2D problem name gives its n x n plane (plane_problems.hpp), a cylindrical one its n x n (r, z)
// grid (cyl_problems.hpp).
// Throws ConfigError (key "bench.problem") for an unknown name.
RunConfig bench_problem(const std::string& name, int n, long steps);

}  // namespace clfdtd
