// Plane waves ([source.<name>] type = plane_wave): a total-field/scattered-field (TFSF) box.
// Inside the box (its faces on grid node planes, inclusive) the fields are the total field; outside,
// the scattered field alone. Where a Yee update reads a sample across the box's surface, the
// incident field of that sample is added (read from outside) or subtracted (read from inside):
//   after the H update of step s:  H_h += w * E_inc(node, s dt)
//   after the E update of step s:  E_e += w * H_inc(half node, (s + 1/2) dt)
// with w = -db sw sigma (H) or cb sw sigma (E), sw the stencil's +-1/d of the sample read and
// sigma = +1 where the updated sample is inside the box, -1 outside (docs/EQUATIONS.md "Plane
// waves"). The incident field comes from a 1D Yee line along the direction of travel with the
// grid's cell size and time step, so it carries the 3D grid's own dispersion along an axis and
// cancels outside the box to rounding: the line is driven hard (E = amplitude w(t)) three cells
// before the box's upstream face and absorbed by a graded lossy layer past its far end.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "config/run_config.hpp"
#include "model/field_layout.hpp"
#include "model/grid_geometry.hpp"
#include "model/materials.hpp"
#include "model/upml_profile.hpp"

namespace clfdtd {

// One correction: component comp (0..5 = Ex..Hz) of cell (i, j, k) += w * the table's `row`.
struct PlaneWaveTerm {
  int comp = 0;
  std::array<int, 3> cell{};
  int row = 0;
  double w = 0;
};

struct PlaneWaveModel {
  std::string name;
  SourceConfig source;             // as configured (waveform, amplitude, ...): run.json lists it
  // A waveguide port's injection (model/waveguide_port.hpp), not a plane wave: its terms and
  // table are all that is set; nothing that speaks of plane waves counts it.
  bool guided_port = false;
  // Axis-aligned waves (oblique: e_hat, h_hat, k_hat below; these then mean nothing):
  int e_comp = 2;                  // the incident E's component (0..2)
  int h_comp = 4;                  // the incident H's component (3..5)
  int axis = 0, sign = 1;          // travelling along sign * axis
  // Oblique incidence (SourceConfig::direction_vector): the incident field at r is
  // e_hat E(xi) and h_hat H(xi), xi = k_hat . r - xi_first (m), E and H of a 1D line along k_hat
  // interpolated linearly between its nodes (E rows: nodes xi = r line_step_m; H rows: half
  // nodes). The line is finer than the grid (line_step_m, substeps per grid step) and its
  // eps_r = mu_r are scaled by `slowness` so that its phase velocity at the source's frequency is
  // the grid's along k_hat. Axis-aligned waves leave these unset (rows on the grid's own nodes).
  bool oblique = false;
  std::array<double, 3> k_hat{}, e_hat{}, h_hat{};
  double line_step_m = 0, xi_first = 0, slowness = 1;
  int substeps = 1;
  int centre_row = 0;              // the E row at the box's centre (incident_magnitude)
  std::array<int, 3> lo{}, hi{};   // the box's node planes
  int first = 0;                   // rows [0, width): E_inc at nodes first + r along `axis`;
  int width = 0;                   // rows [width, 2 width): H_inc at half nodes first + r + 1/2
  // [s * 2 width + row] for s = 0 .. steps - 1: E_inc at s dt, H_inc at (s + 1/2) dt; SI units.
  std::vector<double> table;
  std::string background;          // the material the box's surface lies in (the wave's medium)
  double impedance_ohm = 0;        // its wave impedance eta0 sqrt(mu_q / eps_p) (H's and E's axes'
                                   // values); 0 when lossy or dispersive along E's axis
  std::vector<PlaneWaveTerm> h_terms;  // after the H update of step s
  std::vector<PlaneWaveTerm> e_terms;  // after the E update of step s
  int row_width() const { return 2 * width; }
};

// How a wave travels and where its E points, for the run's header and run.json: "+x" and "Ez"
// along axes, vectors "(0.7071, 0.7071, 0)" obliquely.
std::string direction_text(const PlaneWaveModel& w);
std::string e_field_text(const PlaneWaveModel& w);

// The corrections of step s for the reference engines, each half right after the update it
// corrects: after H (magnetic_half) H += w E_inc(s dt), after E, E += w H_inc((s + 1/2) dt).
// index(cell) maps a term's cell to the engine's layout.
template <class Index>
void add_plane_wave_terms(const std::vector<PlaneWaveModel>& waves, long s, bool magnetic_half,
                          std::array<std::vector<double>, 6>& fields, Index index) {
  for (const PlaneWaveModel& w : waves) {
    if (s < 0 || static_cast<std::size_t>(s) * w.row_width() >= w.table.size()) continue;
    const double* row = w.table.data() + static_cast<std::size_t>(s) * w.row_width();
    for (const PlaneWaveTerm& t : magnetic_half ? w.h_terms : w.e_terms)
      fields[t.comp][index(t.cell)] += t.w * row[t.row];
  }
}

// The ids the terms are checked against (SimulationModel::ids; H ids empty when not magnetic).
using ComponentIds = std::array<std::vector<std::uint8_t>, 6>;

// One model per cfg.plane_waves entry. Throws ConfigError (the source's size key) where the box
// comes within 2 cells of the UPML or a wall, is thinner than a cell, or a sample its
// corrections touch is not vacuum (a port's sample included: call after its conductivity).
std::vector<PlaneWaveModel> build_plane_waves(const RunConfig& cfg, const GridGeometry& g,
                                              const FieldLayout& layout,
                                              const MaterialTable& materials,
                                              const ComponentIds& ids, bool magnetic,
                                              const UpmlProfile& upml);

// The incident intensity spectrum in a flux monitor's convention (docs/MONITORS.md: 1/2 Re E x H*
// of the transforms sum_n x(t_n) exp(-i 2 pi f t_n) dt): 1/2 |E_inc(f)|^2 / eta (J s per m^2),
// E_inc the line's field at the box's centre plane over the run's steps, eta the background's
// wave impedance; NaN in a lossy or dispersive background (where the wave decays along its path
// or its impedance depends on frequency). A flux through
// a box around the total-field box divided by it is the scattering cross section (m^2).
std::vector<double> incident_intensity(const PlaneWaveModel& w, const std::vector<double>& freqs_hz,
                                       double dt);
// |E_inc(f)| of the same transform (V/m s).
std::vector<double> incident_magnitude(const PlaneWaveModel& w, const std::vector<double>& freqs_hz,
                                       double dt);

// One warning per flux or farfield monitor whose surface crosses a wave's total-field box (or
// comes within a cell of it: it would mix total and scattered field), and per farfield monitor
// inside one (its transform holds the incident wave), and per flux monitor without the
// cross-section column: one wave in a lossy or dispersive background, several waves, or
// `others_drive` (a point source or port's current is nonzero within the run: the rule the
// monitor files use).
std::vector<std::string> plane_wave_monitor_warnings(const std::vector<PlaneWaveModel>& waves,
                                                     const RunConfig& cfg, const GridGeometry& g,
                                                     bool others_drive);

// Device bytes of the waves' post_step_entries at most: the float table, and per term of a
// sample the entries of it and of the E samples its correction reaches (SimulationModel::
// device_bytes and the GPU engine's buffer list count it).
std::size_t plane_wave_device_bytes(const std::vector<PlaneWaveModel>& waves);

// Host bytes of the corrections build_plane_waves makes and post_step_entries merges, at most.
std::size_t plane_wave_term_bytes(const RunConfig& cfg, const GridGeometry& g);

// Host bytes of the tables build_plane_waves makes (doubles; a device engine adds a float copy).
std::size_t plane_wave_table_values(const RunConfig& cfg, const GridGeometry& g);

// Every correction of one step applied after the whole step, for engines whose H and E updates
// run in one pass (the device engines): H_h += w E_inc as above, and each E sample whose curl
// reads a corrected H sample takes cb sw times that correction too (the E update is linear in
// H), besides its own E terms. Samples are merged: one entry per (component, padded index) with
// its terms [start[n], start[n + 1]) into rows / weights; rows index the waves' tables side by
// side (wave q's row r is offset_q + r, row_width in all).
struct PlaneWaveEntries {
  std::vector<std::pair<int, std::size_t>> samples;  // (component 0..5, padded index)
  std::vector<std::int32_t> start;   // count + 1
  std::vector<std::int32_t> rows;
  std::vector<float> weights;
  std::vector<float> table;          // [s * row_width + row], float
  int row_width = 0;
  long steps = 0;
  int count() const { return static_cast<int>(start.empty() ? 0 : start.size() - 1); }
};
PlaneWaveEntries post_step_entries(const std::vector<PlaneWaveModel>& waves,
                                   const GridGeometry& g, const FieldLayout& layout,
                                   const MaterialTable& materials, const ComponentIds& ids);

}  // namespace clfdtd
