// The scalar wave equation of the 2D reference engine (equation = wave, tm only, mu_r = 1).
//
// Yee tm at one E sample with fixed coefficients ca, cb (db = dt/mu0 everywhere):
//   E^(n+1) = ca E^n + cb curlH(H^(n+1/2)) - cb J[n],     H^(n+1/2) = H^(n-1/2) - db curlE(E^n).
// Subtracting the same equation one step back and eliminating H with the second one:
//   E^(n+1) = (1 + ca) E^n - ca E^(n-1) + cb db curlH(curlE(E^n)) - cb (J[n] - J[n-1]),
// and curlH(curlE(.)) of tm is the 5-point Laplacian (Ez outside the grid reads zero on both
// sides). It holds from n = 0 with E^(-1) = 0, H^(-1/2) = 0, J[-1] = 0, so u = Ez agrees with
// Yee tm to rounding wherever the four H samples around the cell are plain H (no UPML).
// Around the UPML the update needs the real H: the frame (PML cells plus one ring inside them)
// stores Hx, Hy and advances them as Yee does; Ez takes the Yee update (plain or UPML) in the PML
// cells and in the cells whose curl of H reads a PML H sample (the low-side ring), the wave
// update everywhere else. Every H that those Ez cells read lies in the frame.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "backends/reference/plane_reference.hpp"

namespace clfdtd {

bool PlaneReference::yee_ez_cell(int i, int j) const {
  if (!wave()) return false;
  return in_pml(i, j) || (i > 0 && in_pml(i - 1, j)) || (j > 0 && in_pml(i, j - 1));
}

// Four slabs: x low and high over all y, y low and high over the x interior; each as thick as
// its face's UPML plus one cell (none for a face without layers).
void PlaneReference::build_frame() {
  const auto& L = m_.upml.layers;
  const int xlo = L[0] > 0 ? std::min(L[0] + 1, nx_) : 0;
  const int xhi = L[1] > 0 ? std::min(L[1] + 1, nx_ - xlo) : 0;
  const int ylo = L[2] > 0 ? std::min(L[2] + 1, ny_) : 0;
  const int yhi = L[3] > 0 ? std::min(L[3] + 1, ny_ - ylo) : 0;
  auto add = [this](int i0, int i1, int j0, int j1) {
    if (i1 <= i0 || j1 <= j0) return;
    frame_.push_back(FrameBox{i0, i1, j0, j1, frame_cells_});
    frame_cells_ += static_cast<std::size_t>(i1 - i0) * (j1 - j0);
  };
  add(0, xlo, 0, ny_);
  add(nx_ - xhi, nx_, 0, ny_);
  add(xlo, nx_ - xhi, 0, ylo);
  add(xlo, nx_ - xhi, ny_ - yhi, ny_);
}

std::size_t PlaneReference::frame_slot(int i, int j) const {
  for (const FrameBox& b : frame_) {
    if (i >= b.i0 && i < b.i1 && j >= b.j0 && j < b.j1) {
      return b.offset + static_cast<std::size_t>(i - b.i0) * (b.j1 - b.j0) + (j - b.j0);
    }
  }
  // The frame holds every H that a Yee Ez cell reads (see the top of this file).
  throw std::logic_error("wave reference: H of cell (" + std::to_string(i) + ", " +
                         std::to_string(j) + ") read outside the frame");
}

// u^(n+1) = (1+ca) u^n - ca u^(n-1) + cb (dt/mu0) Lap u^n, into u_prev_ (which holds u^(n-1)).
void PlaneReference::update_wave_interior() {
  const std::vector<double>& u = f_[static_cast<int>(Component::Ez)];
  const std::vector<std::uint8_t>& ids = m_.id(Component::Ez);
  const double idx2 = inv_dx_ * inv_dx_, idy2 = inv_dy_ * inv_dy_;
  const double db = h_vacuum_.db;  // dt / mu0
  for (int i = 0; i < nx_; ++i) {
    for (int j = 0; j < ny_; ++j) {
      if (yee_ez_cell(i, j)) continue;
      const std::size_t c = cell(i, j);
      const ECoefficients& co = ec_[ids[c]];
      const double lap = (e_at(u, i + 1, j) - 2 * u[c] + e_at(u, i - 1, j)) * idx2 +
                         (e_at(u, i, j + 1) - 2 * u[c] + e_at(u, i, j - 1)) * idy2;
      u_prev_[c] = (1 + co.ca) * u[c] - co.ca * u_prev_[c] + co.cb * db * lap;
    }
  }
}

double PlaneReference::source_term(const SourceModel& src, long s) const {
  auto j = [&src](long t) {
    return t >= 0 && t < static_cast<long>(src.j.size()) ? src.j[static_cast<std::size_t>(t)] : 0.0;
  };
  if (!wave() || yee_ez_cell(src.cell[0], src.cell[1])) return j(s);
  return j(s) - j(s - 1);
}

}  // namespace clfdtd
