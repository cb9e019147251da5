// Patent step 3 ("load the FDTD program file"): the kernels embedded at build time, assembled in a
// fixed order and compiled for one device with the tile size and switches as -D options.
#pragma once
#include <CL/opencl.hpp>
#include <string>

namespace clfdtd {

struct KernelBuildOptions {
  int tile_x = 2, tile_y = 2, tile_z4 = 30;  // the work-group = the local tile, float4 along z
  bool magnetic = false;                     // H reads material ids (some mu_r != 1)
};

// compat.h, fdtd_common.h, update_h.cl, update_e.cl, upml.cl, sources.cl, probes.cl,
// check_finite.cl, each preceded by a #line marker and with its `#include "..."` lines of our own
// headers blanked (they are already in front). Throws DeviceError if a file is missing.
std::string fdtd_program_source();

// "-cl-std=CL1.2 -cl-mad-enable -DTILE_X=2 -DTILE_Y=2 -DTILE_Z4=30 -DMAGNETIC=0"
std::string fdtd_build_options(const KernelBuildOptions& opt);

// Compiles `source` for `device`; a failure throws DeviceError carrying the full build log.
cl::Program build_program(const cl::Context& context, const cl::Device& device,
                          const std::string& source, const std::string& options);

// build_program(fdtd_program_source(), fdtd_build_options(opt)).
cl::Program build_fdtd_program(const cl::Context& context, const cl::Device& device,
                               const KernelBuildOptions& opt);

}  // namespace clfdtd
