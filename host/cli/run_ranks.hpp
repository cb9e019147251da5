// What `clfdtd run` does differently when mpirun started it with several ranks (docs/MPI.md):
// rank 0 alone prints and writes, every rank agrees on a failure before anyone goes on, the
// ranks stop at the same step, and what a distributed run cannot do is refused as bad input.
#pragma once
#include <functional>
#include <string>

#include "config/run_config.hpp"
#include "model/simulation_model.hpp"
#include "parallel/communicator.hpp"
#include "parallel/decomposition.hpp"
#include "solver/time_loop.hpp"

namespace clfdtd::cli {

// The sink of ranks other than 0: they take part in every read-back (the collectives) and write
// nothing.
class NullSink final : public LoopSink {
public:
  void probe_rows(long, int, const std::vector<double>&) override {}
  void snapshot(long, const std::array<std::vector<float>, 6>&) override {}
};

// Runs `phase` on every rank. One process: `phase` runs as it is and its exceptions propagate.
// Several ranks: an exception is caught, and every rank learns the lowest failing rank's exit
// code and message (Communicator::first_failed); rank 0 prints "clfdtd: [rank N: ]<message>".
// Returns 0 when no rank failed, else that exit code, the same on every rank.
int agree_on_failure(parallel::Communicator& comm, const std::function<void()>& phase);

// LoopOptions::stop_requested for this run: the stop signal of this process, or with several
// ranks, whether any rank received one, agreed every `every_steps` calls (one per step) so that
// every rank stops at the same step.
std::function<bool()> agreed_stop(parallel::Communicator& comm, long every_steps);

// The checks of a run over `ranks` > 1 MPI ranks, ConfigError naming the key: a 3D Cartesian model
// (grid.size, grid.coordinates), an engine that runs in parts (device.backend opencl or cuda;
// device.variant not onepass).
void check_distributable(const RunConfig& cfg, const SimulationModel& model, int ranks);

// decompose() of the model's grid over `ranks`, its ConfigError naming the model file and line.
parallel::Decomposition decompose_model(const RunConfig& cfg, const SimulationModel& model, int ranks);

// boundary.periodic or boundary.pmc on a device: the model runs as parts (one without mpirun)
// whose halo exchange carries the wrap or the mirror (docs/PERIODIC.md); the reference engine
// does both by itself.
bool runs_in_parts(const RunConfig& cfg, const SimulationModel& model);
// Such a run takes the variants a part can: auto, tile or rows (ConfigError on device.variant).
void check_periodic_variant(const RunConfig& cfg);

// This rank's device.select (parallel::rank_device_select over the devices of cfg's backend).
std::string rank_device(const RunConfig& cfg, int rank, int local_rank);

// A build without MPI started by mpirun with several processes would run the whole model in each:
// ConfigError saying so.
void refuse_mpirun_without_mpi();

// What write_dft_monitor_files reads of the backend, read the same way on a rank that writes
// nothing (read_dft is collective on a distributed backend).
void read_dft_monitors(const SimulationModel& model, Backend& backend);

}  // namespace clfdtd::cli
