// Plain values parsed from a model file plus command-line overrides (patent step 1 inputs).
// No behaviour here: load_config() fills and checks these; SimulationModel::build() consumes them.
// Every length is in metres, time in seconds, frequency in hertz, conductivity in S/m.
#pragma once
#include <array>
#include <initializer_list>
#include <map>
#include <set>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "errors.hpp"

namespace clfdtd {

class Solid;  // geometry/solid.hpp

enum class Axis { X = 0, Y = 1, Z = 2 };
enum class Component { Ex = 0, Ey = 1, Ez = 2, Hx = 3, Hy = 4, Hz = 5 };
enum class Face { XLo = 0, XHi = 1, YLo = 2, YHi = 3, ZLo = 4, ZHi = 5 };

struct Vec3 {
  double x = 0, y = 0, z = 0;
  double operator[](int a) const { return a == 0 ? x : (a == 1 ? y : z); }
  double& operator[](int a) { return a == 0 ? x : (a == 1 ? y : z); }
};

// 2D models (grid.size with two numbers): which field family the x-y plane carries, and which
// equation advances it (docs/TWO_D.md).
enum class PlaneMode { Tm, Te };              // tm: Ez Hx Hy; te: Hz Ex Ey
enum class Equation { Maxwell, Wave };        // wave: the scalar wave equation for Ez (tm only)
// cylindrical: a body of revolution, fields as angular modes exp(i m phi), each an (r, z) problem
// (docs/CYLINDRICAL.md); axis 0 = r, 1 = phi, 2 = z.
enum class Coordinates { Cartesian, Cylindrical };

struct GridConfig {
  int dims = 3;                               // 2 when grid.size has two numbers (x-y plane)
  PlaneMode mode = PlaneMode::Tm;             // 2D only
  Equation equation = Equation::Maxwell;      // 2D only
  Coordinates coordinates = Coordinates::Cartesian;
  std::vector<int> modes{0};                  // cylindrical: angular orders m >= 0, ascending
  // Domain extent (outer PEC wall to wall, UPML included). 2D: size_m.z and cell_size_m.z are
  // 1 m, so that every per-volume quantity comes out per metre of depth (J/m, W/m).
  Vec3 size_m;
  double max_frequency_hz = 0;                // highest excitation frequency (0 = not given)
  std::optional<Vec3> cell_size_m;            // explicit cell size overrides the derivation
  double cells_per_wavelength = 10;           // patent step 1-1-1: d = lambda_min / 10
  double courant = 0.9;                       // patent step 1-1-2: fraction of the 3D Courant limit
};

struct TimeConfig {
  std::optional<long> steps;                  // exactly one of steps / duration_s is set
  std::optional<double> duration_s;
  // The run's length came from the command line: the model file's snapshot steps and probe
  // windows past its end are dropped or cut with a warning (SimulationModel::build), not refused.
  bool from_command_line = false;
};

enum class BoundaryType { Upml, Pec };

struct BoundaryConfig {
  BoundaryType type = BoundaryType::Upml;
  std::array<int, 6> layers{10, 10, 10, 10, 10, 10};  // per Face; 0 = plain PEC wall on that face
  double grading = 3;                         // polynomial order m of sigma(rho) = sigma_max rho^m
  std::optional<double> sigma_max;            // S/m; default 0.8 (m+1) / (eta0 * cell size)
  double kappa_max = 1;
  // Axes along which the domain repeats (boundary.periodic): no layers on their faces; a field
  // leaving through one face enters through the opposite one.
  std::array<bool, 3> periodic{};
  // Axes whose low face is a perfect magnetic conductor (boundary.pmc): tangential H = 0 there,
  // a symmetry plane for fields whose tangential E is even about it.
  std::array<bool, 3> pmc{};
  // The Bloch wave vector (boundary.bloch_k, rad/m; non-zero along periodic axes only): across a
  // period L_a the fields take the phase exp(i k_a L_a). All zero: plain periodic.
  std::array<double, 3> bloch_k{};
};

// One pole of a dispersive material's susceptibility chi(f) (docs/EQUATIONS.md "Dispersive
// materials"; time convention exp(-i 2 pi f t), Im chi > 0 is loss):
//   debye    p = {delta_eps, tau (s)}:            chi = delta_eps / (1 - i 2 pi f tau)
//   drude    p = {f_p (Hz), gamma (Hz)}:           chi = -f_p^2 / (f^2 + i f gamma)
//   lorentz  p = {delta_eps, f0 (Hz), gamma (Hz)}: chi = delta_eps f0^2 / (f0^2 - f^2 - i f gamma)
enum class PoleKind { Debye, Drude, Lorentz };
inline constexpr std::size_t kMaxPoles = 8;  // per material
// Where poles are refused (load_config and SimulationModel::build say the same).
inline constexpr const char* kNoPolesHere =
    "no poles in a cylindrical model or a 2D wave model (dispersive materials run in the Yee "
    "solvers: 3D, and 2D with grid.equation = maxwell)";
struct PoleConfig {
  PoleKind kind = PoleKind::Debye;
  std::array<double, 3> p{};
  bool operator==(const PoleConfig& o) const { return kind == o.kind && p == o.p; }
  bool operator!=(const PoleConfig& o) const { return !(*this == o); }
};

struct MaterialConfig {
  std::string name;
  double eps_r = 1, mu_r = 1, sigma = 0;      // sigma: electric conductivity, S/m; with poles
                                              // eps_r is the permittivity at infinite frequency
  bool pec = false;
  std::vector<PoleConfig> poles{};            // debye, then drude, then lorentz poles, as listed
  // A diagonal anisotropic material (eps_r, mu_r or sigma given as three values, x y z): the
  // values along each axis, which the material table then takes instead of eps_r, mu_r and sigma
  // (the loader sets those to the largest of each). The loader fills the three for every
  // material; a MaterialConfig built in code may leave them at their defaults for an isotropic
  // one: where an array's three values are equal the table takes eps_r, mu_r, sigma (eps_along).
  std::array<double, 3> eps_axes{1, 1, 1}, mu_axes{1, 1, 1}, sigma_axes{0, 0, 0};
  // The poles of each axis' E component (a material given by `axes`, three other materials:
  // docs/EQUATIONS.md "Anisotropic materials"). All three empty: every axis takes `poles`;
  // otherwise `poles` is not used. all_poles() lists every pole the material has.
  std::array<std::vector<PoleConfig>, 3> pole_axes{};
  std::array<std::string, 3> axis_materials{};  // the `axes` key's names, x y z (empty: not given)
  // The value along an axis: the *_axes entry where they differ, else the scalar (so a material
  // built in code with only pole_axes set keeps its eps_r, mu_r and sigma).
  double eps_along(std::size_t a) const { return uniform(eps_axes) ? eps_r : eps_axes[a]; }
  double mu_along(std::size_t a) const { return uniform(mu_axes) ? mu_r : mu_axes[a]; }
  double sigma_along(std::size_t a) const { return uniform(sigma_axes) ? sigma : sigma_axes[a]; }
  static bool uniform(const std::array<double, 3>& v) { return v[0] == v[1] && v[0] == v[2]; }
  bool per_axis_poles() const { return !pole_axes[0].empty() || !pole_axes[1].empty() || !pole_axes[2].empty(); }
  const std::vector<PoleConfig>& poles_along(std::size_t axis) const {
    return per_axis_poles() ? pole_axes[axis] : poles;
  }
  std::vector<PoleConfig> all_poles() const {
    if (!per_axis_poles()) return poles;
    std::vector<PoleConfig> all;
    for (const auto& list : pole_axes) all.insert(all.end(), list.begin(), list.end());
    return all;
  }
  bool dispersive() const { return !pec && (!poles.empty() || per_axis_poles()); }
  bool anisotropic() const {
    return !uniform(eps_axes) || !uniform(mu_axes) || !uniform(sigma_axes) ||
           poles_along(0) != poles_along(1) || poles_along(0) != poles_along(2);
  }
};

enum class ShapeKind { Box, Sphere, Cylinder, Prism, Mesh, Voxels };
// mesh and voxels: a solid read from a file (ObjectConfig::solid).
inline bool solid_from_file(ShapeKind s) { return s == ShapeKind::Mesh || s == ShapeKind::Voxels; }
inline constexpr std::size_t kMaxPrismVertices = 10000;

// The area of a polygon (corners in order, either way round; the shoelace formula).
inline double polygon_area(const std::vector<std::array<double, 2>>& v) {
  double twice = 0;
  for (std::size_t i = 0, j = v.size() - 1; i < v.size(); j = i++)
    twice += v[j][0] * v[i][1] - v[i][0] * v[j][1];
  return 0.5 * (twice < 0 ? -twice : twice);
}

// The two axes across axis `ax` (0..2) in x, y, z order: a prism's vertex coordinates u and v.
inline std::array<int, 2> cross_axes(int ax) { return {ax == 0 ? 1 : 0, ax == 2 ? 1 : 2}; }

struct ObjectConfig {
  std::string name;
  ShapeKind shape = ShapeKind::Box;
  Vec3 center;
  Vec3 size;                                  // box: full edge lengths
  double radius = 0;                          // sphere, cylinder
  double length = 0;                          // cylinder, prism: extent along its axis
  Axis axis = Axis::Z;                        // cylinder, prism
  // prism: the cross-section's corners (u, v) relative to the centre, u and v the two axes other
  // than `axis` in x, y, z order; a 2D model's prism is this polygon in the x-y plane.
  std::vector<std::array<double, 2>> vertices{};
  // mesh: the surface file's triangles, scaled by `scale`, turned by `rotate_deg` and placed
  // (centre of their bounds at `center` where the model gives one, else where the file puts
  // them), as a solid; voxels: the voxels of `label` in the file, scaled and placed alike (the
  // bounds of the file's whole block). Read while the model file is loaded.
  std::string file;
  double scale = 1;
  std::array<double, 3> rotate_deg{};  // about x, then y, then z, before the placing
  long label = 0;                       // voxels: the label whose voxels this object fills
  std::shared_ptr<const Solid> solid;
  std::string material;                       // name of a [material.*] section, or "pec"/"vacuum"
};

// Port: a resistive voltage source (a lumped port, docs/PORTS.md) across one E sample.
// PlaneWave: a total-field/scattered-field box lit by a plane wave along an axis
// (model/plane_wave.hpp); kept in RunConfig::plane_waves, never in `sources`.
// Waveguide: a mode of a rectangular metal waveguide launched and measured on a plane across it
// (model/waveguide_port.hpp); kept in RunConfig::waveguide_ports.
enum class SourceKind { Dipole, Current, Port, PlaneWave, Waveguide };
enum class WaveformKind { Gaussian, GaussianPulse, Ricker, Sine };

struct SourceConfig {
  std::string name;
  SourceKind kind = SourceKind::Dipole;
  Axis axis = Axis::Z;
  Vec3 position;
  WaveformKind waveform = WaveformKind::GaussianPulse;
  double frequency_hz = 0;
  double amplitude = 1;                       // dipole: C*m; current: A/m^2; port: V
  std::optional<double> delay_s;              // time of the pulse peak; default per waveform
  std::optional<double> bandwidth_hz;         // gaussian_pulse only; default = frequency
  double resistance_ohm = 50;                 // port only: the source's series resistance
  std::vector<double> frequencies_hz;         // port only: Z and S11 at these; empty = the band
  std::optional<Vec3> size_m;                 // port: a box of samples (model/port_box.hpp);
                                              // plane_wave: the total-field box
  int direction_axis = 0, direction_sign = 1; // plane_wave only: propagation along +-axis
  // plane_wave only: the unit vector of an oblique direction (none along an axis: the two above)
  std::optional<Vec3> direction_vector;
  // waveguide only: the mode, TE or TM with m half waves along the guide's longer side, n along
  // the other (direction_axis, direction_sign: where the port's wave goes into the model)
  bool mode_te = true;
  int mode_m = 1, mode_n = 0;
  // waveguide only: mode = <k>, the k-th mode (largest beta first) that the mode solver finds in
  // the window `size` (model/mode_solver.hpp); 0 for a te/tm mode of a rectangular metal guide
  int mode_solved = 0;
  // waveguide only, a solved mode shared by others of its beta (a square or round guide's pair):
  // `axis`, the one of their combinations whose E lies most along it
  std::optional<int> mode_e_axis;
};

// [lumped.<name>]: a resistor, inductor and capacitor across E samples (docs/PORTS.md "Lumped
// elements"); the samples are a port's box (model/port_box.hpp). An absent value is an absent
// element: in series a short (no L, no C), in parallel an open (no R, no L, no C).
enum class LumpedCircuit { Series, Parallel };

struct LumpedConfig {
  std::string name;
  Axis axis = Axis::Z;
  Vec3 position;
  std::optional<Vec3> size_m;
  std::optional<double> resistance_ohm, inductance_h, capacitance_f;
  LumpedCircuit circuit = LumpedCircuit::Series;
  // An inductor, or R and C in series: a pole of the dispersive update (model/lumped.hpp).
  bool has_pole() const {
    return inductance_h || (circuit == LumpedCircuit::Series && resistance_ohm && capacitance_f);
  }
};

struct ProbeConfig {
  std::string name;
  Vec3 position;
  std::vector<Component> fields;              // subset of Ex..Hz, in file order
  std::optional<std::array<long, 2>> steps;   // n1..n2 inclusive; default 0..time steps
  // Hz, f1 < f2: the resonances of each field in this band, from its series after the sources
  // have ended (monitors/harmonic_inversion.hpp); none by default
  std::optional<std::array<double, 2>> resonances_hz;
};

// [monitor.<name>]: a reduction computed on the device while the run goes (docs/MONITORS.md).
// WaveguidePort: a waveguide port's transforms (model/waveguide_port.hpp), never configured as a
// [monitor.*] section.
enum class MonitorKind { Flux, Dft, FarField, Modes, ModeExpansion, WaveguidePort };

struct MonitorConfig {
  std::string name;
  MonitorKind kind = MonitorKind::Flux;
  Vec3 box_lo, box_hi;                        // m; flux, dft: a plane when one extent is zero
  std::vector<double> frequencies_hz;         // flux, dft, farfield
  double theta_step_deg = 5, phi_step_deg = 5;  // farfield
  std::vector<Component> fields;              // dft: the components transformed (default all six)
  std::string modes_file;                     // modes: .vti with cell arrays mode_<k>
  long every = 1;                             // modes: project every N steps
  int mode_count = 1;                         // mode_expansion: the guide's first N modes
  int decimation = 0;                         // flux, dft, farfield: every N-th step; 0 = auto
};

struct SnapshotConfig {
  std::vector<long> steps;                    // steps n0 at which the whole 3D field is saved
  bool e = true, h = true;
  int phi_samples = 0;                        // cylindrical: > 0 adds a 3D reconstruction (N angles)
};

struct OutputConfig {
  std::string dir = "out";
  bool energy = false;                        // write energy.csv (Yee-exact field energy per step)
  bool overwrite = false;                     // replace a dir that is not an earlier clfdtd output
};

enum class BackendKind { OpenCl, Reference, Cuda };

// Kernel forms of the GPU engine (order = device.variant's words).
enum class KernelVariant { Auto, Tile, OnePass, Rows, TBlock };

// device.halo_path (order = its words): through the host, or GPU to GPU (CUDA IPC).
enum class HaloPath { Auto, Host, Device };

// How the tile and onepass variants store the UPML auxiliaries (order = device.upml_form's words;
// the value is the kernels' UPML_AUX, cl_kernels/upml_aux.h): always computed in float.
enum class UpmlForm { Float, BFloat16 };
// Where the tblock variant keeps E at s + 1 of the plane before (order = device.tblock_staging's
// words; cl_kernels/tblock.cl TB_E1_LOCAL): in local memory (3 barriers per plane, twice the local
// memory) or in registers (4 barriers); auto picks per device (engine/variant_choice.hpp).
enum class TBlockStaging { Auto, Local, Registers };

struct DeviceConfig {
  BackendKind backend = BackendKind::OpenCl;
  KernelVariant variant = KernelVariant::Auto;
  std::string select;                         // "" = best; an index, "gpu", "cpu", or a name part
  std::optional<std::array<int, 3>> workgroup;  // x y z; z in float4s (tile, onepass, tblock), 1 (rows)
  // Cylindrical tile variant only (docs/BENCHMARKS.md, "cylindrical"): stage the stencil's
  // neighbour row and column in local memory (device.cyl_staging = local), and start each launch's
  // z range on a 128-byte boundary (device.cyl_align).
  bool cyl_local_staging = false;
  bool cyl_align = true;
  UpmlForm upml_form = UpmlForm::Float;  // tile and onepass only (device.upml_form)
  TBlockStaging tblock_staging = TBlockStaging::Auto;  // tblock only (device.tblock_staging)
  std::array<int, 3> decomposition{0, 0, 0};  // MPI boxes along x y z; all 0 = automatic
  HaloPath halo_path = HaloPath::Auto;        // how MPI ranks exchange halos (device.halo_path)
  // Ranks: update the owned cells away from the send planes while the halos travel
  // (device.halo_overlap, docs/MPI.md); false: exchange, then update.
  bool halo_overlap = true;
};

struct RunConfig {
  std::string source_file;                    // model file path ("" if none)
  std::map<std::string, int> lines;           // key ("grid.size", "source.feed.position") -> line in
                                              // source_file; absent for command-line overrides
  std::set<std::string> cli_keys;             // keys whose value came from the command line
  int line_of(const std::string& key) const {
    auto it = lines.find(key);
    return it == lines.end() ? 0 : it->second;
  }
  // Whether the user set `key`, in the file or on the command line.
  bool given(const std::string& key) const { return lines.count(key) > 0 || cli_keys.count(key) > 0; }
  // An error about `key`'s value, blaming where it came from: the command line, or the file at
  // `line` (-1: the key's own line, 0: none).
  ConfigError error_at(const std::string& key, const std::string& what, int line = -1) const {
    if (cli_keys.count(key)) return ConfigError("", 0, key, what);
    return ConfigError(source_file, line >= 0 ? line : line_of(key), key, what);
  }
  // Of the keys that together make a value wrong (`keys[0]` the one an error names by default),
  // the first the command line set, else keys[0]: a file's line is not blamed for what an
  // override changed.
  std::string culprit(std::initializer_list<const char*> keys) const {
    for (const char* k : keys)
      if (cli_keys.count(k)) return k;
    return *keys.begin();
  }
  GridConfig grid;
  TimeConfig time;
  BoundaryConfig boundary;
  std::vector<MaterialConfig> materials;
  std::vector<ObjectConfig> objects;          // in file order: later objects override earlier ones
  std::vector<SourceConfig> sources;          // point sources and ports, in file order
  std::vector<SourceConfig> plane_waves;      // [source.*] of type plane_wave, in file order
  std::vector<SourceConfig> waveguide_ports;  // [source.*] of type waveguide, in file order
  std::vector<LumpedConfig> lumped;           // [lumped.*], in file order
  std::vector<ProbeConfig> probes;
  std::vector<MonitorConfig> monitors;
  SnapshotConfig snapshot;
  OutputConfig output;
  DeviceConfig device;
  bool quiet = false;
};

inline const char* component_name(Component c) {
  static const char* names[] = {"Ex", "Ey", "Ez", "Hx", "Hy", "Hz"};
  return names[static_cast<int>(c)];
}
// Cylindrical models: Ex..Hz stand for Er, Ephi, Ez, Hr, Hphi, Hz.
inline const char* cyl_component_name(Component c) {
  static const char* names[] = {"Er", "Ephi", "Ez", "Hr", "Hphi", "Hz"};
  return names[static_cast<int>(c)];
}
inline bool is_electric(Component c) { return static_cast<int>(c) < 3; }
inline int component_axis(Component c) { return static_cast<int>(c) % 3; }

}  // namespace clfdtd
