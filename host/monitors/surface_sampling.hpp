// From a flux or farfield monitor's transformed Yee samples (Backend::read_dft) to the fields on
// its surface (SurfaceFields): each tangential component interpolated to the centres of the cell
// faces that tile each face of the monitor, by the region rules of model/monitor_build.hpp (face_regions).
// The transform is linear, so interpolating the transforms is interpolating the fields first.
// H is also averaged across the surface (its samples lie half a cell either side of the plane).
#pragma once
#include <complex>
#include <vector>

#include "model/grid_geometry.hpp"
#include "model/monitors.hpp"
#include "monitors/surface_fields.hpp"

namespace clfdtd {

// dft: m's transform as read_dft gives it, [point * frequencies + f]. Throws std::invalid_argument
// when its size does not match m, std::logic_error when m's regions do not follow the rules.
SurfaceFields sample_surface(const MonitorModel& m, const GridGeometry& g,
                             const std::vector<std::complex<double>>& dft);

}  // namespace clfdtd
