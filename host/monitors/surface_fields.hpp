// The transformed fields of a flux or farfield monitor on its surface: for each face of the
// monitor (model/monitors.hpp MonitorFace), E and H interpolated from their Yee samples to the
// centres of the face's cell faces, one set per frequency. flux and the near-to-far-field
// transform both start from this.
#pragma once
#include <array>
#include <complex>
#include <vector>

#include "config/run_config.hpp"
#include "model/monitor_build.hpp"
#include "model/monitors.hpp"

namespace clfdtd {

using CVec3 = std::array<std::complex<double>, 3>;

struct SurfacePoint {
  Vec3 r_m;             // position, m (the centre of a cell face on the monitor's surface; 2D: z = 0)
  double area_m2 = 0;   // the cell face's area (2D: the edge's length times the 1 m of depth)
  int face = 0;         // index into SurfaceFields::faces
};

// model/monitor_build.hpp counts the surface fields' host bytes before the run with this size.
static_assert(sizeof(SurfacePoint) == kSurfacePointBytes, "SurfacePoint changed: update kSurfacePointBytes");

struct SurfaceFields {
  // A 2D model's contour (faces on x and y only, fields uniform along z, one 1 m cell of depth):
  // the flux is per metre of depth (J s / m) and the far field is the 2D transform
  // (near_to_far_2d.hpp).
  bool two_d = false;
  std::vector<MonitorFace> faces;
  std::array<double, 3> cell_m{};          // the grid's cell size (the faces' planes are at plane * d)
  std::vector<double> frequencies_hz;
  // The medium the surface lies in (MonitorModel::medium_eps_r, medium_mu_r): the far-field
  // transforms take k = 2 pi f sqrt(eps_r mu_r) / c and eta = eta0 sqrt(mu_r / eps_r).
  double eps_r = 1, mu_r = 1;
  std::vector<SurfacePoint> points;
  // [f][point]: the transforms of E (V/m s) and H (A/m s) at the point: the two tangential
  // components (the normal one is not sampled and stays zero).
  std::vector<std::vector<CVec3>> e, h;
};

// (E x conj(H)) . n at one point of `face`, n its unit normal: only the tangential components count.
inline double normal_poynting(const MonitorFace& face, const CVec3& e, const CVec3& h) {
  const int a = face.axis, b = (a + 1) % 3, c = (a + 2) % 3;  // e_b x e_c = e_a
  return face.normal * (e[b] * std::conj(h[c]) - e[c] * std::conj(h[b])).real();
}

// Net flux through the surface per frequency: 1/2 Re sum over points of (E x conj(H)) . n dA, n the
// face's normal (faces[p.face].normal along faces[p.face].axis). Units: J s (the transform's).
std::vector<double> surface_flux(const SurfaceFields& s);

}  // namespace clfdtd
