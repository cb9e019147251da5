// See run_ranks.hpp.
#include "cli/run_ranks.hpp"

#include <complex>
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "cli/error_exit.hpp"
#include "cli/signals.hpp"
#include "device/device.hpp"
#include "errors.hpp"
#include "output/monitor_files.hpp"
#include "output/vti_writer.hpp"
#include "parallel/rank_device.hpp"

namespace clfdtd::cli {

int agree_on_failure(parallel::Communicator& comm, const std::function<void()>& phase) {
  if (!comm.distributed()) {
    phase();
    return 0;
  }
  ErrorExit mine;
  try {
    phase();
  } catch (...) {
    mine = describe_error(std::current_exception());
  }
  std::string failed;
  const int who = comm.first_failed(mine.code == 0, std::to_string(mine.code) + " " + mine.line, failed);
  if (who < 0) return 0;
  const std::size_t space = failed.find(' ');
  const int code = std::atoi(failed.substr(0, space).c_str());
  if (comm.rank() == 0) {
    const std::string line = space == std::string::npos ? failed : failed.substr(space + 1);
    if (who == 0)
      std::fprintf(stderr, "clfdtd: %s\n", line.c_str());
    else
      std::fprintf(stderr, "clfdtd: rank %d: %s\n", who, line.c_str());
  }
  return code != 0 ? code : 1;
}

std::function<bool()> agreed_stop(parallel::Communicator& comm, long every_steps) {
  if (!comm.distributed()) return [] { return stop_signal() != 0; };
  const long every = every_steps < 1 ? 1 : every_steps;
  return [&comm, every, calls = 0L]() mutable {
    if (++calls % every != 0) return false;
    return !comm.all(stop_signal() == 0);
  };
}

void check_distributable(const RunConfig& cfg, const SimulationModel& model, int ranks) {
  const std::string over = " for a run over " + std::to_string(ranks) + " MPI ranks";
  if (model.cylindrical())
    throw cfg.error_at("grid.coordinates",
                      "cartesian" + over + " (a cylindrical model runs in one process; it spreads "
                      "its modes over devices with a device.select list instead)");
  if (model.two_d())
    throw cfg.error_at("grid.size",
                      "three numbers (a 3D model)" + over + "; 2D models run in one process (mpirun -np 1)");
  if (cfg.device.backend == BackendKind::Reference)
    throw cfg.error_at("device.backend",
                      "opencl or cuda" + over + " (the reference engine runs in one process)");
  if (model.grid.bloch())
    throw cfg.error_at("boundary.bloch_k", "0 0 0" + over + " (a Bloch-periodic model runs in one process)");
  if (!cfg.waveguide_ports.empty())
    throw cfg.error_at("source." + cfg.waveguide_ports.front().name + ".type",
                       "no waveguide port" + over + " (waveguide ports run in one process)");
  if (cfg.device.variant == KernelVariant::OnePass || cfg.device.variant == KernelVariant::TBlock)
    throw cfg.error_at("device.variant",
                      "auto, tile or rows" + over + " (onepass is not offered with more than one rank, nor tblock)");
}

bool runs_in_parts(const RunConfig& cfg, const SimulationModel& model) {
  return (model.grid.any_periodic() || model.grid.any_pmc()) &&
         cfg.device.backend != BackendKind::Reference;
}

void check_periodic_variant(const RunConfig& cfg) {
  if (cfg.device.variant == KernelVariant::OnePass || cfg.device.variant == KernelVariant::TBlock)
    throw cfg.error_at("device.variant",
                       "auto, tile or rows in a model with periodic axes or magnetic walls "
                       "(boundary.periodic, boundary.pmc: they run as a halo exchange, which "
                       "onepass and tblock do not offer)");
}

parallel::Decomposition decompose_model(const RunConfig& cfg, const SimulationModel& model, int ranks) {
  try {
    return parallel::decompose(model.grid.n, ranks, cfg.device.decomposition, model.grid.periodic,
                               model.grid.pmc);
  } catch (const ConfigError& e) {
    // Given in the file: its line; given on the command line: no file; absent (automatic): the
    // model file, since its grid is what does not split.
    const bool in_file = cfg.lines.count(e.key()) > 0;
    const bool given = cfg.device.decomposition != std::array<int, 3>{0, 0, 0};
    throw ConfigError(in_file || !given ? cfg.source_file : std::string(), cfg.line_of(e.key()),
                      e.key(), e.expected());
  }
}

std::string rank_device(const RunConfig& cfg, int rank, int local_rank) {
  std::vector<device::DeviceInfo> devices;
  if (cfg.device.backend == BackendKind::OpenCl) devices = device::list_devices(device::Api::OpenCL);
  if (cfg.device.backend == BackendKind::Cuda) devices = device::list_devices(device::Api::Cuda);
  try {
    return parallel::rank_device_select(cfg.device.select, rank, local_rank, devices);
  } catch (const ConfigError& e) {
    throw cfg.error_at(e.key(), e.expected());
  }
}

void refuse_mpirun_without_mpi() {
  const int processes = parallel::launcher_world_size();
  if (parallel::built_with_mpi() || processes <= 1) return;
  throw ConfigError("environment", 0, "OMPI_COMM_WORLD_SIZE",
                    "one process: this clfdtd was built without MPI (CLFDTD_MPI=OFF, or MPI not "
                    "found when it was configured), so each of the " + std::to_string(processes) +
                    " processes mpirun started would run the whole model; rebuild with MPI "
                    "(libopenmpi-dev, docs/MPI.md) or run it without mpirun");
}

void read_dft_monitors(const SimulationModel& model, Backend& backend) {
  std::vector<std::complex<double>> values;
  for (std::size_t i = 0; i < model.monitors.size(); ++i) {
    if (reads_dft_at_end(model.monitors[i])) backend.read_dft(static_cast<int>(i), values);
  }
}

}  // namespace clfdtd::cli
