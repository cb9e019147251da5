#include "config/options.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace clfdtd {

namespace {

using V = ValueType;
const std::vector<std::string> kAxes{"x", "y", "z"};
constexpr double kNoLimit = 1e308;

// Ranges, with the reason for each bound where it is not plain physics, in make_table().
Range closed(double a, double b, std::string note = "") { return Range{a, b, false, false, note}; }
Range open_closed(double a, double b, std::string note = "") { return Range{a, b, true, false, note}; }
Range at_least(double a, std::string note = "") { return Range{a, kNoLimit, false, false, note}; }
Range above(double a, std::string note = "") { return Range{a, kNoLimit, true, false, note}; }
Range only(std::string note) { return Range{-kNoLimit, kNoLimit, false, false, note}; }

// Lengths: a picometre to a million km (cells) or 1e9 m (domain, objects) keeps every derived
// quantity (1/d, dt / eps0, dt / mu0) a normal float. The cell count bounds the grid further.
const Range kLength = open_closed(0, 1e9);
// Positions: the domain is their range (the loader names it with the grid's numbers).
const Range kPosition = only("inside the domain [0, grid.size]");
// The kernels take step indices as 32-bit ints.
const Range kStep = closed(0, 2147483647, "<= the run's last step");
const std::vector<std::string> kComponents{"Ex", "Ey", "Ez", "Hx", "Hy", "Hz"};
// Probes also take the cylindrical names: Er Ephi Hr Hphi are words 6..9 (Ez, Hz are shared);
// the loader maps them onto Ex Ey Hx Hy and refuses the other family's names.
const std::vector<std::string> kProbeComponents{"Ex", "Ey", "Ez", "Hx",   "Hy",
                                                "Hz", "Er", "Ephi", "Hr", "Hphi"};
// Source axes: x y z (Cartesian) and r phi (cylindrical; words 3, 4 map onto x, y).
const std::vector<std::string> kSourceAxes{"x", "y", "z", "r", "phi"};

// One entry per key reads best as a table, so clang-format leaves it alone.
// clang-format off
std::vector<OptionSpec> make_table() {
  return {
      // [grid]: patent steps 1-1-1 (cell size) and 1-1-2 (time step).
      {"grid.size", V::Number, {2, 3}, {}, "m", "required",
       "Domain extent x y z, outer PEC wall to outer PEC wall (UPML layers included), rounded to whole cells (the run's header prints the grid's extent, and a warning says when it differs by more than 1%); two numbers x y make a 2D model in the x-y plane (docs/TWO_D.md), whose positions, centres and sizes then take two numbers too. Cylindrical: R Z, the radius from the axis and the axial extent (docs/CYLINDRICAL.md).",
       kLength},
      {"grid.coordinates", V::Word, {1}, {"cartesian", "cylindrical"}, "", "cartesian",
       "cylindrical: a body of revolution about the z axis, solved as angular modes exp(i m phi), each a 2D (r, z) problem (docs/CYLINDRICAL.md); grid.size is then R Z, positions r phi z (phi in degrees), boundary.layers r_hi z_lo z_hi.",
       Range{}},
      {"grid.modes", V::Integer, {}, {}, "", "0",
       "cylindrical only: the angular orders m simulated, each once, each >= 0 (m > 0 stands for the pair +-m); the time step follows the largest.",
       closed(0, 1000)},
      {"grid.mode", V::Word, {1}, {"tm", "te"}, "", "tm",
       "2D only: the field family of the plane, tm (Ez Hx Hy) or te (Hz Ex Ey).", Range{}},
      {"grid.equation", V::Word, {1}, {"maxwell", "wave"}, "", "maxwell",
       "2D only: maxwell (the Yee update) or wave (the scalar wave equation for Ez, tm only: a third less memory; no H, so no energy, flux or farfield).",
       Range{}},
      {"grid.max_frequency", V::Number, {1}, {}, "Hz", "required unless grid.cell_size",
       "Highest frequency to resolve; cell size = c / max_frequency / cells_per_wavelength, the wavelength in vacuum (in a material of index n = sqrt(eps_r mu_r) a wavelength spans n times fewer cells; a warning says when a source's band gets fewer than 5).",
       closed(1, 1e17)},
      {"grid.cell_size", V::Number, {1, 2, 3}, {}, "m", "derived from max_frequency",
       "Explicit cell size: one value for cubic (2D: square) cells, or dx dy dz (2D: dx dy; cylindrical: dr dz).",
       closed(1e-12, 1e9)},
      {"grid.cells_per_wavelength", V::Number, {1}, {}, "", "10",
       "Cells per shortest wavelength when the cell size is derived (2 is the Nyquist limit; 10 to 20 is usual).",
       closed(2, 1000)},
      {"grid.courant", V::Number, {1}, {}, "", "0.9",
       "Time step as a fraction of the Courant limit, 3D or, for a 2D model, 2D, or for a cylindrical one 1 / (c sqrt(((m_max + 1)^2 + 1/4) / dr^2 + 1 / dz^2)) (1 is the stability limit; below 0.01 a run only takes more steps and more float round-off).",
       closed(0.01, 1)},
      // [time]
      {"time.steps", V::Integer, {1}, {}, "", "required (or time.duration)",
       "Number of time steps. Give exactly one of time.steps and time.duration: both in the file, or both on the command line, is an error; one on the command line replaces the other from the file.",
       closed(1, 2147483647, "steps x sources <= 2147483647")},
      {"time.duration", V::Number, {1}, {}, "s", "required (or time.steps)",
       "Simulated time; steps = ceil(duration / dt). Exactly one of time.steps and time.duration (see time.steps).",
       above(0, "at most 2147483647 / sources steps of dt")},
      // [boundary]
      {"boundary.type", V::Word, {1}, {"upml", "pec"}, "", "upml",
       "Outer boundary: uniaxial PML layers in front of the PEC wall, or a bare PEC wall.", Range{}},
      {"boundary.layers", V::Integer, {1, 3, 4, 6}, {}, "cells", "10 (0 with type = pec)",
       "UPML thickness: one value for all faces, or x_lo x_hi y_lo y_hi z_lo z_hi (2D: x_lo x_hi y_lo y_hi; cylindrical: r_hi z_lo z_hi, a CPML, none on the axis).",
       closed(0, 1000, "low + high < the cells along the axis")},
      {"boundary.periodic", V::Word, {}, {"x", "y", "z"}, "", "none",
       "Axes along which the domain repeats: a field leaving through one face enters through the opposite one, so the domain is one unit cell of an infinite array (gratings, metasurfaces, photonic crystals, frequency-selective surfaces). These axes get no UPML (boundary.layers there must be 0; a single layers value applies to the other axes). The period is the grid's size along the axis, cells x cell size. 3D Cartesian models only; a plane wave must travel along an axis that is not periodic (normal incidence: the fields repeat unshifted), and its total-field box then spans the whole period along the periodic axes, whatever its size says there.",
       Range{}},
      {"boundary.bloch_k", V::Number, {3}, {}, "rad/m", "0 0 0",
       "Bloch wave vector kx ky kz of a periodic model (boundary.periodic): the fields repeat across each period L with the phase exp(i k L) instead of unshifted, F(r + L) = F(r) exp(i k . L) (time convention exp(-i omega t)), so the model holds the modes of the infinite array at that wave vector: one run per k of a band diagram, with a probe's resonances giving the bands (docs/PERIODIC.md, \"Bloch-periodic boundaries\"). Non-zero only along periodic axes. The fields are then complex: the run carries a real and an imaginary copy (twice the memory and time); sources drive the real part; probes, resonances and snapshots report the real part, the energy both. Not with ports, plane waves, dispersive materials, flux, dft, farfield or modes monitors, magnetic walls (boundary.pmc), or more than one MPI rank.",
       closed(-1e15, 1e15, "non-zero only along periodic axes")},
      {"boundary.pmc", V::Word, {}, {"x", "y", "z"}, "", "none",
       "Axes whose low face (x = 0, y = 0 or z = 0) is a perfect magnetic conductor: tangential H is zero there and tangential E free, so the face is a symmetry plane for fields whose tangential E is even about it, such as those of a z dipole on the plane x = 0 (pmc = x). The model is then the half (a quarter, an eighth) of the symmetric whole on the high side, with that fraction of the cells (objects are mirrored across the wall); its fluxes are that fraction of the whole's, while a source or port on the plane sees the whole's voltage, current and power. Those faces get no UPML (boundary.layers there must be 0; a single layers value applies to the other faces). A PEC symmetry plane (tangential E odd: an x dipole at x = 0) is a face with 0 layers. 3D Cartesian models only; not on a periodic axis (docs/PERIODIC.md). A farfield monitor's pattern and radiated power are the symmetric whole's (docs/MONITORS.md).",
       Range{}},
      {"boundary.grading", V::Number, {1}, {}, "", "3",
       "Polynomial order m of the UPML profile sigma(rho) = sigma_max rho^m (2 to 4 is usual; past 20 all the loss sits in the last cell, which reflects).",
       open_closed(0, 20)},
      {"boundary.sigma_max", V::Number, {1}, {}, "S/m", "0.8 (m+1) / (eta0 d)",
       "Conductivity at the outer edge of the UPML; past 1000 x the default, sigma dt / eps0 overflows the float update before it absorbs any better.",
       at_least(0, "<= 1000 x the default for the smallest cell")},
      {"boundary.kappa_max", V::Number, {1}, {}, "", "1",
       "Stretching at the outer edge of the UPML (1 to about 30 is usual; larger values only reflect).",
       closed(1, 1000)},
      // [material.<name>]
      {"material.*.eps_r", V::Number, {1, 3}, {}, "", "1", "Relative permittivity (no dielectric comes near 1e6). Three values x y z make the material diagonally anisotropic (a uniaxial crystal such as sapphire or a liquid crystal with its axes along the grid's): each E component takes the value along its own axis (docs/EQUATIONS.md \"Anisotropic materials\"); mu_r and sigma take three values the same way. With debye, drude or lorentz poles those act along every axis (each axis its own eps_r at infinite frequency); poles along some axes only, or different ones per axis: `axes`. 3D and 2D Maxwell models; not cylindrical models or grid.equation = wave, and not as an oblique plane wave's background (one along an axis takes its E axis' eps_r, sigma and poles and its H axis' mu_r) or a waveguide port's fill (a farfield monitor in one is warned about). model.vti shows the three values as eps_r_xyz, mu_r_xyz and sigma_xyz.",
       closed(1, 1e6)},
      {"material.*.mu_r", V::Number, {1, 3}, {}, "", "1", "Relative permeability (three values x y z: anisotropic, as eps_r; each H component takes the value along its axis). eps_r x mu_r below grid.courant^2 would be faster than light on the time step, which is then unstable: refused; lower grid.courant below sqrt(eps_r x mu_r) (anisotropic: the smallest eps_r times the smallest mu_r).",
       closed(1e-3, 1e6, "eps_r x mu_r >= grid.courant^2")},
      {"material.*.sigma", V::Number, {1, 3}, {}, "S/m", "0", "Electric conductivity (copper 6e7; past 1e9, 15 x silver, use pec = true). Three values x y z: anisotropic, as eps_r.",
       closed(0, 1e9)},
      {"material.*.debye", V::Number, {}, {}, "1, s", "none",
       "Debye poles, pairs delta_eps tau: chi(f) = delta_eps / (1 - i 2 pi f tau) (time convention exp(-i 2 pi f t): Im chi > 0 is loss) added to eps_r, which is then the permittivity at infinite frequency (water at 20 C: eps_r = 5.2, debye = 74.9 9.4e-12; docs/EQUATIONS.md \"Dispersive materials\"). 3D models, and 2D models (tm: Ez, te: Ex Ey) with grid.equation = maxwell; not cylindrical ones. A Debye object may run into the UPML layers (a soil half-space), a Drude or Lorentz one may not.",
       above(0, "delta_eps > 0, tau > 0")},
      {"material.*.drude", V::Number, {}, {}, "Hz, Hz", "none",
       "Drude poles, pairs f_p gamma: chi(f) = -f_p^2 / (f^2 + i f gamma), f_p the plasma frequency and gamma the collision frequency, both in Hz, not rad/s (omega_p / 2 pi, gamma_omega / 2 pi; a Drude gold: eps_r = 9.84, drude = 2.183e15 1.62e13, models/gold_nanosphere.ini). Same limits as debye.",
       at_least(0, "f_p > 0, gamma >= 0")},
      {"material.*.lorentz", V::Number, {}, {}, "1, Hz, Hz", "none",
       "Lorentz poles, triples delta_eps f0 gamma: chi(f) = delta_eps f0^2 / (f0^2 - f^2 - i f gamma), resonance f0 and damping gamma in Hz (not rad/s). Same limits as debye.",
       at_least(0, "delta_eps > 0, f0 > 0, gamma >= 0")},
      {"material.*.axes", V::Text, {3}, {}, "", "none",
       "Three names x y z of other [material.<name>] sections (isotropic, not pec) or vacuum: along each axis this material is that one, its eps_r, mu_r, sigma and poles (a diagonal anisotropic dispersive material: a wire medium, metal along z and vacuum across = vacuum vacuum metal; a hyperbolic metamaterial; docs/EQUATIONS.md \"Anisotropic materials\"). The named materials need no object of their own. Not with eps_r, mu_r, sigma, pec or poles of its own; the limits of anisotropic materials (eps_r) and of poles (debye) apply.",
       Range{}},
      {"material.*.pec", V::Word, {1}, {"true", "false"}, "", "false",
       "Perfect electric conductor (the other keys are then ignored); an E sample is PEC where the object holds its whole Yee edge (docs/EQUATIONS.md, PEC edges).", Range{}},
      // [object.<name>]: later objects overwrite earlier ones where they overlap.
      {"object.*.shape", V::Word, {1}, {"box", "sphere", "cylinder", "prism", "mesh", "voxels"}, "", "required",
       "Shape of the object (2D: box is a rectangle, sphere a disc, prism a polygon; cylinder, mesh and voxels are refused. Cylindrical: box is the ring r0..r1 x z0..z1, sphere and cylinder (axis z) are centred on the axis; prism, mesh and voxels are refused). prism: a polygon (`vertices`) extruded along `axis` over `length` (a PCB trace, a tapered waveguide, a wedge). mesh: the solid a closed triangle surface from a CAD program encloses (`file`: STL or OBJ). voxels: the voxels of one `label` in a block of labelled voxels (`file`: .vti; a soil model, a CT scan, a phantom).", Range{}},
      {"object.*.center", V::Number, {2, 3}, {}, "m", "required (mesh, voxels: optional)",
       "Centre x y z (2D: x y; cylindrical: r z, r = 0 for a sphere or cylinder); must lie inside the domain [0, grid.size]. mesh: where the centre of the surface's bounding box (after `scale` and `rotate`) goes; voxels: where the centre of the file's whole block goes (so the objects of one file stay together); left out, the file's coordinates (scaled, turned) are the model's.",
       kPosition},
      {"object.*.file", V::Text, {1}, {}, "", "required for mesh, voxels",
       "voxels: a VTK image (.vti: its origin and spacing place the voxels, the cell array it names as its Scalars, else its first one-component cell array, holds their labels: whole numbers within Int32, of any type (point arrays are not read); tools/voxels_to_vti.py writes one from a numpy array), at most 2^30 voxels; objects that name the same file share one copy, and each takes the voxels of its `label`. The voxels need not line up with the grid: a field sample takes the label of the voxel it lies in, a sample on a face between two labels the mean of both materials. mesh: the surface file, .stl (binary or ASCII) or .obj (the extension says which), read with VTK. It must be closed: every edge shared by two triangles (or any even number); a hole is refused with where it is. Where every edge is used once each way (a consistently oriented export) the inside is the nonzero winding rule: overlapping bodies of a multi-body export are their union, an inward-facing shell inside another a cavity; otherwise it is the even-odd rule (inside where a line from the point crosses the surface an odd number of times; overlapping bodies then leave a hole). The surface counts as inside, as a box's faces do (within 1e-7 of the mesh's size or distance from the origin, in the model or the file: the files' corners are float32). Polygons with more corners are split around their first corner (right for convex ones). Corners with equal coordinates are merged (an OBJ indexing normals apart from corners reads fine). A relative path is taken from the current folder, like output.dir. At most 10 million triangles.",
       Range{}},
      {"object.*.scale", V::Number, {1}, {}, "m per file unit", "1",
       "mesh and voxels: the length of one of the file's units in metres (a file in mm: 1e-3; in inches: 0.0254). STL and OBJ carry no unit; a voxel file's origin and spacing are multiplied by it.",
       closed(1e-12, 1e9)},
      {"object.*.label", V::Integer, {1}, {}, "", "required for voxels",
       "voxels only: the label of the voxels this object fills (one object, and one material, per label used; labels no object names leave the objects before them, or vacuum, in place).",
       closed(-2147483648.0, 2147483647.0)},
      {"object.*.rotate", V::Number, {3}, {}, "deg", "0 0 0",
       "mesh only: turns the surface about the x, then the y, then the z axis through the file's origin (right-hand rule), after `scale` and before `center` places it (a part drawn y-up: 90 0 0 stands it z-up). Quarter turns are exact.",
       closed(-360, 360)},
      {"object.*.size", V::Number, {2, 3}, {}, "m", "required for a box",
       "Box edge lengths x y z (2D: x y; cylindrical: the ring's radial and axial extents dr dz, center r - dr/2 >= 0). Any object may reach past the domain: what lies outside is not meshed, so a ground or a substrate that should run through the absorbing layers is simply made larger than the grid.",
       kLength},
      {"object.*.vertices", V::Number, {}, {}, "m", "required for a prism",
       "The prism's cross-section: its corners u v in order (either way round; at least 3), relative to `center`, u and v being the two axes other than `axis` in x y z order (axis z: x y; axis y: x z; axis x: y z; 2D: x y). The boundary counts as inside, as a box's faces do; the polygon may be concave but its sides must not cross or touch (a last corner repeating the first, as CAD exports close polygons, is dropped). Corners (centre + vertex) lie within one domain size of the domain, and the polygon reaches into it. Meshing tests a sample only against the sides near it, so thousands of corners mesh quickly.",
       Range{-1e9, 1e9, false, false, "3 to 10000 corners enclosing an area, within one domain size of the domain"}},
      {"object.*.radius", V::Number, {1}, {}, "m", "required for sphere, cylinder",
       "Radius.",
       kLength},
      {"object.*.length", V::Number, {1}, {}, "m", "required for a cylinder and a 3D prism",
       "Extent along its axis (cylinder, prism: centred on `center`; a 2D prism has none).",
       kLength},
      {"object.*.axis", V::Word, {1}, kAxes, "", "z", "Cylinder or prism axis (a 2D prism has none).", Range{}},
      {"object.*.material", V::Text, {1}, {}, "", "required",
       "Name of a [material.<name>] section, or pec, or vacuum.", Range{}},
      // [source.<name>]: patent step 1-1-4.
      {"source.*.type", V::Word, {1}, {"dipole", "current", "port", "plane_wave", "waveguide"}, "", "dipole",
       "Point dipole (moment p(t), C*m), current density J(t) (A/m^2) in one cell, port: a voltage source V(t) (V) in series with `resistance` across one cell's E sample (or the samples of `size`), whose input impedance and S11 the run writes to ports/<name>.csv (3D only; docs/PORTS.md), or plane_wave: a plane wave E(t) (V/m) polarised along `axis` and travelling along `direction` through the box `size` about `position`, the total field inside the box and the scattered field alone outside it (3D, and 2D Yee models: E along z in tm, in the plane in te; docs/EQUATIONS.md \"Plane waves\"), or waveguide: a waveguide port, one mode (`mode`) of the rectangular metal waveguide around `position`, launched into the model along `direction` with peak E `amplitude` (V/m; 0: the port only receives) and measured on the port's plane, whose incoming and outgoing waves and S11 or S21 the run writes to ports/<name>.csv (3D only; docs/PORTS.md \"Waveguide ports\").", Range{}},
      {"source.*.axis", V::Word, {1}, kSourceAxes, "", "z (2D te: required)",
       "Direction of the dipole or current, or a plane wave's E; 2D: z in tm (a line current, J over one cell dx dy), x or y in te; cylindrical: r, phi or z (r and phi not on the axis). waveguide, a solved mode (mode = <number>) that shares its beta with others (a square guide's TE10 and TE01, a round guide's or fibre's pair): of those modes, the combination whose E lies most along this axis (across the guide); required there, refused for a mode alone at its beta (docs/PORTS.md).", Range{}},
      {"source.*.direction", V::Text, {1}, {}, "", "required (plane_wave, waveguide)",
       "waveguide: the way the port's wave goes into the model, +x, -x, +y, -y, +z or -z, along the guide (the side it faces holds the total field; behind it the guide must run on into the UPML). plane_wave: the direction the wave travels: +x, -x, +y, -y, +z or -z (across its `axis`), or a vector x y z (2D: x y) for oblique incidence, its length not mattering. Obliquely, E lies along `axis` made perpendicular to the direction (direction 1 1 0 with axis z: E along z; with axis x: E along (1, -1, 0)), and the background must be lossless, not dispersive and isotropic (along an axis it may be anisotropic); the incident field comes from a 1D line matched to the grid's dispersion along it, so a little of it leaks out of the box (-58 to -90 dB at 20-30 cells per wavelength; docs/EQUATIONS.md \"Plane waves\"). A component below 1e-6 of the length counts as 0.", Range{}},
      {"source.*.mode", V::Text, {1}, {}, "", "te10",
       "waveguide only: the guide's mode. A number k (1, 2, ...): the k-th mode, largest beta first, that the mode solver finds at `frequency` in the window `size` about `position` on the port's plane (any guide the mesh holds: dielectric wires, coax, several materials; docs/MODES.md), solved again at each of `frequencies` to measure it. Or, in a rectangular metal guide found around `position`: te<m><n> or tm<m><n> (two digits: te10, te01, tm11) or te<m>,<n> (te12,3), m half waves along the guide's longer side, n along the shorter (on a tie the first transverse axis after the port's, cyclically: x of a z guide, y of an x guide, z of a y guide); te needs m + n > 0, tm m and n >= 1, each below the cells across its side.",
       Range{}},
      {"source.*.position", V::Number, {2, 3}, {}, "m", "required",
       "Position x y z (2D: x y; cylindrical: r phi z, phi in degrees in [-360, 360]) inside the domain [0, grid.size] (not in the UPML; in a wave model not in the absorber's frame either: the UPML and the one cell next to it). A dipole, current or port drives the nearest sample of its component (halfway between two: the higher one).",
       only("inside the domain [0, grid.size], outside the UPML, off PEC")},
      {"source.*.waveform", V::Word, {1}, {"gaussian", "gaussian_pulse", "ricker", "sine"}, "",
       "gaussian_pulse", "Time function w(t), peak about 1 (see host/model/waveforms.hpp).", Range{}},
      {"source.*.frequency", V::Number, {1}, {}, "Hz", "required",
       "Centre (gaussian_pulse, sine), peak (ricker) or e^-1 (gaussian) frequency; at most the highest frequency the grid carries, asin(courant) / (pi dt).",
       open_closed(0, 1e17, "<= asin(courant) / (pi dt)")},
      {"source.*.amplitude", V::Number, {1}, {}, "C*m, A/m^2 or V (plane_wave: V/m)", "1",
       "Peak value: dipole moment in C*m, current density in A/m^2, a port's open-circuit voltage in V (its current density is V / (resistance x the face across the axis: the cell's, or the box's)), a plane wave's E in V/m (at most 1e30 V/m x min(1, smallest cell / 1 m)). The field it adds in one step, |J| dt / eps0, must stay below 1e30 V/m x min(1, smallest cell / 1 m), so float fields keep 8 decades of head room.",
       only("|J| dt / eps0 <= 1e30 V/m x min(1, smallest cell / 1 m)")},
      {"source.*.delay", V::Number, {1}, {}, "s", "per waveform (4 tau; ricker 1.5/f)",
       "Time of the pulse peak; at most 1e10 periods (1e10 / frequency): no run is longer than about 1.1e9 periods.",
       at_least(0, "delay x frequency <= 1e10")},
      {"source.*.bandwidth", V::Number, {1}, {}, "Hz", "= frequency",
       "gaussian_pulse only: width of the spectrum, tau = 2 / (pi bandwidth); without a delay, the default delay 4 tau must be at most 1e10 periods.",
       open_closed(0, 1e17, "8 / (pi bandwidth) x frequency <= 1e10 without a delay")},
      {"source.*.resistance", V::Number, {1}, {}, "ohm", "50",
       "port only: the source's series resistance, which is also the reference impedance of S11.",
       open_closed(0, 1e9)},
      {"source.*.size", V::Number, {2, 3}, {}, "m", "one E sample (plane_wave: required)",
       "plane_wave: the total-field box x y z (2D: x y) about `position`, each face on the nearest grid plane (halfway between two: the higher), at least 2 cells from the UPML (or a PEC wall), its faces in one material where they cross the grid (vacuum, or the background the wave travels in, lossy or not). Port: the port's box x y z about `position`, for a gap longer than a cell or a feed across a strip (docs/PORTS.md): along the axis the cells between its end planes in series, across it every node line from face to face in parallel, each face rounded to the nearest grid plane; an extent of 0 (or under half a cell) takes the one sample nearest `position` on that axis. At most 1000 samples; the box lies inside the domain, every sample outside the UPML and off PEC. Waveguide with a solved mode (mode = <number>): the window x y z about `position` on the port's plane (its extent along `direction` is not used), whose edges are conductors to the mode solver; by default the whole plane inside the UPML layers.",
       at_least(0, "the box inside the domain; a port's at most 1000 E samples")},
      {"source.*.frequencies", V::Number, {}, {}, "Hz", "the source's band",
       "port and waveguide only: frequencies of ports/<name>.csv, at most 1000, in increasing order, each at most the highest frequency the grid carries; by default 201 (21 for a solved mode, solved at each) over the band where the source's spectrum is at least 1/e of its peak (gaussian_pulse: frequency +- bandwidth / 2; above 0 Hz).",
       open_closed(0, 1e17, "at most 1000 values, increasing, each <= asin(courant) / (pi dt)")},
      // [lumped.<name>]: resistors, inductors, capacitors across E samples.
      {"lumped.*.axis", V::Word, {1}, kAxes, "", "z",
       "Direction of the element's voltage and current (x, y or z): the E samples it spans are this component's (3D Cartesian models only; docs/PORTS.md \"Lumped elements\").", Range{}},
      {"lumped.*.position", V::Number, {3}, {}, "m", "required",
       "Position x y z inside the domain, outside the UPML: the element spans the `axis` E sample nearest it (halfway between two: the higher one), or the samples of `size` about it.",
       only("inside the domain [0, grid.size], outside the UPML, off PEC")},
      {"lumped.*.size", V::Number, {3}, {}, "m", "one E sample",
       "The element's box x y z about `position`, as a port's (docs/PORTS.md): along `axis` the cells between its end planes in series, across it every node line from face to face in parallel, each face rounded to the nearest grid plane; an extent of 0 (or under half a cell) takes the one sample nearest `position` on that axis. The values are the whole box's: each sample gets its share. At most 1000 samples, each outside the UPML, off PEC and on no source's or other element's sample.",
       at_least(0, "the box inside the domain; at most 1000 E samples")},
      {"lumped.*.resistance", V::Number, {1}, {}, "ohm", "none",
       "R of the element (at least one of resistance, inductance, capacitance).", open_closed(0, 1e12)},
      {"lumped.*.inductance", V::Number, {1}, {}, "H", "none",
       "L of the element.", open_closed(0, 1e6)},
      {"lumped.*.capacitance", V::Number, {1}, {}, "F", "none",
       "C of the element.", open_closed(0, 1e6)},
      {"lumped.*.circuit", V::Word, {1}, {"series", "parallel"}, "", "required for two or more values",
       "How R, L and C connect: series (R + j w L + 1 / (j w C); an absent L or C is a short) or parallel (1 / (1/R + 1 / (j w L) + j w C); an absent value is an open). A single value needs none.", Range{}},
      // [probe.<name>]: patent step 5 outputs.
      {"probe.*.position", V::Number, {2, 3}, {}, "m", "required",
       "Position x y z (2D: x y; cylindrical: r phi z, phi in degrees in [-360, 360]) inside the domain [0, grid.size]. Each field is read at its nearest sample (halfway between two: the higher one; run.json gives each sample's position).",
       kPosition},
      {"probe.*.fields", V::Word, {}, kProbeComponents, "", "Ex Ey Ez Hx Hy Hz (2D, cylindrical: the model's)",
       "Field components recorded, each at most once; 2D: among Ez Hx Hy (tm), Hz Ex Ey (te), Ez (wave); cylindrical: among Er Ephi Ez Hr Hphi Hz (the physical field at the probe's phi, summed over the modes).", Range{}},
      {"probe.*.steps", V::Integer, {2}, {}, "", "0 to the last step",
       "First and last recorded step n1 n2, n1 <= n2 <= time.steps. When the command line shortens the run, a window past its end is cut there (a warning).",
       closed(0, 2147483647, "n1 <= n2 <= the run's last step")},
      {"probe.*.resonances", V::Number, {2}, {}, "Hz", "none",
       "A band f1 f2: the resonances in it (frequency, Q, decay rate, amplitude, phase) of each recorded field, found by harmonic inversion of its series from the step the sources have ended (or n1, if later) to n2; rows in resonances.csv (docs/MONITORS.md, \"Resonances\"). f2 at most the highest frequency the grid carries, asin(courant) / (pi dt). A narrow band needs a long series (about 10 / (f2 - f1) of ringing): when the window is too short the run warns and finds none.",
       open_closed(0, 1e17, "0 < f1 < f2 <= asin(courant) / (pi dt)")},
      // [monitor.<name>]: reductions computed where the fields live while the run goes.
      {"monitor.*.type", V::Word, {1}, {"flux", "dft", "farfield", "modes", "mode_expansion"}, "", "required",
       "What the monitor computes: flux (Poynting flux through a plane or a closed box, per "
       "frequency), dft (the Fourier-transformed fields in a box, a .vti), farfield (directivity "
       "by the near-to-far-field transform of a closed box), modes (E projected on the mode "
       "shapes of modes_file) or mode_expansion (the forward and backward amplitudes of a "
       "guide's solved modes through a plane, per frequency; docs/MODES.md). Written to "
       "<output.dir>/monitors/<name>.csv (dft: .vti). Cylindrical models: flux only.", Range{}},
      {"monitor.*.box", V::Number, {4, 6}, {}, "m", "required for flux, dft, farfield, mode_expansion",
       "Corners x0 y0 z0 x1 y1 z1, each rounded to the nearest grid node. flux, dft: a plane when "
       "exactly one extent is zero (normal +axis), else a closed box (flux: outward normals); "
       "farfield: a closed box; mode_expansion: a plane, the mode solver's window (its edges "
       "conductors to the solver), outside the UPML. Every other extent spans at least one cell. 2D models: x0 y0 x1 "
       "y1, a rectangle of the plane over its 1 m depth (flux, dft: a line when one extent is "
       "zero; farfield: a rectangle). Cylindrical models: r0 z0 r1 z1, a flux monitor's ring "
       "section r0..r1 x z0..z1 (from r0 = 0 a cylinder closed by the axis), a disc when z0 = z1 "
       "or a tube when r0 = r1 > 0 (docs/CYLINDRICAL.md).",
       only("corners inside the domain [0, grid.size], x0 <= x1, y0 <= y1, z0 <= z1")},
      {"monitor.*.frequencies", V::Number, {}, {}, "Hz", "required for flux, dft, farfield, mode_expansion",
       "Frequencies of the transform, at most 1000, each at most the highest frequency the grid "
       "carries, asin(courant) / (pi dt).",
       open_closed(0, 1e17, "at most 1000 values, each <= asin(courant) / (pi dt)")},
      {"monitor.*.theta_step", V::Number, {1}, {}, "deg", "5",
       "farfield only: step of the polar angle theta (from +z, 0 to 180 degrees).",
       open_closed(0, 90)},
      {"monitor.*.phi_step", V::Number, {1}, {}, "deg", "5",
       "farfield only: step of the azimuth phi (from +x, 0 to below 360 degrees).",
       open_closed(0, 90)},
      {"monitor.*.fields", V::Word, {}, kComponents, "", "Ex Ey Ez Hx Hy Hz",
       "dft only: the components transformed, each at most once, each at its own Yee position.",
       Range{}},
      {"monitor.*.modes_file", V::Text, {1}, {}, "", "required for modes",
       "modes only: a .vti file with cell arrays mode_0, mode_1, ... (3 components each: E of each "
       "mode on the model's grid). A relative path is taken from the current folder, like "
       "output.dir.", Range{}},
      {"monitor.*.every", V::Integer, {1}, {}, "", "1",
       "modes only: project every N steps.", closed(1, 2147483647)},
      {"monitor.*.count", V::Integer, {1}, {}, "", "1",
       "mode_expansion only: how many of the guide's modes, largest beta first (the rows of "
       "clfdtd modes at each frequency), the run's fields are split into.", closed(1, 64)},
      {"monitor.*.decimation", V::Integer, {1}, {}, "", "auto",
       "flux, dft, farfield, mode_expansion: transform every N-th step only (weights N dt), exact while the "
       "fields hold no frequency above 1 / (2 N dt). auto: from the sources' spectrum and the "
       "monitor's frequencies with a 25% margin, at most 16; 1 for a source still on at the "
       "run's end or switched on abruptly (docs/MONITORS.md). Write auto, or leave the key out, "
       "for it.",
       [] {
         Range r = closed(1, 1000000);
         r.note = "or auto";
         return r;
       }()},
      // [snapshot]
      {"snapshot.steps", V::Integer, {}, {}, "", "none",
       "Steps at which the whole field is saved (each <= time.steps; 2D: the plane, the model's components only). When the command line shortens the run, later steps are dropped (a warning).",
       kStep},
      {"snapshot.fields", V::Word, {}, {"E", "H"}, "", "E H", "Fields saved in each snapshot.", Range{}},
      {"snapshot.phi_samples", V::Integer, {1}, {}, "", "0",
       "cylindrical only: with N > 0 each snapshot also holds a 3D reconstruction of the field at N angles phi = 360 k / N degrees (0: the per-mode (r, z) images only).",
       closed(0, 3600)},
      // [output]
      {"output.dir", V::Text, {1}, {}, "", "out", "Directory for every output file.", Range{}},
      {"output.energy", V::Word, {1}, {"true", "false"}, "", "false",
       "Write energy.csv: the electromagnetic energy the Yee scheme conserves, one row per step "
       "(computed on the device; see docs/EQUATIONS.md; 2D: J per metre of depth; not for "
       "grid.equation = wave).", Range{}},
      {"output.overwrite", V::Word, {1}, {"true", "false"}, "", "false",
       "Replace output.dir even when it is a folder clfdtd did not write (its contents are "
       "deleted). Never a file, the home folder, or a folder holding the model file or the "
       "current folder.", Range{}},
      // [device]
      {"device.backend", V::Word, {1}, {"opencl", "reference", "cuda"}, "", "opencl",
       "Compute engine; reference is the plain C++ engine. Alias: --backend=X.", Range{}},
      {"device.select", V::Text, {1}, {}, "", "(best device)",
       "Device: empty for the best, an index, gpu, cpu, or part of a device name. A "
       "comma-separated list of those names several devices: a cylindrical model's modes are "
       "spread over them (docs/CYLINDRICAL.md); any other model needs mpirun for a list. "
       "Alias: --device=X.", Range{}},
      {"device.workgroup", V::Integer, {3}, {}, "", "per variant: tile 2 2 30, onepass 8 2 32, rows 1 8 1, tblock P 13 14 on NVIDIA GPUs (CUDA and NVIDIA's OpenCL), P 9 14 elsewhere (P: the planes, from the grid)",
       "Work-group size x y z; z counts float4s for the tile, onepass and tblock variants, 1 for rows; "
       "for onepass x is the planes one group marches through and y, z >= 2; for tblock x is the "
       "planes, y and z the rows and float4s a group owns (it runs y + 3 by z + 2 work-items, its halo; "
       "without this key, or from a tuning cache that stored 0, the planes P are those whose groups "
       "the device's compute units finish first: at most 128, all of a box of at most 32); "
       "2D: x y 1 (tile: y counts float4s along y). Alias: --workgroup=X.",
       closed(1, 1024)},
      {"device.decomposition", V::Integer, {3}, {}, "", "0 0 0 (automatic)",
       "MPI runs (mpirun -np K, docs/MPI.md): boxes along x y z, their product K; 0 0 0 splits "
       "the factors of K over the longest axes first. Each box keeps at least 2 cells along a "
       "split axis. Ignored by a one-process run.",
       closed(0, 65536, "all three 0, or all >= 1 with product = the number of MPI ranks")},
      {"device.halo_path", V::Word, {1}, {"auto", "host", "device"}, "", "auto",
       "MPI runs (docs/MPI.md, \"Device-to-device\"): how the halo planes travel between ranks. "
       "host = packed on the device, read to the host, sent by MPI, written back (every device); "
       "device = copied from each rank's GPU memory straight into its neighbour's (CUDA IPC: "
       "device.backend = cuda, neighbours on one node; refused with exit 2 otherwise); auto = "
       "device when every rank can, else host. Ignored by a one-process run. A periodic axis left in one box (boundary.periodic) copies its halo within the device, which the device path does not do: such a run takes host (device is refused).", Range{}},
      {"device.halo_overlap", V::Word, {1}, {"true", "false"}, "", "true",
       "MPI runs (docs/MPI.md): true updates the owned cells next to the neighbours first, "
       "starts their halo exchange, and updates the other cells while the planes travel; false "
       "updates every cell, then exchanges. The outputs are the same; run.json's \"halo\" "
       "block reports the exchange time and how much of it was exposed. Ignored by a "
       "one-process run (but for a periodic model: boundary.periodic), and by a model with plane waves or dispersive materials (they change "
       "the fields after the whole step: no overlap; an explicit true there is warned about).", Range{}},
      {"device.variant", V::Word, {1}, {"auto", "tile", "onepass", "rows", "tblock"}, "", "auto",
       "GPU kernel form (OpenCL and CUDA; 2D and cylindrical: auto, tile or rows): tile = the patent's float4 z lanes with local-memory "
       "tiles, onepass = H and E in one pass over double-buffered fields (fewer bytes per step, "
       "twice the field memory), tblock = two time steps per pass over double-buffered fields (temporal blocking, 3D; with UPML the pass covers the cells 2 past the layers and the rest steps around it; a grid too small for that steps as onepass), rows = one work-item per z row (for CPUs); auto = the winner stored by `clfdtd bench --tune` for this device and "
       "driver (a model with UPML: the one measured on vacuum_upml; without UPML: the one measured on pec_cube, else the UPML one; "
       "tblock competes on both; a model split over ranks passes over onepass and tblock), else rows on CPU devices and, on GPUs, when the model fits with its second "
       "set of fields, tblock P 13 14 on NVIDIA GPUs (CUDA and NVIDIA's OpenCL), P 9 14 elsewhere (device.workgroup says P) for a 3D model of at least 19000 cells per compute unit (2.5 million on a 132-unit H200), with UPML also 35% of its cells 2 past the layers (N^3 with 5 or 10 layers: N >= 136; with 20: N >= 156; with 30: N >= 222), else onepass 8 2 32, tile 2 4 16 when it does not fit. Alias: --variant=X.", Range{}},
      {"device.upml_form", V::Word, {1}, {"float", "bfloat16"}, "", "float",
       "How the tile, onepass and tblock variants store the UPML auxiliaries (rows and models "
       "without UPML ignore it); they are computed in float either way. bfloat16 = the float's "
       "upper 16 bits rounded to nearest (8 significant bits, the float's range): half the "
       "auxiliaries' bytes, at a cost in accuracy inside the absorber (docs/BENCHMARKS.md). "
       "`clfdtd bench --upml-form float,bfloat16` measures both.", Range{}},
      {"device.tblock_staging", V::Word, {1}, {"auto", "local", "registers"}, "", "auto",
       "tblock variant only (others ignore it): where each work-item keeps E at the half pair's "
       "end (s + 1) of the plane before while the pass marches along x. local: in local memory, "
       "where its neighbours read it (3 barriers per plane, 192 B of local memory per "
       "work-item); registers: in registers, staged again for the neighbours (4 barriers, 96 B). "
       "auto: local on NVIDIA GPUs (CUDA and NVIDIA's OpenCL), registers elsewhere (H200, "
       "N = 512: local ran 0.5-5% faster through both; not measured on other GPUs; "
       "docs/BENCHMARKS.md). `clfdtd bench --tblock-staging local,registers` measures both. "
       "The pass of the UPML shell's z boxes keeps E1 in local memory on CUDA and NVIDIA's "
       "OpenCL whatever this says, where its boxes are at most 7 float4s wide (z layers up to "
       "about 20 cells): there it runs two or three groups per SM, and its registers form "
       "spills more.",
       Range{}},
      {"device.cyl_staging", V::Word, {1}, {"global", "local"}, "", "global",
       "Cylindrical tile variant only (other models and variants ignore it): local stages each "
       "work-group's field values and their neighbour row and column in local memory before the "
       "update (one global read per value); global reads the neighbours from global memory "
       "through the caches. `clfdtd bench --problem cyl_cpml --staging global,local` measures "
       "both.", Range{}},
      {"device.cyl_align", V::Word, {1}, {"true", "false"}, "", "true",
       "Cylindrical tile variant only (other models and variants ignore it): start each launch's "
       "z range on a 128-byte boundary of the row (the z-slab float4s before it ride along, "
       "masked) so every work-group reads whole memory segments; false starts at the first "
       "float4 that holds a non-PML cell. `clfdtd bench --problem cyl_cpml --align true,false` "
       "measures both.", Range{}},
  };
}
// clang-format on

std::string section_of(const std::string& pattern) { return pattern.substr(0, pattern.find('.')); }

// Splits "material.glass.eps_r" into its dot-separated parts.
std::vector<std::string> split_key(const std::string& key) {
  std::vector<std::string> parts;
  std::string::size_type start = 0;
  while (true) {
    auto dot = key.find('.', start);
    parts.push_back(key.substr(start, dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return parts;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string join(const std::vector<std::string>& words, const std::string& sep) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) out += (i ? sep : "") + words[i];
  return out;
}

// The section header as a user writes it: [grid] or [material.<name>].
std::string header_of(const std::string& section) {
  const auto& named = named_sections();
  bool is_named = std::find(named.begin(), named.end(), section) != named.end();
  return "[" + section + (is_named ? ".<name>]" : "]");
}

// Plain table text for Markdown: '*' would start emphasis, '<name>' an HTML tag, '|' a column.
std::string md_escape(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char ch = text[i];
    if (ch == '*' || ch == '|') out += '\\';
    bool tag =
        ch == '<' && i + 1 < text.size() && std::isalpha(static_cast<unsigned char>(text[i + 1]));
    out += tag ? std::string("&lt;") : std::string(1, ch);  // "<=" stays as it is
  }
  return out;
}

// Greedy word wrap of `text` to `width` columns, each line prefixed by `indent`.
std::string wrap(const std::string& text, std::size_t width, const std::string& indent) {
  std::istringstream words(text);
  std::string word, line, out;
  while (words >> word) {
    if (!line.empty() && indent.size() + line.size() + 1 + word.size() > width) {
      out += indent + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += indent + line + "\n";
  return out;
}

}  // namespace

const std::vector<std::string>& named_sections() {
  static const std::vector<std::string> s{"material", "object", "source", "lumped", "probe", "monitor"};
  return s;
}

const std::vector<std::string>& singleton_sections() {
  static const std::vector<std::string> s{"grid",     "time",   "boundary",
                                          "snapshot", "output", "device"};
  return s;
}

const std::vector<CommandLineAlias>& command_line_aliases() {
  static const std::vector<CommandLineAlias> a{
      {"device", "device.select", "the device: an index, gpu, cpu or part of its name"},
      {"backend", "device.backend", "the engine: opencl, reference or cuda"},
      {"variant", "device.variant", "the kernel form: auto, tile, onepass, tblock or rows"},
      {"workgroup", "device.workgroup", "the work-group size x,y,z"},
      {"quiet", "", "no progress line"},
  };
  return a;
}

const std::vector<OptionSpec>& option_table() {
  static const std::vector<OptionSpec> table = make_table();
  return table;
}

const OptionSpec* find_option(const std::string& key) {
  auto parts = split_key(key);
  for (const auto& spec : option_table()) {
    auto pat = split_key(spec.key);
    if (pat.size() != parts.size()) continue;
    bool match = true;
    for (std::size_t i = 0; i < pat.size() && match; ++i)
      match = pat[i] == "*" ? !parts[i].empty() : pat[i] == parts[i];
    if (match) return &spec;
  }
  return nullptr;
}

std::string closest_name(const std::string& name, const std::vector<std::string>& names) {
  std::string best;
  std::size_t best_d = name.size() <= 4 ? 2 : 3;  // short names: one edit, or "new" means "near"
  for (const auto& n : names) {
    if (n == name || name.size() > 40) continue;
    const std::size_t d = edit_distance(name, n);
    if (d < best_d) {
      best_d = d;
      best = n;
    }
  }
  return best;
}

std::string closest_key(const std::string& key) {
  // No key is this long: it is not a typo, and the distances would cost seconds on a huge one.
  if (key.size() > 200) return "";
  auto parts = split_key(key);
  // A three-part key keeps its user name; otherwise suggest the pattern with <name>.
  std::string name = parts.size() == 3 ? parts[1] : "<name>";
  std::string best;
  std::size_t best_d = std::string::npos;
  for (const auto& spec : option_table()) {
    std::string cand = spec.key;
    auto star = cand.find('*');
    if (star != std::string::npos) cand.replace(star, 1, name);
    std::size_t d = edit_distance(key, cand);
    if (d < best_d) best_d = d, best = cand;
  }
  // Only a near miss is worth suggesting: a typo, not a different key.
  return best_d <= std::max<std::size_t>(2, key.size() / 4) ? best : "";
}

std::string section_problem(const std::string& section) {
  auto dot = section.find('.');
  std::string kind = section.substr(0, dot);
  auto has = [](const std::vector<std::string>& v, const std::string& x) {
    return std::find(v.begin(), v.end(), x) != v.end();
  };
  if (has(singleton_sections(), kind))
    return dot == std::string::npos ? "" : "[" + kind + "] without a name";
  if (!has(named_sections(), kind)) {
    std::string known;
    for (const auto& n : singleton_sections()) known += "[" + n + "], ";
    for (const auto& n : named_sections()) known += "[" + n + ".<name>], ";
    std::string hint;  // a near miss of a section kind: [boundry] -> [boundary]
    for (const auto* list : {&singleton_sections(), &named_sections()})
      for (const auto& n : *list)
        if (hint.empty() && kind.size() < 40 && edit_distance(kind, n) <= 2)
          hint = "; did you mean [" + n + (list == &named_sections() ? ".<name>" : "") + "]?";
    return "a known section: " + known.substr(0, known.size() - 2) + hint;
  }
  if (dot == std::string::npos) return "a name: [" + kind + ".<name>]";
  std::string name = section.substr(dot + 1);
  bool ok = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
  return ok ? "" : "a name of letters, digits, '_' or '-' after '" + kind + ".'";
}

std::string key_problem(const std::string& key) {
  if (find_option(key)) return "";
  std::string suggestion = closest_key(key);
  std::string hint = suggestion.empty() ? "" : "; did you mean '" + suggestion + "'?";
  auto dot = key.rfind('.');
  std::string problem = section_problem(dot == std::string::npos ? key : key.substr(0, dot));
  // The whole-key suggestion is the more precise one: it replaces the section's.
  if (!problem.empty())
    return hint.empty() ? problem : problem.substr(0, problem.find("; did")) + hint;
  // A known section, an unknown key in it: list the section's keys.
  std::string kind = section_of(key), keys;
  for (const auto& spec : option_table())
    if (section_of(spec.key) == kind)
      keys += (keys.empty() ? "" : ", ") + spec.key.substr(spec.key.rfind('.') + 1);
  return "a key of [" + kind + "]: " + keys + hint;
}

std::vector<std::string> split_value(const std::string& text) {
  std::string t = text;
  std::replace(t.begin(), t.end(), ',', ' ');
  std::istringstream in(t);
  std::vector<std::string> out;
  for (std::string token; in >> token;) out.push_back(token);
  return out;
}

bool count_allowed(const OptionSpec& spec, std::size_t n) {
  const auto& c = spec.counts;
  return c.empty() || std::find(c.begin(), c.end(), static_cast<int>(n)) != c.end();
}

std::optional<double> parse_number(const std::string& token, bool integer) {
  char* end = nullptr;
  double v = std::strtod(token.c_str(), &end);
  // The whole token: a NUL byte inside it is not its end.
  if (end == token.c_str() || end != token.c_str() + token.size() || !std::isfinite(v))
    return std::nullopt;
  // Whole and small enough that a long holds it exactly.
  if (integer && (v != std::floor(v) || std::abs(v) > 9e15)) return std::nullopt;
  return v;
}

int word_index(const OptionSpec& spec, const std::string& token) {
  auto lower = [](std::string s) {
    for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
  };
  for (std::size_t i = 0; i < spec.words.size(); ++i)
    if (lower(spec.words[i]) == lower(token)) return static_cast<int>(i);
  return -1;
}

std::string display_key(const OptionSpec& spec) {
  std::string key = spec.key;
  auto star = key.find('*');
  return star == std::string::npos ? key : key.replace(star, 1, "<name>");
}

std::string describe_value(const OptionSpec& spec) {
  const auto& c = spec.counts;
  if (spec.type == ValueType::Word) {
    std::string set = join(spec.words, ", ");
    return c.empty() ? "any of " + set : "one of " + set;
  }
  if (spec.type == ValueType::Text)
    return c.size() == 1 && c[0] > 1 ? std::to_string(c[0]) + " names" : "text";
  std::string noun = spec.type == ValueType::Number ? "number" : "integer";
  if (c.empty()) return "a list of " + noun + "s";
  if (c.size() == 1 && c[0] == 1) return spec.type == ValueType::Number ? "a number" : "an integer";
  std::string n;
  for (std::size_t i = 0; i < c.size(); ++i)
    n += (i == 0 ? "" : (i + 1 == c.size() ? " or " : ", ")) + std::to_string(c[i]);
  return n + " " + noun + "s";
}

static std::string format_number(double v) {
  char buf[40];
  if (v == std::floor(v) && std::fabs(v) < 1e6) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  // The shortest form that reads back as v, with a plain exponent: 1e9, 1e-12, 0.01.
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  std::string out = buf;
  auto e = out.find('e');
  if (e != std::string::npos) {
    std::string mant = out.substr(0, e), exp = out.substr(e + 1);
    bool neg = exp[0] == '-';
    exp = exp.substr(1);
    exp.erase(0, std::min(exp.find_first_not_of('0'), exp.size() - 1));
    out = mant + "e" + (neg ? "-" : "") + exp;
  }
  return out;
}

std::string describe_range(const Range& r) {
  const bool lo = r.min > -kNoLimit, hi = r.max < kNoLimit;
  if (lo && hi)
    return std::string(r.min_open ? "(" : "[") + format_number(r.min) + ", " +
           format_number(r.max) + (r.max_open ? ")" : "]");
  if (lo) return std::string(r.min_open ? "> " : ">= ") + format_number(r.min);
  if (hi) return std::string(r.max_open ? "< " : "<= ") + format_number(r.max);
  return "";
}

std::string describe_value_in_range(const OptionSpec& spec) {
  std::string value = describe_value(spec), range = describe_range(spec.range);
  if (range.empty() || spec.type == ValueType::Word || spec.type == ValueType::Text) return value;
  const bool single = spec.counts.size() == 1 && spec.counts[0] == 1;
  const bool interval = range[0] == '[' || range[0] == '(';
  return value + (single ? "" : ", each") + (interval ? " in " : " ") + range;
}

std::string help_text() {
  std::string out =
      "Options (before or after the model file):\n"
      "  --section.key=value  set or override any model key below, e.g. --grid.courant=0.5 or\n"
      "                       --material.glass.eps_r=3 (also --section.key value)\n";
  for (const auto& a : command_line_aliases()) {
    std::string form = "--" + a.option + (a.key.empty() ? "" : "=X");
    form.resize(std::max<std::size_t>(form.size() + 2, 21), ' ');
    out += "  " + form + a.help + (a.key.empty() ? "" : " (" + a.key + ")") + "\n";
  }
  out += "  --help               this text\n"
      "\n"
      "time.steps and time.duration: give one. Both in the model file, or both on the command line,\n"
      "is an error; one on the command line replaces the other from the file. A run the command\n"
      "line shortens drops the file's later snapshot steps and cuts its probe windows (a warning\n"
      "each).\n"
      "\n"
      "Model keys. A model file holds [section] headers and 'key = value' lines ('#' starts a\n"
      "comment); every value is SI (m, s, Hz, S/m) and numbers may be written like 3e9. Ranges are\n"
      "inclusive at [ ] and exclusive at ( ).\n";
  std::string section;
  for (const auto& spec : option_table()) {
    std::string s = section_of(spec.key);
    if (s != section) {
      section = s;
      out += "\n" + header_of(s) + "\n";
    }
    std::string value = describe_value_in_range(spec);
    if (!spec.range.note.empty()) value += ", " + spec.range.note;
    if (!spec.unit.empty()) value += ", " + spec.unit;
    bool required = spec.default_text.rfind("required", 0) == 0;
    value += "; " + (required ? spec.default_text : "default: " + spec.default_text);
    out += "  " + display_key(spec) + "  (" + value + ")\n";
    out += wrap(spec.help, 96, "      ");
  }
  return out;
}

std::string keys_markdown() {
  std::string out =
      "# Model file keys\n\n"
      "<!-- Generated from host/config/options.cpp by keys_markdown(); test_config checks that\n"
      "     this file matches. Regenerate: CLFDTD_WRITE_DOCS=1 ./build/tests/test_config -->\n\n"
      "A model file holds `[section]` headers and `key = value` lines; `#` starts a comment, also\n"
      "after a value, and so does `;` at the start of a line. Every value is SI (metres, seconds, hertz, S/m), but for angles, which are\n"
      "in degrees (monitor theta_step and phi_step, a cylindrical position's phi), and numbers may be written\n"
      "like `3e9`; lists are separated by spaces or commas. Sections `[grid]`, `[time]`,\n"
      "`[boundary]`, `[snapshot]`, `[output]` and `[device]` appear at most once; "
      "`[material.<name>]`,\n"
      "`[object.<name>]`, `[source.<name>]`, `[probe.<name>]` and `[monitor.<name>]` repeat with a "
      "name of your\nchoice.\n"
      "Any key can be set or overridden on the command line, before or after the model path, as\n"
      "`--section.key=value` (or `--section.key value`), e.g. `--material.glass.eps_r=3`;\n"
      "`--device=X`, `--backend=X`, `--variant=X` and `--workgroup=X` are short for the\n"
      "`device.*` keys and `--quiet` silences progress output.\n\n"
      "`time.steps` and `time.duration`: give one. Both in the model file, or both on the command\n"
      "line, is an error; one on the command line replaces the other from the file. When the\n"
      "command line shortens the run, the file's snapshot steps past its end are dropped and its\n"
      "probe windows cut there, with a warning each; a model file whose own length contradicts\n"
      "them is an error.\n\n"
      "Ranges are inclusive at `[ ]` and exclusive at `( )`; a limit that needs the grid (the time\n"
      "step dt, the smallest cell) is checked once the grid is derived. Model files are read only\n"
      "when they are plain files of at most 16 MiB; a UTF-8 byte order mark is skipped.\n";
  std::string section;
  for (const auto& spec : option_table()) {
    std::string s = section_of(spec.key);
    if (s != section) {
      section = s;
      out += "\n## `" + header_of(s) + "`\n\n";
      out += "| Key | Value | Range | Unit | Default | Meaning |\n";
      out += "|---|---|---|---|---|---|\n";
    }
    std::string name = spec.key.substr(spec.key.rfind('.') + 1);
    std::string range = describe_range(spec.range);
    if (!spec.range.note.empty()) range += (range.empty() ? "" : "; ") + spec.range.note;
    out += "| `" + name + "` | " + md_escape(describe_value(spec)) + " | " + md_escape(range) +
           " | " + md_escape(spec.unit) +
           " | " + md_escape(spec.default_text) + " | " + md_escape(spec.help) + " |\n";
  }
  return out;
}

}  // namespace clfdtd
