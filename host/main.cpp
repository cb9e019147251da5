// clfdtd: 3D FDTD electromagnetic simulator (OpenCL, with a double-precision reference engine).
// main() only starts MPI when mpirun launched the process (docs/MPI.md) and hands over to the
// CLI, which maps error types to exit codes.
#include "cli/cli.hpp"
#include "parallel/communicator.hpp"

int main(int argc, char** argv) {
  clfdtd::parallel::MpiSession mpi(argc, argv);
  return clfdtd::cli::run(argc, argv);
}
