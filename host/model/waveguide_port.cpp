// Waveguide ports: the guide found in the mesh, the mode's 1D line, the one-sided TFSF surface and
// the split into incoming and outgoing waves (waveguide_port.hpp).
#include "model/waveguide_port.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

#include "errors.hpp"
#include "model/cross_section.hpp"
#include "model/host_memory.hpp"
#include "model/mode_combination.hpp"
#include "model/mode_split.hpp"
#include "model/parallel_tasks.hpp"
#include "model/input_limits.hpp"
#include "model/number_text.hpp"
#include "model/ports.hpp"
#include "model/waveforms.hpp"

namespace clfdtd {

namespace {

constexpr double kPi = 3.14159265358979323846;
// The line's hard-driven node lies this many cells before the port's plane.
constexpr int kDriveCells = 3;
// The line's absorber: matched electric and magnetic loss rising as the cube of the depth. A mode
// is not matched by it exactly (its cutoff term does not scale with the loss), so the line is
// made long enough that its echo comes back after the run (up to kMaxLineUpdates) and the
// absorber, twice the plane wave's, only has to take what a still longer run sends there.
constexpr int kAbsorberCells = 160;
constexpr double kAbsorberS = 0.5;
constexpr double kMaxLineUpdates = 4e8;
constexpr int kMaxFreeCells = 200000;

std::string key_of(const SourceConfig& s, const char* k) { return "source." + s.name + "." + k; }

// Global cell of guide-local sample (iu, iv) on the node plane w (cell index along the axis).
std::array<int, 3> global_cell(const WaveguidePortModel& p, int iu, int iv, int w) {
  std::array<int, 3> c{};
  c[p.axis] = w;
  c[p.u] = p.lo[0] + iu;
  c[p.v] = p.lo[1] + iv;
  return c;
}

bool conductor(const MaterialTable& materials, std::uint8_t id) {
  return id == MaterialTable::kPec || materials.entry(id).pec;
}

// The source's amplitude w(t) at (s + 1/2) dt, s = 0 .. steps-1: the series a port's default band
// comes from (as a lumped port's V_s).
std::vector<double> line_drive(const SourceConfig& src, long steps, double dt) {
  std::vector<double> v(static_cast<std::size_t>(std::max(0L, steps)));
  for (std::size_t s = 0; s < v.size(); ++s)
    v[s] = src.amplitude * waveform_value(src, (static_cast<double>(s) + 0.5) * dt);
  return v;
}

// The 1D line of the mode along the port's direction (local coordinate zeta = sign (w - plane)),
// hard-driven kDriveCells before zeta = 0; fills the injection's table: row 0 = V(zeta = 0) at
// s dt, row 1 = the global I at the half node before the plane (zeta = -1/2) at (s + 1/2) dt.
void run_mode_line(const WaveguidePortModel& p, const GridGeometry& g, PlaneWaveModel& wave) {
  const double d = g.d[p.axis], dt = g.dt;
  const double eps = kEps0 * p.eps_r, mu = kMu0 * p.mu_r;
  const double kc2 = p.ku_grid * p.ku_grid + p.kv_grid * p.kv_grid;
  const long steps = std::max(0L, g.steps);
  // Free cells past the plane: the echo of the line's far end comes back after the run.
  const double speed = kC0 / std::sqrt(p.eps_r * p.mu_r);
  double free_cells = 0.5 * static_cast<double>(steps) * speed * dt / d + 8;
  if (steps > 0) free_cells = std::min(free_cells, std::max(400.0, kMaxLineUpdates / static_cast<double>(steps)));
  const int free = static_cast<int>(std::min<double>(free_cells, kMaxFreeCells));
  const int nodes = kDriveCells + free + kAbsorberCells + 1;  // zeta = -kDriveCells .. free + absorber
  const int zero = kDriveCells;                                // line index of zeta = 0
  auto loss = [&](double m) {  // m: line index (nodes integers, half nodes + 1/2)
    const double depth = m - (zero + free);
    return depth <= 0 ? 0.0 : kAbsorberS * std::pow(depth / kAbsorberCells, 3);
  };
  const std::size_t n = static_cast<std::size_t>(nodes);
  std::vector<double> V(n, 0.0), I(n - 1, 0.0), X(p.te ? n : n - 1, 0.0);  // X: W (TE) or U (TM)
  // Per node and half node: the loss factor and the step's coefficients of both field kinds there
  // (W is magnetic at nodes, U electric at half nodes).
  std::vector<double> av(n), bv(n), bw(n), ai(n - 1), bi(n - 1), bu(n - 1);
  for (std::size_t m = 0; m < n; ++m) {
    const double s = loss(static_cast<double>(m));
    av[m] = (1 - s) / (1 + s);
    bv[m] = dt / eps / (1 + s);
    bw[m] = dt / mu / (1 + s);
  }
  for (std::size_t m = 0; m + 1 < n; ++m) {
    const double s = loss(static_cast<double>(m) + 0.5);
    ai[m] = (1 - s) / (1 + s);
    bi[m] = dt / mu / (1 + s);
    bu[m] = dt / eps / (1 + s);
  }
  wave.table.assign(static_cast<std::size_t>(steps) * 2, 0.0);
  const std::vector<double> drive = [&] {
    std::vector<double> v(static_cast<std::size_t>(steps) + 1);
    for (std::size_t s = 0; s < v.size(); ++s)
      v[s] = p.source.amplitude * waveform_value(p.source, static_cast<double>(s) * dt);
    return v;
  }();
  V[0] = drive[0];
  for (long s = 0; s < steps; ++s) {
    double* row = wave.table.data() + static_cast<std::size_t>(s) * 2;
    row[0] = V[zero];
    // H-type updates (to (s + 1/2) dt): I at half nodes, and W at nodes (TE).
    for (std::size_t m = 0; m + 1 < n; ++m) {
      double rhs = -(V[m + 1] - V[m]) / d;
      if (!p.te) rhs += X[m];  // TM: + U
      I[m] = ai[m] * I[m] + bi[m] * rhs;
    }
    if (p.te)
      for (std::size_t m = 0; m < n; ++m) X[m] = av[m] * X[m] + bw[m] * kc2 * V[m];
    row[1] = p.sign * I[zero - 1];
    // E-type updates (to (s + 1) dt): V at nodes, and U at half nodes (TM).
    for (std::size_t m = 1; m + 1 < n; ++m) {
      double rhs = -(I[m] - I[m - 1]) / d;
      if (p.te) rhs -= X[m];  // TE: - W
      V[m] = av[m] * V[m] + bv[m] * rhs;
    }
    if (!p.te)
      for (std::size_t m = 0; m + 1 < n; ++m) X[m] = ai[m] * X[m] - bu[m] * kc2 * I[m];
    V[0] = drive[static_cast<std::size_t>(s) + 1];
    V[n - 1] = 0;
  }
}

// Walks from node `start` along guide axis t (0: u, 1: v) in direction dir to the first node whose
// sample `comp` (the E component across t's walls) is a conductor, or the domain's end.
int find_wall(const WaveguidePortModel& p, const GridGeometry& g, const FieldLayout& layout,
              const MaterialTable& materials, const std::vector<std::uint8_t>& id_comp,
              std::array<int, 3> cell, int t, int start, int dir) {
  const int axis = t == 0 ? p.u : p.v;
  for (int i = start; i >= 0 && i <= g.n[axis]; i += dir) {
    if (i == g.n[axis] || (i == 0 && dir < 0)) return i;
    cell[axis] = i;
    if (conductor(materials, id_comp[layout.index(cell[0], cell[1], cell[2])])) return i;
  }
  return -1;
}

// Among `modes`, the one whose transverse E is most like the profile (eu, ev) (the cosine of the
// two sample vectors, largest |cos|), with its sign made to agree; nullptr when none comes within
// `least` (the port's mode is not among them: cut off, or changed past recognition).
const GuidedMode* like_profile(const std::vector<GuidedMode>& modes, const std::vector<double>& eu,
                               const std::vector<double>& ev, double least, double& sign) {
  double norm_p = 0;
  for (double e : eu) norm_p += e * e;
  for (double e : ev) norm_p += e * e;
  const GuidedMode* best = nullptr;
  double best_cos = 0;
  for (const GuidedMode& m : modes) {
    double dot = 0, norm_m = 0;
    for (std::size_t s = 0; s < eu.size(); ++s) dot += m.eu[s] * eu[s], norm_m += m.eu[s] * m.eu[s];
    for (std::size_t s = 0; s < ev.size(); ++s) dot += m.ev[s] * ev[s], norm_m += m.ev[s] * m.ev[s];
    const double c = dot / std::sqrt(norm_p * norm_m);
    if (std::fabs(c) > std::fabs(best_cos)) best_cos = c, best = &m;
  }
  sign = best_cos < 0 ? -1.0 : 1.0;
  return std::fabs(best_cos) >= least ? best : nullptr;
}

// How similar a solved port's mode must stay to its launched profile, at another frequency, to be
// taken for it.
constexpr double kSameMode = 0.8;

// solve_modes with its failures as the port's bad input (exit 2), naming the key.
std::vector<GuidedMode> port_solve(const RunConfig& cfg, const SourceConfig& src, const CrossSection& cs,
                                   double f, int count) {
  try {
    return solve_modes(cs, f, count);
  } catch (const std::exception& e) {
    throw cfg.error_at(key_of(src, "mode"), "a mode the solver finds at " + number_text(f) + " Hz (" + e.what() + ")");
  }
}

// A port of a solved mode (source.mode = k): the window (`size` about the position, or the
// plane inside the UPML), the guide the same a cell either side of the plane, mode k at the
// source's frequency as the profiles, and the line that carries its beta there.
void build_solved_mode(const RunConfig& cfg, const SourceConfig& src, const GridGeometry& g,
                       const FieldLayout& layout, const MaterialTable& materials,
                       const std::array<std::vector<std::uint8_t>, 6>& ids, const UpmlProfile& upml,
                       WaveguidePortModel& p) {
  const std::string size_key = key_of(src, "size"), mode_key = key_of(src, "mode");
  const int layers_lo = upml.layers[2 * p.axis], layers_hi = upml.layers[2 * p.axis + 1];
  if (p.plane - 1 < layers_lo || p.plane + 1 > g.n[p.axis] - layers_hi)
    throw cfg.error_at(key_of(src, "position"),
                       "a port plane a cell or more outside the UPML layers along " + std::string(axis_name(g, p.axis)) +
                           " (" + number_text((layers_lo + 1) * g.d[p.axis]) + " to " +
                           number_text((g.n[p.axis] - layers_hi - 1) * g.d[p.axis]) + " m)");
  ModeWindow w;
  w.axis = p.axis;
  w.plane = p.plane;
  const int axes[2] = {p.u, p.v};
  for (int t = 0; t < 2; ++t) {
    const int a = axes[t];
    w.lo[t] = upml.layers[2 * a];
    w.hi[t] = g.n[a] - upml.layers[2 * a + 1];
    if (src.size_m) {
      const double half = 0.5 * (*src.size_m)[a];
      w.lo[t] = static_cast<int>(std::lround(cells_of(src.position[a] - half, g.d[a])));
      w.hi[t] = static_cast<int>(std::lround(cells_of(src.position[a] + half, g.d[a])));
    }
  }
  if (const std::string where = window_in_upml(g, w, upml.layers); !where.empty())
    throw cfg.error_at(size_key, "a window inside the domain and outside the UPML layers: " + where);
  if (const std::string problem = window_size_problem(g, w); !problem.empty()) throw cfg.error_at(size_key, problem);
  // The guide must not change a cell before and after the plane (the launch and the measurement
  // reach those planes).
  if (const std::string change = guide_change(g, layout, ids, w); !change.empty())
    throw cfg.error_at(key_of(src, "position"),
                       "a port plane where the guide does not change a cell before and after it (" + change + ")");
  try {
    p.section = model_cross_section(g, layout, materials, ids, w);
  } catch (const std::invalid_argument& e) {
    throw cfg.error_at(key_of(src, "position"), std::string("a window the mode solver takes: ") + e.what());
  }
  check_host_memory(static_cast<std::size_t>(mode_solver_bytes(p.section, p.solved)),
                    "the mode solver of waveguide port '" + p.name + "'");
  std::vector<GuidedMode> modes = port_solve(cfg, src, p.section, src.frequency_hz, p.solved);
  if (static_cast<int>(modes.size()) < p.solved)
    throw cfg.error_at(mode_key, "a mode that travels at " + number_text(src.frequency_hz) + " Hz in the window: " +
                                     std::to_string(modes.size()) + (modes.size() == 1 ? " mode was" : " modes were") +
                                     " found there, mode " + std::to_string(p.solved) + " was asked for (clfdtd modes lists them)");
  const std::size_t k = static_cast<std::size_t>(p.solved - 1);
  const int shared = modes[k].degenerate;
  // The whole group, to rotate it: the list stops at mode k, its partners may come after it.
  if (shared > 1 && src.mode_e_axis) modes = port_solve(cfg, src, p.section, src.frequency_hz, p.solved + shared - 1);
  if (shared > 1 && !src.mode_e_axis)
    throw cfg.error_at(mode_key, "a mode of its own beta, or an axis: mode " + std::to_string(p.solved) + " at " +
                                     number_text(src.frequency_hz) + " Hz shares its beta with " +
                                     std::to_string(shared - 1) +
                                     " other (a symmetric guide), so which of their combinations the port "
                                     "launches and measures is not defined; give `axis` (the combination whose "
                                     "E lies most along it), or break the symmetry");
  if (shared == 1 && src.mode_e_axis)
    throw cfg.error_at(key_of(src, "axis"), "no axis for a mode alone at its beta (mode " + std::to_string(p.solved) +
                                                " at " + number_text(src.frequency_hz) +
                                                " Hz: its fields are set; clfdtd modes lists each mode's E along the "
                                                "axes)");
  p.group = shared;
  if (src.mode_e_axis) {
    p.axis_overlap = polarization_overlap(modes, k);
    polarize_group(modes, k, *src.mode_e_axis == p.u);
  }
  // Of a group the combination along the axis is its first member.
  const GuidedMode& m = modes[src.mode_e_axis ? degenerate_group(modes, k).first : k];
  double peak = 0;
  for (double e : m.eu) peak = std::max(peak, std::fabs(e));
  for (double e : m.ev) peak = std::max(peak, std::fabs(e));
  p.scale = 1 / peak;
  p.prof_eu = m.eu;
  p.prof_ev = m.ev;
  p.prof_hu = m.hu;
  p.prof_hv = m.hv;
  for (double& e : p.prof_eu) e *= p.scale;
  for (double& e : p.prof_ev) e *= p.scale;
  for (double& h : p.prof_hu) h *= p.scale * kEta0;
  for (double& h : p.prof_hv) h *= p.scale * kEta0;
  // The launch line: a TE line (B^2 = K0^2 eps_r mu_r - Kc^2) whose B and dB^2/dK0^2 are the
  // mode's at the source's frequency (a second solve 1e-3 above it), and whose impedance there,
  // Omega mu / B, is eta0 (its V and I then carry E and eta0 H in the profiles' proportion). A
  // metal guide's mode is such a line exactly; a dielectric guide's is matched to first order
  // about the frequency.
  auto grid_k0 = [&](double f) { return 2 * std::sin(kPi * f * g.dt) / (kC0 * g.dt); };
  const double k0 = grid_k0(src.frequency_hz), b0 = m.beta_grid;
  p.n_line = b0 / k0;
  double index2 = p.n_line * p.n_line, kc2 = 0;
  const double f1 = src.frequency_hz * (1 + 1e-3);
  double sign = 1;
  // Near the mode's beta first; all modes from the largest down where that misses it.
  std::vector<GuidedMode> above;
  if (p.group == 1) {  // near a group's beta Arnoldi may return some of it only
    try {
      above = solve_modes_near(p.section, f1, b0, 3);
    } catch (const std::exception&) {
    }
  }
  if (like_profile(above, m.eu, m.ev, kSameMode, sign) == nullptr) {
    above = port_solve(cfg, src, p.section, f1, p.solved + p.group + 3);
    align_groups(above, m.eu, m.ev);
  }
  if (const GuidedMode* m1 = like_profile(above, m.eu, m.ev, kSameMode, sign)) {
    const double b1 = m1->beta_grid, k1 = grid_k0(f1);
    const double slope = (b1 * b1 - b0 * b0) / (k1 * k1 - k0 * k0);
    if (slope > 0 && k0 * k0 * slope >= b0 * b0) {
      index2 = slope;
      kc2 = k0 * k0 * slope - b0 * b0;
    }
  }
  p.mu_r = p.n_line;
  p.eps_r = index2 / p.n_line;
  p.te = true;
  p.mu = p.nv = 0;
  p.ku_grid = std::sqrt(kc2);
  p.kv_grid = 0;
  p.cutoff_hz = p.cutoff_analytic_hz = 0;
  p.u_dominant = m.u_fraction >= 0.5;
  p.lo = w.lo;
  p.hi = w.hi;
  p.a_m = (w.hi[0] - w.lo[0]) * g.d[p.u];
  p.b_m = (w.hi[1] - w.lo[1]) * g.d[p.v];
  p.fill = "mode window";
}

// A te<m><n> or tm<m><n> port of a rectangular metal guide: its walls found around the position,
// one material inside on the plane and a cell either side, the mode's analytic profiles on the
// grid and its cutoff.
void build_rectangular_mode(const RunConfig& cfg, const SourceConfig& src, const GridGeometry& g,
                            const FieldLayout& layout, const MaterialTable& materials,
                            const std::array<std::vector<std::uint8_t>, 6>& ids, const UpmlProfile& upml,
                            double f_grid, WaveguidePortModel& p) {
  const std::string pos_key = key_of(src, "position");
  // The walls: from the position's cell, along u the first conductor of E_v (and E_w), along v
  // that of E_u.
  std::array<int, 3> cell{};
  for (int a = 0; a < 3; ++a)
    cell[a] = std::min(g.n[a] - 1, std::max(0, static_cast<int>(std::floor(src.position[a] / g.d[a]))));
  cell[p.axis] = p.plane;
  const std::vector<std::uint8_t>& id_u = ids[p.u];  // E_u
  const std::vector<std::uint8_t>& id_v = ids[p.v];  // E_v
  const int iu0 = cell[p.u], iv0 = cell[p.v];
  const int ulo = find_wall(p, g, layout, materials, id_v, cell, 0, iu0, -1);
  const int uhi = find_wall(p, g, layout, materials, id_v, cell, 0, iu0 + 1, +1);
  const int vlo = find_wall(p, g, layout, materials, id_u, cell, 1, iv0, -1);
  const int vhi = find_wall(p, g, layout, materials, id_u, cell, 1, iv0 + 1, +1);
  if (ulo < 0 || uhi < 0 || vlo < 0 || vhi < 0)
    throw cfg.error_at(pos_key, "a position inside a metal waveguide (no conductor found around it)");
  p.lo = {ulo, vlo};
  p.hi = {uhi, vhi};
  const int cu = uhi - ulo, cv = vhi - vlo;
  p.a_m = cu * g.d[p.u];
  p.b_m = cv * g.d[p.v];
  const std::string where = "the guide found around the port (" + std::string(axis_name(g, p.u)) + " " +
                            number_text(ulo * g.d[p.u]) + " to " + number_text(uhi * g.d[p.u]) +
                            " m, " + axis_name(g, p.v) + " " + number_text(vlo * g.d[p.v]) + " to " +
                            number_text(vhi * g.d[p.v]) + " m)";
  if (std::max(cu, cv) < 2)
    throw cfg.error_at(pos_key, "a waveguide at least 2 cells wide (and 1 cell high); " + where +
                                    " is " + std::to_string(cu) + " x " + std::to_string(cv) + " cells");
  // The rectangle: conductors on its walls, one material inside, on the plane and the planes
  // a cell before and after it (the corrections and the measurement reach them).
  std::uint8_t fill = 0;
  bool have_fill = false;
  for (int w = p.plane - 1; w <= p.plane + 1; ++w)
    for (int c = 0; c < 3; ++c) {
      if (c == p.axis && w == p.plane + 1) continue;  // E_w at w + 1/2: planes -1/2, +1/2
      const bool along_u = c == p.u, along_v = c == p.v;
      for (int iu = 0; iu <= cu; ++iu)
        for (int iv = 0; iv <= cv; ++iv) {
          // A sample of component c at guide node (iu, iv): E_u spans cells along u (iu < cu),
          // E_v cells along v, E_w sits on nodes.
          if ((along_u && iu == cu) || (along_v && iv == cv)) continue;
          const bool on_wall_u = !along_u && (iu == 0 || iu == cu);
          const bool on_wall_v = !along_v && (iv == 0 || iv == cv);
          std::array<int, 3> gc{};
          gc[p.axis] = w;
          gc[p.u] = ulo + iu;
          gc[p.v] = vlo + iv;
          const bool outside = gc[p.u] >= g.n[p.u] || gc[p.v] >= g.n[p.v];
          const std::uint8_t id = outside ? MaterialTable::kPec : ids[c][layout.index(gc[0], gc[1], gc[2])];
          if (on_wall_u || on_wall_v) {
            if (!conductor(materials, id))
              throw cfg.error_at(pos_key, "a position inside a closed rectangular metal waveguide: " +
                                              where + " has no conductor at " +
                                              component_name(static_cast<Component>(c)) + " of cell (" +
                                              std::to_string(gc[0]) + ", " + std::to_string(gc[1]) + ", " +
                                              std::to_string(gc[2]) + ") on its wall");
            continue;
          }
          if (upml.in_pml(gc[0], gc[1], gc[2], g.n))
            throw cfg.error_at(pos_key, "a port whose guide lies outside the UPML layers at its plane; " +
                                            where + " reaches into them");
          if (!conductor(materials, id) && materials.entry(id).anisotropic())
            throw cfg.error_at(pos_key, "an isotropic material across the waveguide at the port's plane; " + where +
                                            " holds '" + materials.user_name(id) +
                                            "', which is anisotropic (not offered yet at a waveguide port)");
          if (conductor(materials, id) || (have_fill && id != fill))
            throw cfg.error_at(pos_key, "one material across the waveguide at the port's plane (and a cell "
                                        "before and after it); " + where + " holds " +
                                        (conductor(materials, id) ? std::string("a conductor")
                                                                  : "'" + materials.entry(id).name + "' and '" +
                                                                        materials.entry(fill).name + "'") +
                                        " there");
          fill = id;
          have_fill = true;
        }
    }
  const MaterialEntry& fe = materials.entry(fill);
  if (fe.sigma != 0 || fe.dispersive())
    throw cfg.error_at(pos_key, "a lossless, non-dispersive material across the waveguide at the port; '" +
                                    fe.name + "' is " + (fe.sigma != 0 ? "lossy" : "dispersive"));
  // H inside the guide: H_u off the u walls (iu in 1 .. cu-1, iv in 0 .. cv-1), H_v off the v
  // walls, H_w everywhere across (cell centres), on the half planes before and after the plane.
  if (!ids[3].empty())
    for (int c = 3; c < 6; ++c)
      for (int w = p.plane - 1; w <= p.plane; ++w)
        for (int iu = c - 3 == p.u ? 1 : 0; iu < cu; ++iu)
          for (int iv = c - 3 == p.v ? 1 : 0; iv < cv; ++iv) {
            std::array<int, 3> gc{};
            gc[p.axis] = w;
            gc[p.u] = ulo + iu;
            gc[p.v] = vlo + iv;
            const std::uint8_t id = ids[c][layout.index(gc[0], gc[1], gc[2])];
            if (materials.entry(id).mu_r != fe.mu_r)
              throw cfg.error_at(pos_key, "one permeability across the waveguide at the port; " + where +
                                              " holds mu_r " + number_text(materials.entry(id).mu_r) +
                                              " and " + number_text(fe.mu_r));
          }
  p.fill = fe.name;
  p.eps_r = fe.eps_r;
  p.mu_r = fe.mu_r;
  // The mode: m half waves along the longer side (u on a tie), n along the other.
  const bool u_longer = p.a_m >= p.b_m * (1 - 1e-12);
  p.mu = u_longer ? src.mode_m : src.mode_n;
  p.nv = u_longer ? src.mode_n : src.mode_m;
  const std::string mode_key = key_of(src, "mode");
  if (p.mu >= cu || p.nv >= cv)
    throw cfg.error_at(mode_key, "a mode the guide's cells hold (fewer half waves than cells on each side: " +
                                     std::to_string(cu) + " x " + std::to_string(cv) + "), got " +
                                     p.mode_text());
  p.ku_grid = 2 * std::sin(p.mu * kPi / cu / 2) / g.d[p.u];
  p.kv_grid = 2 * std::sin(p.nv * kPi / cv / 2) / g.d[p.v];
  const double kc = std::hypot(p.ku_grid, p.kv_grid);
  const double speed = kC0 / std::sqrt(p.eps_r * p.mu_r);
  p.cutoff_analytic_hz = speed / 2 * std::hypot(p.mu / p.a_m, p.nv / p.b_m);
  const double s_c = kc * speed * g.dt / 2;
  p.cutoff_hz = s_c < 1 ? std::asin(s_c) / (kPi * g.dt) : f_grid;
  // The profiles' scale: the largest |E| sample is 1.
  double peak = 0;
  for (int iu = 0; iu < cu; ++iu)
    for (int iv = 0; iv < cv; ++iv)
      for (int c : {p.u, p.v}) peak = std::max(peak, std::fabs(mode_profile(p, false, c, iu, iv)));
  if (!(peak > 0)) throw cfg.error_at(mode_key, "a mode with a field (" + p.mode_text() + " has none on this grid)");
  p.scale = 1 / peak;
  if (p.cutoff_hz >= f_grid * (1 - 1e-9))
    throw cfg.error_at(mode_key, "a mode whose cutoff the grid carries (" + p.mode_text() + " in " + where +
                                     " is cut off at " + number_text(p.cutoff_analytic_hz) +
                                     " Hz, above the grid's " + number_text(f_grid) + " Hz)");
}

// A solved mode's waves (port_waves): the mode solved again at each frequency, its sign taken so
// that its E overlaps the launched profile positively, and the run's E and H split into its two
// waves (split_on_mode), the port's a the one travelling into the model.
PortWaves solved_port_waves(const WaveguidePortModel& p, const MonitorModel& mon, const GridGeometry& g,
                            const std::vector<std::complex<double>>& dft) {
  const std::size_t nf = p.frequencies_hz.size();
  const CrossSection& cs = p.section;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  PortWaves out;
  out.a.assign(nf, {nan, nan});
  out.b.assign(nf, {nan, nan});
  out.beta.assign(nf, {nan, 0});
  // The port's mode at frequency f: of those found, the one most like the launched profile, if
  // like enough (modes may cross in the band). Looked for first near the launch line's Beta
  // (B^2 = K0^2 eps_r mu_r - Kc^2, the mode's first-order fit), then, if not found there, among
  // all modes from the largest beta down; a failed solve leaves the row nan rather than the run's
  // other outputs unwritten.
  auto port_mode = [&](double f, double& sign) -> std::optional<GuidedMode> {
    const double k0 = 2 * std::sin(kPi * f * g.dt) / (kC0 * g.dt);
    const double b2 = k0 * k0 * p.eps_r * p.mu_r - p.ku_grid * p.ku_grid;
    for (const bool near : {true, false}) {
      // Near a group's beta Arnoldi may return some of it only (and slowly): the full list then.
      if (near && (!(b2 > 0) || p.group > 1)) continue;
      std::vector<GuidedMode> modes;
      try {
        modes = near ? solve_modes_near(cs, f, std::sqrt(b2), 3) : solve_modes(cs, f, p.solved + p.group + 3);
      } catch (const TasksStopped&) {
        throw;  // the run was asked to stop: no other solve
      } catch (const std::exception&) {
        continue;
      }
      align_groups(modes, p.prof_eu, p.prof_ev);
      const GuidedMode* m = like_profile(modes, p.prof_eu, p.prof_ev, kSameMode, sign);
      // The launched combination's partners must all be there to choose it among them.
      if (m && degenerate_group(modes, static_cast<std::size_t>(m - modes.data())).second ==
                   static_cast<std::size_t>(p.group))
        return *m;
    }
    return std::nullopt;
  };
  SplitPlane plane;
  plane.axis = p.axis;
  plane.u = p.u;
  plane.lo = p.lo;
  plane.h_side = p.sign;
  plane.dw = g.d[p.axis];
  auto measure = [&](std::size_t f) {
    double sign = 1;
    const std::optional<GuidedMode> found = port_mode(p.frequencies_hz[f], sign);
    if (!found) return;
    const TwoWaves w = split_on_mode(*found, cs, mon, plane, dft, f, nf);
    out.a[f] = sign * (p.sign > 0 ? w.forward : w.backward);
    out.b[f] = sign * (p.sign > 0 ? w.backward : w.forward);
    out.beta[f] = {found->beta, 0};
  };
  // The frequencies' solves are independent: side by side, each holding its own factorisation.
  run_tasks_in_parallel(nf, mode_solver_bytes(cs, p.solved + p.group + 3), measure);
  return out;
}

}  // namespace

std::string WaveguidePortModel::mode_text() const {
  if (solved > 0) return "mode " + std::to_string(solved) + " (solved)";
  const bool wide = source.mode_m > 9 || source.mode_n > 9;  // TE12,3: not TE123
  return std::string(te ? "TE" : "TM") + std::to_string(source.mode_m) + (wide ? "," : "") +
         std::to_string(source.mode_n);
}

double mode_profile(const WaveguidePortModel& p, bool is_h, int comp, int iu, int iv) {
  if (comp == p.axis) return 0;
  if (p.solved > 0) {
    const int nu = p.section.nu, nv = p.section.nv;
    const bool along_u = comp == p.u;
    // E_u, H_v: nu x (nv + 1) samples; E_v, H_u: (nu + 1) x nv.
    const bool u_rows = along_u != is_h;
    if (iu < 0 || iv < 0 || iu > nu || iv > nv || (u_rows && iu == nu) || (!u_rows && iv == nv)) return 0;
    const std::size_t s = static_cast<std::size_t>(iu) + static_cast<std::size_t>(u_rows ? nu : nu + 1) * iv;
    if (!is_h) return along_u ? p.prof_eu[s] : p.prof_ev[s];
    return along_u ? p.prof_hu[s] : p.prof_hv[s];
  }
  const bool along_u = comp == p.u;
  // Positions from the low walls (m): u-directed E and v-directed H sit half a cell along u;
  // v-directed E and u-directed H half a cell along v.
  const bool half_u = along_u != is_h;  // E_u, H_v: (iu + 1/2, iv); E_v, H_u: (iu, iv + 1/2)
  const double du = p.a_m / std::max(1, p.hi[0] - p.lo[0]);
  const double dv = p.b_m / std::max(1, p.hi[1] - p.lo[1]);
  const double x = (iu + (half_u ? 0.5 : 0.0)) * du, y = (iv + (half_u ? 0.0 : 0.5)) * dv;
  const double ku = p.mu * kPi / p.a_m, kv = p.nv * kPi / p.b_m;
  const double cs = std::cos(ku * x) * std::sin(kv * y), sc = std::sin(ku * x) * std::cos(kv * y);
  const double Ku = p.ku_grid, Kv = p.kv_grid;
  double value = 0;
  if (p.te) {
    if (!is_h) value = along_u ? Kv * cs : -Ku * sc;
    else value = along_u ? Ku * sc : Kv * cs;
  } else {
    if (!is_h) value = along_u ? Ku * cs : Kv * sc;
    else value = along_u ? -Kv * sc : Ku * cs;
  }
  return value * p.scale;
}

ModeWave mode_wave(const WaveguidePortModel& p, const GridGeometry& g, double f_hz) {
  const double d = g.d[p.axis], dt = g.dt;
  const double eps = kEps0 * p.eps_r, mu = kMu0 * p.mu_r;
  const double omega = 2 * std::sin(kPi * f_hz * dt) / dt;  // the grid's Omega
  const double kc2 = p.ku_grid * p.ku_grid + p.kv_grid * p.kv_grid;
  // 2 sin(beta d / 2) / d: real above cutoff, -i alpha below (a wave decaying along +axis).
  const double bz2 = omega * omega * eps * mu - kc2;
  const std::complex<double> bz = bz2 >= 0 ? std::complex<double>(std::sqrt(bz2), 0)
                                           : std::complex<double>(0, -std::sqrt(-bz2));
  ModeWave w;
  w.beta = 2.0 / d * std::asin(bz * (d / 2));
  w.impedance = p.te ? omega * mu / bz : bz / (omega * eps);
  return w;
}

PortWaves port_waves(const WaveguidePortModel& p, const MonitorModel& mon, const GridGeometry& g,
                     const std::vector<std::complex<double>>& dft) {
  PortWaves out;
  const std::size_t nf = p.frequencies_hz.size();
  if (dft.size() != mon.points() * nf)
    throw std::invalid_argument("waveguide port '" + p.name + "': " + std::to_string(dft.size()) +
                                " transformed values for " + std::to_string(mon.points()) + " points");
  if (p.solved > 0) return solved_port_waves(p, mon, g, dft);
  // Projections: V = sum E . e / sum e^2 over regions 0, 1; I = sum H . h / sum h^2 over 2, 3.
  std::vector<std::complex<double>> V(nf), I(nf);
  double ne = 0, nh = 0;
  std::size_t first = 0;
  for (std::size_t r = 0; r < mon.regions.size(); ++r) {
    const DftRegion& reg = mon.regions[r];
    const bool is_h = !is_electric(reg.component);
    const int comp = component_axis(reg.component);
    std::size_t k = first;
    for (int i = reg.lo[0]; i < reg.hi[0]; ++i)
      for (int j = reg.lo[1]; j < reg.hi[1]; ++j)
        for (int l = reg.lo[2]; l < reg.hi[2]; ++l, ++k) {
          const std::array<int, 3> c{i, j, l};
          const double w = mode_profile(p, is_h, comp, c[p.u] - p.lo[0], c[p.v] - p.lo[1]);
          (is_h ? nh : ne) += w * w;
          for (std::size_t f = 0; f < nf; ++f) (is_h ? I : V)[f] += w * dft[k * nf + f];
        }
    first += reg.count();
  }
  const double area = p.a_m / (p.hi[0] - p.lo[0]) * p.b_m / (p.hi[1] - p.lo[1]);
  const double d = g.d[p.axis];
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t f = 0; f < nf; ++f) {
    const ModeWave w = mode_wave(p, g, p.frequencies_hz[f]);
    out.beta.push_back(w.beta);
    if (!(p.frequencies_hz[f] > p.cutoff_hz) || std::fabs(w.beta.imag()) > 0) {
      out.a.emplace_back(nan, nan);
      out.b.emplace_back(nan, nan);
      continue;
    }
    const std::complex<double> v = V[f] / ne, i = I[f] / nh;
    // V = A + B at the plane, Z I = A q - B / q half a cell along sign * axis (q = e^(-i beta
    // sign d / 2)): A travels along +axis, B along -axis.
    const std::complex<double> q = std::exp(std::complex<double>(0, -w.beta.real() * p.sign * d / 2));
    const std::complex<double> A = (w.impedance * i + v / q) / (q + 1.0 / q), B = v - A;
    // The Yee grid's power of a wave of amplitude A through the plane: 1/2 |A|^2 (sum e^2 dA)
    // cos(beta d / 2) / Z (E at the plane, H the mean of the two half planes around it).
    const double norm = std::sqrt(ne * area * std::cos(w.beta.real() * d / 2) / (2 * w.impedance.real()));
    out.a.push_back((p.sign > 0 ? A : B) * norm);
    out.b.push_back((p.sign > 0 ? B : A) * norm);
  }
  return out;
}

std::vector<WaveguidePortModel> build_waveguide_ports(const RunConfig& cfg, const GridGeometry& g,
                                                      const FieldLayout& layout,
                                                      const MaterialTable& materials,
                                                      const std::array<std::vector<std::uint8_t>, 6>& ids,
                                                      const UpmlProfile& upml,
                                                      std::vector<PortModel>& lumped,
                                                      std::vector<PlaneWaveModel>& injections,
                                                      std::vector<MonitorModel>& monitors) {
  std::vector<WaveguidePortModel> out;
  const double f_grid = grid_cutoff_frequency_hz(cfg, g);
  for (const SourceConfig& src : cfg.waveguide_ports) {
    WaveguidePortModel p;
    p.name = src.name;
    p.source = src;
    p.axis = src.direction_axis;
    p.sign = src.direction_sign;
    p.u = (p.axis + 1) % 3;
    p.v = (p.axis + 2) % 3;
    p.te = src.mode_te;
    p.driven = src.amplitude != 0;
    const std::string pos_key = key_of(src, "position");
    if (g.any_periodic() || g.any_pmc())
      throw cfg.error_at(key_of(src, "type"), "no waveguide port in a model with periodic axes or "
                                              "magnetic walls (boundary.periodic, boundary.pmc)");
    // The port's plane: the node plane nearest the position along the axis.
    const double w_cells = src.position[p.axis] / g.d[p.axis];
    p.plane = static_cast<int>(std::floor(w_cells + 0.5));
    if (p.plane < 2 || p.plane > g.n[p.axis] - 2)
      throw cfg.error_at(pos_key, "a port plane at least 2 cells from the domain's ends along " +
                                      std::string(axis_name(g, p.axis)));
    p.solved = src.mode_solved;
    if (p.solved > 0) {
      build_solved_mode(cfg, src, g, layout, materials, ids, upml, p);
    } else {
      build_rectangular_mode(cfg, src, g, layout, materials, ids, upml, f_grid, p);
    }
    // Frequencies: the given ones, or 201 over the source's band above cutoff (the first driven
    // port's band for an undriven one).
    p.frequencies_hz = src.frequencies_hz;
    for (double f : p.frequencies_hz)
      if (f > f_grid)
        throw cfg.error_at(key_of(src, "frequencies"),
                           "frequencies in (0, " + number_text(f_grid) + "] Hz (the grid's cutoff), got " +
                               number_text(f));
    if (p.frequencies_hz.empty() && p.driven) {
      std::vector<double> band = source_band(line_drive(src, g.steps, g.dt), g.dt, f_grid);
      const double lo = 1.01 * p.cutoff_hz;
      if (!band.empty() && band.front() < lo) {
        const double hi = band.back();
        band.clear();
        if (hi > lo)
          for (int k = 0; k < 201; ++k) band.push_back(lo + (hi - lo) * k / 200.0);
      }
      if (p.solved > 0 && band.size() > 21) {  // each frequency is a mode solve at the end
        const double flo = band.front(), fhi = band.back();
        band.clear();
        for (int k = 0; k < 21; ++k) band.push_back(flo + (fhi - flo) * k / 20.0);
      }
      if (band.empty())
        throw cfg.error_at(key_of(src, "frequency"),
                           "a source band above the mode's cutoff (" + number_text(p.cutoff_hz) +
                               " Hz), or give `frequencies`");
      p.frequencies_hz = band;
    }
    // The monitor: E_u, E_v on the plane; H_u, H_v half a cell along sign * axis.
    MonitorModel mon;
    mon.name = p.name;
    mon.kind = MonitorKind::WaveguidePort;
    mon.dft_every = 1;
    const int h_plane = p.sign > 0 ? p.plane : p.plane - 1;
    for (int r = 0; r < 4; ++r) {
      DftRegion reg;
      const int c = r % 2 == 0 ? p.u : p.v;
      reg.component = static_cast<Component>(c + (r >= 2 ? 3 : 0));
      reg.lo[p.axis] = r >= 2 ? h_plane : p.plane;
      reg.hi[p.axis] = reg.lo[p.axis] + 1;
      reg.lo[p.u] = p.lo[0];
      reg.hi[p.u] = std::min(p.hi[0], g.n[p.u]);
      reg.lo[p.v] = p.lo[1];
      reg.hi[p.v] = std::min(p.hi[1], g.n[p.v]);
      mon.regions.push_back(reg);
    }
    for (int a = 0; a < 3; ++a) {
      mon.lo[a] = a == p.axis ? p.plane : (a == p.u ? p.lo[0] : p.lo[1]);
      mon.hi[a] = a == p.axis ? p.plane : (a == p.u ? p.hi[0] : p.hi[1]);
    }
    p.monitor = static_cast<int>(monitors.size());
    out.push_back(p);
    monitors.push_back(std::move(mon));
  }
  // Undriven ports take the first driven waveguide port's frequencies, or a driven lumped port's;
  // undriven lumped ports without a band (no lumped port driven) the first driven waveguide
  // port's. Each undriven port's S21 comes from the one driven port, of either kind.
  const auto first_driven = std::find_if(out.begin(), out.end(), [](const WaveguidePortModel& p) { return p.driven; });
  const auto lumped_driven = std::find_if(lumped.begin(), lumped.end(), [](const PortModel& p) { return p.driven; });
  const long guided_count = std::count_if(out.begin(), out.end(), [](const WaveguidePortModel& p) { return p.driven; });
  const long lumped_count = std::count_if(lumped.begin(), lumped.end(), [](const PortModel& p) { return p.driven; });
  for (WaveguidePortModel& p : out) {
    if (p.driven) continue;
    if (p.frequencies_hz.empty()) {
      if (first_driven != out.end())
        p.frequencies_hz = first_driven->frequencies_hz;
      else if (lumped_driven != lumped.end())
        p.frequencies_hz = lumped_driven->frequencies_hz;
      else
        throw cfg.error_at(key_of(p.source, "frequencies"),
                           "frequencies for a waveguide port with amplitude 0 when no port is driven "
                           "(such a port takes a driven port's band)");
    }
    if (guided_count == 0 && lumped_count == 1 && p.frequencies_hz == lumped_driven->frequencies_hz)
      p.s21_from_lumped = static_cast<int>(lumped_driven - lumped.begin());
  }
  for (PortModel& l : lumped) {
    if (l.driven) continue;
    if (l.frequencies_hz.empty() && first_driven != out.end()) l.frequencies_hz = first_driven->frequencies_hz;
    if (lumped_count == 0 && guided_count == 1 && l.frequencies_hz == first_driven->frequencies_hz)
      l.s21_from_guided = static_cast<int>(first_driven - out.begin());
  }
  for (WaveguidePortModel& p : out) {
    monitors[static_cast<std::size_t>(p.monitor)].frequencies_hz = p.frequencies_hz;
    if (!p.driven) continue;
    // The injection: a one-sided TFSF surface on the plane (rows: 0 = V at the plane at s dt,
    // 1 = the global I at the half node behind it at (s + 1/2) dt).
    PlaneWaveModel wave;
    wave.name = p.name;
    wave.source = p.source;
    wave.guided_port = true;
    wave.axis = p.axis;
    wave.sign = p.sign;
    wave.first = p.plane;
    wave.width = 1;
    wave.background = p.fill;
    for (int a = 0; a < 3; ++a) {
      wave.lo[a] = a == p.axis ? p.plane : (a == p.u ? p.lo[0] : p.lo[1]);
      wave.hi[a] = a == p.axis ? p.plane : (a == p.u ? p.hi[0] : p.hi[1]);
    }
    const double d = g.d[p.axis];
    // The update coefficients of each sample: the filling's, or (a solved mode) the sample's own
    // material as the solver read it (a conductor's E takes no correction).
    const CrossSection& cs = p.section;
    auto cb = [&](bool along_u, int iu, int iv) {
      const double eps = p.solved == 0 ? p.eps_r
                         : along_u     ? cs.eps_u[static_cast<std::size_t>(iu) + static_cast<std::size_t>(cs.nu) * iv]
                                       : cs.eps_v[static_cast<std::size_t>(iu) + static_cast<std::size_t>(cs.nu + 1) * iv];
      return eps > 0 ? g.dt / (kEps0 * eps) / d : 0.0;
    };
    auto db = [&](bool along_u, int iu, int iv) {
      const double mu = p.solved == 0 ? p.mu_r
                        : along_u     ? cs.mu_u[static_cast<std::size_t>(iu) + static_cast<std::size_t>(cs.nu + 1) * iv]
                                      : cs.mu_v[static_cast<std::size_t>(iu) + static_cast<std::size_t>(cs.nu) * iv];
      return g.dt / (kMu0 * mu) / d;
    };
    const int h_cell = p.sign > 0 ? p.plane - 1 : p.plane;
    const int cu = p.hi[0] - p.lo[0], cv = p.hi[1] - p.lo[1];
    for (int iu = 0; iu <= cu; ++iu)
      for (int iv = 0; iv <= cv; ++iv) {
        // H_u at (iu, iv + 1/2) reads E_v's incident field; E_v there reads H_u's.
        if (iv < cv && iu > 0 && iu < cu) {
          const double ev = mode_profile(p, false, p.v, iu, iv), hu = mode_profile(p, true, p.u, iu, iv);
          const double e_coef = cb(false, iu, iv);
          if (ev != 0) wave.h_terms.push_back({3 + p.u, global_cell(p, iu, iv, h_cell), 0, -p.sign * db(true, iu, iv) * ev});
          if (hu != 0 && e_coef != 0) wave.e_terms.push_back({p.v, global_cell(p, iu, iv, p.plane), 1, -p.sign * e_coef * hu});
        }
        // H_v at (iu + 1/2, iv) reads E_u's; E_u there reads H_v's.
        if (iu < cu && iv > 0 && iv < cv) {
          const double eu = mode_profile(p, false, p.u, iu, iv), hv = mode_profile(p, true, p.v, iu, iv);
          const double e_coef = cb(true, iu, iv);
          if (eu != 0) wave.h_terms.push_back({3 + p.v, global_cell(p, iu, iv, h_cell), 0, p.sign * db(false, iu, iv) * eu});
          if (hv != 0 && e_coef != 0) wave.e_terms.push_back({p.u, global_cell(p, iu, iv, p.plane), 1, p.sign * e_coef * hv});
        }
      }
    run_mode_line(p, g, wave);
    injections.push_back(std::move(wave));
  }
  return out;
}

std::vector<std::string> waveguide_port_warnings(const std::vector<WaveguidePortModel>& ports,
                                                 const std::vector<MonitorModel>& monitors,
                                                 const GridGeometry& g, const FieldLayout& layout,
                                                 const MaterialTable& materials,
                                                 const std::array<std::vector<std::uint8_t>, 6>& ids,
                                                 const UpmlProfile& upml) {
  std::vector<std::string> out;
  for (const WaveguidePortModel& p : ports) {
    const std::string axis = axis_name(g, p.axis);
    if (p.axis_overlap > 1e-3)
      out.push_back("waveguide port '" + p.name + "': mode " + std::to_string(p.solved) + " shares its beta with " +
                    std::to_string(p.group - 1) + " other, and no two of their combinations, one along " +
                    axis_name(g, p.u) + " and one along " + axis_name(g, p.v) + ", are orthogonal in power (overlap " +
                    number_text(p.axis_overlap, 3) +
                    "; a TE and a TM mode of one beta, as a square guide's TE11 and TM11): a port of this group "
                    "with the other axis receives part of this port's wave");
    if (p.driven)
      for (const MonitorModel& mon : monitors) {
        if (mon.kind != MonitorKind::Flux && mon.kind != MonitorKind::FarField && mon.kind != MonitorKind::ModeExpansion)
          continue;
        const bool near = mon.lo[p.axis] <= p.plane + 1 && mon.hi[p.axis] >= p.plane - 1;
        const bool across = mon.lo[p.u] < p.hi[0] && mon.hi[p.u] > p.lo[0] && mon.lo[p.v] < p.hi[1] &&
                            mon.hi[p.v] > p.lo[1];
        if (near && across)
          out.push_back("monitor '" + mon.name + "' reaches within a cell of waveguide port '" + p.name +
                        "''s plane (" + axis + " = " + number_text(p.plane * g.d[p.axis]) +
                        " m) across its guide: the port's side holds the total field, the other side "
                        "only what comes back, so the monitor mixes the two; move it clear of the plane");
      }
    // Behind the port: along the guide's centre line, the first conductor or the UPML.
    std::array<int, 3> c{};
    c[p.u] = (p.lo[0] + p.hi[0]) / 2;
    c[p.v] = (p.lo[1] + p.hi[1]) / 2;
    // A transverse E sample the mode has.
    const int comp = p.solved > 0 ? (p.u_dominant ? p.u : p.v) : (p.te && p.nv == 0 ? p.v : p.u);
    std::string closed;
    for (int w = p.plane - p.sign;; w -= p.sign) {
      if (w < 0 || w >= g.n[p.axis]) {
        closed = "the domain's wall at " + axis + " = " + number_text((p.sign > 0 ? 0 : g.n[p.axis]) * g.d[p.axis]) +
                 " m (no UPML on that face)";
        break;
      }
      c[p.axis] = w;
      if (upml.in_pml(c[0], c[1], c[2], g.n)) break;
      if (conductor(materials, ids[comp][layout.index(c[0], c[1], c[2])])) {
        closed = w == 0 ? "the domain's wall at " + axis + " = 0 m (no UPML on that face)"
                        : "a conductor at " + axis + " = " + number_text(w * g.d[p.axis]) + " m";
        break;
      }
    }
    if (!closed.empty())
      out.push_back("waveguide port '" + p.name + "': its guide does not run on behind it into the UPML (" +
                    closed + " closes it), so what comes back through the port is reflected there and "
                    "returns into the model; its S-parameters then hold that echo");
  }
  return out;
}

}  // namespace clfdtd
