// The backend factory: device.backend picks the engine, the reference or the GPU engine on one
// device API. An API that this build leaves out is reported as bad input (exit 2), naming the
// build option that brings it in.
#include "backends/backend.hpp"

#include "backends/reference/plane_reference.hpp"
#include "backends/reference/reference_backend.hpp"
#include "engine/gpu_engine.hpp"
#include "errors.hpp"

namespace clfdtd {
namespace {

// The engines compiled into this program, for error messages.
[[maybe_unused]] std::string built_backends() {
  std::string list;
#ifdef CLFDTD_HAVE_OPENCL
  list += "opencl, ";
#endif
#ifdef CLFDTD_HAVE_CUDA
  list += "cuda, ";
#endif
  return list + "reference";
}

// 2D models (issue 19): the plane reference, or the plane GPU engines (Yee tm/te, wave).
std::unique_ptr<Backend> make_plane_backend(const SimulationModel& model,
                                            const DeviceConfig& device) {
  if (device.backend == BackendKind::Reference) return std::make_unique<PlaneReference>(model);
  throw ConfigError("", 0, "device.backend",
                    "reference for a 2D model (the 2D GPU engine is not in this build yet)");
}

}  // namespace

std::unique_ptr<Backend> make_backend(const SimulationModel& model, const DeviceConfig& device) {
  if (model.two_d()) return make_plane_backend(model, device);
  switch (device.backend) {
    case BackendKind::Reference:
      return std::make_unique<ReferenceBackend>(model);
    case BackendKind::OpenCl:
#ifdef CLFDTD_HAVE_OPENCL
      return engine::make_gpu_engine(device::Api::OpenCL, model, device);
#else
      throw ConfigError("", 0, "device.backend",
                        "a backend of this build (" + built_backends() +
                            "); opencl needs -DCLFDTD_OPENCL=ON");
#endif
    case BackendKind::Cuda:
#ifdef CLFDTD_HAVE_CUDA
      return engine::make_gpu_engine(device::Api::Cuda, model, device);
#else
      throw ConfigError("", 0, "device.backend",
                        "a backend of this build (" + built_backends() +
                            "); cuda needs -DCLFDTD_CUDA=ON");
#endif
  }
  throw ConfigError("", 0, "device.backend", "opencl, cuda or reference");
}

}  // namespace clfdtd
