// The subcommands behind cli::run. Each returns the process exit code and lets ConfigError and
// DeviceError propagate to cli::run, which maps them.
#pragma once
#include <string>
#include <vector>

namespace clfdtd::cli {

// Patent steps 1-6: load and check the model, mesh it, run it on the chosen device, save outputs.
int run_command(const std::string& model_path, const std::vector<std::string>& overrides);

// Every OpenCL platform/device: index, type, vendor, memory, compute units.
int devices_command();

// Benchmarks and the auto-tuner (bench_command.cpp); `args` are the tokens after "bench".
int bench_command(const std::vector<std::string>& args);

// The S-matrix of a model's lumped ports from one run per port, as a Touchstone file
// (sparams_command.cpp); `args` are the tokens after "sparams".
int sparams_command(const std::vector<std::string>& args);

// The guided modes of a cross-section of a model (modes_command.cpp); `args` are the tokens after
// "modes".
int modes_command(const std::vector<std::string>& args);

}  // namespace clfdtd::cli
