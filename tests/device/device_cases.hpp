// The device API's test cases as functions over a `Device&`, so the same checks run on every API
// and device present (test_opencl_device.cpp, test_cuda_device.cpp). Each checks its result on the
// host against a value computed here, never against the device itself.
#pragma once
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "device/device.hpp"
#include "device/test_apis.hpp"
#include "errors.hpp"

namespace clfdtd::test {

using device::Buffer;
using device::Defines;
using device::Device;
using device::Kernel;
using device::Range;

// Devices stay open for the whole test program, so their program caches serve every case.
inline Device& opened_device(device::Api api, int index) {
  static std::map<std::pair<int, int>, std::unique_ptr<Device>> open;
  auto& d = open[{static_cast<int>(api), index}];
  if (!d) d = device::open_device(api, index);
  return *d;
}

// Runs `check` on every device of `api`; with none, says so and checks nothing.
inline void on_every_device(device::Api api, const std::function<void(Device&)>& check) {
  if (!has_device(api)) {
    MESSAGE("no " << std::string(device::api_name(api))
                  << " device (none on this machine, or the API is not in this build): skipped");
    return;
  }
  for (const auto& info : device::list_devices(api)) {
    INFO(std::string(device::api_name(api)) << " device " << info.index << ": " << info.name);
    check(opened_device(api, info.index));
  }
}

// The program most cases use: the default tile, not magnetic.
inline Defines default_defines() { return {{"TILE_X", 2}, {"TILE_Y", 2}, {"TILE_Z4", 30}}; }

template <class T>
Buffer upload_vector(Device& dev, const std::vector<T>& v) {
  Buffer b = dev.alloc(v.size() * sizeof(T));
  dev.upload(b, v.data(), v.size() * sizeof(T));
  return b;
}

template <class T>
std::vector<T> read_vector(Device& dev, const Buffer& b) {
  std::vector<T> v(b.bytes() / sizeof(T));
  dev.read(b, v.data(), v.size() * sizeof(T));
  return v;
}

inline void check_info(Device& dev) {
  const auto& info = dev.info();
  CHECK(!info.name.empty());
  CHECK(info.global_mem_bytes > 0);
  CHECK(info.max_alloc_bytes > 0);
  CHECK(info.max_alloc_bytes <= info.global_mem_bytes);
  CHECK(info.max_group_size > 0);
  CHECK(info.max_group_dims[0] > 0);
  CHECK(dev.available_bytes() > 0);
  CHECK(dev.available_bytes() <= info.global_mem_bytes);
}

// upload / read, whole and at an offset.
inline void check_round_trip(Device& dev) {
  std::vector<float> v(1000);
  for (std::size_t n = 0; n < v.size(); ++n) v[n] = 0.5f * static_cast<float>(n) - 7.0f;
  Buffer b = upload_vector(dev, v);
  CHECK(b.bytes() == v.size() * sizeof(float));
  CHECK(read_vector<float>(dev, b) == v);

  const std::vector<float> patch{-1.0f, -2.0f, -3.0f};
  dev.upload(b, patch.data(), patch.size() * sizeof(float), 10 * sizeof(float));
  std::vector<float> want = v;
  std::copy(patch.begin(), patch.end(), want.begin() + 10);
  CHECK(read_vector<float>(dev, b) == want);
  std::vector<float> part(4);
  dev.read(b, part.data(), 4 * sizeof(float), 9 * sizeof(float));
  CHECK(part == std::vector<float>{v[9], -1.0f, -2.0f, -3.0f});

  CHECK_THROWS_AS(dev.upload(b, v.data(), 8, b.bytes() - 4), DeviceError);
  CHECK_THROWS_AS(dev.read(b, part.data(), 16, b.bytes()), DeviceError);
}

// fill_zero on a float buffer and on one whose size is not a multiple of 4; copy.
inline void check_fill_and_copy(Device& dev) {
  std::vector<float> v(257, 3.25f);
  Buffer b = upload_vector(dev, v);
  dev.fill_zero(b);
  CHECK(read_vector<float>(dev, b) == std::vector<float>(257, 0.0f));

  const std::vector<unsigned char> odd{1, 2, 3, 4, 5, 6, 7};
  Buffer c = upload_vector(dev, odd);
  dev.fill_zero(c);
  CHECK(read_vector<unsigned char>(dev, c) == std::vector<unsigned char>(7, 0));

  std::vector<int> src(100), dst(120, -5);
  for (int n = 0; n < 100; ++n) src[n] = n * n;
  Buffer s = upload_vector(dev, src), d = upload_vector(dev, dst);
  dev.copy(d, s, 100 * sizeof(int));
  std::vector<int> want = src;
  want.resize(120, -5);
  CHECK(read_vector<int>(dev, d) == want);
  CHECK_THROWS_AS(dev.copy(s, d, 120 * sizeof(int)), DeviceError);

  Buffer empty = dev.alloc(0);
  CHECK(empty.bytes() == 0);
  dev.fill_zero(empty);
}

// read_rect of sub-boxes of a padded (nx, ny, nzp) float array, against the host's own copy.
inline void check_read_rect(Device& dev) {
  const int nx = 5, ny = 6, nzp = 8;
  std::vector<float> v(static_cast<std::size_t>(nx) * ny * nzp);
  for (std::size_t n = 0; n < v.size(); ++n) v[n] = static_cast<float>(n);
  Buffer b = upload_vector(dev, v);
  auto box = [&](int i0, int i1, int j0, int j1, int k0, int k1) {
    device::Rect r;
    r.offset = ((static_cast<std::size_t>(i0) * ny + j0) * nzp + k0) * sizeof(float);
    r.row_bytes = static_cast<std::size_t>(k1 - k0) * sizeof(float);
    r.rows = static_cast<std::size_t>(j1 - j0);
    r.slices = static_cast<std::size_t>(i1 - i0);
    r.row_pitch = nzp * sizeof(float);
    r.slice_pitch = static_cast<std::size_t>(ny) * nzp * sizeof(float);
    std::vector<float> got(r.slices * r.rows * (k1 - k0), -1.0f), want;
    for (int i = i0; i < i1; ++i)
      for (int j = j0; j < j1; ++j)
        for (int k = k0; k < k1; ++k) want.push_back(v[(static_cast<std::size_t>(i) * ny + j) * nzp + k]);
    dev.read_rect(b, r, got.data());
    INFO("box i " << i0 << ".." << i1 << ", j " << j0 << ".." << j1 << ", k " << k0 << ".." << k1);
    CHECK(got == want);
  };
  box(1, 4, 2, 5, 3, 7);      // interior box
  box(0, nx, 0, ny, 0, nzp);  // everything
  box(2, 3, 0, ny, 0, nzp);   // one x plane
  box(0, nx, 0, ny, 5, 6);    // one z plane: rows of one float
  box(4, 5, 5, 6, 7, 8);      // the last float
  device::Rect past;
  past.offset = v.size() * sizeof(float) - 4;
  past.row_bytes = 8;
  std::vector<float> two(2);
  CHECK_THROWS_AS(dev.read_rect(b, past, two.data()), DeviceError);
}

// Programs are cached per defines; different defines build different programs.
inline void check_program_cache(Device& dev) {
  const auto a = dev.program(default_defines());
  const auto a2 = dev.program(default_defines());
  Defines magnetic = default_defines();
  magnetic["MAGNETIC"] = 1;
  const auto b = dev.program(magnetic);
  CHECK(a.object() == a2.object());
  CHECK(a.object() != b.object());
  CHECK(b.object() == dev.program(magnetic).object());
  // Each lookup is a new kernel object with its own arguments.
  const Kernel k1 = a.kernel("update_h"), k2 = a.kernel("update_h");
  CHECK(k1.object() != k2.object());
  CHECK(k1.name() == "update_h");
  CHECK(k1.max_group_size() > 0);
  CHECK(b.kernel("update_h").max_group_size() > 0);
}

inline void check_missing_kernel(Device& dev) {
  const auto p = dev.program(default_defines());
  try {
    p.kernel("no_such_kernel");
    FAIL("a kernel that does not exist was found");
  } catch (const DeviceError& e) {
    CHECK(std::string(e.what()).find("no_such_kernel") != std::string::npos);
  }
}

// A define that breaks compilation: the error carries the compiler's log.
inline void check_build_failure(Device& dev) {
  Defines broken = default_defines();
  broken["ENERGY_GROUP"] = -1;  // energy.cl's local arrays get a negative size
  try {
    dev.program(broken);
    FAIL("a program with ENERGY_GROUP = -1 built");
  } catch (const DeviceError& e) {
    const std::string what = e.what();
    INFO(what);
    // The log is the compiler's: PoCL, rusticl and NVRTC name the file through #line, NVIDIA's
    // OpenCL compiler says "<kernel>:LINE" (seen on an H100, driver 580), so only what every
    // compiler prints is required: an error in the log, and the options.
    CHECK(what.find("error") != std::string::npos);
    CHECK(what.find("ENERGY_GROUP=-1") != std::string::npos);
  }
  CHECK_THROWS_AS(dev.program({{"NOT AN IDENTIFIER", 1}}), DeviceError);
}

// check_finite over six float4 fields: 0 when all are finite, 1 after a NaN or an infinity.
inline void check_finite_kernel(Device& dev) {
  const int count4 = 12;
  std::vector<std::vector<float>> f(6, std::vector<float>(4 * count4));
  for (int c = 0; c < 6; ++c)
    for (int n = 0; n < 4 * count4; ++n) f[c][n] = 0.01f * n - c;
  std::vector<Buffer> fields;
  for (const auto& v : f) fields.push_back(upload_vector(dev, v));
  Buffer flag = dev.alloc(sizeof(int));
  Kernel k = dev.program(default_defines()).kernel("check_finite");
  for (unsigned a = 0; a < 6; ++a) k.set(a, fields[a]);
  k.set(6, flag);
  k.set(7, count4);
  auto run = [&] {
    dev.fill_zero(flag);
    dev.launch(k, Range(16), Range(8));  // 4 work-items past the end, which must do nothing
    return read_vector<int>(dev, flag).at(0);
  };
  CHECK(run() == 0);
  std::vector<float> bad = f[2];
  bad[4 * 7 + 2] = std::numeric_limits<float>::quiet_NaN();
  dev.upload(fields[2], bad.data(), bad.size() * sizeof(float));
  CHECK(run() == 1);
  dev.upload(fields[2], f[2].data(), f[2].size() * sizeof(float));
  CHECK(run() == 0);
  bad = f[5];
  bad.back() = std::numeric_limits<float>::infinity();
  dev.upload(fields[5], bad.data(), bad.size() * sizeof(float));
  CHECK(run() == 1);
  CHECK_THROWS_AS(dev.launch(k, Range(12), Range(8)), DeviceError);  // 12 is not a multiple of 8
  dev.launch(k, Range(0), Range(8));                                 // nothing to do
}

// sample_probes copies (component, cell) samples into one slot of a batch buffer; the table holds
// them as device_tables.hpp's cell entries (component + 8 * (cell % 4), cell / 4).
inline void check_sample_probes(Device& dev) {
  const int cells = 40;
  std::vector<Buffer> fields;
  for (int c = 0; c < 6; ++c) {
    std::vector<float> v(cells);
    for (int n = 0; n < cells; ++n) v[n] = 1000.0f * c + n;
    fields.push_back(upload_vector(dev, v));
  }
  const std::vector<int> samples{0, 3, 2, 39, 5, 0, 3, 17, 1, 1};  // (component, cell) pairs
  const int nsamples = 5;
  std::vector<int> entries;
  for (int n = 0; n < nsamples; ++n) {
    entries.push_back(samples[2 * n] + 8 * (samples[2 * n + 1] % 4));
    entries.push_back(samples[2 * n + 1] / 4);
  }
  Buffer sample_buf = upload_vector(dev, entries);
  Buffer batch = dev.alloc(3 * nsamples * sizeof(float));
  dev.fill_zero(batch);
  Kernel k = dev.program(default_defines()).kernel("sample_probes");
  for (unsigned a = 0; a < 6; ++a) k.set(a, fields[a]);
  k.set(6, sample_buf);
  k.set(7, batch);
  k.set(8, nsamples);
  k.set(9, 1);  // slot
  dev.launch(k, Range(8), Range(8));
  std::vector<float> want(3 * nsamples, 0.0f);
  for (int n = 0; n < nsamples; ++n) want[nsamples + n] = 1000.0f * samples[2 * n] + samples[2 * n + 1];
  CHECK(read_vector<float>(dev, batch) == want);
}

// launch_together: sample_probes launches into the slots of one batch, a short one first (the
// queue's: 64 samples into slot 0) and three long ones (side queues: slots 1-3), with a zero range
// among them, twice, each time after copies on the queue that give the fields new values and
// before a copy of the batch. The fields are large and the side launches long, so a launch that
// started before those copies, or a copy after the group that waited for the short launch only,
// would see values of the round before. A fifth launch, marked after_previous, follows slot 1's
// on its side queue and samples what that one stored into another batch: started beside it, it
// would read slot 1 of the round before. Timed; a range that is not a multiple of the group is a
// DeviceError.
inline void check_launch_together(Device& dev) {
  const int cells = 1 << 20, nsamples = 1 << 18, short_samples = 64, slots = 4;
  auto value = [](int comp, int cell, int round) { return 4096.0f * comp + cell % 4096 + 0.5f * round; };
  auto cell_of = [](int n) { return static_cast<int>((37LL * n + 11) % cells); };
  std::vector<Buffer> fields, staged;
  for (int c = 0; c < 6; ++c) {
    fields.push_back(dev.alloc(cells * sizeof(float)));
    staged.push_back(dev.alloc(cells * sizeof(float)));
    dev.fill_zero(fields.back());
  }
  std::vector<int> entries;
  for (int n = 0; n < nsamples; ++n) {
    entries.push_back(n % 6 + 8 * (cell_of(n) % 4));
    entries.push_back(cell_of(n) / 4);
  }
  Buffer sample_buf = upload_vector(dev, entries);
  Buffer batch = dev.alloc(slots * nsamples * sizeof(float));
  Buffer copied = dev.alloc(batch.bytes());
  dev.fill_zero(batch);
  // The chained launch: component 0 (every component is the batch) at cells nsamples + n, i.e.
  // slot 1, into a batch of its own.
  std::vector<int> chained_entries;
  for (int n = 0; n < nsamples; ++n) {
    const int cell = nsamples + n;
    chained_entries.push_back(8 * (cell % 4));
    chained_entries.push_back(cell / 4);
  }
  Buffer chained_buf = upload_vector(dev, chained_entries);
  Buffer chained_batch = dev.alloc(nsamples * sizeof(float));
  dev.fill_zero(chained_batch);
  std::vector<Kernel> k;
  for (int slot = 0; slot < slots; ++slot) {
    k.push_back(dev.program(default_defines()).kernel("sample_probes"));
    for (unsigned a = 0; a < 6; ++a) k.back().set(a, fields[a]);
    k.back().set(6, sample_buf);
    k.back().set(7, batch);
    k.back().set(8, slot == 0 ? short_samples : nsamples);  // slot 0: batch[0, 64)
    k.back().set(9, slot);
  }
  Kernel chained = dev.program(default_defines()).kernel("sample_probes");
  for (unsigned a = 0; a < 6; ++a) chained.set(a, batch);
  chained.set(6, chained_buf);
  chained.set(7, chained_batch);
  chained.set(8, nsamples);
  chained.set(9, 0);
  std::vector<float> want(slots * nsamples, 0.0f);
  for (int round = 1; round <= 2; ++round) {
    std::vector<float> v(cells);
    for (int c = 0; c < 6; ++c) {
      for (int n = 0; n < cells; ++n) v[n] = value(c, n, round);
      dev.upload(staged[c], v.data(), v.size() * sizeof(float));
    }
    for (int n = 0; n < short_samples; ++n) want[n] = value(n % 6, cell_of(n), round);
    for (int slot = 1; slot < slots; ++slot) {
      for (int n = 0; n < nsamples; ++n) want[slot * nsamples + n] = value(n % 6, cell_of(n), round);
    }
    dev.timer_start();
    for (int c = 0; c < 6; ++c) dev.copy(fields[c], staged[c], cells * sizeof(float));
    const Range items(nsamples), group(64);
    dev.launch_together({{k[0], Range(short_samples), group},
                         {k[1], Range(0), group},
                         {k[1], items, group},
                         {chained, items, group, true},
                         {k[2], items, group},
                         {k[3], items, group}});
    dev.copy(copied, batch, batch.bytes());
    const double t = dev.timer_stop();
    const auto chained_got = read_vector<float>(dev, chained_batch);
    CHECK(t > 0.0);
    CHECK(t < 60.0);
    const auto got = read_vector<float>(dev, copied);
    int wrong = 0;
    for (std::size_t n = 0; n < got.size(); ++n) wrong += got[n] != want[n];
    CHECK_MESSAGE(wrong == 0, "round " << round << ": " << wrong << " samples wrong");
    int chained_wrong = 0;
    for (int n = 0; n < nsamples; ++n) chained_wrong += chained_got[n] != want[nsamples + n];
    CHECK_MESSAGE(chained_wrong == 0,
                  "round " << round << ": " << chained_wrong << " chained samples wrong");
  }
  dev.launch_together({});
  CHECK_THROWS_AS(dev.launch_together({{k[0], Range(8), Range(8)}, {k[1], Range(12), Range(8)}}),
                  DeviceError);
}

// energy_sums' tree reduction takes the launch's group size (energy_reduce.h): groups of 64, 16
// and 1 give the same sums over the same fields, and the host's sums in double.
inline void check_energy_group_sizes(Device& dev) {
  const int count4 = 1000, ngroups = 8;
  auto value = [](int comp, int n) { return 0.001f * static_cast<float>((n * 7 + comp * 13) % 101) - 0.05f; };
  std::vector<std::vector<float>> f(6, std::vector<float>(4 * count4));
  double want_e = 0, want_m = 0, want_n = 0;
  const float eps = 1.5f;
  for (int c = 0; c < 6; ++c)
    for (int n = 0; n < 4 * count4; ++n) {
      f[c][n] = value(c, n);
      const double v = f[c][n];
      (c < 3 ? want_e : want_n) += (c < 3 ? eps : 1.0) * v * v;
    }
  want_m = want_n;  // H_prev = H on the first launch after the copy below
  std::vector<Buffer> fields;
  for (const auto& v : f) fields.push_back(upload_vector(dev, v));
  const std::vector<std::uint8_t> ids(4 * count4, 0);
  Buffer id = upload_vector(dev, ids);
  std::vector<float> eps_table(256, 0.0f), mu_table(256, 1.0f);
  eps_table[0] = eps;
  Buffer eps_r = upload_vector(dev, eps_table), mu_r = upload_vector(dev, mu_table);
  Buffer partial = dev.alloc(3 * ngroups * sizeof(float));
  std::vector<Buffer> h_prev;
  for (int c = 3; c < 6; ++c) h_prev.push_back(dev.alloc(4 * count4 * sizeof(float)));
  Kernel k = dev.program(default_defines()).kernel("energy_sums");
  unsigned a = 0;
  for (const Buffer& b : fields) k.set(a++, b);
  for (const Buffer& b : h_prev) k.set(a++, b);
  for (int n = 0; n < 3; ++n) k.set(a++, id);
  k.set(a++, eps_r);
  for (int n = 0; n < 3; ++n) k.set(a++, id);
  k.set(a++, mu_r);
  k.set(a++, partial);
  k.set(a++, count4);
  const unsigned stride_arg = a++;
  k.set(a++, ngroups);
  k.set(a++, 0);  // slot
  for (int group : {64, 16, 1}) {
    INFO("energy group of " << group);
    for (int c = 0; c < 3; ++c) dev.copy(h_prev[c], fields[3 + c], 4 * count4 * sizeof(float));
    k.set(stride_arg, ngroups * group);
    dev.launch(k, Range(static_cast<std::size_t>(ngroups * group)), Range(static_cast<std::size_t>(group)));
    const auto got = read_vector<float>(dev, partial);
    double sum[3] = {0, 0, 0};
    for (int t = 0; t < 3; ++t)
      for (int g = 0; g < ngroups; ++g) sum[t] += got[static_cast<std::size_t>(t * ngroups + g)];
    CHECK(sum[0] == doctest::Approx(want_e).epsilon(1e-5));
    CHECK(sum[1] == doctest::Approx(want_m).epsilon(1e-5));
    CHECK(sum[2] == doctest::Approx(want_n).epsilon(1e-5));
  }
}

// Timers: positive over a few launches; a too-large allocation is an OutOfMemoryError.
inline void check_timer_and_memory(Device& dev) {
  std::vector<float> v(4096, 1.0f);
  std::vector<Buffer> fields;
  for (int c = 0; c < 6; ++c) fields.push_back(upload_vector(dev, v));
  Buffer flag = dev.alloc(sizeof(int));
  Kernel k = dev.program(default_defines()).kernel("check_finite");
  for (unsigned a = 0; a < 6; ++a) k.set(a, fields[a]);
  k.set(6, flag);
  k.set(7, 1024);
  dev.fill_zero(flag);
  dev.timer_start();
  for (int n = 0; n < 5; ++n) dev.launch(k, Range(1024), Range(64));
  const double t = dev.timer_stop();
  CHECK(t > 0.0);
  CHECK(t < 60.0);
  CHECK(read_vector<int>(dev, flag).at(0) == 0);
  dev.timer_start();
  dev.copy(fields[1], fields[0], v.size() * sizeof(float));
  CHECK(dev.timer_stop() > 0.0);

  CHECK_THROWS_AS(dev.alloc(dev.info().max_alloc_bytes + 1), OutOfMemoryError);
}

// Wrong arguments fail where they are set or launched, naming the kernel, not on the device.
inline void check_argument_errors(Device& dev) {
  Kernel k = dev.program(default_defines()).kernel("check_finite");  // 8 arguments
  Buffer b = dev.alloc(64);
  CHECK_THROWS_AS(k.set(8, 1), DeviceError);  // no argument 8
  CHECK_THROWS_AS(k.set(7, b), DeviceError);  // a buffer where the int count4 goes
  for (unsigned a = 0; a < 7; ++a) k.set(a, b);
  try {
    dev.launch(k, Range(8), Range(8));  // count4 never set
    dev.finish();
    FAIL("a launch with an argument missing ran");
  } catch (const DeviceError& e) {
    CHECK(std::string(e.what()).find("check_finite") != std::string::npos);
  }
}

}  // namespace clfdtd::test
