// Flux monitors of a cylindrical model (docs/CYLINDRICAL.md, "Flux monitors"): the closed
// surface of a ring section r0..r1 x z0..z1 (or one disc / tube of it), its Yee samples per mode
// slot, and the stacking of those samples over the field planes (mode slot q, real or imaginary
// part) that both cylindrical engines transform.
#pragma once
#include <array>
#include <vector>

#include "model/monitors.hpp"

namespace clfdtd {

// The faces over the node box lo..hi (axis 0 = r, 2 = z; lo[1] = 0, hi[1] = 1, the one phi
// "cell"). A closed ring section (no zero extent in r or z): the inner tube r = lo[0] (normal -1,
// left out when lo[0] = 0: the axis encloses no area), the outer tube r = hi[0] (+1), then the
// caps z = lo[2] (-1) and z = hi[2] (+1). One zero extent: that one face, normal +1 (a tube of
// radius lo[0] > 0, or a disc / annulus at z = lo[2]).
std::vector<MonitorFace> cyl_monitor_faces(const std::array<int, 3>& lo, const std::array<int, 3>& hi);

// The samples of every face, in face order (model/monitor_build.hpp's face_regions with the phi
// axis one cell wide): for a cap z = p over r cells [a, b): Er (r [a, b), z p), Ephi (r [a, b],
// z p), Hr (r [a, b], z p-1, p), Hphi (r [a, b), z p-1, p); for a tube r = p over z cells [a, b):
// Ephi (r p, z [a, b]), Ez (r p, z [a, b)), Hphi (r p-1, p, z [a, b)), Hz (r p-1, p, z [a, b]);
// each clipped to the grid (a sample past the outer walls reads zero).
std::vector<DftRegion> cyl_monitor_regions(const std::vector<MonitorFace>& faces,
                                           const std::array<int, 3>& n);

// The transformed points of a cylindrical flux monitor: the regions' P points (points()) once per
// field plane, plane = 2 q + part (mode slot q, part 0 = Re F_q, 1 = Im F_q), so point
// plane * P + p is region point p of that plane. Each part is a real signal: its transform is
// complex, out[(plane * P + p) * frequencies + f] in Backend::read_dft.
std::size_t cyl_monitor_points(const MonitorModel& mon, int mode_slots);

// The same points as regions of a stack of field planes, plane after plane, for an engine whose
// planes lie one after another (2 q + part, each nr rows of the layout): row i of plane pl is
// row pl * nr + i. Region order = point order above.
std::vector<DftRegion> cyl_stacked_regions(const MonitorModel& mon, int mode_slots, int nr);

}  // namespace clfdtd
