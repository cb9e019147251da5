#include "monitors/surface_fields.hpp"

#include <stdexcept>
#include <string>

namespace clfdtd {

std::vector<double> surface_flux(const SurfaceFields& s) {
  if (s.e.size() != s.frequencies_hz.size() || s.h.size() != s.frequencies_hz.size())
    throw std::invalid_argument("surface_flux: e and h need one entry per frequency (" +
                                std::to_string(s.frequencies_hz.size()) + ")");
  std::vector<double> flux(s.frequencies_hz.size(), 0.0);
  for (std::size_t f = 0; f < flux.size(); ++f) {
    if (s.e[f].size() != s.points.size() || s.h[f].size() != s.points.size())
      throw std::invalid_argument("surface_flux: e[" + std::to_string(f) + "] and h[" +
                                  std::to_string(f) + "] need one entry per point (" +
                                  std::to_string(s.points.size()) + ")");
    double sum = 0;
    for (std::size_t p = 0; p < s.points.size(); ++p) {
      const SurfacePoint& pt = s.points[p];
      const MonitorFace& face = s.faces.at(static_cast<std::size_t>(pt.face));
      sum += normal_poynting(face, s.e[f][p], s.h[f][p]) * pt.area_m2;
    }
    flux[f] = 0.5 * sum;
  }
  return flux;
}

}  // namespace clfdtd
