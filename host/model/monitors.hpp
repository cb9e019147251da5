// Monitors on the grid (docs/MONITORS.md): what each [monitor.<name>] samples, in cell indices.
// flux, dft and farfield monitors are discrete Fourier transforms of chosen Yee samples, computed
// where the fields live while the run goes:
//   X(f) = sum_n x(t_n) exp(-i 2 pi f t_n) dt,  t_n = n dt for E and (n - 1/2) dt for H,
// summed over the steps n = 0 .. steps (the sample taken after step n) that are multiples of the
// monitor's decimation D, each weighted D dt instead of dt (model/dft_decimation.hpp: D = 1 unless
// the sources' band allows fewer samples). The samples of one
// monitor are a list of regions, each one component over a box of cells; the host turns the
// transformed samples into flux, far-field patterns or .vti volumes at the end of the run.
// modes monitors project E on mode shapes read from a file, every `every` steps.
#pragma once
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "config/run_config.hpp"
#include "model/grid_geometry.hpp"

namespace clfdtd {

// Component `component` at the cells lo .. hi - 1 along each axis (hi exclusive). Its samples
// are numbered x slowest, z fastest: ((i - lo0) * (hi1 - lo1) + (j - lo1)) * (hi2 - lo2) + (k - lo2).
struct DftRegion {
  Component component = Component::Ex;
  std::array<int, 3> lo{}, hi{};
  std::size_t count() const {
    std::size_t n = 1;
    for (int a = 0; a < 3; ++a) n *= static_cast<std::size_t>(hi[a] > lo[a] ? hi[a] - lo[a] : 0);
    return n;
  }
};

// One face of a flux or farfield surface: the node plane `plane` of axis `axis` (at plane * d
// metres), covering the cells lo .. hi - 1 of the two other axes (lo[axis] = hi[axis] = plane).
// normal: +1 or -1, the direction of n along `axis` (outward for a closed box, +1 for a plane).
// on_wall: the face lies on one of the domain's outer walls that mirror fields: a bare PEC wall
// (0 UPML layers) or a magnetic wall (boundary.pmc; magnetic_wall then too); the far-field
// transform uses image currents in that wall.
struct MonitorFace {
  int axis = 0;
  int plane = 0;
  int normal = 1;
  std::array<int, 3> lo{}, hi{};
  bool on_wall = false;
  bool magnetic_wall = false;
};

struct MonitorModel {
  std::string name;
  MonitorKind kind = MonitorKind::Flux;
  // The box in node indices: corner lo at lo * d metres, corner hi at hi * d (lo <= hi per axis).
  std::array<int, 3> lo{}, hi{};
  std::vector<double> frequencies_hz;  // flux, dft, farfield
  double theta_step_deg = 5, phi_step_deg = 5;
  std::vector<MonitorFace> faces;      // flux, farfield
  // The Yee samples transformed on the device (flux, dft, farfield), in this order; a point's
  // index is its region's first index plus its number inside the region.
  std::vector<DftRegion> regions;
  // flux, dft, farfield: the decimation D, samples at the steps n % D == 0 weighted D dt.
  int dft_every = 1;
  // farfield: the medium around the surface (farfield_medium), whose wavenumber and impedance the
  // transform takes: every E (and, magnetic, H) sample of the surface in one lossless,
  // non-dispersive material;
  // vacuum otherwise (a warning says so).
  double medium_eps_r = 1, medium_mu_r = 1;
  std::size_t points() const {
    std::size_t n = 0;
    for (const DftRegion& r : regions) n += r.count();
    return n;
  }
  // modes: E of each mode at E's Yee positions, padded layout like the fields
  // (SimulationModel::layout): modes[(k * 3 + c) * layout.cells() + layout.index(i, j, l)],
  // c = 0, 1, 2 for x, y, z; zero in padding cells. Projection: sum over cells of E . mode dV.
  int nmodes = 0;
  std::vector<float> modes;
  long every = 1;
  std::string modes_file;
  // mode_expansion: the plane lo[axis] == hi[axis] is the mode solver's window (lo..hi along the
  // other two); regions E_u, E_v on it and H_u, H_v half a cell after it; the guide's first
  // mode_count modes at each frequency.
  int mode_count = 0;
};

// The transform's time of a sample of component c taken after step n (E: n dt, H: (n - 1/2) dt).
inline double dft_time(Component c, long n, double dt) {
  return is_electric(c) ? static_cast<double>(n) * dt : (static_cast<double>(n) - 0.5) * dt;
}

}  // namespace clfdtd
