// The backend factory: device.backend picks the engine. Backends that this build leaves out are
// reported as bad input (exit 2), naming the build option that brings them in.
#include "backends/backend.hpp"

#include "backends/reference/reference_backend.hpp"
#include "errors.hpp"
#ifdef CLFDTD_HAVE_OPENCL
#include "backends/opencl/opencl_backend.hpp"
#endif
#ifdef CLFDTD_HAVE_CUDA
#include "backends/cuda/cuda_backend.hpp"
#endif

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

}  // namespace

std::unique_ptr<Backend> make_backend(const SimulationModel& model, const DeviceConfig& device) {
  switch (device.backend) {
    case BackendKind::Reference:
      return std::make_unique<ReferenceBackend>(model);
    case BackendKind::OpenCl:
#ifdef CLFDTD_HAVE_OPENCL
      return std::make_unique<OpenClBackend>(model, device);
#else
      throw ConfigError("", 0, "device.backend",
                        "a backend of this build (" + built_backends() +
                            "); opencl needs -DCLFDTD_OPENCL=ON");
#endif
    case BackendKind::Cuda:
#ifdef CLFDTD_HAVE_CUDA
      return std::make_unique<CudaBackend>(model, device);
#else
      throw ConfigError("", 0, "device.backend",
                        "a backend of this build (" + built_backends() +
                            "); cuda needs -DCLFDTD_CUDA=ON");
#endif
  }
  throw ConfigError("", 0, "device.backend", "opencl, cuda or reference");
}

}  // namespace clfdtd
