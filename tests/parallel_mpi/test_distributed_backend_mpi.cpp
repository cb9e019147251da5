// The distributed backend under mpirun (tests/CMakeLists.txt: mpirun -np 2 and -np 3 of
// this program): every rank runs the split model (parallel_model.hpp) on its own OpenCL device
// in one process (the plain engine, rows variant) and then distributed over all ranks
// (make_distributed_backend over Communicator::world()), and compares every output: probes,
// energy, monitors on every rank, snapshot fields gathered on rank 0, within 1e-6 of each
// series' maximum. Exit 0 when every rank agrees, 1 otherwise (each failing rank prints what
// differs). Arguments: [--api opencl|cuda] [--halo-path auto|host|device] [--rows] [--time N
// STEPS] [PX PY PZ] (device.decomposition; default automatic). Rank 0 prints the halo path
// taken. --rows: the rows variant on CUDA too (default: auto there, whose work-group shapes
// differ between the parts and one process, and with them CUDA's rounding; docs/MPI.md). --time N STEPS instead times STEPS steps of a vacuum cube of N^3 cells
// with 10 UPML layers and a dipole, on every rank's device.select = "gpu" if there is one (ranks
// share it), one rank: the plain engine; more: the distributed backend (host-staged halos), and
// prints the slowest rank's seconds, cell updates per second and its exchange seconds
// (tools/mpi_gpu_check.sh runs it on the GPU machine).
// The shared test helpers (backends/physics_helpers.hpp) use doctest: its implementation is
// compiled in, without its main.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>

#include "backends/physics_helpers.hpp"

#include "engine/gpu_engine.hpp"
#include "parallel/communicator.hpp"
#include "parallel/distributed_backend.hpp"
#include "parallel/parallel_model.hpp"
#include "parallel/split_outputs.hpp"

using namespace clfdtd;
using namespace clfdtd::parallel;
using namespace clfdtd::test;

namespace {

// The timing run: prints one line on rank 0, returns false on a failure on any rank.
bool time_steps(Communicator& comm, device::Api api, int n, long steps,
                const std::array<int, 3>& requested) {
  std::string err;
  double seconds = 0, exchange = 0;
  std::string description, variant;
  try {
    const double d = 1e-3;
    RunConfig cfg = box_config({n, n, n}, d, steps, BoundaryType::Upml, 10);
    cfg.sources = {point_source("s", SourceKind::Dipole, Axis::Z, cells(n / 2.0, n / 2.0, n / 2.0, d),
                                WaveformKind::Gaussian, kC0 / (20 * d), 1e-15)};
    const SimulationModel m = SimulationModel::build(cfg);
    DeviceConfig dev;
    dev.backend = api == device::Api::Cuda ? BackendKind::Cuda : BackendKind::OpenCl;
    const bool gpu = !device::list_devices(api).empty() && [&] {
      for (const auto& i : device::list_devices(api))
        if (i.type == "gpu") return true;
      return false;
    }();
    if (gpu) dev.select = "gpu";
    if (comm.size() == 1) {
      auto engine = engine::make_gpu_engine(api, m, dev);
      engine->step(0);
      // The wall clock, as the distributed backend's timed_steps (device timers would leave out
      // nothing here, but the two rows then compare like with like).
      engine->finish();
      const auto t0 = std::chrono::steady_clock::now();
      for (long s = 1; s < steps; ++s) engine->step(s);
      engine->finish();
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      description = engine->device_description();
      variant = engine->kernel_variant();
    } else {
      const Decomposition dc = decompose(m.grid.n, comm.size(), requested);
      DistributedBackend b(m, dev, dc, communicator_link(comm));
      b.step(0);
      const double before = b.exchange_seconds();
      seconds = b.timed_steps(1, steps - 1);
      exchange = b.exchange_seconds() - before;
      description = b.device_description();
      variant = b.kernel_variant();
    }
  } catch (const std::exception& e) {
    err = e.what();
  }
  if (!err.empty()) std::cerr << "rank " << comm.rank() << ": " << err << "\n";
  const bool ok = comm.all(err.empty());
  std::vector<double> ex{exchange};
  std::vector<double> all;
  comm.all_gather(ex, all);
  double max_exchange = 0;
  for (double v : all) max_exchange = std::max(max_exchange, v);
  if (ok && comm.rank() == 0) {
    const double updates = static_cast<double>(n) * n * n * static_cast<double>(steps - 1);
    std::printf("ranks %d | N %d | steps %ld | %s | %s | seconds %.4f | Gcells/s %.3f | "
                "exchange seconds (max rank) %.4f | exchange share %.1f%% | hidden 0%% (no overlap)\n",
                comm.size(), n, steps - 1, description.c_str(), variant.c_str(), seconds,
                updates / seconds * 1e-9, max_exchange, 100 * max_exchange / seconds);
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  MpiSession session(argc, argv);
  Communicator& comm = Communicator::world();
  std::array<int, 3> requested{0, 0, 0};
  device::Api api = device::Api::OpenCL;
  HaloPath halo_path = HaloPath::Auto;
  bool rows = false;
  int time_n = 0;
  long time_steps_count = 0;
  std::vector<std::string> rest;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--api" && a + 1 < argc) {
      api = std::string(argv[++a]) == "cuda" ? device::Api::Cuda : device::Api::OpenCL;
    } else if (arg == "--rows") {
      rows = true;
    } else if (arg == "--halo-path" && a + 1 < argc) {
      const std::string p = argv[++a];
      halo_path = p == "host" ? HaloPath::Host : p == "device" ? HaloPath::Device : HaloPath::Auto;
    } else if (arg == "--time" && a + 2 < argc) {
      time_n = std::atoi(argv[++a]);
      time_steps_count = std::atol(argv[++a]);
    } else {
      rest.push_back(arg);
    }
  }
  if (rest.size() == 3)
    for (std::size_t a = 0; a < 3; ++a) requested[a] = std::atoi(rest[a].c_str());
  if (time_n > 0) return time_steps(comm, api, time_n, time_steps_count, requested) ? 0 : 1;

  std::string err;
  try {
    SimulationModel m = split_model(36);
    m.snapshot_steps = {7, 36};
    DeviceConfig dev;
    dev.backend = api == device::Api::Cuda ? BackendKind::Cuda : BackendKind::OpenCl;
    dev.variant = api == device::Api::Cuda && !rows ? KernelVariant::Auto : KernelVariant::Rows;
    dev.halo_path = halo_path;
    OutputRecorder one, split;
    {
      auto engine = engine::make_gpu_engine(api, m, dev);
      record_run(m, *engine, one);
    }
    const Decomposition d = decompose(m.grid.n, comm.size(), requested);
    {
      auto backend = make_distributed_backend(m, dev, d, comm);
      if (comm.rank() == 0) {
        std::cout << backend->device_description() << "\nhalo path: "
                  << static_cast<DistributedBackend&>(*backend).halo_path() << "\n";
      }
      record_run(m, *backend, split);
    }
    err = compare_outputs(split, one, comm.rank() == 0);
  } catch (const std::exception& e) {
    err = std::string("error: ") + e.what() + "\n";
  }
  if (!err.empty()) std::cerr << "rank " << comm.rank() << ":\n" << err;
  const bool ok = comm.all(err.empty());
  if (comm.rank() == 0) std::cout << (ok ? "every rank equals the one-process run\n" : "FAILED\n");
  return ok ? 0 : 1;
}
