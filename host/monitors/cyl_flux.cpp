// The flux of a cylindrical flux monitor: see cyl_flux.hpp.
#include "monitors/cyl_flux.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "model/cyl_monitor_build.hpp"
#include "model/monitor_build.hpp"

namespace clfdtd {

namespace {

using cplx = std::complex<double>;

// The transforms of one face: the face's regions and where its points start.
struct FaceSamples {
  std::vector<DftRegion> regions;
  std::vector<std::size_t> first;  // per region: its first point among the monitor's P
};

// Component c's transform at sample (i, k) of field plane `plane`, frequency f; zero where the
// face has no such sample (clipped away: past the outer walls).
cplx sample(const FaceSamples& fs, const std::vector<cplx>& dft, std::size_t points, std::size_t nf,
            int plane, Component c, int i, int k, std::size_t f) {
  for (std::size_t r = 0; r < fs.regions.size(); ++r) {
    const DftRegion& reg = fs.regions[r];
    if (reg.component != c || i < reg.lo[0] || i >= reg.hi[0] || k < reg.lo[2] || k >= reg.hi[2])
      continue;
    const std::size_t p = fs.first[r] + static_cast<std::size_t>(i - reg.lo[0]) * (reg.hi[2] - reg.lo[2]) +
                          static_cast<std::size_t>(k - reg.lo[2]);
    return dft[(static_cast<std::size_t>(plane) * points + p) * nf + f];
  }
  return cplx(0.0);
}

}  // namespace

std::vector<std::vector<double>> cyl_mode_flux(const MonitorModel& mon, const GridGeometry& g,
                                               const std::vector<cplx>& dft) {
  const int slots = static_cast<int>(g.modes.size());
  const std::size_t nf = mon.frequencies_hz.size(), points = mon.points();
  if (dft.size() != cyl_monitor_points(mon, slots) * nf)
    throw std::invalid_argument("cyl_surface_flux: monitor " + mon.name + " has " +
                                std::to_string(dft.size()) + " transforms, expected " +
                                std::to_string(cyl_monitor_points(mon, slots) * nf));
  const double pi = std::acos(-1.0), dr = g.d[0], dz = g.d[2];
  std::vector<FaceSamples> faces;
  std::size_t next = 0;
  for (const MonitorFace& face : mon.faces) {
    FaceSamples fs;
    fs.regions = face_regions(face, g.n);
    for (const DftRegion& r : fs.regions) {
      fs.first.push_back(next);
      next += r.count();
    }
    faces.push_back(std::move(fs));
  }
  std::vector<std::vector<double>> out(static_cast<std::size_t>(slots), std::vector<double>(nf, 0.0));
  using C = Component;
  for (int q = 0; q < slots; ++q) {
    const bool axisymmetric = g.modes[static_cast<std::size_t>(q)] == 0;
    const double cq = axisymmetric ? 2 * pi : pi;
    for (std::size_t fi = 0; fi < faces.size(); ++fi) {
      const MonitorFace& face = mon.faces[fi];
      const FaceSamples& fs = faces[fi];
      const int p = face.plane;
      for (std::size_t f = 0; f < nf; ++f) {
        double sum = 0;  // Re sum over cells and parts of (E x H*) . axis dA / dphi
        for (int part = 0; part < (axisymmetric ? 1 : 2); ++part) {  // m = 0: Re F_0 alone
          const int plane = 2 * q + part;
          auto at = [&](C c, int i, int k) { return sample(fs, dft, points, nf, plane, c, i, k, f); };
          if (face.axis == 2) {  // cap z = p dz over r cells [lo, hi)
            // Er Hphi* at ((i + 1/2) dr, p dz), weight r_{i+1/2} dr: Hphi from z p -+ 1/2.
            for (int i = face.lo[0]; i < face.hi[0]; ++i) {
              const cplx hphi = 0.5 * (at(C::Hy, i, p - 1) + at(C::Hy, i, p));
              sum += (at(C::Ex, i, p) * std::conj(hphi)).real() * (i + 0.5) * dr * dr;
            }
            // Ephi Hr* at (i dr, p dz) for i = lo .. hi, weight r_i dr (halved at both ends:
            // the trapezoid rule over the face's radii): Hr from z p -+ 1/2.
            for (int i = face.lo[0]; i <= face.hi[0]; ++i) {
              const double w = (i == face.lo[0] || i == face.hi[0]) ? 0.5 : 1.0;
              const cplx hr = 0.5 * (at(C::Hx, i, p - 1) + at(C::Hx, i, p));
              sum -= (at(C::Ey, i, p) * std::conj(hr)).real() * w * i * dr * dr;
            }
          } else {  // tube r = p dr over z cells [lo, hi)
            // Ez (r Hphi)* at (p dr, (k + 1/2) dz), weight dz: r Hphi averaged from
            // r = (p -+ 1/2) dr, as the Ez update differences r Hphi.
            for (int k = face.lo[2]; k < face.hi[2]; ++k) {
              const cplx rhphi = 0.5 * ((p - 0.5) * at(C::Hy, p - 1, k) + (p + 0.5) * at(C::Hy, p, k));
              sum -= (at(C::Ez, p, k) * std::conj(rhphi)).real() * dr * dz;
            }
            // Ephi Hz* at (p dr, k dz) for k = lo .. hi, weight p dr dz (halved at both ends):
            // Hz averaged from r = (p -+ 1/2) dr, as the Hz update differences r Ephi.
            for (int k = face.lo[2]; k <= face.hi[2]; ++k) {
              const double w = (k == face.lo[2] || k == face.hi[2]) ? 0.5 : 1.0;
              const cplx hz = 0.5 * (at(C::Hz, p - 1, k) + at(C::Hz, p, k));
              sum += (at(C::Ey, p, k) * std::conj(hz)).real() * w * p * dr * dz;
            }
          }
        }
        out[static_cast<std::size_t>(q)][f] += 0.5 * cq * face.normal * sum;
      }
    }
  }
  return out;
}

std::vector<double> cyl_surface_flux(const MonitorModel& mon, const GridGeometry& g,
                                     const std::vector<cplx>& dft) {
  const auto per_mode = cyl_mode_flux(mon, g, dft);
  std::vector<double> out(mon.frequencies_hz.size(), 0.0);
  for (const auto& q : per_mode)
    for (std::size_t f = 0; f < out.size(); ++f) out[f] += q[f];
  return out;
}

}  // namespace clfdtd
