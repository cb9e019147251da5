// The files of the lumped ports (model/ports.hpp, docs/PORTS.md), written at the end of a run
// into <output dir>/ports/:
//   <name>.csv       frequency_hz,z_re_ohm,z_im_ohm,s11_re,s11_im,s11_db,delivered_J_s
//   <name>.time.csv  time_s,source_V,voltage_V,current_A     (at (n + 1/2) dt, n = 0 .. steps-1)
// Port names have no dot, so the two names never meet.
#pragma once
#include <string>
#include <vector>

#include "model/simulation_model.hpp"

namespace clfdtd {

// e_series[k]: port k's E at steps 0 .. steps (as recorded). Returns one warning line per port
// whose current had not died down by the last step (its spectrum is that of a cut-off series).
// Throws OutputError on a write failure.
std::vector<std::string> write_port_files(const std::string& dir, const SimulationModel& m,
                                          const std::vector<std::vector<double>>& e_series);

}  // namespace clfdtd
