// Patent steps 1-1-1 and 1-1-2: the cell size from the highest frequency, the time step from the
// Courant limit, and the grid dimensions. The one physical-constants header lives here too.
#pragma once
#include <string>
#include <vector>

#include "config/run_config.hpp"

namespace clfdtd {

constexpr double kC0 = 299792458.0;                 // speed of light, m/s
constexpr double kMu0 = 1.25663706212e-6;           // vacuum permeability, H/m
constexpr double kEps0 = 1.0 / (kMu0 * kC0 * kC0);  // vacuum permittivity, F/m
constexpr double kEta0 = kMu0 * kC0;                // vacuum impedance, ohm

// The most time steps a run takes: the kernels take the step index (and index the source table,
// sources x steps entries) as 32-bit ints.
constexpr long kMaxRunSteps = 2147483647;  // 2^31 - 1

struct GridGeometry {
  int dims = 3;                  // 2: the x-y plane, n[2] = 1 and d[2] = 1 m (per metre of depth)
  std::array<int, 3> n{};        // cells along x, y, z (domain = n * d)
  std::array<double, 3> d{};     // cell size, m
  double dt = 0;                 // time step, s
  long steps = 0;                // time steps to run
  bool steps_from_duration = false;  // steps came from time.duration (messages name that key)
  // Cylindrical (a body of revolution): n = {nr, 1, nz}, d = {dr, 1, dz}, the angular orders in
  // `modes` (ascending, each >= 0); the Courant limit is that of the largest m.
  bool cylindrical = false;
  std::vector<int> modes;
  // boundary.periodic: the grid repeats along these axes (3D Cartesian only). The neighbour of
  // cell n - 1 along a periodic axis is cell 0.
  std::array<bool, 3> periodic{};
  bool any_periodic() const { return periodic[0] || periodic[1] || periodic[2]; }
  // boundary.bloch_k: the phase (rad) a field takes across one period of each periodic axis, k_a
  // n_a d_a: the value one step past the high end is exp(i phase) times cell 0's. Any non-zero:
  // the fields are complex (a real and an imaginary copy).
  std::array<double, 3> bloch_phase{};
  std::array<double, 3> bloch_k{};  // rad/m, as given (0 along axes that are not periodic)
  bool bloch() const { return bloch_phase[0] != 0 || bloch_phase[1] != 0 || bloch_phase[2] != 0; }
  // boundary.pmc: the low face of these axes is a magnetic wall (H tangential odd about it).
  std::array<bool, 3> pmc{};
  bool any_pmc() const { return pmc[0] || pmc[1] || pmc[2]; }
  // The Courant limit 1 / (c sqrt(sum 1/d^2)) over the grid's dims axes (x, y in 2D);
  // cylindrical: 1 / (c sqrt(((m_max + 1)^2 + 1/4)/dr^2 + 1/dz^2)).
  double courant_limit_dt() const;
  long cells() const { return static_cast<long>(n[0]) * n[1] * n[2]; }
};

// Derives cell size (explicit, or c / max_frequency / cells_per_wavelength), n = round(size / d),
// dt = courant * Courant limit, and steps (given, or ceil(duration / dt); a count past kMaxRunSteps is
// kept at kMaxRunSteps + 1 for build() to refuse). Assumes a checked config.
GridGeometry derive_grid_geometry(const RunConfig& cfg);

// What a message advises for a longer run, naming the key the model set: "raise time.steps (now
// N)" or "raise time.duration (now T s, N steps)".
std::string longer_run_advice(const GridGeometry& g);

// The name of axis a in messages: x y z, or r phi z in a cylindrical grid.
inline const char* axis_name(const GridGeometry& g, int a) {
  static const char* const kCartesian[] = {"x", "y", "z"};
  static const char* const kCylindrical[] = {"r", "phi", "z"};
  return (g.cylindrical ? kCylindrical : kCartesian)[a];
}

}  // namespace clfdtd
