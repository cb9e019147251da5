// Lumped elements (docs/PORTS.md "Lumped elements"): a resistor, inductor and capacitor, in series
// or in parallel, across a box of E samples. Each sample keeps its material and gains what the
// element adds to it, as a port's resistance does: a conductivity for R, a permittivity for C,
// and a pole of the dispersive update (docs/EQUATIONS.md) for a branch with L, or R and C in
// series. So every kernel variant, the reference engine and a split over ranks run them.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/run_config.hpp"
#include "model/field_layout.hpp"
#include "model/grid_geometry.hpp"
#include "model/materials.hpp"

namespace clfdtd {

struct SimulationModel;

struct LumpedModel {
  std::string name;
  Component component = Component::Ez;
  std::vector<std::array<int, 3>> cells;  // column by column, as a port's (model/port_box.hpp)
  long along = 1, across = 1;
  double length_m = 0, area_m2 = 0;  // the box's: along x the cell, across x the cell's face
  std::optional<double> resistance_ohm, inductance_h, capacitance_f;  // as configured
  LumpedCircuit circuit = LumpedCircuit::Series;
  // What every sample adds to its material: the element's current density is that of
  // sigma E + eps0 delta_eps_r dE/dt + eps0 dQ/dt with `poles` (a Q'' + b Q' + c Q = d E).
  double sigma = 0, delta_eps_r = 0;
  std::vector<Pole> poles;
};

// The element's samples and its terms: V = E length, I = J area over the box.
std::vector<LumpedModel> build_lumped(const RunConfig& cfg, const GridGeometry& g);

// Refuses (exit 2, naming the key) a box past the sample limit, a sample in the UPML or on PEC,
// one a source or port drives, or one another element holds.
void check_lumped(const RunConfig& cfg, const SimulationModel& m);

// Each sample's id becomes its material with the element's terms added (new table entries).
void add_lumped_elements(const RunConfig& cfg, const std::vector<LumpedModel>& elements,
                         MaterialTable& table, const FieldLayout& layout,
                         std::array<std::vector<std::uint8_t>, 6>& ids);

}  // namespace clfdtd
