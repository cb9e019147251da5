// The backend factory: device.backend picks the engine, the reference or the GPU engine on one
// device API; a 2D model (issue 19) gets the plane engines: PlaneReference, or on a device the
// Yee tm/te PlaneEngine or the scalar WaveEngine (equation = wave); a cylindrical model (issue 20)
// gets CylReference, or on a device the CylEngine (with a list in device.select, one per device,
// the modes spread over them: CylMultiEngine). An API that this build leaves out is reported as
// bad input (exit 2), naming the build option that brings it in; so is a device list for any
// other model (docs/CYLINDRICAL.md, "Modes over several devices").
#include "backends/backend.hpp"

#include "backends/reference/cyl_reference.hpp"
#include "backends/reference/plane_reference.hpp"
#include "backends/reference/reference_backend.hpp"
#include "device/device.hpp"
#include "engine/cyl/cyl_multi_engine.hpp"
#include "engine/field_buffers.hpp"
#include "engine/gpu_engine.hpp"
#include "engine/plane/plane_engine.hpp"
#include "engine/wave/wave_engine.hpp"
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

std::unique_ptr<Backend> make_plane_backend(const SimulationModel& model,
                                            const DeviceConfig& device) {
  if (device.backend == BackendKind::Reference) return std::make_unique<PlaneReference>(model);
  const device::Api api = device_api(device.backend);
  if (model.equation == Equation::Wave) return engine::make_wave_engine(api, model, device);
  return engine::make_plane_engine(api, model, device);
}

std::unique_ptr<Backend> make_cyl_backend(const SimulationModel& model,
                                          const DeviceConfig& device) {
  if (device.backend == BackendKind::Reference) return std::make_unique<CylReference>(model);
  // On a device: the body-of-revolution engine, every mode in one launch; with a list of
  // devices, the modes spread over them.
  return engine::make_cyl_device_backend(device_api(device.backend), model, device);
}

// A list in device.select spreads a cylindrical model's modes over devices; mpirun gives each
// rank its entry before a backend is made. Anything else runs on one device.
void refuse_device_list(const SimulationModel& model, const DeviceConfig& device) {
  if (model.cylindrical() && device.backend != BackendKind::Reference) return;
  if (device::split_device_select(device.select).size() <= 1) return;
  throw ConfigError("", 0, "device.select",
                    model.cylindrical()
                        ? "one device for device.backend = reference (a list of devices needs "
                          "device.backend = opencl or cuda)"
                        : "one device: a list of devices needs a cylindrical model, or mpirun");
}

}  // namespace

std::unique_ptr<Backend> make_backend(const SimulationModel& model, const DeviceConfig& device) {
  refuse_device_list(model, device);
  if (model.cylindrical()) return make_cyl_backend(model, device);
  if (model.two_d()) return make_plane_backend(model, device);
  if (device.backend == BackendKind::Reference) return std::make_unique<ReferenceBackend>(model);
  return engine::make_gpu_engine(device_api(device.backend), model, device);
}

void check_device_can_hold(const GridGeometry& g, const FieldLayout& layout, Equation equation,
                           const DeviceConfig& device) {
  if (device.backend == BackendKind::Reference) return;
  if (device::split_device_select(device.select).size() > 1) return;
  const std::size_t floor = engine::field_floor_bytes(g, layout, equation);
  if (floor == 0) return;
  device::Api api;
  try {
    api = device_api(device.backend);
  } catch (const ConfigError&) {
    return;  // make_backend names the build option
  }
  const std::vector<device::DeviceInfo> devices = device::list_devices(api);
  if (devices.empty()) return;
  const int at = device::choose_device(devices, device.select);
  engine::check_field_floor(floor, devices[static_cast<std::size_t>(at)]);
}

}  // namespace clfdtd
