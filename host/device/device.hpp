// The thin device API the GPU engine runs on: buffers, programs built from the embedded
// cl_kernels/ sources with -D defines, kernels looked up by name, arguments set by index, launches
// over 1-3D ranges, device timers and limits. Two implementations, OpenCL (opencl_device.cpp,
// through CLHPP) and CUDA (cuda_device.cpp, NVRTC compiling the same sources at run time); nothing
// above this layer knows which one it talks to.
// Conventions, the same for both APIs:
//  - ranges are OpenCL's: `global` counts work-items per dimension and is a multiple of `local`;
//    dimension 0 is the fastest (z in the field layout);
//  - every call throws DeviceError (the API call and the driver's message) on failure, and
//    OutOfMemoryError (bytes asked and available) when an allocation does not fit;
//  - all work goes to one in-order queue (stream; launch_together's side queues join it again):
//    upload/fill/launch return before the device finishes; read* block until the data is on the
//    host; finish() waits for everything; read_async/upload_async only enqueue, and a Marker
//    (mark()) tells when they are done.
#pragma once
#include <array>
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace clfdtd::device {

enum class Api { OpenCL, Cuda };
const char* api_name(Api api);  // "opencl", "cuda"

struct DeviceInfo {
  Api api = Api::OpenCL;
  int index = 0;             // position in list_devices(api)
  std::string name, platform, vendor;
  std::string type;          // gpu | cpu | accelerator | other
  // name + " (" + platform + ", " + version + ")" is the description today's backends print:
  // OpenCL platform "NVIDIA CUDA", version "OpenCL 3.0 CUDA"; CUDA platform "CUDA 13.0" (driver
  // API), version "runtime 13.0, driver 580.95.05, compute capability 9.0".
  std::string version;
  std::string driver;        // driver version (keys the tuning cache), as today's backends
  std::string code_target;   // what programs compile to: CUDA "sm_90" (or "compute_90" PTX); OpenCL ""
  std::size_t global_mem_bytes = 0, max_alloc_bytes = 0, local_mem_bytes = 0;
  std::size_t max_group_size = 0;                // work-items per group
  std::array<std::size_t, 3> max_group_dims{};  // per dimension
  unsigned compute_units = 0, clock_mhz = 0;
  // Whether its compiler takes MIN_GROUPS_<kernel> defines (device/min_groups.hpp): CUDA, and
  // NVIDIA's OpenCL platform through its PTX.
  bool min_groups_hint = false;
  // Whether a launch on a side queue starts well after the event it waits for (NVIDIA's OpenCL:
  // ~25-30 us on an H200, where CUDA's side streams start at once), so that launch_together's
  // short launches run sooner after their predecessor on its queue (Launch::after_previous).
  bool side_queue_starts_late = false;
};

// Every device of one API; an API without a driver or device, or not compiled into this build,
// gives an empty list, never throws.
std::vector<DeviceInfo> list_devices(Api api);

// Position in `devices` of the device `select` names (device.select):
//   ""          the best: a GPU if any (most compute_units * clock_mhz), else a CPU, else any;
//   "3"         the device with index 3;
//   "gpu"/"cpu" the best of that type;
//   otherwise   a case-insensitive part of the device or platform name (best match wins).
// Throws ConfigError (key device.select, listing the devices) when nothing matches and
// DeviceError when the list is empty.
int choose_device(const std::vector<DeviceInfo>& devices, const std::string& select);

// device.select as a list: entries separated by commas, each trimmed of spaces ("0, 1" gives
// {"0", "1"}; a name part may contain spaces: "NVIDIA H100, 1"). One entry per device of a
// multi-device run (cylindrical modes spread over devices, MPI ranks in turn); "" gives {""}.
// Throws ConfigError (key device.select) for an empty entry between commas.
std::vector<std::string> split_device_select(const std::string& select);

// A fixed-width table with a header, the device choose_device(devices, "") takes marked '*'.
std::string format_device_table(const std::vector<DeviceInfo>& devices);

// A work-item range: up to 3 dimensions, unused ones 1.
struct Range {
  std::array<std::size_t, 3> n{1, 1, 1};
  Range() = default;
  Range(std::size_t x, std::size_t y = 1, std::size_t z = 1) : n{x, y, z} {}
  std::size_t operator[](int d) const { return n[static_cast<std::size_t>(d)]; }
  std::size_t count() const { return n[0] * n[1] * n[2]; }
};

// Device memory. A handle: copies share the allocation, which is freed with the last copy, so a
// stage table may hold buffers and two roles may be swapped without copying data.
class Buffer {
public:
  struct Object {  // implemented per API
    virtual ~Object() = default;
    std::size_t bytes = 0;
  };
  Buffer() = default;
  explicit Buffer(std::shared_ptr<Object> obj) : obj_(std::move(obj)) {}
  std::size_t bytes() const { return obj_ ? obj_->bytes : 0; }
  explicit operator bool() const { return obj_ != nullptr; }
  Object* object() const { return obj_.get(); }
  bool same(const Buffer& o) const { return obj_ == o.obj_; }

private:
  std::shared_ptr<Object> obj_;
};

// A compiled kernel with its argument slots. Arguments keep their values between launches, so
// they are set once and only per-step values (the step index, a batch slot) change later. A kernel
// keeps its program and the buffers bound to it alive.
class Kernel {
public:
  struct Object {  // implemented per API
    virtual ~Object() = default;
    virtual void set_buffer(unsigned index, const Buffer& b) = 0;
    virtual void set_bytes(unsigned index, const void* data, std::size_t size) = 0;
    virtual std::size_t max_group_size() const = 0;  // this kernel's limit (registers, ...)
    std::string name;
  };
  Kernel() = default;
  explicit Kernel(std::shared_ptr<Object> obj) : obj_(std::move(obj)) {}
  void set(unsigned index, const Buffer& b) { obj_->set_buffer(index, b); }
  // Scalars by value: int, float (never double: OpenCL C 1.2 devices may lack it).
  void set(unsigned index, int v) { obj_->set_bytes(index, &v, sizeof v); }
  void set(unsigned index, float v) { obj_->set_bytes(index, &v, sizeof v); }
  std::size_t max_group_size() const { return obj_->max_group_size(); }
  const std::string& name() const { return obj_->name; }
  explicit operator bool() const { return obj_ != nullptr; }
  Object* object() const { return obj_.get(); }

private:
  std::shared_ptr<Object> obj_;
};

// -D defines of one program build (TILE_X, TILE_Y, TILE_Z4, MAGNETIC, ...).
using Defines = std::map<std::string, int>;

// A program: every embedded cl_kernels/*.cl file, each with the headers it #includes, compiled
// once for one set of defines.
class Program {
public:
  struct Object {  // implemented per API
    virtual ~Object() = default;
    // A new kernel object on every call, with its own argument slots (two objects of one
    // kernel can stay bound to two field roles). DeviceError if there is none of that name.
    virtual Kernel kernel(const std::string& name) = 0;
  };
  Program() = default;
  explicit Program(std::shared_ptr<Object> obj) : obj_(std::move(obj)) {}
  Kernel kernel(const std::string& name) const { return obj_->kernel(name); }
  explicit operator bool() const { return obj_ != nullptr; }
  Object* object() const { return obj_.get(); }  // the same for the same build (cache)

private:
  std::shared_ptr<Object> obj_;
};

// A point in the queue, complete once everything enqueued before it has completed. A handle:
// copies share it.
class Marker {
public:
  struct Object {  // implemented per API
    virtual ~Object() = default;
    virtual void wait() = 0;  // blocks until complete; DeviceError on a failed command before it
    // When the host learnt of the completion (steady_clock, seconds since its epoch), or a
    // negative value while it has not completed (or the host has not been told yet).
    virtual double completed_at() const = 0;
  };
  Marker() = default;
  explicit Marker(std::shared_ptr<Object> obj) : obj_(std::move(obj)) {}
  void wait() const { obj_->wait(); }
  double completed_at() const { return obj_->completed_at(); }
  explicit operator bool() const { return obj_ != nullptr; }

private:
  std::shared_ptr<Object> obj_;
};

// Host memory the device copies from and to without blocking the host: page-locked (pinned)
// where the API allocates such memory, so the copies run as DMA while the device computes. A
// handle: freed with the last copy.
class HostMemory {
public:
  struct Object {  // implemented per API
    virtual ~Object() = default;
    void* data = nullptr;
    std::size_t bytes = 0;
  };
  HostMemory() = default;
  explicit HostMemory(std::shared_ptr<Object> obj) : obj_(std::move(obj)) {}
  void* data() const { return obj_ ? obj_->data : nullptr; }
  std::size_t bytes() const { return obj_ ? obj_->bytes : 0; }
  float* floats() const { return static_cast<float*>(data()); }

private:
  std::shared_ptr<Object> obj_;
};

// One sub-box copy out of a buffer into tightly packed host memory: `slices` x `rows` rows of
// `row_bytes` each, starting at byte `offset`, rows `row_pitch` and slices `slice_pitch` bytes apart
// in the buffer.
struct Rect {
  std::size_t offset = 0, row_bytes = 0, rows = 1, slices = 1;
  std::size_t row_pitch = 0, slice_pitch = 0;
};

class Device {
public:
  virtual ~Device() = default;
  virtual const DeviceInfo& info() const = 0;
  // Free device memory now where the API can tell (CUDA), else global_mem_bytes.
  virtual std::size_t available_bytes() const = 0;

  // Contents undefined; fill_zero() to clear. 0 bytes gives a valid buffer (a placeholder
  // argument) that holds nothing.
  virtual Buffer alloc(std::size_t bytes) = 0;
  virtual void upload(const Buffer& dst, const void* src, std::size_t bytes,
                      std::size_t offset = 0) = 0;  // the host memory may be reused on return
  virtual void fill_zero(const Buffer& dst) = 0;
  virtual void copy(const Buffer& dst, const Buffer& src, std::size_t bytes) = 0;
  virtual void read(const Buffer& src, void* dst, std::size_t bytes, std::size_t offset = 0) = 0;
  virtual void read_rect(const Buffer& src, const Rect& rect, void* dst) = 0;

  // Asynchronous copies between a device buffer and host_alloc() memory (bytes from offset 0 of
  // both): they only enqueue, in queue order with everything else. The host memory must not be
  // touched (read_async: read; upload_async: changed) until a marker enqueued after the copy has
  // completed.
  virtual HostMemory host_alloc(std::size_t bytes) = 0;  // contents undefined
  virtual void read_async(const Buffer& src, const HostMemory& dst, std::size_t bytes) = 0;
  virtual void upload_async(const Buffer& dst, const HostMemory& src, std::size_t bytes) = 0;
  // A marker after everything enqueued so far; everything enqueued so far is submitted to the
  // device (OpenCL: flushed).
  virtual Marker mark() = 0;

  // Builds the embedded sources with `defines` (cached per defines within this Device: the same
  // defines give the same program back). DeviceError carries the build log.
  virtual Program program(const Defines& defines) = 0;
  // A global range of 0 work-items launches nothing. DeviceError names the kernel when a range
  // is not a multiple of `local` or an argument is missing.
  virtual void launch(const Kernel& k, const Range& global, const Range& local) = 0;
  // Launches that may run at the same time, their groups sharing the device: each starts once
  // everything enqueued before has completed, and everything enqueued after waits for all of
  // them. For launches none of which reads what another writes, but for a launch's chain
  // (below): tblock's pass and its shell, engine/plan.hpp TBlockPass, so that one's groups fill
  // the compute units another's last groups leave idle. The list is cut into chains: a launch
  // marked after_previous joins the chain of the launch before it, any other starts a chain.
  // A chain's launches run one after another, each may read what those before it in the chain
  // wrote, and they wait for nothing else in the list. The first chain runs on the queue
  // (stream) itself, the others on side queues the device keeps (NVIDIA's OpenCL starts a side
  // queue's launch ~25-30 us after the work it waits for ends; after its predecessor on one
  // queue, a launch starts at once). A launch with an empty range runs nothing and leaves its
  // chain as it was. Same errors as launch().
  struct Launch {
    Kernel kernel;
    Range global, local;
    bool after_previous = false;
  };
  virtual void launch_together(const std::vector<Launch>& launches) = 0;
  virtual void finish() = 0;

  // Device-side timing of the launches, copies and fills between the two calls, from the start
  // of the first to the end of the last, in seconds (the wall clock where the device has no
  // timers). timer_start() waits for earlier work first.
  virtual void timer_start() = 0;
  virtual double timer_stop() = 0;
  // Whether the last timer_stop() measured with device timestamps (false: the wall clock, where
  // the driver gave none or gave placeholders).
  virtual bool last_timing_on_device() const { return true; }
};

// Opens device `index` of list_devices(api). Throws DeviceError.
std::unique_ptr<Device> open_device(Api api, int index);

// The whole embedded program as one string: every cl_kernels/*.cl file in name order, each with
// its local #includes ("x.h", or another "y.cl") replaced by that file's text where it is first
// included (each file's text appears once, as with #pragma once), `#line` directives keeping
// build-log lines right. Both implementations compile this string, so every .cl file must include
// what it uses.
std::string embedded_program_source();

}  // namespace clfdtd::device
