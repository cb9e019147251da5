// [monitor.<name>] -> MonitorModel by the region rules of monitor_build.hpp.
#include "model/monitor_build.hpp"

#include "model/cyl_monitor_build.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <sstream>

#include "config/plane_checks.hpp"
#include "errors.hpp"
#include "model/input_limits.hpp"
#include "model/cross_section.hpp"
#include "model/mode_expansion.hpp"
#include "model/mode_solver.hpp"
#include "model/number_text.hpp"
#include "monitors/mode_file.hpp"

namespace clfdtd {

namespace {

[[noreturn]] void fail(const RunConfig& cfg, const std::string& key, const std::string& what) {
  throw cfg.error_at(key, what);
}

// Clips the region's cells to [0, n) per axis; false when nothing is left.
bool clip(DftRegion& r, const std::array<int, 3>& n) {
  for (int a = 0; a < 3; ++a) {
    r.lo[a] = std::max(r.lo[a], 0);
    r.hi[a] = std::min(r.hi[a], n[a]);
    if (r.hi[a] <= r.lo[a]) return false;
  }
  return true;
}

// The region holds a cell of the UPML slabs (a cell the UPML update owns).
bool touches_upml(const DftRegion& r, const std::array<int, 3>& n,
                  const std::array<int, 6>& layers) {
  for (int a = 0; a < 3; ++a)
    if (r.lo[a] < layers[2 * a] || r.hi[a] > n[a] - layers[2 * a + 1]) return true;
  return false;
}

// A box extent that is not zero in metres must span at least one cell once rounded to nodes,
// or a closed box would turn into a plane (and a plane into nothing) without the user knowing.
void check_extents(const RunConfig& cfg, const MonitorConfig& c, const GridGeometry& g,
                   const std::array<int, 3>& lo, const std::array<int, 3>& hi) {
  for (int a = 0; a < (g.dims == 2 ? 2 : 3); ++a) {
    if (c.box_lo[a] == c.box_hi[a] || lo[a] < hi[a]) continue;
    fail(cfg, "monitor." + c.name + ".box",
         std::string("a box whose ") + axis_name(g, a) + " extent spans at least one cell (" +
             number_text(g.d[a]) + " m) or is zero: " + number_text(c.box_lo[a]) + " to " + number_text(c.box_hi[a]) +
             " m both round to node " + std::to_string(lo[a]));
  }
}

void check_frequencies(const RunConfig& cfg, const MonitorConfig& c, const GridGeometry& g) {
  const double cutoff = grid_cutoff_frequency_hz(cfg, g);
  for (double f : c.frequencies_hz) {
    if (f <= cutoff) continue;
    fail(cfg, "monitor." + c.name + ".frequencies",
         "frequencies in (0, " + number_text(cutoff) +
             "] Hz, the highest a wave on this grid can have (asin(courant) / (pi dt)), got " +
             number_text(f));
  }
}

// The far field mirrors the box in each wall it touches (bare PEC or magnetic); two parallel
// walls (both ends of one axis) would mirror without end: a waveguide, not free space. A magnetic
// wall stands for the rest of a symmetric whole, so the box must reach it (clear of it, the
// transform would see the part alone in free space).
void check_walls(const RunConfig& cfg, const MonitorConfig& c, const std::vector<MonitorFace>& faces,
                 const GridGeometry& g) {
  for (int a = 0; a < 3; ++a) {
    int walls = 0;
    bool on_magnetic = false;
    for (const MonitorFace& f : faces) {
      walls += f.axis == a && f.on_wall ? 1 : 0;
      on_magnetic = on_magnetic || (f.axis == a && f.magnetic_wall);
    }
    if (g.pmc[static_cast<std::size_t>(a)] && !on_magnetic)
      fail(cfg, "monitor." + c.name + ".box",
           std::string("a farfield box that reaches the magnetic wall at ") + "xyz"[a] +
               " = 0 (boundary.pmc: the model is part of a symmetric whole, whose far field needs the "
               "wall's images of the box)");
    if (walls < 2) continue;
    fail(cfg, "monitor." + c.name + ".box",
         std::string("a farfield box that touches at most one of the two walls across ") + "xyz"[a] +
             std::string(" (bare PEC or magnetic; both: parallel plates, no free-space far field)"));
  }
}

// boundary.periodic: a flux box spans the whole period along a periodic axis (its two faces
// there then carry equal and opposite flux and are left out) or stays clear of the period's ends
// (its samples would wrap onto a face it does not have); a far field needs a domain that ends.
void check_periodic(const RunConfig& cfg, const MonitorConfig& c, const GridGeometry& g,
                    const std::array<int, 3>& lo, const std::array<int, 3>& hi) {
  if (!g.any_periodic()) return;
  if (c.kind == MonitorKind::FarField)
    fail(cfg, "monitor." + c.name + ".type",
         "flux or dft in a periodic model (boundary.periodic): the far field of an infinite "
         "array is its diffraction orders, not a radiation pattern");
  for (int a = 0; a < 3; ++a) {
    if (!g.periodic[static_cast<std::size_t>(a)]) continue;
    const bool whole = lo[a] == 0 && hi[a] == g.n[a];
    const bool clear = lo[a] > 0 && hi[a] < g.n[a];
    if (whole || clear) continue;
    fail(cfg, "monitor." + c.name + ".box",
         std::string("a box that spans the whole period along periodic axis ") + "xyz"[a] +
             " (0 to " + number_text(g.n[a] * g.d[a], 6) +
             " m) or stays clear of both its ends; got nodes " + std::to_string(lo[a]) + " to " +
             std::to_string(hi[a]) + " of " + std::to_string(g.n[a]));
  }
}

std::string face_label(const MonitorFace& f, int nfaces, const GridGeometry& g) {
  if (nfaces == 1) return "plane";
  return std::string(axis_name(g, f.axis)) + (f.normal < 0 ? "-low" : "-high");
}

// One line per monitor naming the faces whose samples lie in UPML cells.
void warn_faces_in_upml(const MonitorModel& m, const GridGeometry& g,
                        const std::array<int, 6>& layers, const std::vector<Component>& components,
                        std::vector<std::string>& warnings) {
  const int nfaces = static_cast<int>(m.faces.size());
  std::string faces;
  int count = 0;
  for (const MonitorFace& f : m.faces) {
    const auto regions = face_regions(f, g.n, components);
    const bool in_upml = std::any_of(regions.begin(), regions.end(), [&](const DftRegion& r) {
      return touches_upml(r, g.n, layers);
    });
    if (!in_upml) continue;
    faces += std::string(count++ ? ", " : "") + face_label(f, nfaces, g) + " (" + axis_name(g, f.axis) +
             " = " + number_text(f.plane * g.d[f.axis]) + " m)";
  }
  if (count == 0) return;
  const std::string what = nfaces == 1 ? "its " : count == 1 ? "its face " : "its faces ";
  const std::string why = m.kind == MonitorKind::FarField
                              ? "the far-field transform assumes free space there"
                              : "the flux there is not the free-space one";
  warnings.push_back("monitor '" + m.name + "': " + what + faces + (count == 1 ? " reads" : " read") +
                     " fields inside the UPML layers; " + why +
                     " (keep the box at least one cell clear of the layers)");
}

std::string component_list(const std::vector<Component>& cs) {
  std::string out;
  for (Component c : cs) out += std::string(out.empty() ? "" : " ") + component_name(c);
  return out;
}

std::string plane_kind(const GridConfig& grid) {
  if (grid.equation == Equation::Wave) return "wave-equation";
  return grid.mode == PlaneMode::Tm ? "tm" : "te";
}

// 2D: what the plane model cannot give, refused with the key; the dft fields checked against the
// model's components.
void check_plane_monitor(const RunConfig& cfg, const MonitorConfig& c, const std::array<int, 3>& lo, const std::array<int, 3>& hi,
                         const std::vector<Component>& components) {
  const std::string sec = "monitor." + c.name;
  if (cfg.grid.equation == Equation::Wave &&
      (c.kind == MonitorKind::Flux || c.kind == MonitorKind::FarField))
    fail(cfg, sec + ".type",
         "dft or modes in a wave-equation model (it has Ez alone, no H for a Poynting flux or a "
         "far field), got " + std::string(c.kind == MonitorKind::Flux ? "flux" : "farfield"));
  const int zero = (lo[0] == hi[0] ? 1 : 0) + (lo[1] == hi[1] ? 1 : 0);
  if (c.kind == MonitorKind::FarField && zero > 0)
    fail(cfg, sec + ".box",
         "a rectangle x0 y0 x1 y1 with no zero extent for a 2D farfield monitor (the transform "
         "needs a contour around the sources), got " + number_text(c.box_lo.x) + " " + number_text(c.box_lo.y) +
             " " + number_text(c.box_hi.x) + " " + number_text(c.box_hi.y) + " m");
  if (c.kind == MonitorKind::Flux && zero > 1)
    fail(cfg, sec + ".box",
         "a line (one zero extent) or a rectangle (none) in the x-y plane for a 2D flux monitor, "
         "got the point " + number_text(c.box_lo.x) + " " + number_text(c.box_lo.y) + " m");
  if (c.kind == MonitorKind::FarField && cfg.given(sec + ".theta_step"))
    fail(cfg, sec + ".theta_step",
         "no theta_step for a 2D farfield monitor (its pattern is in the x-y plane, theta = 90 "
         "degrees; phi_step sets the directions)");
  if (c.kind == MonitorKind::Dft && cfg.given(sec + ".fields")) {
    for (Component f : c.fields) {
      if (std::find(components.begin(), components.end(), f) != components.end()) continue;
      fail(cfg, sec + ".fields",
           "components of this " + plane_kind(cfg.grid) + " model (" + component_list(components) +
               "), got " + component_name(f));
    }
  }
}

// The number of modes from the file's header only: the arrays come after the memory check.
// The reader's errors name the modes file and this key.
int mode_count(const MonitorConfig& c) {
  return read_mode_file_info(c.modes_file, "monitor." + c.name + ".modes_file").nmodes;
}

}  // namespace

std::vector<Component> all_components() {
  using C = Component;
  return {C::Ex, C::Ey, C::Ez, C::Hx, C::Hy, C::Hz};
}

std::vector<Component> model_components(const GridConfig& grid) {
  return grid.dims == 2 ? plane_components(grid.mode, grid.equation) : all_components();
}

std::array<int, 6> wall_layers(const BoundaryConfig& b) {
  if (b.type == BoundaryType::Pec) return {0, 0, 0, 0, 0, 0};
  return b.layers;
}

namespace {

// A mode_expansion monitor (3D, a plane): the window checked as a port's is (2 x 2 cells or
// more, outside the UPML, a cell after the plane), the transform's regions those of a port
// facing +axis.
void build_mode_expansion(const RunConfig& cfg, const MonitorConfig& c, const GridGeometry& g,
                          const std::array<int, 6>& layers, MonitorModel& m) {
  const std::string box_key = "monitor." + c.name + ".box";
  check_extents(cfg, c, g, m.lo, m.hi);
  check_frequencies(cfg, c, g);
  m.frequencies_hz = c.frequencies_hz;
  m.mode_count = c.mode_count;
  if (g.any_periodic() || g.any_pmc())
    fail(cfg, "monitor." + c.name + ".type",
         "no mode_expansion monitor in a model with periodic axes or magnetic walls (boundary.periodic, "
         "boundary.pmc): the mode solver's window ends in metal");
  const ModeWindow w = expansion_window(m);
  const int axis = w.axis, u = w.u(), v = w.v(), plane = w.plane;
  if (plane >= g.n[axis])
    fail(cfg, box_key, std::string("a plane with a cell after it along ") + axis_name(g, axis) + " (below " +
                           number_text(g.n[axis] * g.d[axis]) + " m)");
  if (const std::string problem = window_size_problem(g, w); !problem.empty()) fail(cfg, box_key, problem);
  if (const std::string where = window_in_upml(g, w, layers); !where.empty())
    fail(cfg, box_key, "a window outside the UPML layers: " + where);
  if (plane < layers[2 * axis] || plane >= g.n[axis] - layers[2 * axis + 1])
    fail(cfg, box_key, std::string("a plane outside the UPML layers along ") + axis_name(g, axis));
  for (int r = 0; r < 4; ++r) {
    DftRegion reg;
    const int comp = r % 2 == 0 ? u : v;
    reg.component = static_cast<Component>(comp + (r >= 2 ? 3 : 0));
    reg.lo[axis] = plane;
    reg.hi[axis] = plane + 1;
    reg.lo[u] = m.lo[u];
    reg.hi[u] = m.hi[u];
    reg.lo[v] = m.lo[v];
    reg.hi[v] = m.hi[v];
    m.regions.push_back(reg);
  }
}

}  // namespace

std::array<int, 3> box_nodes(const Vec3& corner_m, const GridGeometry& g) {
  std::array<int, 3> idx{};
  for (int a = 0; a < 3; ++a) {
    const long v = std::lround(corner_m[a] / g.d[a]);
    idx[a] = static_cast<int>(std::clamp<long>(v, 0, g.n[a]));
  }
  return idx;
}

std::vector<MonitorFace> monitor_faces(const std::array<int, 3>& lo, const std::array<int, 3>& hi,
                                       const std::array<int, 3>& n,
                                       const std::array<int, 6>& layers, int axes,
                                       const std::array<bool, 3>& pmc) {
  auto face = [&](int a, int plane, int normal) {
    MonitorFace f;
    f.axis = a;
    f.plane = plane;
    f.normal = normal;
    f.lo = lo;
    f.hi = hi;
    f.lo[a] = f.hi[a] = plane;
    f.on_wall = (plane == 0 && layers[2 * a] == 0) || (plane == n[a] && layers[2 * a + 1] == 0);
    f.magnetic_wall = plane == 0 && pmc[static_cast<std::size_t>(a)];
    return f;
  };
  std::vector<MonitorFace> faces;
  for (int a = 0; a < axes; ++a) {
    if (lo[a] != hi[a]) continue;
    faces.push_back(face(a, lo[a], +1));  // a plane: the first zero extent (the loader allows one)
    return faces;
  }
  for (int a = 0; a < axes; ++a) {
    faces.push_back(face(a, lo[a], -1));
    faces.push_back(face(a, hi[a], +1));
  }
  return faces;
}

std::vector<DftRegion> face_regions(const MonitorFace& f, const std::array<int, 3>& n,
                                    const std::vector<Component>& components) {
  const int a = f.axis, p = f.plane;
  const int t[2] = {std::min((a + 1) % 3, (a + 2) % 3), std::max((a + 1) % 3, (a + 2) % 3)};
  std::vector<DftRegion> out;
  for (int electric = 1; electric >= 0; --electric) {
    for (int i = 0; i < 2; ++i) {
      const int b = t[i], c = t[1 - i];
      DftRegion r;
      r.component = static_cast<Component>(b + (electric ? 0 : 3));
      if (std::find(components.begin(), components.end(), r.component) == components.end())
        continue;
      if (electric) {
        r.lo[a] = p, r.hi[a] = p + 1;
        r.lo[b] = f.lo[b], r.hi[b] = f.hi[b];
        r.lo[c] = f.lo[c], r.hi[c] = f.hi[c] + 1;
      } else {
        r.lo[a] = p - 1, r.hi[a] = p + 1;
        r.lo[b] = f.lo[b], r.hi[b] = f.hi[b] + 1;
        r.lo[c] = f.lo[c], r.hi[c] = f.hi[c];
      }
      if (clip(r, n)) out.push_back(r);
    }
  }
  return out;
}

std::vector<DftRegion> dft_regions(const std::array<int, 3>& lo, const std::array<int, 3>& hi,
                                   const std::array<int, 3>& n,
                                   const std::vector<Component>& fields) {
  std::vector<DftRegion> out;
  for (Component comp : fields) {
    DftRegion r;
    r.component = comp;
    for (int a = 0; a < 3; ++a) {
      if (lo[a] < hi[a]) {
        r.lo[a] = lo[a], r.hi[a] = hi[a];
      } else {
        r.lo[a] = std::min(lo[a], n[a] - 1);
        r.hi[a] = r.lo[a] + 1;
      }
    }
    out.push_back(r);
  }
  return out;
}

std::vector<MonitorModel> build_monitors(const RunConfig& cfg, const GridGeometry& g,
                                         std::vector<std::string>& warnings) {
  const bool plane = g.dims == 2;
  std::array<int, 6> layers = wall_layers(cfg.boundary);
  if (plane) layers[4] = layers[5] = 0;  // no z walls: the plane is one cell deep
  const std::vector<Component> components = model_components(cfg.grid);
  std::vector<MonitorModel> out;
  for (const MonitorConfig& c : cfg.monitors) {
    MonitorModel m;
    m.name = c.name;
    m.kind = c.kind;
    if (c.kind == MonitorKind::Modes) {
      // A projection covers every cell: the box is the whole grid.
      m.hi = g.n;
      m.every = c.every;
      m.modes_file = c.modes_file;
      m.nmodes = mode_count(c);
      out.push_back(std::move(m));
      continue;
    }
    m.lo = box_nodes(c.box_lo, g);
    m.hi = box_nodes(c.box_hi, g);
    if (c.kind == MonitorKind::ModeExpansion) {
      build_mode_expansion(cfg, c, g, layers, m);
      out.push_back(std::move(m));
      continue;
    }
    if (g.cylindrical) {  // flux only (config/cyl_checks): the ring section's faces, one phi cell
      m.lo[1] = 0;
      m.hi[1] = 1;
      check_extents(cfg, c, g, m.lo, m.hi);
      check_frequencies(cfg, c, g);
      m.frequencies_hz = c.frequencies_hz;
      m.faces = cyl_monitor_faces(m.lo, m.hi);
      m.regions = cyl_monitor_regions(m.faces, g.n);
      warn_faces_in_upml(m, g, layers, components, warnings);
      out.push_back(std::move(m));
      continue;
    }
    if (plane) {  // the whole depth: z nodes 0..1, its one cell
      m.lo[2] = 0;
      m.hi[2] = 1;
    }
    check_extents(cfg, c, g, m.lo, m.hi);
    if (plane) check_plane_monitor(cfg, c, m.lo, m.hi, components);
    check_frequencies(cfg, c, g);
    m.frequencies_hz = c.frequencies_hz;
    if (c.kind == MonitorKind::Dft) {
      const bool given = !plane || cfg.given("monitor." + c.name + ".fields");
      m.regions = dft_regions(m.lo, m.hi, g.n, given && !c.fields.empty() ? c.fields : components);
    } else {
      m.theta_step_deg = c.theta_step_deg;
      m.phi_step_deg = c.phi_step_deg;
      check_periodic(cfg, c, g, m.lo, m.hi);
      m.faces = monitor_faces(m.lo, m.hi, g.n, layers, plane ? 2 : 3, g.pmc);
      if (c.kind == MonitorKind::FarField) check_walls(cfg, c, m.faces, g);
      // Across a whole period the two faces of a periodic axis cancel: left out.
      if (m.faces.size() > 1)
        m.faces.erase(std::remove_if(m.faces.begin(), m.faces.end(),
                                     [&](const MonitorFace& f) {
                                       return g.periodic[static_cast<std::size_t>(f.axis)] &&
                                              m.lo[f.axis] == 0 && m.hi[f.axis] == g.n[f.axis];
                                     }),
                      m.faces.end());
      if (m.faces.empty())
        fail(cfg, "monitor." + c.name + ".box",
             "a box with a face to measure through: this one spans the whole period along "
             "every axis, where opposite faces cancel (a plane across the period measures "
             "what crosses it)");
      for (const MonitorFace& f : m.faces)
        for (const DftRegion& r : face_regions(f, g.n, components)) m.regions.push_back(r);
      warn_faces_in_upml(m, g, layers, components, warnings);
    }
    out.push_back(std::move(m));
  }
  return out;
}

void load_mode_shapes(const GridGeometry& g, const FieldLayout& layout,
                      std::vector<MonitorModel>& monitors) {
  for (MonitorModel& m : monitors) {
    if (m.kind != MonitorKind::Modes) continue;
    const std::string key = "monitor." + m.name + ".modes_file";
    const int count = read_mode_file(m.modes_file, key, layout, g.d, m.modes);
    // The file changed between its header and its arrays: the memory check counted nmodes.
    if (count != m.nmodes)
      throw ConfigError(m.modes_file, 0, key,
                        "the " + std::to_string(m.nmodes) + " modes its header had a moment ago, "
                        "found " + std::to_string(count) + " (was the file rewritten during the run?)");
  }
}

std::size_t surface_point_count(const MonitorModel& m) {
  if (m.kind != MonitorKind::Flux && m.kind != MonitorKind::FarField) return 0;
  std::size_t n = 0;
  for (const MonitorFace& f : m.faces) {
    std::size_t cells = 1;
    for (int a = 0; a < 3; ++a)
      if (a != f.axis) cells *= static_cast<std::size_t>(std::max(0, f.hi[a] - f.lo[a]));
    n += cells;
  }
  return n;
}

std::size_t surface_fields_bytes(const MonitorModel& m) {
  if (m.kind != MonitorKind::Flux && m.kind != MonitorKind::FarField) return 0;
  using Fields = std::vector<std::array<std::complex<double>, 3>>;  // SurfaceFields::e[f], h[f]
  const std::size_t points = surface_point_count(m), nf = m.frequencies_hz.size();
  return points * kSurfacePointBytes +
         2 * nf * (sizeof(Fields) + points * sizeof(Fields::value_type));
}

std::size_t monitor_host_bytes(const std::vector<MonitorModel>& monitors, const GridGeometry& g,
                               const FieldLayout& layout) {
  std::size_t bytes = 0;
  for (const MonitorModel& m : monitors) {
    const std::size_t points =
        g.cylindrical ? cyl_monitor_points(m, static_cast<int>(g.modes.size())) : m.points();
    bytes += points * m.frequencies_hz.size() * 2 * sizeof(double);
    if (!g.cylindrical) bytes += surface_fields_bytes(m);  // the cylindrical flux sums in place
    bytes += static_cast<std::size_t>(m.nmodes) * 3 * layout.cells() * sizeof(float);
  }
  return bytes;
}

std::vector<std::string> farfield_medium(std::vector<MonitorModel>& monitors,
                                         const FieldLayout& layout,
                                         const std::array<std::vector<std::uint8_t>, 6>& ids,
                                         const MaterialTable& materials) {
  std::vector<std::string> out;
  for (MonitorModel& mon : monitors) {
    if (mon.kind != MonitorKind::FarField) continue;
    int first = -1, other = -1;  // the first material met, and another one if any
    // Every sample with an id (E; H too in a magnetic model, whose mu_r must be one as well).
    for (const DftRegion& r : mon.regions) {
      const auto& comp_ids = ids[static_cast<std::size_t>(r.component)];
      if (comp_ids.empty()) continue;
      const bool electric = is_electric(r.component);
      for (int i = r.lo[0]; i < r.hi[0] && other < 0; ++i)
        for (int j = r.lo[1]; j < r.hi[1] && other < 0; ++j)
          for (int k = r.lo[2]; k < r.hi[2] && other < 0; ++k) {
            // The outer wall's tangential E (PEC) on a face on a bare wall: not the medium.
            const int axis = component_axis(r.component);
            if (electric && ((i == 0 && axis != 0) || (j == 0 && axis != 1) ||
                             (k == 0 && axis != 2 && !layout.plane)))
              continue;
            // An anisotropic material's axes count as one material (it is told apart below).
            const int id = materials.named(comp_ids[layout.index(i, j, k)]);
            if (first < 0) first = id;
            if (id != first) other = id;
          }
    }
    if (first < 0 || (first == MaterialTable::kVacuum && other < 0)) continue;
    const MaterialEntry& e = materials.entry(static_cast<std::uint8_t>(first));
    if (other < 0 && !e.pec && e.sigma == 0 && !e.dispersive() && !e.anisotropic()) {
      mon.medium_eps_r = e.eps_r;
      mon.medium_mu_r = e.mu_r;
      continue;
    }
    const std::string why =
        other >= 0 ? "lies in '" + e.name + "' and in '" +
                         materials.entry(static_cast<std::uint8_t>(other)).name + "'"
                   : "lies in '" + e.name + "', which " +
                         (e.pec            ? std::string("is PEC")
                          : e.dispersive()  ? std::string("is dispersive")
                          : e.anisotropic() ? std::string("is anisotropic")
                                            : std::string("conducts"));
    out.push_back("monitor '" + mon.name + "': its surface " + why +
                  "; the far-field transform needs one lossless, non-dispersive medium around it "
                  "and takes vacuum's (k = 2 pi f / c, eta0), so its pattern is wrong: put the "
                  "farfield box in one such material, clear of every object");
  }
  return out;
}

}  // namespace clfdtd
