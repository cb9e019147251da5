// The near-to-far-field transform of a closed monitor surface.
//
// Convention. The monitors' transform X(f) = sum_n x(t_n) exp(-i 2 pi f t_n) dt turns a field
// x(t) = Re{X exp(+i w t)} into a multiple of X at +f: the transformed fields are phasors of the
// exp(+i w t) convention. In it an outgoing wave goes as exp(-i k R) / R, and far away
// (R = |r - r'| ~ r - r_hat . r') exp(-i k R) ~ exp(-i k r) exp(+i k r_hat . r'), hence the
// radiation vectors
//   N(r_hat) = sum J exp(+i k r_hat . r') dA,   L(r_hat) = sum M exp(+i k r_hat . r') dA,
// J = n x H, M = -n x E, and the far field (Balanis, Antenna Theory, 12.3) in the medium around
// the surface (k = k0 sqrt(eps_r mu_r), eta = eta0 sqrt(mu_r / eps_r); vacuum: k0, eta0)
//   E_theta = -i k exp(-i k r) / (4 pi r) (L_phi + eta N_theta),
//   E_phi   = +i k exp(-i k r) / (4 pi r) (L_theta - eta N_phi),
// so the radiation intensity U = r^2 |E|^2 / (2 eta) is
//   U = k^2 / (32 pi^2 eta) (|L_phi + eta N_theta|^2 + |L_theta - eta N_phi|^2).
// (The other convention would need exp(-i k r_hat . r'); tests/monitors/test_near_to_far.cpp
// tells them apart with two dipoles in phase quadrature, whose beam points one way only.)
//
// Walls (near_to_far_images.hpp): the images of every subset S of the walls,
// J' = (-1)^|S_pec| R_S J, M' = (-1)^|S_pmc| R_S M at R_S r + t_S. Mirroring the position turns
// into mirroring the direction:
//   N_S(u) = (-1)^|S_pec| exp(i k u . t_S) R_S N(R_S u),
//   L_S(u) = (-1)^|S_pmc| exp(i k u . t_S) R_S L(R_S u),
// t_S = sum over the walls in S of 2 x_wall e_axis; so the transform evaluates the real faces'
// N and L at the mirrored directions and sums.
//
// Cost. A face is a plane of n_b x n_c points at cell-face centres, so exp(i k u . r') is a
// product of one factor per axis. For each face one tangential axis g is tabulated against the
// distinct values of u_g over the directions (u_z = cos theta takes only a few), the sum over g
// is done as a matrix product for all those values at once, and the remaining sum over the
// other axis is done per direction.
#include "monitors/near_to_far.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>

#include "model/grid_geometry.hpp"
#include "monitors/near_to_far_images.hpp"

namespace clfdtd {
namespace {

using Complex = std::complex<double>;
using RVec = std::array<double, 3>;

const char* const kAxisName[3] = {"x", "y", "z"};

// The smallest directivity written: a pattern null (D = 0) is written as this, not as -inf.
constexpr double kDirectivityFloorDbi = -300.0;

std::vector<double> angle_grid(double step_deg, double end_deg, bool include_end, const char* what) {
  if (!(step_deg > 0 && step_deg <= end_deg))
    throw std::invalid_argument(std::string("near_to_far: ") + what + " must be in (0, " +
                                std::to_string(static_cast<int>(end_deg)) + "] degrees, got " +
                                std::to_string(step_deg));
  std::vector<double> grid;
  const double slack = 1e-9 * step_deg;
  for (long i = 0;; ++i) {
    const double a = static_cast<double>(i) * step_deg;
    if (include_end ? a > end_deg + slack : a >= end_deg - slack) break;
    grid.push_back(std::min(a, end_deg));
  }
  return grid;
}

// The equivalent currents of one face on its grid of cell-face centres, times the cell-face area.
// Component k of comp: 0 J_g, 1 J_o, 2 M_g, 3 M_o, stored [k][io * ng + ig] (re and im apart),
// g the tabulated tangential axis, o the other one.
struct FaceCurrents {
  int a = 0, g = 1, o = 2;
  int ng = 0, no = 0;
  double xa = 0;                 // the face's plane, m
  std::vector<double> xg, xo;    // cell-face centres along g and o, m
  std::array<std::vector<double>, 4> re, im;
};

// Values of one direction component with their index: directions whose components agree to 1e-12
// share one column of the tabulated exp factors.
struct DistinctValues {
  std::vector<double> values;
  std::vector<int> index;  // [direction]
};

DistinctValues distinct_component(const std::vector<RVec>& dirs, int axis) {
  DistinctValues d;
  std::map<long long, int> seen;
  d.index.reserve(dirs.size());
  for (const RVec& u : dirs) {
    const long long key = std::llround(u[static_cast<std::size_t>(axis)] * 1e12);
    auto it = seen.find(key);
    if (it == seen.end()) {
      it = seen.emplace(key, static_cast<int>(d.values.size())).first;
      d.values.push_back(u[static_cast<std::size_t>(axis)]);
    }
    d.index.push_back(it->second);
  }
  return d;
}

// Scatters the points of face `fi` into its current grid: J = n x H dA, M = -n x E dA.
FaceCurrents face_currents(const SurfaceFields& s, std::size_t fi, const std::vector<std::size_t>& pts,
                           std::size_t f, int g) {
  const MonitorFace& face = s.faces[fi];
  FaceCurrents c;
  c.a = face.axis;
  c.g = g;
  c.o = 3 - c.a - g;
  const auto ag = static_cast<std::size_t>(c.g), ao = static_cast<std::size_t>(c.o);
  c.ng = std::max(0, face.hi[ag] - face.lo[ag]);
  c.no = std::max(0, face.hi[ao] - face.lo[ao]);
  c.xa = face.plane * s.cell_m[static_cast<std::size_t>(c.a)];
  for (int i = 0; i < c.ng; ++i) c.xg.push_back((face.lo[ag] + i + 0.5) * s.cell_m[ag]);
  for (int i = 0; i < c.no; ++i) c.xo.push_back((face.lo[ao] + i + 0.5) * s.cell_m[ao]);
  const std::size_t n = static_cast<std::size_t>(c.ng) * static_cast<std::size_t>(c.no);
  for (int k = 0; k < 4; ++k) {
    c.re[k].assign(n, 0.0);
    c.im[k].assign(n, 0.0);
  }
  // Index of a coordinate on the cell-face-centre grid of an axis, or -1 when it is not one.
  auto grid_index = [&](double x, int axis, int lo, int count) {
    const double d = s.cell_m[static_cast<std::size_t>(axis)];
    const long i = std::lround(x / d - 0.5) - lo;
    if (i < 0 || i >= count || std::abs(x - (lo + i + 0.5) * d) > 1e-6 * d) return -1L;
    return i;
  };
  const double n_sign = face.normal;
  for (std::size_t p : pts) {
    const SurfacePoint& pt = s.points[p];
    const double ra = pt.r_m[c.a];
    const double da = s.cell_m[static_cast<std::size_t>(c.a)];
    const long ig = grid_index(pt.r_m[c.g], c.g, face.lo[ag], c.ng);
    const long io = grid_index(pt.r_m[c.o], c.o, face.lo[ao], c.no);
    if (ig < 0 || io < 0 || std::abs(ra - c.xa) > 1e-6 * da)
      throw std::invalid_argument("near_to_far: surface point " + std::to_string(p) + " at (" +
                                  std::to_string(pt.r_m.x) + ", " + std::to_string(pt.r_m.y) + ", " +
                                  std::to_string(pt.r_m.z) + ") m is not a cell-face centre of face " +
                                  std::to_string(fi));
    const CVec3& e = s.e[f][p];
    const CVec3& h = s.h[f][p];
    // n = n_sign e_a; e_a x e_g = eps e_o with eps = +1 when (a, g, o) is cyclic.
    const double eps = ((c.a + 1) % 3 == c.g) ? 1.0 : -1.0;
    // n x V: component g = -n_sign eps V_o, component o = +n_sign eps V_g.
    const Complex jg = -n_sign * eps * h[ao], jo = n_sign * eps * h[ag];
    const Complex mg = n_sign * eps * e[ao], mo = -n_sign * eps * e[ag];
    const std::size_t at = static_cast<std::size_t>(io) * static_cast<std::size_t>(c.ng) +
                           static_cast<std::size_t>(ig);
    const Complex cur[4] = {jg * pt.area_m2, jo * pt.area_m2, mg * pt.area_m2, mo * pt.area_m2};
    for (int k = 0; k < 4; ++k) {
      c.re[k][at] += cur[k].real();
      c.im[k][at] += cur[k].imag();
    }
  }
  return c;
}

// Adds one face's radiation vectors at every direction of `dirs` to n_vec and l_vec.
void add_face_radiation(const FaceCurrents& c, double k, const std::vector<RVec>& dirs,
                        const DistinctValues& gvals, std::vector<CVec3>& n_vec,
                        std::vector<CVec3>& l_vec) {
  if (c.ng == 0 || c.no == 0) return;
  constexpr int kChunk = 64;  // distinct u_g values per block: the block's exp table stays in cache
  const int nq = static_cast<int>(gvals.values.size());
  const int nchunks = (nq + kChunk - 1) / kChunk;
  const int nqp = nchunks * kChunk;
  const std::size_t ng = static_cast<std::size_t>(c.ng), no = static_cast<std::size_t>(c.no);
  // exp(i k u_g x_g) laid out [chunk][ig][q in chunk], zero past the last value.
  std::vector<double> er(static_cast<std::size_t>(nqp) * ng, 0.0), ei(er.size(), 0.0);
  for (int q = 0; q < nq; ++q)
    for (std::size_t ig = 0; ig < ng; ++ig) {
      const double ph = k * gvals.values[static_cast<std::size_t>(q)] * c.xg[ig];
      const std::size_t at = (static_cast<std::size_t>(q / kChunk) * ng + ig) * kChunk + q % kChunk;
      er[at] = std::cos(ph);
      ei[at] = std::sin(ph);
    }
  // b[io][k][q] = sum over ig of exp(i k u_g(q) x_g) current_k(io, ig).
  std::vector<double> br(no * 4 * static_cast<std::size_t>(nqp), 0.0), bi(br.size(), 0.0);
  for (int chunk = 0; chunk < nchunks; ++chunk) {
#pragma omp parallel for schedule(static)
    for (long io = 0; io < static_cast<long>(no); ++io) {
      for (std::size_t ig = 0; ig < ng; ++ig) {
        const double* e_re = &er[(static_cast<std::size_t>(chunk) * ng + ig) * kChunk];
        const double* e_im = &ei[(static_cast<std::size_t>(chunk) * ng + ig) * kChunk];
        const std::size_t at = static_cast<std::size_t>(io) * ng + ig;
        for (int kk = 0; kk < 4; ++kk) {
          const double cr = c.re[kk][at], ci = c.im[kk][at];
          if (cr == 0 && ci == 0) continue;
          const std::size_t row =
              (static_cast<std::size_t>(io) * 4 + kk) * nqp + static_cast<std::size_t>(chunk) * kChunk;
          double* b_re = &br[row];
          double* b_im = &bi[row];
#pragma omp simd
          for (int q = 0; q < kChunk; ++q) {
            b_re[q] += e_re[q] * cr - e_im[q] * ci;
            b_im[q] += e_re[q] * ci + e_im[q] * cr;
          }
        }
      }
    }
  }
  // Per direction: the sum over o, times the face plane's factor exp(i k u_a x_a).
  const auto ag = static_cast<std::size_t>(c.g), ao = static_cast<std::size_t>(c.o);
#pragma omp parallel for schedule(static)
  for (long v = 0; v < static_cast<long>(dirs.size()); ++v) {
    const RVec& u = dirs[static_cast<std::size_t>(v)];
    const std::size_t q = static_cast<std::size_t>(gvals.index[static_cast<std::size_t>(v)]);
    Complex sum[4] = {};
    for (std::size_t io = 0; io < no; ++io) {
      const Complex ph = std::polar(1.0, k * u[ao] * c.xo[io]);
      for (int kk = 0; kk < 4; ++kk) {
        const std::size_t at = (io * 4 + static_cast<std::size_t>(kk)) * nqp + q;
        sum[kk] += ph * Complex(br[at], bi[at]);
      }
    }
    const Complex plane = std::polar(1.0, k * u[static_cast<std::size_t>(c.a)] * c.xa);
    CVec3& nv = n_vec[static_cast<std::size_t>(v)];
    CVec3& lv = l_vec[static_cast<std::size_t>(v)];
    nv[ag] += plane * sum[0];
    nv[ao] += plane * sum[1];
    lv[ag] += plane * sum[2];
    lv[ao] += plane * sum[3];
  }
}

}  // namespace

FarFieldPattern near_to_far(const SurfaceFields& s, double theta_step_deg, double phi_step_deg) {
  const std::size_t nf = s.frequencies_hz.size();
  if (s.e.size() != nf || s.h.size() != nf)
    throw std::invalid_argument("near_to_far: e and h need one entry per frequency (" +
                                std::to_string(nf) + ")");
  for (std::size_t f = 0; f < nf; ++f)
    if (s.e[f].size() != s.points.size() || s.h[f].size() != s.points.size())
      throw std::invalid_argument("near_to_far: e[" + std::to_string(f) + "] and h[" +
                                  std::to_string(f) + "] need one entry per point (" +
                                  std::to_string(s.points.size()) + ")");
  FarFieldPattern out;
  out.theta_deg = angle_grid(theta_step_deg, 180.0, true, "theta_step");
  out.phi_deg = angle_grid(phi_step_deg, 360.0, false, "phi_step");
  const std::size_t nt = out.theta_deg.size(), np = out.phi_deg.size();
  const std::vector<MirrorWall> walls = mirror_walls(s, "near_to_far");
  const std::size_t nsub = std::size_t{1} << walls.size();

  // Directions of the grid, which of them are in front of every wall, and the directions the real
  // faces are evaluated at: each included one mirrored by every subset of the walls.
  std::vector<RVec> grid_u(nt * np);
  out.included.assign(nt * np, 1);
  std::vector<std::size_t> kept;
  for (std::size_t t = 0; t < nt; ++t)
    for (std::size_t p = 0; p < np; ++p) {
      const double th = out.theta_deg[t] * M_PI / 180, ph = out.phi_deg[p] * M_PI / 180;
      const RVec u{std::sin(th) * std::cos(ph), std::sin(th) * std::sin(ph), std::cos(th)};
      const std::size_t d = t * np + p;
      grid_u[d] = u;
      if (behind_wall(walls, u)) out.included[d] = 0;
      if (out.included[d]) kept.push_back(d);
    }
  std::vector<RVec> eval_dirs;
  eval_dirs.reserve(kept.size() * nsub);
  for (std::size_t d : kept)
    for (std::size_t sub = 0; sub < nsub; ++sub) {
      const WallImage im = wall_image(walls, sub);
      RVec v = grid_u[d];
      for (std::size_t ax = 0; ax < 3; ++ax) v[ax] *= im.mirror[ax];
      eval_dirs.push_back(v);
    }

  // The points of each face kept (not on a wall), and its tabulated axis: the tangential axis
  // whose direction component takes fewer distinct values.
  std::vector<std::vector<std::size_t>> face_points(s.faces.size());
  for (std::size_t p = 0; p < s.points.size(); ++p) {
    const int fi = s.points[p].face;
    if (fi < 0 || static_cast<std::size_t>(fi) >= s.faces.size())
      throw std::invalid_argument("near_to_far: surface point " + std::to_string(p) + " names face " +
                                  std::to_string(fi) + " of " + std::to_string(s.faces.size()));
    face_points[static_cast<std::size_t>(fi)].push_back(p);
  }
  std::array<DistinctValues, 3> distinct;
  for (int a = 0; a < 3; ++a) distinct[static_cast<std::size_t>(a)] = distinct_component(eval_dirs, a);

  out.directivity_dbi.assign(nf, std::vector<double>(nt * np, 0.0));
  out.directivity_theta_dbi = out.directivity_dbi;
  out.directivity_phi_dbi = out.directivity_dbi;
  out.radiated_power.assign(nf, 0.0);
  for (std::size_t f = 0; f < nf; ++f) {
    // The medium around the surface: its wavenumber and impedance (vacuum: k0, eta0).
    const double k = 2 * M_PI * s.frequencies_hz[f] * std::sqrt(s.eps_r * s.mu_r) / kC0;
    const double eta = kEta0 * std::sqrt(s.mu_r / s.eps_r);
    std::vector<CVec3> n_eval(eval_dirs.size(), CVec3{}), l_eval(eval_dirs.size(), CVec3{});
    double power = 0;
    for (std::size_t fi = 0; fi < s.faces.size(); ++fi) {
      const MonitorFace& face = s.faces[fi];
      if (face.on_wall) continue;
      for (std::size_t p : face_points[fi])
        power += 0.5 * normal_poynting(face, s.e[f][p], s.h[f][p]) * s.points[p].area_m2;
      const int b = (face.axis + 1) % 3, c = (face.axis + 2) % 3;
      const int g = distinct[static_cast<std::size_t>(b)].values.size() <=
                            distinct[static_cast<std::size_t>(c)].values.size()
                        ? b
                        : c;
      const FaceCurrents cur = face_currents(s, fi, face_points[fi], f, g);
      add_face_radiation(cur, k, eval_dirs, distinct[static_cast<std::size_t>(g)], n_eval, l_eval);
    }
    power *= whole_per_part(walls);  // a symmetry plane's images radiate as much as the part
    out.radiated_power[f] = power;

    std::vector<double>& dbi = out.directivity_dbi[f];
    std::vector<double>& dbi_th = out.directivity_theta_dbi[f];
    std::vector<double>& dbi_ph = out.directivity_phi_dbi[f];
    auto in_dbi = [](double d) {
      return d > 0 ? std::max(10 * std::log10(d), kDirectivityFloorDbi) : kDirectivityFloorDbi;
    };
    for (std::size_t i = 0; i < kept.size(); ++i) {
      const std::size_t d = kept[i];
      const RVec& u = grid_u[d];
      CVec3 n_tot{}, l_tot{};
      for (std::size_t sub = 0; sub < nsub; ++sub) {
        const WallImage im = wall_image(walls, sub);
        const Complex ph = std::polar(1.0, k * (u[0] * im.offset_m[0] + u[1] * im.offset_m[1] +
                                                u[2] * im.offset_m[2]));  // u . t_S
        const CVec3& nv = n_eval[i * nsub + sub];
        const CVec3& lv = l_eval[i * nsub + sub];
        for (std::size_t ax = 0; ax < 3; ++ax) {
          n_tot[ax] += static_cast<double>(im.j_parity) * im.mirror[ax] * ph * nv[ax];
          l_tot[ax] += static_cast<double>(im.m_parity) * im.mirror[ax] * ph * lv[ax];
        }
      }
      const double th = out.theta_deg[d / np] * M_PI / 180, phi = out.phi_deg[d % np] * M_PI / 180;
      const RVec th_hat{std::cos(th) * std::cos(phi), std::cos(th) * std::sin(phi), -std::sin(th)};
      const RVec ph_hat{-std::sin(phi), std::cos(phi), 0.0};
      auto dot = [](const CVec3& v, const RVec& w) { return v[0] * w[0] + v[1] * w[1] + v[2] * w[2]; };
      const Complex n_th = dot(n_tot, th_hat), n_ph = dot(n_tot, ph_hat);
      const Complex l_th = dot(l_tot, th_hat), l_ph = dot(l_tot, ph_hat);
      const double scale = k * k / (32 * M_PI * M_PI * eta);
      const double u_th = scale * std::norm(l_ph + eta * n_th), u_ph = scale * std::norm(l_th - eta * n_ph);
      if (!(power > 0)) {
        dbi[d] = dbi_th[d] = dbi_ph[d] = std::nan("");
        continue;
      }
      dbi[d] = in_dbi(4 * M_PI * (u_th + u_ph) / power);
      dbi_th[d] = in_dbi(4 * M_PI * u_th / power);
      dbi_ph[d] = in_dbi(4 * M_PI * u_ph / power);
    }
    for (std::size_t d = 0; d < nt * np; ++d)
      if (!out.included[d]) dbi[d] = dbi_th[d] = dbi_ph[d] = std::nan("");
  }
  return out;
}

}  // namespace clfdtd
