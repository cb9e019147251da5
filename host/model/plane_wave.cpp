// Plane waves: the 1D incident line and the TFSF corrections (plane_wave.hpp).
#include "model/plane_wave.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <tuple>
#include <stdexcept>

#include "config/plane_checks.hpp"
#include "errors.hpp"
#include "model/dispersion.hpp"
#include "model/number_text.hpp"
#include "model/waveforms.hpp"

namespace clfdtd {

namespace {

// A material as the refusals name it: a user's material by its name; a surface mixture (a cell
// an object's edge divides, averaged by clfdtd) as such, since no key names it.
std::string material_words(const MaterialTable& materials, std::uint8_t id) {
  const std::string& name = materials.user_name(id);
  if (!materials.entry(id).lumped.empty())
    return "the lumped element '" + materials.entry(id).lumped + "' ([lumped." +
           materials.entry(id).lumped + "])";
  if (name.rfind("mixture ", 0) == 0)
    return "a mixture of the materials an object's surface divides there (" + name + ")";
  return "'" + name + "'";
}

// The line's absorber: a graded lossy layer with matched electric and magnetic loss (no
// reflection at normal incidence in the continuum), s = sigma dt / (2 eps0) rising as the cube
// of the depth to kAbsorberS. One way it attenuates by about exp(-sum 2 s / courant): past
// e^-30 for any courant number, so nothing comes back.
constexpr int kAbsorberCells = 80;
constexpr double kAbsorberS = 0.5;
// The hard-driven node lies this many cells before the box's upstream face.
constexpr int kDriveCells = 3;
constexpr double kPi = 3.14159265358979323846;
// An oblique wave's line nodes per grid cell (the smallest): linear interpolation between nodes
// half a cell apart errs by about (k d / 4)^2 / 2, -45 dB at 20 cells per wavelength.
constexpr double kObliqueRefinement = 2;
// Host bytes per cell of a box's surface, at most: 8 terms (PlaneWaveTerm, 32 B) and the merge's
// parts (up to 5 per H term, 4 per E term, 24 B), then its entries (~20 B each).
constexpr double kTermBytesPerSurfaceCell = 8 * 32 + 8 * 5 * 24 + 8 * 20;

// One term of a Yee stencil: component comp at cell + offset, weight (1/m).
struct StencilTerm {
  int comp;
  std::array<int, 3> offset;
  double w;
};

// curl E (component u, forward differences; H_u -= db curl) or curl H (backward; E_u += cb
// curl) as reference_backend.cpp computes them: v = u + 1, w = u + 2 cyclic,
//   curl E_u = (E_w(+v) - E_w) / d_v - (E_v(+w) - E_v) / d_w
//   curl H_u = (H_w - H_w(-v)) / d_v - (H_v - H_v(-w)) / d_w
std::array<StencilTerm, 4> stencil(int comp, const std::array<double, 3>& d) {
  const bool h = comp >= 3;
  const int u = comp % 3, v = (u + 1) % 3, w = (u + 2) % 3;
  const int step = h ? 1 : -1;  // where the neighbour lies
  const int base = h ? 0 : 3;   // the components read
  std::array<int, 3> ov{0, 0, 0}, ow{0, 0, 0};
  ov[v] = step;
  ow[w] = step;
  const std::array<int, 3> zero{0, 0, 0};
  // Forward: (+v) - (0); backward: (0) - (-v): the far sample's sign is +1 forward, -1 backward.
  return {StencilTerm{base + w, ov, h ? 1 / d[v] : -1 / d[v]},
          StencilTerm{base + w, zero, h ? -1 / d[v] : 1 / d[v]},
          StencilTerm{base + v, ow, h ? -1 / d[w] : 1 / d[w]},
          StencilTerm{base + v, zero, h ? 1 / d[w] : -1 / d[w]}};
}

// Whether sample (comp, cell) lies in the closed box [lo, hi] (node planes): positions doubled.
bool inside(int comp, const std::array<int, 3>& cell, const std::array<int, 3>& lo,
            const std::array<int, 3>& hi) {
  const std::array<double, 3> o = yee_offset(static_cast<Component>(comp));
  for (int a = 0; a < 3; ++a) {
    const int p2 = 2 * cell[a] + (o[a] > 0 ? 1 : 0);
    if (p2 < 2 * lo[a] || p2 > 2 * hi[a]) return false;
  }
  return true;
}

// The sign of d/d(axis) of component `read` in the curl of component `updated` (both 0..2 within
// their kind): +1, -1, or 0 where that derivative does not appear.
int curl_sign(int updated, int axis, int read) {
  const int v = (updated + 1) % 3, w = (updated + 2) % 3;
  if (axis == v && read == w) return 1;
  if (axis == w && read == v) return -1;
  return 0;
}

// Runs the 1D line for `steps` steps and fills wave.table (rows over [first, first + width)).
void run_line(const SourceConfig& src, const GridGeometry& g, const MaterialTable& materials,
              std::uint8_t background, PlaneWaveModel& wave) {
  const int a = wave.axis;
  const double d = g.d[a], dt = g.dt;
  const int p = wave.e_comp, q = wave.h_comp - 3;
  // Line nodes g0 .. g1 along the axis; the driven node at the upstream end, the absorber (and a
  // PEC end node) downstream.
  const int g0 = wave.sign > 0 ? wave.lo[a] - kDriveCells : wave.lo[a] - kDriveCells - kAbsorberCells;
  const int g1 = wave.sign > 0 ? wave.hi[a] + kDriveCells + kAbsorberCells : wave.hi[a] + kDriveCells;
  const int nodes = g1 - g0 + 1;
  const int drive = wave.sign > 0 ? 0 : nodes - 1;
  // Absorber depth (cells) of a node or half node at line position x (nodes: integers).
  const double abs_start = wave.sign > 0 ? wave.hi[a] + kDriveCells : wave.lo[a] - kDriveCells;
  auto loss = [&](double x) {
    const double depth = wave.sign > 0 ? x - abs_start : abs_start - x;
    if (depth <= 0) return 0.0;
    return kAbsorberS * std::pow(depth / kAbsorberCells, 3);
  };
  // H_q(x + 1/2) -= db sh (E_p(x + 1) - E_p(x)) / d;  E_p(x) += cb se (H_q(x + 1/2) - H_q(x - 1/2)) / d
  const int sh = curl_sign(q, a, p), se = curl_sign(p, a, q);
  std::vector<double> e(static_cast<std::size_t>(nodes), 0.0), h(static_cast<std::size_t>(nodes - 1), 0.0);
  std::vector<double> ae(e.size()), be(e.size()), ah(h.size()), bh(h.size());
  // The background's own coefficients (materials.hpp), so that the line and the grid update alike;
  // in the absorber its loss s adds to the material's q = sigma dt / (2 eps), and H takes the
  // matched magnetic loss. An anisotropic background: E_p's entry (eps, sigma, poles along p)
  // and H_q's (mu along q), as the grid's samples of those components have.
  const std::uint8_t e_id = materials.along(background, p);
  const MaterialEntry& bg = materials.entry(e_id);
  const double eps = kEps0 * bg.eps_r, mu = kMu0 * materials.entry(materials.along(background, q)).mu_r;
  const double loss_e = bg.sigma * dt / (2 * eps);
  for (int m = 0; m < nodes; ++m) {
    const double s = loss_e + loss(g0 + m);
    ae[m] = (1 - s) / (1 + s);
    be[m] = dt / eps / (1 + s) / d * se;
  }
  for (int m = 0; m + 1 < nodes; ++m) {
    const double s = loss(g0 + m + 0.5);
    ah[m] = (1 - s) / (1 + s);
    bh[m] = dt / mu / (1 + s) / d * sh;
  }
  // A dispersive background: each line node takes the grid's pole step (dispersion.hpp) after its
  // E update, with the node's own corr = 1 / (eps_r (1 + s)) (the absorber's loss included), so
  // the line carries the grid's discrete dispersion and the corrections cancel outside the box.
  std::vector<DispersionRow> pole_rows;
  std::vector<double> pole_state;
  if (bg.dispersive()) {
    for (int m = 0; m < nodes; ++m)
      pole_rows.push_back(dispersion_row(bg, e_id, dt, 1 / (bg.eps_r * (1 + loss_e + loss(g0 + m)))));
    pole_state.assign(static_cast<std::size_t>(nodes) * (1 + 2 * bg.poles.size()), 0.0);
  }
  wave.background = materials.entry(background).name;
  // Frequency-independent only without loss or poles; else 0 (no incident intensity).
  wave.impedance_ohm = bg.sigma == 0 && !bg.dispersive() ? std::sqrt(mu / eps) : 0;
  const int rows = wave.row_width();
  const long steps = std::max(0L, g.steps);
  wave.table.assign(static_cast<std::size_t>(steps) * rows, 0.0);
  const int off = wave.first - g0;  // line index of row 0
  e[drive] = src.amplitude * waveform_value(src, 0.0);
  for (long s = 0; s < steps; ++s) {
    double* row = wave.table.data() + static_cast<std::size_t>(s) * rows;
    for (int r = 0; r < wave.width; ++r) row[r] = e[off + r];
    for (std::size_t m = 0; m < h.size(); ++m) h[m] = ah[m] * h[m] - bh[m] * (e[m + 1] - e[m]);
    for (int r = 0; r < wave.width; ++r) row[wave.width + r] = h[off + r];
    for (int m = 1; m + 1 < nodes; ++m) e[m] = ae[m] * e[m] + be[m] * (h[m] - h[m - 1]);
    if (!pole_rows.empty())
      for (int m = 1; m + 1 < nodes; ++m)
        e[m] = dispersive_step(pole_rows[static_cast<std::size_t>(m)], e[m],
                               &pole_state[static_cast<std::size_t>(m)], static_cast<std::size_t>(nodes));
    e[drive] = src.amplitude * waveform_value(src, static_cast<double>(s + 1) * dt);
    e[nodes - 1 - drive] = 0;  // the PEC end past the absorber
  }
}

// The numerical wavenumber (1/m) of the grid's Yee scheme at angular frequency omega along the
// unit vector k (3D and 2D alike: a zero component adds nothing), in a medium of speed v:
//   sum_a (sin(k k_a d_a / 2) / d_a)^2 = (sin(omega dt / 2) / (v dt))^2,
// the root on the branch from 0 up to where the first term peaks (k |k_a| d_a = pi), where the
// sum rises; none past it (a frequency above what the grid carries along k).
std::optional<double> grid_wavenumber(const GridGeometry& g, const std::array<double, 3>& k_hat,
                                      double omega, double v) {
  const double rhs = std::pow(std::sin(omega * g.dt / 2) / (v * g.dt), 2);
  auto lhs = [&](double k) {
    double sum = 0;
    for (int a = 0; a < g.dims; ++a) sum += std::pow(std::sin(k * k_hat[a] * g.d[a] / 2) / g.d[a], 2);
    return sum;
  };
  double widest = 0;
  for (int a = 0; a < g.dims; ++a) widest = std::max(widest, std::fabs(k_hat[a]) * g.d[a]);
  double lo = 0, hi = kPi / widest;
  if (!(lhs(hi) >= rhs)) return std::nullopt;
  for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    (lhs(mid) < rhs ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

// An oblique wave's 1D line (PlaneWaveModel's oblique fields): E along e_hat at nodes, H along
// h_hat at half nodes, of spacing line_step_m and time step dt / substeps, in the background
// with eps and mu both scaled by `slowness`; hard-driven kDriveCells nodes before row 0, the
// graded absorber past the last row. Fills wave.table as run_line does.
void run_oblique_line(const SourceConfig& src, const GridGeometry& g, const MaterialEntry& bg,
                      PlaneWaveModel& wave) {
  const double ds = wave.line_step_m, dt = g.dt / wave.substeps;
  const double eps = kEps0 * bg.eps_r * wave.slowness, mu = kMu0 * bg.mu_r * wave.slowness;
  const int width = wave.width;
  const int nodes = kDriveCells + width + kAbsorberCells + 1;
  const int abs_start = kDriveCells + width;  // absorber depth counts from this node
  auto loss = [&](double x) {
    const double depth = x - abs_start;
    return depth <= 0 ? 0.0 : kAbsorberS * std::pow(depth / kAbsorberCells, 3);
  };
  // (e_hat, h_hat, k_hat) right-handed: dH/dt = -(1/mu) dE/dxi, dE/dt = -(1/eps) dH/dxi.
  std::vector<double> e(static_cast<std::size_t>(nodes), 0.0), h(static_cast<std::size_t>(nodes - 1), 0.0);
  std::vector<double> ae(e.size()), be(e.size()), ah(h.size()), bh(h.size());
  for (int m = 0; m < nodes; ++m) {
    const double q = loss(m);
    ae[m] = (1 - q) / (1 + q);
    be[m] = dt / eps / (1 + q) / ds;
  }
  for (int m = 0; m + 1 < nodes; ++m) {
    const double q = loss(m + 0.5);
    ah[m] = (1 - q) / (1 + q);
    bh[m] = dt / mu / (1 + q) / ds;
  }
  const int rows = wave.row_width();
  const long steps = std::max(0L, g.steps);
  wave.table.assign(static_cast<std::size_t>(steps) * rows, 0.0);
  const int half = (wave.substeps - 1) / 2;  // the sub-step after which H is at (s + 1/2) dt
  long j = 0;                                // line steps done
  e[0] = src.amplitude * waveform_value(src, 0.0);
  for (long s = 0; s < steps; ++s) {
    double* row = wave.table.data() + static_cast<std::size_t>(s) * rows;
    for (int r = 0; r < width; ++r) row[r] = e[kDriveCells + r];
    for (int sub = 0; sub < wave.substeps; ++sub, ++j) {
      for (std::size_t m = 0; m < h.size(); ++m) h[m] = ah[m] * h[m] - bh[m] * (e[m + 1] - e[m]);
      if (sub == half)
        for (int r = 0; r < width; ++r) row[width + r] = h[kDriveCells + r];
      for (int m = 1; m + 1 < nodes; ++m) e[m] = ae[m] * e[m] - be[m] * (h[m] - h[m - 1]);
      e[0] = src.amplitude * waveform_value(src, static_cast<double>(j + 1) * dt);
      e[nodes - 1] = 0;
    }
  }
}

void set_oblique_window(const GridGeometry& g, PlaneWaveModel& w);

// E along `axis` made perpendicular to the unit vector k; H along k x E.
void set_polarisation(const SourceConfig& src, const std::array<double, 3>& k, PlaneWaveModel& w) {
  std::array<double, 3> e{0, 0, 0};
  e[static_cast<int>(src.axis)] = 1;
  double dot = 0, len = 0;
  for (int a = 0; a < 3; ++a) dot += e[a] * k[a];
  for (int a = 0; a < 3; ++a) {
    e[a] -= dot * k[a];
    len += e[a] * e[a];
  }
  for (int a = 0; a < 3; ++a) w.e_hat[a] = e[a] / std::sqrt(len);
  w.h_hat = {k[1] * w.e_hat[2] - k[2] * w.e_hat[1], k[2] * w.e_hat[0] - k[0] * w.e_hat[2],
             k[0] * w.e_hat[1] - k[1] * w.e_hat[0]};
}

// Sets an oblique wave's direction, polarisation, line spacing and row window: what build_terms
// needs (plan_oblique_line then sets the line's time step and speed from the background).
void plan_oblique(const SourceConfig& src, const GridGeometry& g, PlaneWaveModel& w) {
  w.oblique = true;
  for (int a = 0; a < 3; ++a) w.k_hat[a] = (*src.direction_vector)[a];
  set_polarisation(src, w.k_hat, w);
  double dmin = g.d[0];
  for (int a = 1; a < g.dims; ++a) dmin = std::min(dmin, g.d[a]);
  w.line_step_m = dmin / kObliqueRefinement;
  set_oblique_window(g, w);
}

// The rows of an oblique wave's table: every sample the corrections read (the box's cells lo - 2
// .. hi + 2 projected on k_hat) with two line nodes to spare at each end for the interpolation.
void set_oblique_window(const GridGeometry& g, PlaneWaveModel& w) {
  const auto& k = w.k_hat;
  double lo = 0, hi = 0;
  for (int a = 0; a < g.dims; ++a) {
    const double p0 = (w.lo[a] - 2) * g.d[a] * k[a], p1 = (w.hi[a] + 2) * g.d[a] * k[a];
    lo += std::min(p0, p1);
    hi += std::max(p0, p1);
  }
  w.xi_first = lo - 2 * w.line_step_m;
  w.width = static_cast<int>(std::ceil((hi - lo) / w.line_step_m)) + 6;
  double centre = 0;
  for (int a = 0; a < g.dims; ++a) centre += 0.5 * (w.lo[a] + w.hi[a]) * g.d[a] * k[a];
  w.centre_row = static_cast<int>(std::lround((centre - w.xi_first) / w.line_step_m));
}

[[noreturn]] void refuse(const SourceConfig& src, const std::string& key, const std::string& why);

// The oblique line's spacing, odd sub-steps (H rows at the grid's half steps) and speed in
// background bg, and E's direction at the source's frequency. Refuses a frequency the grid does
// not carry along k_hat.
void plan_oblique_line(const SourceConfig& src, const GridGeometry& g, const MaterialEntry& bg,
                       PlaneWaveModel& w) {
  const double v = kC0 / std::sqrt(bg.eps_r * bg.mu_r);
  const bool tuned = src.frequency_hz > 0;
  const double omega = 2 * kPi * src.frequency_hz;
  const std::optional<double> kg = tuned ? grid_wavenumber(g, w.k_hat, omega, v) : std::nullopt;
  // Past the cut-off no wave travels; near it (a wavelength of 2 to 3 cells) the grid's wave is
  // so slow that the line cannot follow it.
  auto refuse_frequency = [&](bool near) {
    refuse(src, "frequency",
           "a frequency the grid carries along the direction with at least about 3 cells per "
           "wavelength (the oblique wave's line is matched to the grid there): " +
               number_text(src.frequency_hz, 4) + " Hz is " + (near ? "too close to" : "above") +
               " the grid's cut-off along it");
  };
  if (tuned && !kg) refuse_frequency(false);
  // A line of spacing ds and n sub-steps, its speed scaled to the grid's at the source's
  // frequency, if its Courant number (at that speed) is at most `most`.
  auto take = [&](double ds, int n, double most) {
    const double dtl = g.dt / n;
    const double s = kg ? v * dtl / ds * std::sin(*kg * ds / 2) / std::sin(omega * dtl / 2) : 1.0;
    if (!(s > 0.5 && s < 2) || v * dtl / (s * ds) > most) return false;
    w.line_step_m = ds;
    w.substeps = n;
    w.slowness = s;
    return true;
  };
  // The line's dispersion equals the grid's along k_hat to fourth order in k when
  //   ds^2 - (v dt_l)^2 = sum_a k_a^4 d_a^2 - (v dt)^2,   dt_l = dt / n
  // (expand both Yee relations, sin^2(k d / 2) / d^2 = sin^2(omega dt / 2) / (v dt)^2): n odd,
  // the fewest with a line Courant number of at most 0.8. A spacing finer than an eighth of the
  // smallest cell (the grid run near its limit along k) falls back to half a cell with n for 0.5.
  double ds4 = 0, dmin = g.d[0];
  for (int a = 0; a < g.dims; ++a) {
    ds4 += std::pow(w.k_hat[a], 4) * g.d[a] * g.d[a];
    dmin = std::min(dmin, g.d[a]);
  }
  bool planned = false;
  for (int n = 1; n <= 15 && !planned; n += 2) {
    const double ds2 = ds4 - v * v * g.dt * g.dt * (1 - 1.0 / (n * n));
    planned = ds2 >= dmin * dmin / 64 && take(std::sqrt(ds2), n, 0.8);
  }
  for (int n = 1; n <= 99 && !planned; n += 2) planned = take(dmin / kObliqueRefinement, n, 0.5);
  if (!planned) refuse_frequency(true);
  set_oblique_window(g, w);
  if (!kg) return;
  // The grid's plane wave exp(i kg k_hat . r) has div E = 0 and H along K x E for its numerical
  // wave vector K_a = (2 / d_a) sin(kg k_a d_a / 2), which leans off k_hat by O((k d)^2): E is
  // made perpendicular to K, not k_hat, or a longitudinal share of it leaks (-48 dB at 20 cells
  // per wavelength for 1 0.3 0.2 with E from y).
  std::array<double, 3> big_k{0, 0, 0};
  double norm = 0;
  for (int a = 0; a < g.dims; ++a) {
    big_k[a] = 2 / g.d[a] * std::sin(*kg * w.k_hat[a] * g.d[a] / 2);
    norm = std::hypot(norm, big_k[a]);
  }
  for (double& c : big_k) c /= norm;
  set_polarisation(src, big_k, w);
}

// The incident value of sample (comp, cell) as rows of the wave's table and their factors:
// axis-aligned, the one row of the carried component; oblique, the four line nodes around the
// sample's xi, times its component of e_hat or h_hat (none where that is zero).
struct IncidentPart {
  int row;
  double factor;
};
std::vector<IncidentPart> incident_parts(const PlaneWaveModel& w, const GridGeometry& g, int comp,
                                         const std::array<int, 3>& cell) {
  const bool e = comp < 3;
  if (!w.oblique) {
    if (comp != (e ? w.e_comp : w.h_comp)) return {};
    const int r = cell[w.axis] - w.first;
    if (r < 0 || r >= w.width) throw std::logic_error("plane wave: a term outside the incident table");
    return {{(e ? 0 : w.width) + r, 1.0}};
  }
  const double amp = e ? w.e_hat[comp] : w.h_hat[comp - 3];
  if (std::fabs(amp) < 1e-12) return {};
  const std::array<double, 3> o = yee_offset(static_cast<Component>(comp));
  double xi = -w.xi_first;
  for (int a = 0; a < g.dims; ++a) xi += (cell[a] + o[a]) * g.d[a] * w.k_hat[a];
  const double u = xi / w.line_step_m - (e ? 0.0 : 0.5);
  const int m = static_cast<int>(std::floor(u));
  const double f = u - m;
  if (m < 1 || m + 2 >= w.width) throw std::logic_error("plane wave: a term outside the incident table");
  const int base = e ? 0 : w.width;
  // Cubic (four-node Lagrange) interpolation: its error, (k ds)^4 / 128 at most, stays below the
  // line's matched dispersion's.
  return {{base + m - 1, amp * (-f * (f - 1) * (f - 2) / 6)},
          {base + m, amp * ((f + 1) * (f - 1) * (f - 2) / 2)},
          {base + m + 1, amp * (-(f + 1) * f * (f - 2) / 2)},
          {base + m + 2, amp * ((f + 1) * f * (f - 1) / 6)}};
}

[[noreturn]] void refuse(const SourceConfig& src, const std::string& key, const std::string& why) {
  throw ConfigError("", 0, "source." + src.name + "." + key, why);
}

std::string where(const GridGeometry& g, int comp, const std::array<int, 3>& cell) {
  const std::array<double, 3> o = yee_offset(static_cast<Component>(comp));
  std::string out = "(";
  for (int a = 0; a < g.dims; ++a)
    out += (a ? " " : "") + number_text((cell[a] + o[a]) * g.d[a], 4);
  return out + ") m";
}

// The corrections of `wave` (plane_wave.hpp): every sample near the box surface whose stencil
// reads a sample on the other side that carries an incident field.
// Returns the material every corrected sample lies in (the background), refusing a box whose
// surface crosses two, or PEC. An anisotropic background: its family's first (x) entry, each
// sample holding its own axis' entry (MaterialTable::along gives the one of a component).
// A 2D model (one z cell, the box's z planes 0 and 1) takes the components its mode carries,
// at k = 0 only: every sample there lies inside the box along z, and the stencils of those
// components have no z terms, so no correction reads across z.
std::uint8_t build_terms(const SourceConfig& src, const GridGeometry& g, const FieldLayout& layout,
                         const MaterialTable& materials, const ComponentIds& ids, bool magnetic,
                         const std::vector<Component>& active, PlaneWaveModel& wave) {
  int background = -1;
  std::string first;  // the sample that set it, for the message
  const bool plane = g.dims == 2;
  const HCoefficients h_vacuum = materials.h_coefficients(MaterialTable::kVacuum, g.dt);
  for (int comp = 0; comp < 6; ++comp) {
    if (std::find(active.begin(), active.end(), static_cast<Component>(comp)) == active.end())
      continue;
    const bool h = comp >= 3;
    const auto terms = stencil(comp, g.d);
    std::array<int, 3> c{};
    // Along a periodic axis the box runs past both ends (lo = -2, hi = n + 2: build_plane_waves),
    // so no stencil there crosses its surface: every cell of the period, none beyond.
    std::array<int, 3> c0{}, c1{};
    for (int b = 0; b < 3; ++b) {
      c0[b] = g.periodic[b] ? 0 : wave.lo[b] - 1;
      c1[b] = g.periodic[b] ? g.n[b] - 1 : wave.hi[b] + 1;
    }
    for (c[0] = c0[0]; c[0] <= c1[0]; ++c[0]) {
      for (c[1] = c0[1]; c[1] <= c1[1]; ++c[1]) {
        const int z0 = plane ? 0 : c0[2], z1 = plane ? 0 : c1[2];
        for (c[2] = z0; c[2] <= z1; ++c[2]) {
          // Deep inside, every stencil stays inside: skip to the far side along z.
          bool deep = true;
          for (int b = 0; b < g.dims; ++b) deep = deep && c[b] > wave.lo[b] + 1 && c[b] < wave.hi[b] - 1;
          if (deep && !plane) c[2] = wave.hi[2] - 2;
          if (deep) continue;
          const bool in = inside(comp, c, wave.lo, wave.hi);
          // (row, weight) of the incident values the sample's stencil reads across the surface.
          std::vector<std::pair<int, double>> weights;
          std::vector<std::pair<int, std::array<int, 3>>> read;  // the samples read across it
          for (const StencilTerm& t : terms) {
            const std::array<int, 3> r{c[0] + t.offset[0], c[1] + t.offset[1], c[2] + t.offset[2]};
            if (inside(t.comp, r, wave.lo, wave.hi) == in) continue;
            const std::vector<IncidentPart> parts = incident_parts(wave, g, t.comp, r);
            if (parts.empty()) continue;
            read.push_back({t.comp, r});
            for (const IncidentPart& part : parts) {
              auto it = std::find_if(weights.begin(), weights.end(),
                                     [&](const auto& x) { return x.first == part.row; });
              if (it == weights.end()) it = weights.insert(weights.end(), {part.row, 0.0});
              it->second += (in ? 1.0 : -1.0) * t.w * part.factor;
            }
          }
          if (read.empty()) continue;
          const std::size_t index = layout.index(c[0], c[1], c[2]);
          // The material of sample (k, cell): one background for every sample a correction
          // touches or reads, and no PEC. Without a magnetic material H has no ids (every H
          // sample has vacuum's mu); the samples a correction reads across the surface are
          // tested too (E always, H in a magnetic model), so an object across a face that only
          // H corrections touch (tm: the faces along E and the travel) is refused as well.
          auto check = [&](int k, const std::array<int, 3>& cell) {
            const std::uint8_t id = ids[static_cast<std::size_t>(k)][layout.index(cell[0], cell[1], cell[2])];
            const std::string sample = std::string(1, k >= 3 ? 'H' : 'E') + "xyz"[k % 3] + " at " +
                                       where(g, k, cell);
            // An anisotropic background: its entry of each axis (one family, MaterialTable::named).
            if (materials.entry(id).anisotropic() && src.direction_vector)
              refuse(src, "direction",
                     "a total-field box whose surface lies in an isotropic material for an oblique "
                     "wave: the sample " + sample + " is in " + material_words(materials, id) +
                         ", which is anisotropic (a wave along an axis, +x .. -z, may travel in one; "
                         "or move or resize the box so the material lies wholly inside or outside it)");
            const std::uint8_t family = materials.named(id);
            if (background < 0) {
              background = family;
              first = sample;
            }
            if (family != background || id != materials.along(family, k % 3))
              refuse(src, "size",
                     "a total-field box whose surface lies in one material (the background the "
                     "wave travels in): the sample " + sample + " is in " + material_words(materials, id) +
                         ", the sample " + first + " in " +
                         material_words(materials, static_cast<std::uint8_t>(background)) +
                         " (move or resize the box so objects lie wholly inside or outside it; "
                         "a port's or a lumped element's samples take terms of their own: keep "
                         "them off its faces)");
            if (materials.entry(id).pec)
              refuse(src, "size", "a total-field box whose surface is not in PEC (the sample " +
                                      sample + " is)");
          };
          const bool tested = !h || magnetic;
          if (tested) check(comp, c);
          if (h || magnetic)  // H samples have ids only in a magnetic model
            for (const auto& [k, r] : read) check(k, r);
          const std::uint8_t id = tested ? ids[comp][index] : MaterialTable::kVacuum;
          const double coef = h ? -(magnetic ? materials.h_coefficients(id, g.dt).db : h_vacuum.db)
                                : materials.e_coefficients(id, g.dt).cb;
          for (const auto& [row, weight] : weights)
            if (weight != 0) (h ? wave.h_terms : wave.e_terms).push_back({comp, c, row, coef * weight});
        }
      }
    }
  }
  return static_cast<std::uint8_t>(background < 0 ? MaterialTable::kVacuum : background);
}

}  // namespace

namespace {
std::string vector_text(const std::array<double, 3>& v) {
  std::string out = "(";
  for (int a = 0; a < 3; ++a) out += (a ? ", " : "") + number_text(std::fabs(v[a]) < 1e-12 ? 0.0 : v[a], 4);
  return out + ")";
}
}  // namespace

std::string direction_text(const PlaneWaveModel& w) {
  return w.oblique ? vector_text(w.k_hat) : std::string(w.sign > 0 ? "+" : "-") + "xyz"[w.axis];
}

std::string e_field_text(const PlaneWaveModel& w) {
  return w.oblique ? "E along " + vector_text(w.e_hat) : std::string("E") + "xyz"[w.e_comp];
}

std::vector<double> incident_intensity(const PlaneWaveModel& w, const std::vector<double>& freqs_hz,
                                       double dt) {
  std::vector<double> out;
  for (double e : incident_magnitude(w, freqs_hz, dt))
    out.push_back(w.impedance_ohm > 0 ? 0.5 * e * e / w.impedance_ohm : std::nan(""));
  return out;
}

std::vector<double> incident_magnitude(const PlaneWaveModel& w, const std::vector<double>& freqs_hz,
                                       double dt) {
  const int centre = w.centre_row;  // an E row
  const std::size_t steps = w.row_width() > 0 ? w.table.size() / static_cast<std::size_t>(w.row_width()) : 0;
  std::vector<double> out;
  for (double f : freqs_hz) {
    double re = 0, im = 0;
    for (std::size_t s = 0; s < steps; ++s) {
      const double e = w.table[s * static_cast<std::size_t>(w.row_width()) + static_cast<std::size_t>(centre)];
      const double phase = -2 * kPi * f * static_cast<double>(s) * dt;
      re += e * std::cos(phase) * dt;
      im += e * std::sin(phase) * dt;
    }
    out.push_back(std::hypot(re, im));
  }
  return out;
}

std::vector<std::string> plane_wave_monitor_warnings(const std::vector<PlaneWaveModel>& waves,
                                                     const RunConfig& cfg, const GridGeometry& g,
                                                     bool others_drive) {
  std::vector<std::string> out;
  for (const MonitorConfig& mon : cfg.monitors) {
    if (mon.kind != MonitorKind::Flux && mon.kind != MonitorKind::FarField && mon.kind != MonitorKind::ModeExpansion)
      continue;
    // One wave in a background without a single impedance: no cross-section column to expect.
    const std::string column = g.dims == 2 ? "scattering_width_m" : "cross_section_m2";
    if (mon.kind == MonitorKind::Flux && waves.size() == 1 && waves.front().impedance_ohm == 0)
      out.push_back("monitor '" + mon.name + "': no " + column + " column (plane wave '" +
                    waves.front().name + "' travels in '" + waves.front().background +
                    "', which is lossy or dispersive: its impedance depends on frequency, so "
                    "there is no incident intensity to divide by); the flux is written");
    if (mon.kind == MonitorKind::Flux && waves.size() > 1)
      out.push_back("monitor '" + mon.name + "': no " + column + " column (" +
                    std::to_string(waves.size()) + " plane waves light the model: there is no "
                    "one incident intensity to divide by); the flux is written");
    if (mon.kind == MonitorKind::Flux && waves.size() == 1 && waves.front().impedance_ohm > 0 &&
        others_drive)
      out.push_back("monitor '" + mon.name + "': no " + column + " column (a point source or "
                    "port drives the model besides plane wave '" + waves.front().name +
                    "': its power would count as scattered); the flux is written");
    std::array<int, 3> mlo{}, mhi{};
    for (int a = 0; a < 3; ++a) {
      mlo[a] = static_cast<int>(std::lround(mon.box_lo[a] / g.d[a]));
      mhi[a] = static_cast<int>(std::lround(mon.box_hi[a] / g.d[a]));
    }
    for (const PlaneWaveModel& w : waves) {
      // Each face of the monitor (a plane: its one face) reads E on it and H half a cell either
      // side: it sees the scattered field alone where it stays out of the open box (lo - 1,
      // hi + 1), the total field where it lies within [lo + 1, hi - 1].
      bool crosses = false, inside_all = true;
      for (int a = 0; a < g.dims; ++a) {
        for (int side = 0; side < 2; ++side) {
          if (side == 1 && mhi[a] == mlo[a]) continue;  // a plane: one face
          const int p = side ? mhi[a] : mlo[a];
          bool touches = p > w.lo[a] - 1 && p < w.hi[a] + 1;
          bool core = p >= w.lo[a] + 1 && p <= w.hi[a] - 1;
          for (int b = 0; b < g.dims; ++b) {
            if (b == a) continue;
            touches = touches && mlo[b] < w.hi[b] + 1 && mhi[b] > w.lo[b] - 1;
            core = core && mlo[b] >= w.lo[b] + 1 && mhi[b] <= w.hi[b] - 1;
          }
          if (touches && !core) crosses = true;
          inside_all = inside_all && core;
        }
      }
      const std::string head = "monitor '" + mon.name + "' and plane wave '" + w.name + "': ";
      if (crosses) {
        out.push_back(head + "the monitor's surface crosses the total-field box's (or comes within a "
                             "cell of it), so it mixes the total and the scattered field and its "
                             "spectra mean neither; put it around the box, a cell clear, or inside it");
      } else if (inside_all && mon.kind == MonitorKind::FarField) {
        out.push_back(head + "the far-field monitor lies inside the total-field box: it transforms "
                             "the incident wave too; put it around the box to see what is scattered");
      }
    }
  }
  return out;
}

std::size_t plane_wave_device_bytes(const std::vector<PlaneWaveModel>& waves) {
  std::size_t bytes = 0;
  // An H term reaches 4 E samples; each entry is at most a cell (2 ints), a start, a row, a weight.
  for (const PlaneWaveModel& w : waves)
    bytes += w.table.size() * sizeof(float) +
             (w.h_terms.size() * 5 + w.e_terms.size()) * 5 * sizeof(std::int32_t);
  return bytes;
}

std::size_t plane_wave_term_bytes(const RunConfig& cfg, const GridGeometry& g) {
  std::size_t bytes = 0;
  for (const SourceConfig& s : cfg.plane_waves) {
    if (!s.size_m) continue;
    std::array<double, 3> n{};
    for (int a = 0; a < 3; ++a)  // along a periodic axis the box spans the period
      n[a] = g.periodic[static_cast<std::size_t>(a)]
                 ? g.n[a]
                 : std::max(1.0, std::round((*s.size_m)[a] / g.d[a])) + 3;
    // 2D: the rectangle's perimeter (one z cell).
    const double surface = g.dims == 2 ? 2 * (n[0] + n[1]) : 2 * (n[0] * n[1] + n[1] * n[2] + n[0] * n[2]);
    // Oblique: a sample reads up to two components across the surface, each from four line nodes.
    bytes += static_cast<std::size_t>(surface * kTermBytesPerSurfaceCell * (s.direction_vector ? 8 : 1));
  }
  return bytes;
}

std::size_t plane_wave_table_values(const RunConfig& cfg, const GridGeometry& g) {
  std::size_t values = 0;
  for (const SourceConfig& s : cfg.plane_waves) {
    if (!s.size_m) continue;
    double width = 0;
    if (s.direction_vector) {  // the box's extent along the direction, on the line's nodes
      double dmin = g.d[0];
      for (int a = 1; a < g.dims; ++a) dmin = std::min(dmin, g.d[a]);
      for (int a = 0; a < g.dims; ++a)
        width += std::fabs((*s.direction_vector)[a]) * ((*s.size_m)[a] + 5 * g.d[a]);
      width = width / (dmin / 8) + 7;  // the line's spacing is at least an eighth of a cell
    } else {
      const int a = s.direction_axis;
      const double lo = (s.position[a] - 0.5 * (*s.size_m)[a]) / g.d[a];
      const double hi = (s.position[a] + 0.5 * (*s.size_m)[a]) / g.d[a];
      width = std::max(0.0, std::round(hi) - std::round(lo)) + 3;
    }
    values += static_cast<std::size_t>(2 * width) * static_cast<std::size_t>(std::max(0L, g.steps));
  }
  return values;
}

std::vector<PlaneWaveModel> build_plane_waves(const RunConfig& cfg, const GridGeometry& g,
                                              const FieldLayout& layout,
                                              const MaterialTable& materials,
                                              const ComponentIds& ids, bool magnetic,
                                              const UpmlProfile& upml) {
  std::vector<PlaneWaveModel> out;
  using C = Component;
  const std::vector<Component> active =
      g.dims == 2 ? plane_components(cfg.grid.mode, cfg.grid.equation)
                  : std::vector<Component>{C::Ex, C::Ey, C::Ez, C::Hx, C::Hy, C::Hz};
  for (const SourceConfig& src : cfg.plane_waves) {
    PlaneWaveModel w;
    w.name = src.name;
    w.source = src;
    w.e_comp = static_cast<int>(src.axis);
    w.axis = src.direction_axis;
    w.sign = src.direction_sign;
    // (axis-aligned waves only: an oblique one's E may lie along its direction_axis default)
    w.h_comp = w.e_comp != w.axis ? 3 + (3 - w.e_comp - w.axis) : 3;
    const Vec3 size = src.size_m.value_or(Vec3{});
    w.lo[2] = 0;  // 2D: the one z cell
    w.hi[2] = 1;
    for (int b = 0; b < g.dims; ++b) {
      if (g.periodic[b]) {
        // The whole period and past it: the box has no faces along a periodic axis.
        const bool along = src.direction_vector ? (*src.direction_vector)[b] != 0 : w.axis == b;
        if (along)
          refuse(src, "direction",
                 std::string("a direction perpendicular to the periodic axes (boundary.periodic): "
                             "this one has a component along ") + "xyz"[b] +
                     " (oblique incidence on a periodic structure needs Bloch-periodic fields, "
                     "which clfdtd does not have)");
        w.lo[b] = -2;
        w.hi[b] = g.n[b] + 2;
        continue;
      }
      // Halfway between two node planes, the higher one (cells_of: not rounding noise).
      w.lo[b] = static_cast<int>(std::floor(cells_of(src.position[b] - 0.5 * size[b], g.d[b]) + 0.5));
      w.hi[b] = static_cast<int>(std::floor(cells_of(src.position[b] + 0.5 * size[b], g.d[b]) + 0.5));
      if (w.hi[b] <= w.lo[b])
        refuse(src, "size", "a box at least one cell thick along " + std::string(1, "xyz"[b]) +
                                " (its faces on node planes " + std::to_string(w.lo[b]) + " and " +
                                std::to_string(w.hi[b]) + ")");
      // Every sample the corrections touch (cells lo - 1 .. hi + 1) in a plain cell, at least
      // one plain cell short of the UPML (or the wall).
      const int low = upml.layers[2 * b] + 2;
      const int high = g.n[b] - upml.layers[2 * b + 1] - 2;
      if (w.lo[b] < low || w.hi[b] > high)
        refuse(src, "size",
               "a box whose faces lie at least 2 cells away from the UPML (or the wall): along " +
                   std::string(1, "xyz"[b]) + " from " + number_text(low * g.d[b], 4) + " to " +
                   number_text(high * g.d[b], 4) + " m, got " + number_text(w.lo[b] * g.d[b], 4) +
                   " to " + number_text(w.hi[b] * g.d[b], 4) + " m");
    }
    if (src.direction_vector) {
      // The terms find the background; the line's spacing depends on it, and the terms on that.
      plan_oblique(src, g, w);
      const std::uint8_t background = build_terms(src, g, layout, materials, ids, magnetic, active, w);
      const MaterialEntry& bg = materials.entry(background);
      if (bg.sigma != 0 || bg.dispersive())
        refuse(src, "direction",
               "an axis direction (+x .. -z) in a lossy or dispersive background: an oblique wave "
               "needs a lossless, non-dispersive one, and the box's surface lies in " +
                   material_words(materials, background));
      plan_oblique_line(src, g, bg, w);
      w.h_terms.clear();
      w.e_terms.clear();
      build_terms(src, g, layout, materials, ids, magnetic, active, w);
      w.background = bg.name;
      w.impedance_ohm = kMu0 * kC0 * std::sqrt(bg.mu_r / bg.eps_r);
      run_oblique_line(src, g, bg, w);
      out.push_back(std::move(w));
      continue;
    }
    w.first = w.lo[w.axis] - 1;
    w.width = w.hi[w.axis] - w.lo[w.axis] + 3;
    w.centre_row = (w.lo[w.axis] + w.hi[w.axis]) / 2 - w.first;
    const std::uint8_t background = build_terms(src, g, layout, materials, ids, magnetic, active, w);
    run_line(src, g, materials, background, w);
    out.push_back(std::move(w));
  }
  return out;
}

PlaneWaveEntries post_step_entries(const std::vector<PlaneWaveModel>& waves,
                                   const GridGeometry& g, const FieldLayout& layout,
                                   const MaterialTable& materials, const ComponentIds& ids) {
  PlaneWaveEntries out;
  out.steps = std::max(0L, g.steps);
  for (const PlaneWaveModel& w : waves) out.row_width += w.row_width();
  // (component, padded index, row, weight), sorted and summed below (a vector: a map of the
  // samples of a large box's surface would take several times the memory).
  struct Part {
    int comp;
    std::size_t index;
    int row;
    double w;
  };
  std::vector<Part> parts;
  int offset = 0;
  for (const PlaneWaveModel& w : waves) {
    for (const PlaneWaveTerm& t : w.e_terms)
      parts.push_back({t.comp, layout.index(t.cell[0], t.cell[1], t.cell[2]), offset + t.row, t.w});
    for (const PlaneWaveTerm& t : w.h_terms) {
      parts.push_back({t.comp, layout.index(t.cell[0], t.cell[1], t.cell[2]), offset + t.row, t.w});
      // Every E sample whose curl reads this H sample: E at cell ce reads H at ce + offset.
      for (int ue = 0; ue < 3; ++ue) {
        if (ids[ue].empty()) continue;  // a component the 2D mode does not carry
        for (const StencilTerm& st : stencil(ue, g.d)) {
          if (st.comp != t.comp) continue;
          const std::array<int, 3> ce{t.cell[0] - st.offset[0], t.cell[1] - st.offset[1],
                                      t.cell[2] - st.offset[2]};
          // Past the grid's end (a rank's part: the neighbour owns that sample and adds it).
          if (ce[0] >= g.n[0] || ce[1] >= g.n[1] || ce[2] >= g.n[2]) continue;
          const std::size_t index = layout.index(ce[0], ce[1], ce[2]);
          const double cb = materials.e_coefficients(ids[ue][index], g.dt).cb;
          parts.push_back({ue, index, offset + t.row, cb * st.w * t.w});
        }
      }
    }
    offset += w.row_width();
  }
  std::sort(parts.begin(), parts.end(), [](const Part& x, const Part& y) {
    return std::tie(x.comp, x.index, x.row) < std::tie(y.comp, y.index, y.row);
  });
  out.start.push_back(0);
  for (std::size_t p = 0; p < parts.size();) {
    const int comp = parts[p].comp;
    const std::size_t index = parts[p].index;
    for (; p < parts.size() && parts[p].comp == comp && parts[p].index == index;) {
      const int row = parts[p].row;
      double sum = 0;
      for (; p < parts.size() && parts[p].comp == comp && parts[p].index == index &&
             parts[p].row == row;
           ++p)
        sum += parts[p].w;
      if (sum == 0) continue;
      out.rows.push_back(row);
      out.weights.push_back(static_cast<float>(sum));
    }
    out.samples.push_back({comp, index});
    out.start.push_back(static_cast<std::int32_t>(out.rows.size()));
  }
  out.table.resize(static_cast<std::size_t>(out.steps) * out.row_width);
  offset = 0;
  for (const PlaneWaveModel& w : waves) {
    for (long s = 0; s < out.steps; ++s)
      for (int r = 0; r < w.row_width(); ++r)
        out.table[static_cast<std::size_t>(s) * out.row_width + offset + r] =
            static_cast<float>(w.table[static_cast<std::size_t>(s) * w.row_width() + r]);
    offset += w.row_width();
  }
  return out;
}

}  // namespace clfdtd
