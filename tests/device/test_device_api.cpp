// The device API cases (device_cases.hpp) on every device of every API compiled into this build:
// OpenCL (PoCL in CI) and CUDA (skipped with a message where there is no GPU, as in CI).
#include "device/device_cases.hpp"
#include "device/device_checks.hpp"

namespace clfdtd::test {

namespace {
const device::Api kApis[] = {device::Api::OpenCL, device::Api::Cuda};
}

TEST_CASE("device API: info, buffers, fill, copy, read_rect") {
  for (const auto api : kApis) {
    on_every_device(api, [api](Device& dev) {
      CHECK(dev.info().api == api);
      if (api == device::Api::Cuda) CHECK(!dev.info().code_target.empty());
      check_info(dev);
      check_round_trip(dev);
      check_fill_and_copy(dev);
      check_read_rect(dev);
    });
  }
}

TEST_CASE("device API: programs cached per defines, missing kernels, build errors") {
  for (const auto api : kApis) {
    on_every_device(api, [](Device& dev) {
      check_program_cache(dev);
      check_missing_kernel(dev);
      check_build_failure(dev);
    });
  }
}

TEST_CASE("device API: embedded kernels launched, alone and together, arguments, timers, memory limit, energy groups") {
  for (const auto api : kApis) {
    on_every_device(api, [](Device& dev) {
      check_finite_kernel(dev);
      check_sample_probes(dev);
      check_argument_errors(dev);
      check_timer_and_memory(dev);
      check_launch_together(dev);
      check_energy_group_sizes(dev);
    });
  }
}

#if !defined(CLFDTD_HAVE_OPENCL) || !defined(CLFDTD_HAVE_CUDA)
TEST_CASE("device API: an API not compiled into this build lists no device and opens none") {
#ifndef CLFDTD_HAVE_OPENCL
  CHECK(device::list_devices(device::Api::OpenCL).empty());
  CHECK_THROWS_AS(device::open_device(device::Api::OpenCL, 0), DeviceError);
#endif
#ifndef CLFDTD_HAVE_CUDA
  CHECK(device::list_devices(device::Api::Cuda).empty());
  CHECK_THROWS_AS(device::open_device(device::Api::Cuda, 0), DeviceError);
#endif
}
#endif

}  // namespace clfdtd::test

namespace clfdtd::test {
// Transfers larger than one piece (the OpenCL device moves 256 MiB at a time) arrive whole, at an
// offset too.
TEST_CASE("device API: an upload and a read of more than 256 MiB") {
  for (const auto api : kApis) {
    on_every_device(api, [](Device& dev) {
      const std::size_t n = (std::size_t{256} << 20) / 4 + 5;  // floats
      std::vector<std::uint32_t> v(n);
      for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint32_t>(i * 2654435761u);
      Buffer b = dev.alloc((n + 3) * 4);
      dev.upload(b, v.data(), n * 4, 12);
      std::vector<std::uint32_t> back(n, 0);
      dev.read(b, back.data(), n * 4, 12);
      CHECK(back == v);
    });
  }
}

TEST_CASE("device timer: a device span is believed only where it fits the wall clock") {
  // Real timestamps: the span misses the latency before the first command (16-30 us on the H200).
  CHECK(device::plausible_device_span(0.250, 0.251));
  CHECK(device::plausible_device_span(0.263e-3, 0.279e-3));
  CHECK(device::plausible_device_span(0.26, 0.25));  // clocks apart by a little
  // Mesa's rusticl: 0, 1, 2, 3 ns for every command, whatever ran.
  CHECK_FALSE(device::plausible_device_span(1e-9, 0.25));
  CHECK_FALSE(device::plausible_device_span(0.0, 0.25));
  // Longer than the work took, or most of very short work spent before the first command.
  CHECK_FALSE(device::plausible_device_span(0.4, 0.25));
  CHECK_FALSE(device::plausible_device_span(20e-6, 60e-6));
}

TEST_CASE("launch_together's chains: cut at every launch not after_previous, empty launches left out") {
  using Chains = std::vector<std::vector<std::size_t>>;
  auto chains = [](const std::vector<bool>& after, const std::vector<bool>& runs) {
    std::vector<device::Device::Launch> launches(after.size());
    for (std::size_t n = 0; n < after.size(); ++n) launches[n].after_previous = after[n];
    return device::launch_chains(launches, runs);
  };
  CHECK(chains({}, {}).empty());
  CHECK(chains({false, false, false}, {true, true, true}) == Chains{{0}, {1}, {2}});
  // A chain of three, then one of one; a first launch marked after_previous starts a chain.
  CHECK(chains({true, true, true, false}, {true, true, true, true}) == Chains{{0, 1, 2}, {3}});
  CHECK(chains({false, true, false, true}, {true, true, true, true}) == Chains{{0, 1}, {2, 3}});
  // A launch after an empty one waits for nothing but the work before the list: its chain is the
  // empty one's, not the one before.
  CHECK(chains({false, false, true}, {true, false, true}) == Chains{{0}, {2}});
  CHECK(chains({false, false, true, true}, {true, true, false, true}) == Chains{{0}, {1, 3}});
  // Chains that run nothing are dropped.
  CHECK(chains({false, false, true, false}, {true, false, false, true}) == Chains{{0}, {3}});
  CHECK(chains({false, false}, {false, false}).empty());
}
}  // namespace clfdtd::test
