// The backend of one rank of a distributed run (issue 21; distributed_backend.hpp has the class).
#pragma once
#include <memory>

#include "backends/backend.hpp"
#include "config/run_config.hpp"
#include "model/simulation_model.hpp"
#include "parallel/decomposition.hpp"

namespace clfdtd::parallel {

class Communicator;

// The backend for `comm`'s rank: its box of `d` of the GLOBAL model on the device of `device`
// (this rank's device.select already picked). Collective: when any rank fails to set up, every
// rank throws.
std::unique_ptr<Backend> make_distributed_backend(const SimulationModel& global,
                                                  const DeviceConfig& device,
                                                  const Decomposition& d, Communicator& comm);

}  // namespace clfdtd::parallel
