// clfdtd: 3D FDTD electromagnetic simulator (OpenCL, with a double-precision reference engine).
// main() only hands over to the CLI, which maps error types to exit codes.
#include "cli/cli.hpp"

int main(int argc, char** argv) { return clfdtd::cli::run(argc, argv); }
