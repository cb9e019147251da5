// mode_expansion monitors: see mode_expansion.hpp.
#include "model/mode_expansion.hpp"

#include <stdexcept>

#include "model/host_memory.hpp"
#include "model/mode_combination.hpp"
#include "model/mode_split.hpp"
#include "model/parallel_tasks.hpp"

namespace clfdtd {

ModeWindow expansion_window(const MonitorModel& mon) {
  ModeWindow w;
  w.axis = 0;
  while (w.axis < 2 && mon.lo[w.axis] != mon.hi[w.axis]) ++w.axis;
  w.plane = mon.lo[w.axis];
  w.lo = {mon.lo[w.u()], mon.lo[w.v()]};
  w.hi = {mon.hi[w.u()], mon.hi[w.v()]};
  return w;
}

std::vector<std::string> check_mode_expansions(const RunConfig& cfg, const SimulationModel& m) {
  std::vector<std::string> warnings;
  for (const MonitorModel& mon : m.monitors) {
    if (mon.kind != MonitorKind::ModeExpansion) continue;
    const ModeWindow w = expansion_window(mon);
    CrossSection cs;
    try {
      cs = model_cross_section(m, w);
    } catch (const std::invalid_argument& e) {
      throw cfg.error_at("monitor." + mon.name + ".box", std::string("a window the mode solver takes: ") + e.what());
    }
    check_host_memory(static_cast<std::size_t>(mode_solver_bytes(cs, mon.mode_count)),
                      "the mode solver of monitor '" + mon.name + "'");
    if (const std::string change = guide_change(m.grid, m.layout, m.ids, w); !change.empty())
      warnings.push_back("monitor '" + mon.name + "': the guide is not the same a cell before and after its plane (" +
                         change + "): its modes are those of a guide uniform along " +
                         axis_name(m.grid, w.axis) + " with the plane's cross-section");
  }
  return warnings;
}

std::vector<ExpansionAt> expand_on_modes(const SimulationModel& m, const MonitorModel& mon,
                                         const std::vector<std::complex<double>>& dft) {
  const ModeWindow w = expansion_window(mon);
  const CrossSection cs = model_cross_section(m, w);
  SplitPlane plane;
  plane.axis = w.axis;
  plane.u = w.u();
  plane.lo = w.lo;
  plane.h_side = 1;
  plane.dw = m.grid.d[w.axis];
  const std::size_t nf = mon.frequencies_hz.size();
  std::vector<ExpansionAt> out(nf);
  run_tasks_in_parallel(nf, mode_solver_bytes(cs, mon.mode_count), [&](std::size_t f) {
    // Modes of one beta come in an arbitrary combination: turned so that each group's first has
    // the most E along u, the rows then mean the same at every frequency.
    const std::vector<GuidedMode> modes = solve_modes_turned(cs, mon.frequencies_hz[f], mon.mode_count);
    std::vector<ExpandedMode> row;
    for (std::size_t k = 0; k < modes.size(); ++k) {
      const TwoWaves waves = split_on_mode(modes[k], cs, mon, plane, dft, f, nf);
      ExpandedMode e;
      e.mode = static_cast<int>(k) + 1;
      e.n_eff = modes[k].n_eff;
      e.beta = modes[k].beta;
      e.u_fraction = modes[k].u_fraction;
      e.degenerate = modes[k].degenerate;
      e.forward = waves.forward;
      e.backward = waves.backward;
      row.push_back(e);
    }
    out[f].modes = std::move(row);
    out[f].solved = true;
  });
  return out;
}

}  // namespace clfdtd
