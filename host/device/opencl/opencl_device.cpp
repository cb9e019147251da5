// The device API on OpenCL 1.2 through CLHPP: one context and one in-order profiling queue per
// device, programs built from embedded_program_source() with today's build options, every
// cl::Error turned into a DeviceError naming the call (OutOfMemoryError for allocation failures).
#include "device/opencl/opencl_device.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <map>
#include <utility>
#include <vector>

#include "backends/opencl/cl_devices.hpp"
#include "backends/opencl/cl_error.hpp"
#include "device/device_checks.hpp"
#include "device/marker_stamp.hpp"
#include "device/min_groups.hpp"
#include "errors.hpp"

namespace clfdtd::device {

namespace {

// Transfers, fills and copies go in pieces of at most this many bytes.
constexpr std::size_t kTransferPieceBytes = std::size_t{256} << 20;
// The fill pattern (zeros): OpenCL's largest, a multiple of every piece but the last.
constexpr std::size_t kFillPatternBytes = 128;

bool allocation_failure(cl_int code) {
  return code == CL_MEM_OBJECT_ALLOCATION_FAILURE || code == CL_OUT_OF_RESOURCES ||
         code == CL_OUT_OF_HOST_MEMORY || code == CL_INVALID_BUFFER_SIZE;
}

// Compiles `source`; a failure throws DeviceError carrying the options and the whole build log.
cl::Program build_program(const cl::Context& context, const cl::Device& device,
                          const std::string& source, const std::string& options) {
  cl::Program program;
  try {
    program = cl::Program(context, source);
    program.build(std::vector<cl::Device>{device}, options.c_str());
  } catch (const cl::Error& e) {
    std::string log = "(no build log available)", name;
    try {
      name = device.getInfo<CL_DEVICE_NAME>().c_str();  // drops a trailing NUL
      log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device);
    } catch (const cl::Error&) {
    }
    throw DeviceError("OpenCL kernel build failed on " + name + " (" + e.what() + ": " +
                      cl_error_name(e.err()) + ") with options \"" + options + "\"; build log:\n" +
                      log);
  }
  return program;
}

// NVIDIA's OpenCL: `built` again from its PTX with each MIN_GROUPS_<kernel> request of `defines`
// as `.minnctapersm` on that kernel's entry (device/min_groups.hpp); `built` itself where there
// is no request or none applies (the PTX lacks the entry or its group size).
cl::Program with_min_groups(const cl::Context& context, const cl::Device& device,
                            const cl::Program& built, const Defines& defines) {
  const auto requests = min_groups_requests(defines);
  if (requests.empty()) return built;
  std::string ptx;
  try {
    const auto binaries = built.getInfo<CL_PROGRAM_BINARIES>();
    if (binaries.size() != 1) return built;
    ptx.assign(binaries[0].begin(), binaries[0].end());
  } catch (const cl::Error& e) {
    throw_device_error(e, "reading the PTX of an OpenCL program");
  }
  while (!ptx.empty() && ptx.back() == '\0') ptx.pop_back();
  bool changed = false;
  for (const auto& [kernel, groups] : requests) changed |= add_ptx_min_groups(ptx, kernel, groups);
  if (!changed) return built;
  cl::Program::Binaries binary{std::vector<unsigned char>(ptx.begin(), ptx.end())};
  binary[0].push_back(0);
  cl::Program program;
  try {
    program = cl::Program(context, std::vector<cl::Device>{device}, binary);
    program.build(std::vector<cl::Device>{device});
  } catch (const cl::Error& e) {
    std::string log = "(no build log available)";
    try {
      log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device);
    } catch (const cl::Error&) {
    }
    throw DeviceError(std::string("OpenCL build of the PTX with .minnctapersm failed (") + e.what() +
                      ": " + cl_error_name(e.err()) + "); build log:\n" + log);
  }
  return program;
}

// Drivers may allocate lazily, so an allocation failure can surface at the first write or fill.
[[noreturn]] void fail(const cl::Error& e, const std::string& context) {
  if (allocation_failure(e.err())) {
    throw OutOfMemoryError(context + ": " + e.what() + " failed with " + cl_error_name(e.err()) +
                           " (" + std::to_string(e.err()) + ")");
  }
  throw_device_error(e, context);
}

struct ClBuffer final : Buffer::Object {
  cl::Buffer mem;
};

const cl::Buffer& mem_of(const Buffer& b, const char* call) {
  const auto* o = dynamic_cast<const ClBuffer*>(b.object());
  if (!o) {
    throw DeviceError(std::string(call) + ": the buffer is empty or not an OpenCL buffer");
  }
  return o->mem;
}

// Pinned host memory: a buffer the driver allocates in host memory (CL_MEM_ALLOC_HOST_PTR),
// mapped once for its whole life, which drivers (NVIDIA's) copy to and from by DMA.
struct ClHostMemory final : HostMemory::Object {
  cl::Buffer mem;
  cl::CommandQueue queue;
  ~ClHostMemory() override {
    try {
      queue.enqueueUnmapMemObject(mem, data);
      queue.finish();
    } catch (const cl::Error&) {
      // Nothing can be reported from a destructor; the context frees the buffer.
    }
  }
};

void cl_marker_callback(cl_event, cl_int, void* held) { MarkerStamp::stamp_and_release(held); }

struct ClMarker final : Marker::Object {
  cl::Event event;
  std::shared_ptr<MarkerStamp> stamp = std::make_shared<MarkerStamp>();
  void wait() override {
    try {
      event.wait();
    } catch (const cl::Error& e) {
      throw_device_error(e, "waiting for an OpenCL marker");
    }
  }
  double completed_at() const override {
    const double at = stamp->at.load();
    if (at >= 0) return at;
    try {
      if (event.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() != CL_COMPLETE) return -1.0;
    } catch (const cl::Error&) {
      return -1.0;
    }
    return stamp->observe_now();
  }
};

struct ClKernel final : Kernel::Object {
  cl::Kernel k;
  cl::Device dev;
  std::vector<Buffer> bound;  // keeps the buffers bound as arguments alive
  void set_buffer(unsigned index, const Buffer& b) override {
    const cl::Buffer& mem = mem_of(b, "setting a kernel argument");
    try {
      k.setArg(index, mem);
    } catch (const cl::Error& e) {
      throw_device_error(e, "argument " + std::to_string(index) + " of kernel " + name);
    }
    if (bound.size() <= index) bound.resize(index + 1);
    bound[index] = b;
  }
  void set_bytes(unsigned index, const void* data, std::size_t size) override {
    try {
      k.setArg(index, size, data);
    } catch (const cl::Error& e) {
      throw_device_error(e, "argument " + std::to_string(index) + " of kernel " + name);
    }
    if (index < bound.size()) bound[index] = Buffer();
  }
  std::size_t max_group_size() const override {
    try {
      return k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dev);
    } catch (const cl::Error& e) {
      throw_device_error(e, "the work-group limit of kernel " + name);
    }
  }
};

struct ClProgram final : Program::Object {
  cl::Program prog;
  cl::Device dev;
  std::string options;
  Kernel kernel(const std::string& name) override {
    auto k = std::make_shared<ClKernel>();
    k->name = name;
    k->dev = dev;
    try {
      k->k = cl::Kernel(prog, name.c_str());
    } catch (const cl::Error& e) {
      if (e.err() == CL_INVALID_KERNEL_NAME) {
        throw DeviceError("OpenCL kernel '" + name + "' is not in the program built with \"" +
                          options + "\"");
      }
      throw_device_error(e, "creating OpenCL kernel " + name);
    }
    return Kernel(k);
  }
};

// NDRange of as many dimensions as the ranges use (trailing dimensions of 1 dropped).
cl::NDRange nd_range(const Range& r, int dims) {
  if (dims == 1) return cl::NDRange(r[0]);
  if (dims == 2) return cl::NDRange(r[0], r[1]);
  return cl::NDRange(r[0], r[1], r[2]);
}

class OpenClDevice final : public Device {
public:
  explicit OpenClDevice(int index) {
    const auto all = list_opencl_devices();
    if (index < 0 || static_cast<std::size_t>(index) >= all.size()) {
      throw DeviceError("OpenCL device " + std::to_string(index) + " does not exist (" +
                        std::to_string(all.size()) + " OpenCL devices found)");
    }
    info_ = all[static_cast<std::size_t>(index)];
    device_ = cl_device_at(index);
    try {
      context_ = cl::Context(device_);
      profiling_ = (device_.getInfo<CL_DEVICE_QUEUE_PROPERTIES>() & CL_QUEUE_PROFILING_ENABLE) != 0;
      queue_ = cl::CommandQueue(context_, device_,
                                profiling_ ? CL_QUEUE_PROFILING_ENABLE : cl_command_queue_properties{0});
    } catch (const cl::Error& e) {
      throw_device_error(e, "opening OpenCL device " + info_.name);
    }
  }

  const DeviceInfo& info() const override { return info_; }
  std::size_t available_bytes() const override { return info_.global_mem_bytes; }

  Buffer alloc(std::size_t bytes) override {
    if (bytes > info_.max_alloc_bytes) {
      throw OutOfMemoryError("allocating " + std::to_string(bytes) + " bytes on " + info_.name +
                             ": its largest allocation is " + std::to_string(info_.max_alloc_bytes) +
                             " bytes (" + std::to_string(info_.global_mem_bytes) + " in all)");
    }
    auto b = std::make_shared<ClBuffer>();
    b->bytes = bytes;
    try {
      // OpenCL has no empty buffers: a placeholder gets a few bytes it never exposes.
      b->mem = cl::Buffer(context_, CL_MEM_READ_WRITE, std::max<std::size_t>(bytes, 4));
    } catch (const cl::Error& e) {
      fail(e, "allocating " + std::to_string(bytes) + " bytes on " + info_.name + " (" +
                  std::to_string(info_.global_mem_bytes) + " bytes in all)");
    }
    return Buffer(b);
  }

  void upload(const Buffer& dst, const void* src, std::size_t bytes, std::size_t offset) override {
    const cl::Buffer& mem = mem_of(dst, "upload");
    check_span(dst, offset, bytes, "upload");
    if (bytes == 0) return;
    try {
      // In pieces: NVIDIA's OpenCL (H100, driver 580.159) kept a host core busy for minutes on
      // one 2.2 GB write (docs/BENCHMARKS.md, grids past 2^31 cells).
      const auto* from = static_cast<const unsigned char*>(src);
      for (std::size_t done = 0; done < bytes; done += kTransferPieceBytes) {
        const std::size_t n = std::min(kTransferPieceBytes, bytes - done);
        queue_.enqueueWriteBuffer(mem, CL_TRUE, offset + done, n, from + done);
      }
    } catch (const cl::Error& e) {
      fail(e, "uploading " + std::to_string(bytes) + " bytes");
    }
  }

  void fill_zero(const Buffer& dst) override {
    const cl::Buffer& mem = mem_of(dst, "fill_zero");
    const std::size_t bytes = dst.bytes();
    if (bytes == 0) return;
    try {
      // In pieces like upload(): on the same H100 a 1300^3 grid's 8.8 GB field fills kept a host
      // core busy for minutes before the first upload. With a 128-byte pattern: NVIDIA's OpenCL
      // (driver 580.159) fails a fill, and the queue with it (CL_INVALID_COMMAND_QUEUE), once
      // offset / pattern size reaches 2^31, which a 128-byte pattern puts at 256 GiB. The last
      // bytes past a multiple of 128 are written from the host.
      const std::array<cl_uchar, kFillPatternBytes> zeros{};
      const std::size_t patterned = bytes / kFillPatternBytes * kFillPatternBytes;
      for (std::size_t done = 0; done < patterned; done += kTransferPieceBytes) {
        const std::size_t n = std::min(kTransferPieceBytes, patterned - done);
        queue_.enqueueFillBuffer(mem, zeros, done, n, nullptr, timed_event());
        note_timed();
      }
      if (patterned < bytes)
        queue_.enqueueWriteBuffer(mem, CL_TRUE, patterned, bytes - patterned, zeros.data());
    } catch (const cl::Error& e) {
      fail(e, "clearing " + std::to_string(bytes) + " bytes");
    }
  }

  void copy(const Buffer& dst, const Buffer& src, std::size_t bytes) override {
    const cl::Buffer& d = mem_of(dst, "copy");
    const cl::Buffer& s = mem_of(src, "copy");
    check_span(dst, 0, bytes, "copy (destination)");
    check_span(src, 0, bytes, "copy (source)");
    if (bytes == 0) return;
    try {
      for (std::size_t done = 0; done < bytes; done += kTransferPieceBytes) {  // as fill_zero
        const std::size_t n = std::min(kTransferPieceBytes, bytes - done);
        queue_.enqueueCopyBuffer(s, d, done, done, n, nullptr, timed_event());
        note_timed();
      }
    } catch (const cl::Error& e) {
      fail(e, "copying " + std::to_string(bytes) + " bytes");
    }
  }

  void read(const Buffer& src, void* dst, std::size_t bytes, std::size_t offset) override {
    const cl::Buffer& mem = mem_of(src, "read");
    check_span(src, offset, bytes, "read");
    if (bytes == 0) return;
    try {
      auto* to = static_cast<unsigned char*>(dst);  // in pieces, as upload()
      for (std::size_t done = 0; done < bytes; done += kTransferPieceBytes) {
        const std::size_t n = std::min(kTransferPieceBytes, bytes - done);
        queue_.enqueueReadBuffer(mem, CL_TRUE, offset + done, n, to + done);
      }
    } catch (const cl::Error& e) {
      throw_device_error(e, "reading " + std::to_string(bytes) + " bytes");
    }
  }

  void read_rect(const Buffer& src, const Rect& box, void* dst) override {
    const cl::Buffer& mem = mem_of(src, "read_rect");
    const Rect r = checked_rect(src, box);
    if (r.row_bytes == 0 || r.rows == 0 || r.slices == 0) return;
    // OpenCL takes the start as (byte in row, row, slice) of the pitched box.
    const std::size_t slice = r.offset / r.slice_pitch, in_slice = r.offset % r.slice_pitch;
    const cl::array<cl::size_type, 3> origin{in_slice % r.row_pitch, in_slice / r.row_pitch,
                                             slice};
    const cl::array<cl::size_type, 3> host_origin{0, 0, 0};
    const cl::array<cl::size_type, 3> region{r.row_bytes, r.rows, r.slices};
    try {
      queue_.enqueueReadBufferRect(mem, CL_TRUE, origin, host_origin, region, r.row_pitch,
                                   r.slice_pitch, r.row_bytes, r.row_bytes * r.rows, dst);
    } catch (const cl::Error& e) {
      throw_device_error(e, "reading a box of " + std::to_string(r.slices) + " x " +
                                std::to_string(r.rows) + " rows");
    }
  }

  HostMemory host_alloc(std::size_t bytes) override {
    auto h = std::make_shared<ClHostMemory>();
    h->bytes = bytes;
    h->queue = queue_;
    try {
      h->mem = cl::Buffer(context_, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                          std::max<std::size_t>(bytes, 4));
      h->data = queue_.enqueueMapBuffer(h->mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                        std::max<std::size_t>(bytes, 4));
    } catch (const cl::Error& e) {
      fail(e, "allocating " + std::to_string(bytes) + " bytes of pinned host memory");
    }
    return HostMemory(h);
  }

  void read_async(const Buffer& src, const HostMemory& dst, std::size_t bytes) override {
    const cl::Buffer& mem = mem_of(src, "read_async");
    check_span(src, 0, bytes, "read_async");
    if (bytes > dst.bytes()) throw DeviceError("read_async: " + std::to_string(bytes) + " bytes into " + std::to_string(dst.bytes()) + " bytes of host memory");
    if (bytes == 0) return;
    try {
      queue_.enqueueReadBuffer(mem, CL_FALSE, 0, bytes, dst.data());
    } catch (const cl::Error& e) {
      throw_device_error(e, "enqueueing a read of " + std::to_string(bytes) + " bytes");
    }
  }

  void upload_async(const Buffer& dst, const HostMemory& src, std::size_t bytes) override {
    const cl::Buffer& mem = mem_of(dst, "upload_async");
    check_span(dst, 0, bytes, "upload_async");
    if (bytes > src.bytes()) throw DeviceError("upload_async: " + std::to_string(bytes) + " bytes from " + std::to_string(src.bytes()) + " bytes of host memory");
    if (bytes == 0) return;
    try {
      queue_.enqueueWriteBuffer(mem, CL_FALSE, 0, bytes, src.data());
    } catch (const cl::Error& e) {
      fail(e, "enqueueing an upload of " + std::to_string(bytes) + " bytes");
    }
  }

  Marker mark() override {
    auto m = std::make_shared<ClMarker>();
    try {
      queue_.enqueueMarkerWithWaitList(nullptr, &m->event);
      // Hands everything queued so far to the device now: a driver may hold commands back
      // until a flush, and the host is about to wait on something else (the halo transfer).
      queue_.flush();
      auto* held = new std::shared_ptr<MarkerStamp>(m->stamp);
      try {
        m->event.setCallback(CL_COMPLETE, cl_marker_callback, held);
      } catch (...) {
        delete held;
        throw;
      }
    } catch (const cl::Error& e) {
      throw_device_error(e, "enqueueing an OpenCL marker");
    }
    return Marker(m);
  }

  Program program(const Defines& defines) override {
    const auto found = programs_.find(defines);
    if (found != programs_.end()) return found->second;
    // No -cl-fast-relaxed-math: it would allow NaN/inf assumptions that break the finite check
    // and reorder sums the reference comparison depends on.
    std::string options = "-cl-std=CL1.2 -cl-mad-enable";
    for (const auto& flag : define_flags(defines)) options += " " + flag;
    auto p = std::make_shared<ClProgram>();
    p->dev = device_;
    p->options = options;
    p->prog = build_program(context_, device_, source(), options);
    if (info_.min_groups_hint) p->prog = with_min_groups(context_, device_, p->prog, defines);
    return programs_.emplace(defines, Program(p)).first->second;
  }

  void launch(const Kernel& k, const Range& global, const Range& local) override {
    auto* ck = launch_target<ClKernel>(k, global, local, "OpenCL");
    if (!ck) return;
    enqueue(queue_, *ck, global, local, nullptr, timed_event());
    note_timed();
  }

  void launch_together(const std::vector<Launch>& launches) override {
    std::vector<ClKernel*> target;
    std::vector<bool> runs;
    for (const Launch& l : launches) {
      target.push_back(launch_target<ClKernel>(l.kernel, l.global, l.local, "OpenCL"));
      runs.push_back(target.back() != nullptr);
    }
    const std::vector<std::vector<std::size_t>> chains = launch_chains(launches, runs);
    if (chains.size() < 2) {
      for (const auto& chain : chains) {
        for (std::size_t n : chain) {
          enqueue(queue_, *target[n], launches[n].global, launches[n].local, nullptr, timed_event());
          note_timed();
        }
      }
      return;
    }
    std::vector<cl::Event> done;
    cl::CommandQueue* open_side = nullptr;  // a side queue whose chain has no event in `done` yet
    // Whatever fails, the launches already enqueued join the queue before the error leaves, so
    // that later work and finish() still wait for them.
    auto join = [&] {
      if (open_side) {
        cl::Event end;
        open_side->enqueueMarkerWithWaitList(nullptr, &end);
        open_side->flush();
        done.push_back(end);
        open_side = nullptr;
      }
      if (!done.empty()) queue_.enqueueBarrierWithWaitList(&done);
      queue_.flush();
    };
    auto join_quietly = [&]() noexcept {
      try {
        join();
      } catch (...) {  // the first error is the one to report
      }
    };
    try {
      // The first chain stays on the in-order queue and needs no event; the others wait on side
      // queues for the work before it (the marker) and the queue waits for their last launches
      // (join). An in-order queue runs a chain's launches one after another.
      cl::Event fork;
      queue_.enqueueMarkerWithWaitList(nullptr, &fork);
      // OpenCL asks the queue holding an event another queue waits on to be flushed first.
      queue_.flush();
      const std::vector<cl::Event> after_fork{fork};
      for (std::size_t c = 0; c < chains.size(); ++c) {
        if (c > 0 && side_.size() < c) {
          side_.emplace_back(context_, device_,
                             profiling_ ? CL_QUEUE_PROFILING_ENABLE : cl_command_queue_properties{0});
        }
        cl::CommandQueue& q = c == 0 ? queue_ : side_[c - 1];
        for (std::size_t k = 0; k < chains[c].size(); ++k) {
          const std::size_t n = chains[c][k];
          const bool first = k == 0, last = k + 1 == chains[c].size();
          cl::Event event;
          enqueue(q, *target[n], launches[n].global, launches[n].local,
                  c > 0 && first ? &after_fork : nullptr, c > 0 && last ? &event : nullptr);
          if (c > 0) open_side = last ? nullptr : &q;
          if (c > 0 && last) done.push_back(event);
        }
        if (c > 0) q.flush();
      }
      join();
      note_timed(after_fork);
    } catch (const cl::Error& e) {
      join_quietly();
      throw_device_error(e, "launching kernels together");
    } catch (...) {
      join_quietly();
      throw;
    }
  }

  void finish() override {
    try {
      queue_.finish();
    } catch (const cl::Error& e) {
      throw_device_error(e, "waiting for the OpenCL queue");
    }
  }

  bool last_timing_on_device() const override { return on_device_; }

  void timer_start() override {
    finish();
    timing_ = true;
    have_first_ = false;
    t0_ = std::chrono::steady_clock::now();
  }

  double timer_stop() override {
    cl::Event closing;
    bool closed = false;
    if (timing_ && have_first_ && profiling_) {
      try {
        queue_.enqueueMarkerWithWaitList(nullptr, &closing);
        closed = true;
      } catch (const cl::Error&) {
        // No marker: the wall clock below times the work instead.
      }
    }
    finish();
    timing_ = false;
    on_device_ = false;
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    if (!closed) return wall;
    try {
      cl_ulong start = ~cl_ulong{0};
      for (const cl::Event& e : first_)
        start = std::min(start, e.getProfilingInfo<CL_PROFILING_COMMAND_START>());
      const cl_ulong end = closing.getProfilingInfo<CL_PROFILING_COMMAND_END>();
      const double span = end > start ? static_cast<double>(end - start) * 1e-9 : 0.0;
      if (plausible_device_span(span, wall)) {
        on_device_ = true;
        return span;
      }
    } catch (const cl::Error&) {
      // A driver without timestamps for these commands: the wall clock is the next best timer.
    }
    return wall;
  }

private:
  void enqueue(cl::CommandQueue& q, const ClKernel& ck, const Range& global, const Range& local,
               const std::vector<cl::Event>* waits, cl::Event* event) {
    int dims = 1;
    for (int d = 0; d < 3; ++d) {
      if (global[d] > 1 || local[d] > 1) dims = d + 1;
    }
    try {
      q.enqueueNDRangeKernel(ck.k, cl::NullRange, nd_range(global, dims), nd_range(local, dims),
                             waits, event);
    } catch (const cl::Error& e) {
      // CL_OUT_OF_RESOURCES here is a group too large for the kernel, not a full memory.
      throw_device_error(e, "launching kernel " + ck.name);
    }
  }

  // The timed work runs from the start of its first command (for launches run together, their
  // fork marker) to the end of a marker that timer_stop() enqueues after it; the queue is in
  // order and side queues join it before returning. Only the first command keeps an event: an
  // event on every launch slows the enqueue rate enough to starve the GPU on small grids.
  cl::Event* timed_event() { return timing_ && !have_first_ ? &pending_ : nullptr; }
  void note_timed(const std::vector<cl::Event>& events) {
    if (!timing_ || have_first_) return;
    first_ = events;
    have_first_ = true;
  }
  void note_timed() { note_timed({pending_}); }

  static const std::string& source() {
    static const std::string text = embedded_program_source();
    return text;
  }

  DeviceInfo info_;
  cl::Device device_;
  cl::Context context_;
  cl::CommandQueue queue_;
  std::vector<cl::CommandQueue> side_;  // launch_together's, made when first needed
  bool profiling_ = false;
  std::map<Defines, Program> programs_;
  bool timing_ = false, have_first_ = false, on_device_ = true;
  cl::Event pending_;
  std::vector<cl::Event> first_;
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace

std::vector<DeviceInfo> list_opencl_devices() {
  std::vector<DeviceInfo> out;
  for (const auto& c : list_cl_devices()) {
    DeviceInfo d;
    d.api = Api::OpenCL;
    d.index = c.index;
    d.name = c.name;
    d.platform = c.platform;
    d.vendor = c.vendor;
    d.type = c.type;
    d.version = c.version;
    d.driver = c.driver;
    d.global_mem_bytes = c.global_mem_bytes;
    d.max_alloc_bytes = c.max_alloc_bytes;
    d.compute_units = c.compute_units;
    d.clock_mhz = c.clock_mhz;
    const bool nvidia = c.platform.find("NVIDIA") != std::string::npos;
    d.min_groups_hint = nvidia;
    d.side_queue_starts_late = nvidia;
    try {
      const cl::Device dev = cl_device_at(c.index);
      d.local_mem_bytes = dev.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
      d.max_group_size = dev.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
      const auto items = dev.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
      for (std::size_t n = 0; n < 3; ++n) d.max_group_dims[n] = n < items.size() ? items[n] : 1;
    } catch (const cl::Error& e) {
      throw_device_error(e, "querying OpenCL device " + std::to_string(c.index));
    }
    out.push_back(d);
  }
  return out;
}

std::unique_ptr<Device> open_opencl_device(int index) {
  return std::make_unique<OpenClDevice>(index);
}

}  // namespace clfdtd::device
