// The S-matrix of a model's lumped ports from finished runs, each driving one port with the others
// terminated in their resistances (amplitude 0): run k gives column k, the driven port's S11 and
// every other port's S21 (docs/PORTS.md). `clfdtd sparams` writes it as a Touchstone file.
// Waveguide ports (run.json's waveguide_ports) join the same way, referred to their modes' wave
// impedances (the file's 50 ohm nominal); a model with both kinds is refused.
#pragma once
#include <string>
#include <vector>

#include "output/touchstone.hpp"

namespace clfdtd {

// Reads <dir>/run.json and <dir>/ports/*.csv of each run. Throws ConfigError naming the folder
// and what is wrong: not a finished clfdtd run, no ports, a run that drives no port or several,
// runs whose ports, resistances or frequencies differ, runs of other cells, cell sizes, time
// steps, steps or meshed structure (run.json's geometry_fingerprint; a run.json without it, from
// an earlier version, is refused too), a port driven in two runs or in none.
NetworkData read_port_network(const std::vector<std::string>& run_dirs);

}  // namespace clfdtd
