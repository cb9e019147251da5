// Patent step 1-1-3: uniaxial PML (Gedney's UPML) on any subset of the six faces, each with its own
// layer count. Conductivity and stretching grow from the inner interface to the outer PEC wall:
//   sigma(rho) = sigma_max rho^m,  kappa(rho) = 1 + (kappa_max - 1) rho^m,  rho in [0, 1] = depth/thickness
// and for every axis we keep 1D profiles at integer and half-integer positions (MEEP keeps sig[d]).
// With s = sigma dt / eps0 each profile entry holds
//   a = (2 kappa - s)/(2 kappa + s),  b = 2/(2 kappa + s),  cp = 2 kappa + s,  cm = 2 kappa - s
// (outside the layers: a = 1, b = 1, cp = cm = 2). docs/EQUATIONS.md gives the update that uses them.
// The PML region (union of the slabs) is split into at most six disjoint boxes whose cells own the
// auxiliary fields D and B, so auxiliaries exist only there, never over the whole domain.
#pragma once
#include <array>
#include <cstddef>
#include <vector>

#include "config/run_config.hpp"
#include "model/grid_geometry.hpp"

namespace clfdtd {

struct AxisProfile {
  std::vector<double> a, b, cp, cm;  // one entry per cell index along the axis
};

// Cells [i0,i1) x [j0,j1) x [k0,k1); their auxiliaries start at `offset` in the PML cell list,
// ordered z fastest: offset + ((i-i0)*(j1-j0) + (j-j0))*(k1-k0) + (k-k0).
struct PmlBox {
  int i0 = 0, i1 = 0, j0 = 0, j1 = 0, k0 = 0, k1 = 0;
  std::size_t offset = 0;
  std::size_t cells() const {
    return static_cast<std::size_t>(i1 - i0) * (j1 - j0) * (k1 - k0);
  }
};

struct UpmlProfile {
  std::array<int, 6> layers{};          // per Face (0 = no layer: bare PEC wall)
  std::array<AxisProfile, 3> integer;   // [axis]: at positions i * d
  std::array<AxisProfile, 3> half;      // [axis]: at positions (i + 1/2) * d
  std::vector<PmlBox> boxes;            // disjoint, non-empty
  std::size_t cells = 0;                // total PML cells (sum of box cells)

  bool enabled() const { return cells > 0; }
  // Cell (i,j,k) lies in a slab: its components need the UPML update instead of the plain one.
  bool in_pml(int i, int j, int k, const std::array<int, 3>& n) const {
    return i < layers[0] || i >= n[0] - layers[1] || j < layers[2] || j >= n[1] - layers[3] ||
           k < layers[4] || k >= n[2] - layers[5];
  }
  // 2D wave models: the frame the wave engine advances with Yee tm + UPML instead of the wave
  // update, the PML cells plus one ring of cells inside them on each face that has layers.
  bool in_wave_frame(int i, int j, const std::array<int, 3>& n) const {
    auto ring = [](int l) { return l > 0 ? l + 1 : 0; };
    return i < ring(layers[0]) || i >= n[0] - ring(layers[1]) || j < ring(layers[2]) ||
           j >= n[1] - ring(layers[3]);
  }
};

// Builds the profiles and boxes for the grid; layers are all zero for a PEC boundary, and the z
// layers zero in 2D (the plane has no z faces).
UpmlProfile build_upml_profile(const BoundaryConfig& cfg, const GridGeometry& g);

// The default sigma_max for grading order m and cell size d: 0.8 (m + 1) / (eta0 d).
double optimal_sigma_max(double grading, double cell_size_m);

}  // namespace clfdtd
