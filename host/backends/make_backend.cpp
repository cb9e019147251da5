// The backend factory: device.backend picks the engine, the reference or the GPU engine on one
// device API; a 2D model (issue 19) gets the plane engines: PlaneReference, or on a device the
// Yee tm/te PlaneEngine or the scalar WaveEngine (equation = wave). An API that this build leaves
// out is reported as bad input (exit 2), naming the build option that brings it in.
#include "backends/backend.hpp"

#include "backends/reference/plane_reference.hpp"
#include "backends/reference/reference_backend.hpp"
#include "engine/gpu_engine.hpp"
#include "errors.hpp"

// The 2D GPU engines land from their own branches; a tree without one refuses that kind of 2D
// model on a device (ConfigError on device.backend) instead of failing to build.
#if __has_include("engine/plane/plane_engine.hpp")
#include "engine/plane/plane_engine.hpp"
#define CLFDTD_PLANE_ENGINE 1
#endif
#if __has_include("engine/wave/wave_engine.hpp")
#include "engine/wave/wave_engine.hpp"
#define CLFDTD_WAVE_ENGINE 1
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

// The device API of device.backend (opencl or cuda), refused when this build leaves it out.
device::Api device_api(BackendKind kind) {
  if (kind == BackendKind::OpenCl) {
#ifdef CLFDTD_HAVE_OPENCL
    return device::Api::OpenCL;
#else
    throw ConfigError("", 0, "device.backend",
                      "a backend of this build (" + built_backends() +
                          "); opencl needs -DCLFDTD_OPENCL=ON");
#endif
  }
  if (kind == BackendKind::Cuda) {
#ifdef CLFDTD_HAVE_CUDA
    return device::Api::Cuda;
#else
    throw ConfigError("", 0, "device.backend",
                      "a backend of this build (" + built_backends() +
                          "); cuda needs -DCLFDTD_CUDA=ON");
#endif
  }
  throw ConfigError("", 0, "device.backend", "opencl, cuda or reference");
}

[[noreturn]] void no_plane_engine(const char* what) {
  throw ConfigError("", 0, "device.backend",
                    std::string("reference for this 2D model (the 2D GPU engine for ") + what +
                        " is not in this build yet)");
}

std::unique_ptr<Backend> make_plane_backend(const SimulationModel& model,
                                            const DeviceConfig& device) {
  if (device.backend == BackendKind::Reference) return std::make_unique<PlaneReference>(model);
  [[maybe_unused]] const device::Api api = device_api(device.backend);
  if (model.equation == Equation::Wave) {
#ifdef CLFDTD_WAVE_ENGINE
    return engine::make_wave_engine(api, model, device);
#else
    no_plane_engine("the wave equation");
#endif
  }
#ifdef CLFDTD_PLANE_ENGINE
  return engine::make_plane_engine(api, model, device);
#else
  no_plane_engine("Yee tm and te");
#endif
}

}  // namespace

std::unique_ptr<Backend> make_backend(const SimulationModel& model, const DeviceConfig& device) {
  if (model.two_d()) return make_plane_backend(model, device);
  if (device.backend == BackendKind::Reference) return std::make_unique<ReferenceBackend>(model);
  [[maybe_unused]] const device::Api api = device_api(device.backend);
#if defined(CLFDTD_HAVE_OPENCL) || defined(CLFDTD_HAVE_CUDA)
  return engine::make_gpu_engine(api, model, device);
#else
  throw ConfigError("", 0, "device.backend", "reference (this build has no device API)");
#endif
}

}  // namespace clfdtd
