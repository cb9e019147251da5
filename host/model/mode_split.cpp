// split_on_mode: see mode_split.hpp.
#include "model/mode_split.hpp"

#include <cmath>

namespace clfdtd {

TwoWaves split_on_mode(const GuidedMode& m, const CrossSection& cs, const MonitorModel& mon,
                       const SplitPlane& plane, const std::vector<std::complex<double>>& dft,
                       std::size_t f, std::size_t nf) {
  const int u = plane.u, v = 3 - plane.axis - plane.u;
  std::complex<double> pe = 0, ph = 0;
  std::size_t first = 0;
  for (const DftRegion& reg : mon.regions) {
    const bool is_h = !is_electric(reg.component);
    const bool along_u = component_axis(reg.component) == u;
    std::size_t k = first;
    for (int i = reg.lo[0]; i < reg.hi[0]; ++i)
      for (int j = reg.lo[1]; j < reg.hi[1]; ++j)
        for (int l = reg.lo[2]; l < reg.hi[2]; ++l, ++k) {
          const std::array<int, 3> c{i, j, l};
          const int iu = c[u] - plane.lo[0], iv = c[v] - plane.lo[1];
          // E_u, H_v: nu x (nv + 1) samples; E_v, H_u: (nu + 1) x nv.
          const bool u_rows = along_u != is_h;
          if (iu < 0 || iv < 0 || (u_rows && (iu >= cs.nu || iv > cs.nv)) || (!u_rows && (iv >= cs.nv || iu > cs.nu)))
            continue;
          const std::size_t s = static_cast<std::size_t>(iu) + static_cast<std::size_t>(u_rows ? cs.nu : cs.nu + 1) * iv;
          const std::complex<double> x = dft[k * nf + f];
          // E x h . w = E_u h_v - E_v h_u;  e x H . w = e_u H_v - e_v H_u.
          if (!is_h) pe += x * (along_u ? m.hv[s] : -m.hu[s]);
          else ph += x * (along_u ? -m.ev[s] : m.eu[s]);
        }
    first += reg.count();
  }
  const double area = cs.du * cs.dv;
  pe *= area / 2;
  ph *= area / 2;
  const std::complex<double> q = std::exp(std::complex<double>(0, -m.beta * plane.h_side * plane.dw / 2));
  const std::complex<double> a = (ph + pe / q) / (q + 1.0 / q), b = pe - a;
  const double norm = std::sqrt(std::cos(m.beta * plane.dw / 2));
  return {a * norm, b * norm};
}

}  // namespace clfdtd
