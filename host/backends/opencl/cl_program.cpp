// Patent step 3: build an OpenCL program (cl_program.hpp).
#include "backends/opencl/cl_program.hpp"

#include "backends/opencl/cl_error.hpp"
#include "errors.hpp"

namespace clfdtd {

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

}  // namespace clfdtd
