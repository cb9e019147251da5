// CylReference's flux monitors: every D-th step, each monitor point (a region sample of one field
// plane: mode slot q, part Re or Im of F_q) adds x exp(-i 2 pi f t) D dt in double, t the
// component's time (model/monitors.hpp, dft_time). The host turns the sums into the flux
// (monitors/cyl_flux.hpp).
#include <algorithm>
#include <cmath>
#include <string>

#include "backends/reference/cyl_reference.hpp"
#include "model/cyl_monitor_build.hpp"
#include "model/host_memory.hpp"

namespace clfdtd {

void CylReference::accumulate_dft(long step) {
  if (dft_.size() != m_.monitors.size()) {
    std::size_t bytes = 0;
    for (const MonitorModel& mon : m_.monitors)
      bytes += cyl_monitor_points(mon, static_cast<int>(modes_.size())) *
               mon.frequencies_hz.size() * sizeof(cplx);
    check_host_memory(bytes, "the cylindrical reference engine's monitor sums");
    for (const MonitorModel& mon : m_.monitors)
      dft_.emplace_back(cyl_monitor_points(mon, static_cast<int>(modes_.size())) *
                        mon.frequencies_hz.size());
  }
  const double two_pi = 2 * std::acos(-1.0);
  std::vector<cplx> w;
  for (std::size_t mi = 0; mi < m_.monitors.size(); ++mi) {
    const MonitorModel& mon = m_.monitors[mi];
    const long every = std::max(1, mon.dft_every);
    if (step % every != 0) continue;
    const std::size_t nf = mon.frequencies_hz.size();
    std::size_t point = 0;  // plane * P + p, planes 2 q + part in order
    for (const ModeState& st : modes_) {
      for (int part = 0; part < 2; ++part) {
        for (const DftRegion& r : mon.regions) {
          const double t = dft_time(r.component, step, dt_);
          w.resize(nf);
          for (std::size_t f = 0; f < nf; ++f)
            w[f] = std::polar(static_cast<double>(every) * dt_, -two_pi * mon.frequencies_hz[f] * t);
          const std::vector<cplx>& field = st.f[static_cast<int>(r.component)];
          for (int i = r.lo[0]; i < r.hi[0]; ++i)
            for (int k = r.lo[2]; k < r.hi[2]; ++k, ++point) {
              const cplx v = field[cell(i, k)];
              const double x = part == 0 ? v.real() : v.imag();
              for (std::size_t f = 0; f < nf; ++f) dft_[mi][point * nf + f] += x * w[f];
            }
        }
      }
    }
  }
}

void CylReference::read_dft(int monitor, std::vector<std::complex<double>>& out) {
  if (monitor < 0 || monitor >= static_cast<int>(m_.monitors.size()))
    throw DeviceError("read_dft: monitor " + std::to_string(monitor) + " is not a monitor of the model");
  if (dft_.size() != m_.monitors.size()) {  // nothing accumulated yet
    out.assign(cyl_monitor_points(m_.monitors[static_cast<std::size_t>(monitor)],
                                  static_cast<int>(modes_.size())) *
                   m_.monitors[static_cast<std::size_t>(monitor)].frequencies_hz.size(),
               cplx(0.0));
    return;
  }
  out = dft_[static_cast<std::size_t>(monitor)];
}

}  // namespace clfdtd
