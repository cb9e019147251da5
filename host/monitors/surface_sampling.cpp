// sample_surface: see surface_sampling.hpp.
#include "monitors/surface_sampling.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "model/monitor_build.hpp"

namespace clfdtd {
namespace {

// One region of the monitor with the number of its first point.
struct PlacedRegion {
  const DftRegion* region = nullptr;
  std::size_t first = 0;
};

// The transforms of one face's regions, read by component and cell; a cell outside the grid
// reads zero (tangential E on a PEC wall, or past the high end).
class FaceSamples {
public:
  // absent_reads_zero: a component with no region on the face reads zero (a 2D model's face
  // carries its mode's components only; the others are identically zero there).
  FaceSamples(const std::vector<std::complex<double>>& dft, std::size_t nfreq,
              const std::array<int, 3>& n, const std::array<bool, 3>& periodic,
              bool absent_reads_zero)
      : dft_(dft), nfreq_(nfreq), n_(n), periodic_(periodic), absent_reads_zero_(absent_reads_zero) {}
  void add(const DftRegion* r, std::size_t first) { regions_.push_back({r, first}); }

  bool inside_grid(const std::array<int, 3>& ijk) const {
    for (int a = 0; a < 3; ++a)
      if (ijk[a] < 0 || ijk[a] >= n_[a]) return false;
    return true;
  }
  std::complex<double> at(Component c, std::array<int, 3> ijk, std::size_t f) const {
    // A face spans a periodic axis' whole period (check_periodic): its last node is node 0.
    for (int a = 0; a < 3; ++a)
      if (periodic_[static_cast<std::size_t>(a)] && ijk[a] == n_[a]) ijk[a] = 0;
    if (!inside_grid(ijk)) return 0.0;
    if (absent_reads_zero_ &&
        std::none_of(regions_.begin(), regions_.end(),
                     [c](const PlacedRegion& p) { return p.region->component == c; }))
      return 0.0;
    for (const PlacedRegion& p : regions_) {
      const DftRegion& r = *p.region;
      if (r.component != c) continue;
      bool in = true;
      for (int a = 0; a < 3; ++a) in = in && ijk[a] >= r.lo[a] && ijk[a] < r.hi[a];
      if (!in) continue;
      const std::size_t local =
          (static_cast<std::size_t>(ijk[0] - r.lo[0]) * (r.hi[1] - r.lo[1]) + (ijk[1] - r.lo[1])) *
              (r.hi[2] - r.lo[2]) +
          (ijk[2] - r.lo[2]);
      return dft_[(p.first + local) * nfreq_ + f];
    }
    throw std::logic_error(std::string("monitor surface: no transformed sample of ") +
                           component_name(c) + " at cell (" + std::to_string(ijk[0]) + ", " +
                           std::to_string(ijk[1]) + ", " + std::to_string(ijk[2]) + ")");
  }

private:
  const std::vector<std::complex<double>>& dft_;
  std::size_t nfreq_;
  std::array<int, 3> n_;
  std::array<bool, 3> periodic_;
  bool absent_reads_zero_;
  std::vector<PlacedRegion> regions_;
};

bool same_region(const DftRegion& x, const DftRegion& y) {
  return x.component == y.component && x.lo == y.lo && x.hi == y.hi;
}

}  // namespace

SurfaceFields sample_surface(const MonitorModel& m, const GridGeometry& g,
                             const std::vector<std::complex<double>>& dft) {
  const std::size_t nfreq = m.frequencies_hz.size();
  if (dft.size() != m.points() * nfreq)
    throw std::invalid_argument("monitor '" + m.name + "': " + std::to_string(dft.size()) +
                                " transformed values for " + std::to_string(m.points()) +
                                " points x " + std::to_string(nfreq) + " frequencies");
  // 2D: the faces are the contour's sides (axis x or y; c = z, the one cell of depth) and carry
  // the components of the model's mode, those of m's regions.
  const bool plane = g.dims == 2;
  std::vector<Component> components = all_components();
  if (plane) {
    components.clear();
    for (const DftRegion& r : m.regions)
      if (std::find(components.begin(), components.end(), r.component) == components.end())
        components.push_back(r.component);
  }
  SurfaceFields s;
  s.two_d = plane;
  s.eps_r = m.medium_eps_r;
  s.mu_r = m.medium_mu_r;
  s.faces = m.faces;
  s.cell_m = g.d;
  s.frequencies_hz = m.frequencies_hz;
  s.e.resize(nfreq);
  s.h.resize(nfreq);
  // Exactly the points there will be: what the host memory check counted (surface_fields_bytes).
  const std::size_t npoints = surface_point_count(m);
  s.points.reserve(npoints);
  for (std::size_t f = 0; f < nfreq; ++f) {
    s.e[f].reserve(npoints);
    s.h[f].reserve(npoints);
  }

  std::size_t next_region = 0, first_point = 0;
  for (std::size_t fi = 0; fi < m.faces.size(); ++fi) {
    const MonitorFace& face = m.faces[fi];
    FaceSamples samples(dft, nfreq, g.n, g.periodic, plane);
    for (const DftRegion& want : face_regions(face, g.n, components)) {
      if (next_region >= m.regions.size() || !same_region(m.regions[next_region], want))
        throw std::logic_error("monitor '" + m.name + "': its regions do not follow the face rules");
      samples.add(&m.regions[next_region], first_point);
      first_point += want.count();
      ++next_region;
    }
    const int a = face.axis, p = face.plane;
    const int b = std::min((a + 1) % 3, (a + 2) % 3), c = std::max((a + 1) % 3, (a + 2) % 3);
    const Component eb = static_cast<Component>(b), ec = static_cast<Component>(c);
    const Component hb = static_cast<Component>(3 + b), hc = static_cast<Component>(3 + c);
    // H lies half a cell either side of the plane. On the outer wall one side is outside the
    // grid: tangential H is even about a PEC wall, so the inside sample is the value there.
    const bool below_in = p - 1 >= 0, above_in = p < g.n[a];
    // On a magnetic wall (boundary.pmc) tangential H is odd about it: zero on the plane.
    const bool magnetic_wall = p == 0 && g.pmc[static_cast<std::size_t>(a)];
    const double h_weight = magnetic_wall ? 0.0 : below_in && above_in ? 0.25 : 0.5;
    // E_b and H_c lie on the c nodes; the face centre is half a cell along c, between two of
    // them. In 2D nothing varies along c = z: the one sample is the value there.
    const int c_next = plane ? 0 : 1;
    for (int u = face.lo[b]; u < face.hi[b]; ++u) {
      for (int v = face.lo[c]; v < face.hi[c]; ++v) {
        SurfacePoint pt;
        pt.r_m[a] = p * g.d[a];
        pt.r_m[b] = (u + 0.5) * g.d[b];
        pt.r_m[c] = plane ? 0.0 : (v + 0.5) * g.d[c];
        pt.area_m2 = g.d[b] * g.d[c];
        pt.face = static_cast<int>(fi);
        s.points.push_back(pt);
        for (std::size_t f = 0; f < nfreq; ++f) {
          auto cell = [&](int along_a, int along_b, int along_c) {
            std::array<int, 3> ijk{};
            ijk[a] = along_a;
            ijk[b] = along_b;
            ijk[c] = along_c;
            return ijk;
          };
          CVec3 e{}, h{};
          e[b] = 0.5 * (samples.at(eb, cell(p, u, v), f) + samples.at(eb, cell(p, u, v + c_next), f));
          e[c] = 0.5 * (samples.at(ec, cell(p, u, v), f) + samples.at(ec, cell(p, u + 1, v), f));
          std::complex<double> sb = 0, sc = 0;
          for (int da : {-1, 0}) {
            if ((da < 0 && !below_in) || (da == 0 && !above_in)) continue;
            sb += samples.at(hb, cell(p + da, u, v), f) + samples.at(hb, cell(p + da, u + 1, v), f);
            sc += samples.at(hc, cell(p + da, u, v), f) +
                  samples.at(hc, cell(p + da, u, v + c_next), f);
          }
          h[b] = h_weight * sb;
          h[c] = h_weight * sc;
          s.e[f].push_back(e);
          s.h[f].push_back(h);
        }
      }
    }
  }
  if (next_region != m.regions.size())
    throw std::logic_error("monitor '" + m.name + "': more regions than its faces need");
  return s;
}

}  // namespace clfdtd
