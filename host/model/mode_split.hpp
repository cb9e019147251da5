// A run's transformed fields on a plane split into one solved mode's two waves (docs/MODES.md,
// "Projecting a run on a mode").
#pragma once
#include <array>
#include <complex>
#include <cstddef>
#include <vector>

#include "model/mode_solver.hpp"
#include "model/monitors.hpp"

namespace clfdtd {

// A mode's two waves at the plane, each scaled so that |amplitude|^2 is what a flux monitor on
// the plane measures of it (the Yee grid's power: H the mean of the half planes around E).
struct TwoWaves {
  std::complex<double> forward;   // travelling along +w (the solver's direction)
  std::complex<double> backward;  // along -w
};

// Where the transform's samples sit: `mon` holds E_u, E_v on the window's plane and H_u, H_v half
// a cell along h_side * w (+1 or -1), its regions each covering the window (lo: the window's low
// node along u and v); `dft` is the monitor's transform, point-major, nf frequencies per point.
struct SplitPlane {
  int axis = 2, u = 0;           // w, and which of the other two is u (v the remaining one)
  std::array<int, 2> lo{};
  int h_side = 1;
  double dw = 0;                 // the cell along w (m)
};

// The split at frequency index f, exact on the grid: the overlaps
//   P_E = sum (E x h_m) . w dA = N (A + B),   P_H = sum (e_m x H) . w dA = N (A q - B / q),
// N = 2 W (the solver's modes carry 1 W), q = exp(-j beta h_side d_w / 2) (H lies half a cell
// along h_side w, and h_m is referred to the plane). The flux monitor's measure of a wave's power
// (H the mean of the two half planes around E) is |A|^2 cos(beta d_w / 2) W: the amplitudes come
// scaled by sqrt(cos(beta d_w / 2)).
TwoWaves split_on_mode(const GuidedMode& m, const CrossSection& cs, const MonitorModel& mon,
                       const SplitPlane& plane, const std::vector<std::complex<double>>& dft,
                       std::size_t f, std::size_t nf);

}  // namespace clfdtd
