// near_to_far_2d: see near_to_far_2d.hpp. A contour has a few thousand points and a pattern a
// few hundred directions, so the radiation vectors are a direct sum (the image points included).
#include "monitors/near_to_far_2d.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "model/grid_geometry.hpp"
#include "monitors/near_to_far_images.hpp"

namespace clfdtd {
namespace {

using Complex = std::complex<double>;

constexpr double kDirectivityFloorDbi = -300.0;  // as in 3D: a null is written as this

// One equivalent source point: position (x, y), J and M times the edge length dl.
struct LinePoint {
  double x = 0, y = 0;
  CVec3 j{}, m{};
};

CVec3 cross_axis(int axis, double sign, const CVec3& v) {  // (sign e_axis) x v
  const int b = (axis + 1) % 3, c = (axis + 2) % 3;
  CVec3 out{};
  out[static_cast<std::size_t>(b)] = -sign * v[static_cast<std::size_t>(c)];
  out[static_cast<std::size_t>(c)] = sign * v[static_cast<std::size_t>(b)];
  return out;
}

}  // namespace

FarFieldPattern near_to_far_2d(const SurfaceFields& s, double phi_step_deg) {
  if (!s.two_d) throw std::invalid_argument("near_to_far_2d: the surface is not a 2D contour");
  const std::size_t nf = s.frequencies_hz.size();
  if (s.e.size() != nf || s.h.size() != nf)
    throw std::invalid_argument("near_to_far_2d: e and h need one entry per frequency (" +
                                std::to_string(nf) + ")");
  for (std::size_t f = 0; f < nf; ++f)
    if (s.e[f].size() != s.points.size() || s.h[f].size() != s.points.size())
      throw std::invalid_argument("near_to_far_2d: e[" + std::to_string(f) + "] and h[" +
                                  std::to_string(f) + "] need one entry per point (" +
                                  std::to_string(s.points.size()) + ")");
  if (!(phi_step_deg > 0 && phi_step_deg <= 360))
    throw std::invalid_argument("near_to_far_2d: phi_step must be in (0, 360] degrees, got " +
                                std::to_string(phi_step_deg));
  for (const SurfacePoint& p : s.points)
    if (p.face < 0 || static_cast<std::size_t>(p.face) >= s.faces.size() ||
        s.faces[static_cast<std::size_t>(p.face)].axis > 1)
      throw std::invalid_argument("near_to_far_2d: a point names face " + std::to_string(p.face) +
                                  ", not an x or y side of the contour");

  FarFieldPattern out;
  out.theta_deg = {90.0};
  for (long i = 0;; ++i) {
    const double a = static_cast<double>(i) * phi_step_deg;
    if (a >= 360.0 - 1e-9 * phi_step_deg) break;
    out.phi_deg.push_back(a);
  }
  const std::size_t np = out.phi_deg.size();
  const std::vector<MirrorWall> walls = mirror_walls(s, "near_to_far_2d");
  out.included.assign(np, 1);
  for (std::size_t q = 0; q < np; ++q) {
    const double ph = out.phi_deg[q] * M_PI / 180;
    if (behind_wall(walls, {std::cos(ph), std::sin(ph), 0.0})) out.included[q] = 0;
  }
  const double depth_m = s.cell_m[2] > 0 ? s.cell_m[2] : 1.0;  // area / depth = the edge's length
  const std::size_t nsub = std::size_t{1} << walls.size();

  out.directivity_dbi.assign(nf, std::vector<double>(np, std::nan("")));
  out.radiated_power.assign(nf, 0.0);
  std::vector<LinePoint> src;
  for (std::size_t f = 0; f < nf; ++f) {
    // The medium around the contour: its wavenumber and impedance (vacuum: k0, eta0).
    const double k = 2 * M_PI * s.frequencies_hz[f] * std::sqrt(s.eps_r * s.mu_r) / kC0;
    const double eta = kEta0 * std::sqrt(s.mu_r / s.eps_r);
    // The currents of the sides not on a wall, and their images in every subset of the walls.
    src.clear();
    double power = 0;
    for (std::size_t p = 0; p < s.points.size(); ++p) {
      const SurfacePoint& pt = s.points[p];
      const MonitorFace& face = s.faces[static_cast<std::size_t>(pt.face)];
      if (face.on_wall) continue;
      const double dl = pt.area_m2 / depth_m;
      power += 0.5 * normal_poynting(face, s.e[f][p], s.h[f][p]) * dl;
      const CVec3 jv = cross_axis(face.axis, face.normal, s.h[f][p]);
      CVec3 mv = cross_axis(face.axis, face.normal, s.e[f][p]);
      for (Complex& c : mv) c = -c;
      for (std::size_t sub = 0; sub < nsub; ++sub) {
        const WallImage im = wall_image(walls, sub);
        LinePoint lp;
        lp.x = im.mirror[0] * pt.r_m.x + im.offset_m[0];
        lp.y = im.mirror[1] * pt.r_m.y + im.offset_m[1];
        for (std::size_t a = 0; a < 3; ++a) {
          lp.j[a] = static_cast<double>(im.j_parity) * im.mirror[a] * jv[a] * dl;
          lp.m[a] = static_cast<double>(im.m_parity) * im.mirror[a] * mv[a] * dl;
        }
        src.push_back(lp);
      }
    }
    power *= whole_per_part(walls);
    out.radiated_power[f] = power;
    std::vector<double>& dbi = out.directivity_dbi[f];
#pragma omp parallel for schedule(static)
    for (long qi = 0; qi < static_cast<long>(np); ++qi) {
      const auto q = static_cast<std::size_t>(qi);
      if (!out.included[q]) continue;
      const double ph = out.phi_deg[q] * M_PI / 180;
      const double ux = std::cos(ph), uy = std::sin(ph);
      CVec3 n{}, l{};
      for (const LinePoint& lp : src) {
        const Complex w = std::polar(1.0, k * (ux * lp.x + uy * lp.y));
        for (std::size_t a = 0; a < 3; ++a) {
          n[a] += w * lp.j[a];
          l[a] += w * lp.m[a];
        }
      }
      // phi_hat = (-sin phi, cos phi, 0)
      const Complex n_phi = -uy * n[0] + ux * n[1], l_phi = -uy * l[0] + ux * l[1];
      const double u_rad = k / (16 * M_PI * eta) *
                           (std::norm(l_phi - eta * n[2]) + std::norm(l[2] + eta * n_phi));
      if (!(power > 0)) continue;  // nothing radiated: NaN
      const double directivity = 2 * M_PI * u_rad / power;
      dbi[q] = directivity > 0 ? std::max(10 * std::log10(directivity), kDirectivityFloorDbi)
                               : kDirectivityFloorDbi;
    }
  }
  return out;
}

}  // namespace clfdtd
