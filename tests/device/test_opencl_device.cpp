// The device API cases (device_cases.hpp) on every OpenCL device of the machine (PoCL in CI).
#include "device/device_cases.hpp"

namespace clfdtd::test {

#ifdef CLFDTD_HAVE_OPENCL
TEST_CASE("opencl device: info, buffers, read_rect") {
  on_every_device(device::Api::OpenCL, [](Device& dev) {
    CHECK(dev.info().api == device::Api::OpenCL);
    check_info(dev);
    check_round_trip(dev);
    check_fill_and_copy(dev);
    check_read_rect(dev);
  });
}

TEST_CASE("opencl device: programs, kernels, build errors") {
  on_every_device(device::Api::OpenCL, [](Device& dev) {
    check_program_cache(dev);
    check_missing_kernel(dev);
    check_build_failure(dev);
  });
}

TEST_CASE("opencl device: embedded kernels launched, timers, memory limit") {
  on_every_device(device::Api::OpenCL, [](Device& dev) {
    check_finite_kernel(dev);
    check_sample_probes(dev);
    check_timer_and_memory(dev);
    check_argument_errors(dev);
  });
}
#else
TEST_CASE("opencl device: not compiled into this build") {
  CHECK(device::list_devices(device::Api::OpenCL).empty());
  CHECK_THROWS_AS(device::open_device(device::Api::OpenCL, 0), DeviceError);
}
#endif

}  // namespace clfdtd::test
