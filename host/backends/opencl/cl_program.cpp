// Patent step 3: assemble and build the embedded OpenCL program.
#include "backends/opencl/cl_program.hpp"

#include <sstream>

#include "backends/embedded_kernels.hpp"
#include "backends/opencl/cl_error.hpp"
#include "errors.hpp"

namespace clfdtd {

namespace {

// Headers first (each .cl includes them for the CUDA build, which compiles files, not one string).
const char* const kOrder[] = {"compat.h",   "fdtd_common.h", "upml_lanes.h", "update_h.cl", "update_e.cl",
                              "update_plain.cl", "upml.cl", "upml_zslab.cl", "upml_xy4.cl", "update_fused.cl", "update_rows.cl", "update_onepass.cl", "sources.cl", "probes.cl", "energy.cl",
                              "check_finite.cl"};

const char* find_text(const std::string& name) {
  for (const auto& f : embedded_kernel_files()) {
    if (name == f.name) return f.text;
  }
  throw DeviceError("embedded kernel file cl_kernels/" + name +
                    " is missing from this build (rebuild clfdtd)");
}

// Our headers are already in front and OpenCL has no include path for them: blank the line,
// keeping the line count so build-log line numbers stay right.
std::string strip_local_includes(const std::string& text) {
  std::istringstream in(text);
  std::ostringstream out;
  std::string line;
  while (std::getline(in, line)) {
    const auto first = line.find_first_not_of(" \t");
    const bool local_include = first != std::string::npos &&
                               line.compare(first, 8, "#include") == 0 &&
                               line.find('"') != std::string::npos;
    out << (local_include ? "" : line) << '\n';
  }
  return out.str();
}

}  // namespace

std::string fdtd_program_source() {
  std::string src;
  for (const char* name : kOrder) {
    src += "#line 1 \"";
    src += name;
    src += "\"\n";
    src += strip_local_includes(find_text(name));
  }
  return src;
}

std::string fdtd_build_options(const KernelBuildOptions& opt) {
  // No -cl-fast-relaxed-math: it would allow NaN/inf assumptions that break the finite check and
  // reorder sums the reference comparison depends on.
  std::ostringstream os;
  os << "-cl-std=CL1.2 -cl-mad-enable -DTILE_X=" << opt.tile_x << " -DTILE_Y=" << opt.tile_y
     << " -DTILE_Z4=" << opt.tile_z4 << " -DMAGNETIC=" << (opt.magnetic ? 1 : 0);
  return os.str();
}

cl::Program build_program(const cl::Context& context, const cl::Device& device,
                          const std::string& source, const std::string& options) {
  cl::Program program;
  try {
    program = cl::Program(context, source);
  } catch (const cl::Error& e) {
    throw_device_error(e, "creating the OpenCL program");
  }
  try {
    program.build(std::vector<cl::Device>{device}, options.c_str());
  } catch (const cl::Error& e) {
    std::string log, name;
    try {
      log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device);
      name = device.getInfo<CL_DEVICE_NAME>().c_str();  // drop a trailing NUL
    } catch (const cl::Error&) {
      log = "(no build log available)";
    }
    throw DeviceError("OpenCL kernel build failed on " + name + " (" + e.what() + ": " +
                      cl_error_name(e.err()) + ") with options \"" + options + "\"; build log:\n" +
                      log);
  }
  return program;
}

cl::Program build_fdtd_program(const cl::Context& context, const cl::Device& device,
                               const KernelBuildOptions& opt) {
  return build_program(context, device, fdtd_program_source(), fdtd_build_options(opt));
}

}  // namespace clfdtd
