// The device API on CUDA: NVRTC compiles the embedded OpenCL-C-through-compat.h program per set of
// defines; the runtime's library API loads it (cudaLibraryLoadData / cudaLibraryGetKernel) and
// cudaLaunchKernel launches a cudaKernel_t exactly as nvcc's <<<>>> launches a __global__
// function. Everything goes through cudart_static, which finds the driver at run time, so no
// driver library is linked (the build machine has none). One non-blocking stream per device.
#include "device/cuda/cuda_device.hpp"
#include "device/cuda/cuda_device_internal.hpp"

#include <cuda_runtime_api.h>
#include <nvrtc.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

#include "backends/cuda/cuda_devices.hpp"
#include "backends/cuda/cuda_error.hpp"
#include "device/device_checks.hpp"
#include "device/marker_stamp.hpp"
#include "errors.hpp"

namespace clfdtd::device {

namespace {

// "Kernel Module" in /proc/driver/nvidia/version ("NVRM version: NVIDIA UNIX Open Kernel Module
// for x86_64  580.95.05  Release Build ..."); "" where there is none.
std::string nvidia_module_version() {
  std::ifstream f("/proc/driver/nvidia/version");
  std::string line;
  if (!f || !std::getline(f, line)) return "";
  const auto at = line.find("Kernel Module");
  if (at == std::string::npos) return "";
  std::istringstream rest(line.substr(at));
  for (std::string word; rest >> word;) {
    const bool dotted = word.find('.') != std::string::npos &&
                        word.find_first_not_of("0123456789.") == std::string::npos &&
                        std::isdigit(static_cast<unsigned char>(word[0]));
    if (dotted) return word;
  }
  return "";
}

void check_nvrtc(nvrtcResult r, const char* call, const std::string& context) {
  if (r != NVRTC_SUCCESS) {
    throw DeviceError(context + ": " + call + " failed with " + nvrtcGetErrorString(r));
  }
}

std::string nvrtc_version() {
  int major = 0, minor = 0;
  if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return "?";
  return std::to_string(major) + "." + std::to_string(minor);
}

int attribute(cudaDeviceAttr a, int dev) {
  int v = 0;
  cuda_check(cudaDeviceGetAttribute(&v, a, dev), "cudaDeviceGetAttribute",
             "querying CUDA device " + std::to_string(dev));
  return v;
}

// Makes `index` the calling thread's current device (cheap when it is already).
void use_device(int index, const char* context) {
  int current = -1;
  if (cudaGetDevice(&current) == cudaSuccess && current == index) return;
  cuda_check(cudaSetDevice(index), "cudaSetDevice", context);
}

struct CudaBuffer final : Buffer::Object {
  void* ptr = nullptr;
  ~CudaBuffer() override {
    if (ptr) (void)cudaFree(ptr);  // at exit the runtime may be gone already: nothing to report
  }
};

char* ptr_of(const Buffer& b, const char* call) {
  const auto* o = dynamic_cast<const CudaBuffer*>(b.object());
  if (!o) throw DeviceError(std::string(call) + ": the buffer is empty or not a CUDA buffer");
  return static_cast<char*>(o->ptr);
}

// One argument slot: the bytes cudaLaunchKernel copies (a pointer, an int or a float).
struct ArgSlot {
  alignas(8) unsigned char data[8] = {};
  std::size_t size = 0;  // the kernel's parameter size
  bool set = false;
};

struct CudaProgram;

struct CudaKernel final : Kernel::Object {
  cudaKernel_t k = nullptr;
  int device = 0;
  std::shared_ptr<const CudaProgram> program;  // its library stays loaded while the kernel lives
  std::vector<ArgSlot> slots;
  std::vector<void*> args;
  std::vector<Buffer> bound;  // keeps the buffers bound as arguments alive
  bool params_known = true;   // false where the runtime could not list the parameters

  void store(unsigned index, const void* data, std::size_t size) {
    if (!params_known) {
      if (size > sizeof(ArgSlot::data)) {
        throw DeviceError("argument " + std::to_string(index) + " of kernel " + name + ": " +
                          std::to_string(size) + " bytes; the device API passes at most 8");
      }
      if (index >= slots.size()) {
        slots.resize(index + 1);
        args.resize(slots.size());
        for (std::size_t n = 0; n < slots.size(); ++n) args[n] = slots[n].data;
      }
      slots[index].size = size;
    }
    if (index >= slots.size()) {
      throw DeviceError("kernel " + name + " has " + std::to_string(slots.size()) +
                        " arguments: there is no argument " + std::to_string(index));
    }
    ArgSlot& s = slots[index];
    if (size != s.size) {
      throw DeviceError("argument " + std::to_string(index) + " of kernel " + name + " takes " +
                        std::to_string(s.size) + " bytes, not " + std::to_string(size));
    }
    std::copy_n(static_cast<const unsigned char*>(data), size, s.data);
    s.set = true;
    if (index < bound.size()) bound[index] = Buffer();
  }
  void set_buffer(unsigned index, const Buffer& b) override {
    void* p = ptr_of(b, "setting a kernel argument");
    store(index, &p, sizeof p);
    if (bound.size() <= index) bound.resize(index + 1);
    bound[index] = b;
  }
  void set_bytes(unsigned index, const void* data, std::size_t size) override {
    store(index, data, size);
  }
  std::size_t max_group_size() const override {
    use_device(device, "a kernel's block limit");
    cudaFuncAttributes attr{};
    cuda_check(cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(k)),
               "cudaFuncGetAttributes", "the block limit of kernel " + name);
    return static_cast<std::size_t>(attr.maxThreadsPerBlock);
  }
};

struct CudaProgram final : Program::Object, std::enable_shared_from_this<CudaProgram> {
  cudaLibrary_t lib = nullptr;
  int device = 0;
  std::string target, options;
  ~CudaProgram() override {
    if (lib) (void)cudaLibraryUnload(lib);
  }
  Kernel kernel(const std::string& name) override {
    use_device(device, "looking up a kernel");
    auto k = std::make_shared<CudaKernel>();
    k->name = name;
    k->device = device;
    k->program = shared_from_this();
    const cudaError_t e = cudaLibraryGetKernel(&k->k, lib, name.c_str());
    if (e == cudaErrorSymbolNotFound) {
      (void)cudaGetLastError();
      throw DeviceError("CUDA kernel '" + name + "' is not in the program built with \"" +
                        options + "\"");
    }
    cuda_check(e, "cudaLibraryGetKernel", "looking up CUDA kernel " + name);
    // The parameter list, so a wrong argument is an error here rather than garbage on the device.
    const void* f = reinterpret_cast<const void*>(k->k);
    for (std::size_t n = 0;; ++n) {
      std::size_t offset = 0, size = 0;
      const cudaError_t pe = cudaFuncGetParamInfo(f, n, &offset, &size);
      if (pe == cudaErrorInvalidValue) {
        (void)cudaGetLastError();
        break;  // past the last parameter
      }
      if (pe != cudaSuccess && n == 0) {
        // A driver that cannot list parameters: arguments are taken as set, unchecked.
        (void)cudaGetLastError();
        k->params_known = false;
        break;
      }
      cuda_check(pe, "cudaFuncGetParamInfo", "the parameters of CUDA kernel " + name);
      if (size > sizeof(ArgSlot::data)) {
        throw DeviceError("CUDA kernel " + name + ": parameter " + std::to_string(n) + " has " +
                          std::to_string(size) + " bytes; the device API passes at most 8");
      }
      k->slots.emplace_back();
      k->slots.back().size = size;
    }
    k->args.resize(k->slots.size());
    for (std::size_t n = 0; n < k->slots.size(); ++n) k->args[n] = k->slots[n].data;
    return Kernel(k);
  }
};

class CudaEvent {
public:
  explicit CudaEvent(unsigned flags = cudaEventDefault) {
    cuda_check(cudaEventCreateWithFlags(&e_, flags), "cudaEventCreateWithFlags", "creating a CUDA event");
  }
  ~CudaEvent() { (void)cudaEventDestroy(e_); }
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  cudaEvent_t get() const { return e_; }

private:
  cudaEvent_t e_ = nullptr;
};

// Page-locked host memory (cudaHostAlloc): copies from and to it run as DMA on the stream.
struct CudaHostMemory final : HostMemory::Object {
  ~CudaHostMemory() override {
    if (data) (void)cudaFreeHost(data);
  }
};

void CUDART_CB cuda_marker_callback(void* held) { MarkerStamp::stamp_and_release(held); }

// An event recorded on the stream, and a host function that stamps the completion time. The host
// function runs on a stream of its own that waits for the event: on the work stream it would
// hold back everything queued after the marker until the driver's callback thread ran it, which
// takes as long as that thread waits for a core (the rank's own thread may be spinning on it).
struct CudaMarker final : Marker::Object {
  CudaEvent event;
  std::shared_ptr<MarkerStamp> stamp = std::make_shared<MarkerStamp>();
  void wait() override {
    cuda_check(cudaEventSynchronize(event.get()), "cudaEventSynchronize", "waiting for a marker");
  }
  double completed_at() const override {
    const double at = stamp->at.load();
    if (at >= 0) return at;
    if (cudaEventQuery(event.get()) != cudaSuccess) {
      (void)cudaGetLastError();  // cudaErrorNotReady is no error here
      return -1.0;
    }
    return stamp->observe_now();
  }
};

class CudaDevice final : public Device {
public:
  CudaDevice(int index, DeviceInfo info) : index_(index), info_(std::move(info)) {
    use_device(index_, "opening a CUDA device");
    try {
      // The stream at the device's highest priority, launch_together's side streams at the
      // lowest: where both have groups waiting, the stream's (tblock's pass) go first. H200,
      // tblock N = 512: vacuum_upml 76.5-76.9 -> 77.5, sphere 76.5-76.6 -> 77.2 Gcells/s; the
      // side streams first ran 0.6% slower (docs/BENCHMARKS.md).
      cuda_check(cudaDeviceGetStreamPriorityRange(&lowest_priority_, &highest_priority_),
                 "cudaDeviceGetStreamPriorityRange", "opening CUDA device " + info_.name);
      cuda_check(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking, highest_priority_),
                 "cudaStreamCreateWithPriority", "opening CUDA device " + info_.name);
      cuda_check(cudaStreamCreateWithFlags(&stamp_stream_, cudaStreamNonBlocking),
                 "cudaStreamCreateWithFlags", "opening CUDA device " + info_.name);
      start_ = std::make_unique<CudaEvent>();
      stop_ = std::make_unique<CudaEvent>();
    } catch (...) {
      destroy_streams();  // no destructor runs for a constructor that throws
      throw;
    }
  }
  ~CudaDevice() override {
    programs_.clear();
    start_.reset();
    stop_.reset();
    destroy_streams();
    fork_.reset();
  }

  const DeviceInfo& info() const override { return info_; }
  int ordinal() const { return index_; }
  cudaStream_t stream() const { return stream_; }

  std::size_t available_bytes() const override {
    use_device(index_, "asking for free CUDA memory");
    std::size_t free_bytes = 0, total = 0;
    cuda_check(cudaMemGetInfo(&free_bytes, &total), "cudaMemGetInfo",
               "asking " + info_.name + " for free memory");
    return free_bytes;
  }

  Buffer alloc(std::size_t bytes) override {
    use_device(index_, "allocating CUDA memory");
    auto b = std::make_shared<CudaBuffer>();
    b->bytes = bytes;
    if (bytes == 0) return Buffer(b);  // a null pointer: a placeholder argument
    const cudaError_t e = cudaMalloc(&b->ptr, bytes);
    if (e == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      std::size_t free_bytes = 0, total = 0;
      (void)cudaMemGetInfo(&free_bytes, &total);
      throw OutOfMemoryError("allocating " + std::to_string(bytes) + " bytes on " + info_.name +
                             ": cudaMalloc failed with " + cuda_error_text(e) + " (" +
                             std::to_string(free_bytes) + " of " + std::to_string(total) +
                             " bytes free)");
    }
    cuda_check(e, "cudaMalloc", "allocating " + std::to_string(bytes) + " bytes");
    return Buffer(b);
  }

  void upload(const Buffer& dst, const void* src, std::size_t bytes, std::size_t offset) override {
    char* p = ptr_of(dst, "upload");
    check_span(dst, offset, bytes, "upload");
    if (bytes == 0) return;
    const std::string ctx = "uploading " + std::to_string(bytes) + " bytes";
    cuda_check(cudaMemcpyAsync(p + offset, src, bytes, cudaMemcpyHostToDevice, stream_),
               "cudaMemcpyAsync", ctx);
    // The host memory may be reused on return, pinned or not.
    cuda_check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize", ctx);
  }

  void fill_zero(const Buffer& dst) override {
    char* p = ptr_of(dst, "fill_zero");
    if (dst.bytes() == 0) return;
    cuda_check(cudaMemsetAsync(p, 0, dst.bytes(), stream_), "cudaMemsetAsync",
               "clearing " + std::to_string(dst.bytes()) + " bytes");
  }

  void copy(const Buffer& dst, const Buffer& src, std::size_t bytes) override {
    char* d = ptr_of(dst, "copy");
    const char* s = ptr_of(src, "copy");
    check_span(dst, 0, bytes, "copy (destination)");
    check_span(src, 0, bytes, "copy (source)");
    if (bytes == 0) return;
    cuda_check(cudaMemcpyAsync(d, s, bytes, cudaMemcpyDeviceToDevice, stream_), "cudaMemcpyAsync",
               "copying " + std::to_string(bytes) + " bytes");
  }

  void read(const Buffer& src, void* dst, std::size_t bytes, std::size_t offset) override {
    const char* p = ptr_of(src, "read");
    check_span(src, offset, bytes, "read");
    if (bytes == 0) return;
    const std::string ctx = "reading " + std::to_string(bytes) + " bytes";
    cuda_check(cudaMemcpyAsync(dst, p + offset, bytes, cudaMemcpyDeviceToHost, stream_),
               "cudaMemcpyAsync", ctx);
    cuda_check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize", ctx);
  }

  void read_rect(const Buffer& src, const Rect& box, void* dst) override {
    const char* p = ptr_of(src, "read_rect");
    const Rect r = checked_rect(src, box);
    if (r.row_bytes == 0 || r.rows == 0 || r.slices == 0) return;
    const std::string ctx = "reading a box of " + std::to_string(r.slices) + " x " +
                            std::to_string(r.rows) + " rows";
    char* out = static_cast<char*>(dst);
    for (std::size_t s = 0; s < r.slices; ++s) {  // one pitched 2D copy per slice
      cuda_check(cudaMemcpy2DAsync(out + s * r.rows * r.row_bytes, r.row_bytes,
                                   p + r.offset + s * r.slice_pitch, r.row_pitch, r.row_bytes, r.rows,
                                   cudaMemcpyDeviceToHost, stream_),
                 "cudaMemcpy2DAsync", ctx);
    }
    cuda_check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize", ctx);
  }

  Program program(const Defines& defines) override {
    const auto found = programs_.find(defines);
    if (found != programs_.end()) return found->second;
    if (info_.code_target.empty()) {
      throw DeviceError("NVRTC " + nvrtc_version() + " compiles for no architecture that " +
                        info_.name + " (" + info_.version + ") runs");
    }
    use_device(index_, "loading a CUDA program");
    auto p = std::make_shared<CudaProgram>();
    p->device = index_;
    p->target = info_.code_target;
    for (const auto& flag : define_flags(defines)) p->options += " " + flag;
    const std::string image = compile_cuda_program(defines, p->target);
    cuda_check(cudaLibraryLoadData(&p->lib, image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
               "cudaLibraryLoadData",
               "loading the program compiled for " + p->target + " with" + p->options);
    return programs_.emplace(defines, Program(p)).first->second;
  }

  void launch(const Kernel& k, const Range& global, const Range& local) override {
    auto* ck = launch_target<CudaKernel>(k, global, local, "CUDA");
    if (!ck) return;
    use_device(index_, "launching a CUDA kernel");
    enqueue(*ck, global, local, stream_);
  }

  void launch_together(const std::vector<Launch>& launches) override {
    std::vector<bool> runs;
    for (const Launch& l : launches)
      runs.push_back(launch_target<CudaKernel>(l.kernel, l.global, l.local, "CUDA") != nullptr);
    const std::vector<std::vector<std::size_t>> chains = launch_chains(launches, runs);
    if (chains.empty()) return;
    use_device(index_, "launching CUDA kernels together");
    const std::string ctx = "launching kernels together";
    auto run = [&](std::size_t n, cudaStream_t stream) {
      enqueue(kernel_of(launches[n]), launches[n].global, launches[n].local, stream);
    };
    // The first chain on the stream; each other one on a side stream that waits for the work
    // before (the fork event), the stream then waiting for its last launch.
    if (chains.size() > 1) {
      if (!fork_) fork_ = std::make_unique<CudaEvent>(cudaEventDisableTiming);
      cuda_check(cudaEventRecord(fork_->get(), stream_), "cudaEventRecord", ctx);
    }
    for (std::size_t n : chains[0]) run(n, stream_);
    for (std::size_t c = 1; c < chains.size(); ++c) {
      if (side_.size() < c) {  // kept only once both its stream and its event exist
        SideStream ss;
        ss.done = std::make_unique<CudaEvent>(cudaEventDisableTiming);
        cuda_check(cudaStreamCreateWithPriority(&ss.stream, cudaStreamNonBlocking, lowest_priority_),
                   "cudaStreamCreateWithPriority", ctx);
        side_.push_back(std::move(ss));
      }
      const SideStream& ss = side_[c - 1];
      cuda_check(cudaStreamWaitEvent(ss.stream, fork_->get(), 0), "cudaStreamWaitEvent", ctx);
      // Whatever fails, the launches already on the side stream join the stream before the error
      // leaves, so that later work and finish() still wait for them.
      auto join = [&] {
        cuda_check(cudaEventRecord(ss.done->get(), ss.stream), "cudaEventRecord", ctx);
        cuda_check(cudaStreamWaitEvent(stream_, ss.done->get(), 0), "cudaStreamWaitEvent", ctx);
      };
      try {
        for (std::size_t n : chains[c]) run(n, ss.stream);
      } catch (...) {
        try {
          join();
        } catch (...) {  // the first error is the one to report
        }
        throw;
      }
      join();
    }
  }

  HostMemory host_alloc(std::size_t bytes) override {
    use_device(index_, "allocating pinned host memory");
    auto h = std::make_shared<CudaHostMemory>();
    h->bytes = bytes;
    const cudaError_t e = cudaHostAlloc(&h->data, std::max<std::size_t>(bytes, 4), cudaHostAllocDefault);
    if (e == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      throw OutOfMemoryError("allocating " + std::to_string(bytes) +
                             " bytes of pinned host memory: cudaHostAlloc failed with " +
                             cuda_error_text(e));
    }
    cuda_check(e, "cudaHostAlloc", "allocating " + std::to_string(bytes) + " bytes of pinned host memory");
    return HostMemory(h);
  }

  void read_async(const Buffer& src, const HostMemory& dst, std::size_t bytes) override {
    const char* p = ptr_of(src, "read_async");
    check_span(src, 0, bytes, "read_async");
    if (bytes > dst.bytes()) throw DeviceError("read_async: " + std::to_string(bytes) + " bytes into " + std::to_string(dst.bytes()) + " bytes of host memory");
    if (bytes == 0) return;
    cuda_check(cudaMemcpyAsync(dst.data(), p, bytes, cudaMemcpyDeviceToHost, stream_),
               "cudaMemcpyAsync", "enqueueing a read of " + std::to_string(bytes) + " bytes");
  }

  void upload_async(const Buffer& dst, const HostMemory& src, std::size_t bytes) override {
    char* p = ptr_of(dst, "upload_async");
    check_span(dst, 0, bytes, "upload_async");
    if (bytes > src.bytes()) throw DeviceError("upload_async: " + std::to_string(bytes) + " bytes from " + std::to_string(src.bytes()) + " bytes of host memory");
    if (bytes == 0) return;
    cuda_check(cudaMemcpyAsync(p, src.data(), bytes, cudaMemcpyHostToDevice, stream_),
               "cudaMemcpyAsync", "enqueueing an upload of " + std::to_string(bytes) + " bytes");
  }

  Marker mark() override {
    use_device(index_, "enqueueing a marker");
    auto m = std::make_shared<CudaMarker>();
    cuda_check(cudaEventRecord(m->event.get(), stream_), "cudaEventRecord", "enqueueing a marker");
    cuda_check(cudaStreamWaitEvent(stamp_stream_, m->event.get(), 0), "cudaStreamWaitEvent",
               "enqueueing a marker");
    auto* held = new std::shared_ptr<MarkerStamp>(m->stamp);
    const cudaError_t e = cudaLaunchHostFunc(stamp_stream_, cuda_marker_callback, held);
    if (e != cudaSuccess) delete held;
    cuda_check(e, "cudaLaunchHostFunc", "enqueueing a marker");
    return Marker(m);
  }

  void finish() override {
    cuda_check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize",
               "waiting for " + info_.name);
  }

  void timer_start() override {
    finish();
    cuda_check(cudaEventRecord(start_->get(), stream_), "cudaEventRecord", "starting a timer");
  }

  double timer_stop() override {
    const std::string ctx = "stopping a timer";
    cuda_check(cudaEventRecord(stop_->get(), stream_), "cudaEventRecord", ctx);
    cuda_check(cudaEventSynchronize(stop_->get()), "cudaEventSynchronize", ctx);
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, start_->get(), stop_->get()), "cudaEventElapsedTime", ctx);
    return static_cast<double>(ms) * 1e-3;
  }

private:
  void enqueue(const CudaKernel& ck, const Range& global, const Range& local, cudaStream_t stream) {
    unsigned grid[3], block[3];
    for (int d = 0; d < 3; ++d) {
      grid[d] = static_cast<unsigned>(global[d] / local[d]);
      block[d] = static_cast<unsigned>(local[d]);
    }
    for (std::size_t n = 0; n < ck.slots.size(); ++n) {
      if (!ck.slots[n].set) {
        throw DeviceError("launching kernel " + ck.name + ": argument " + std::to_string(n) +
                          " is not set");
      }
    }
    // Dimension 0 (z, contiguous) is CUDA's x, as compat.h's LOCAL_ID / GROUP_ID read it.
    const cudaError_t e = cudaLaunchKernel(
        reinterpret_cast<const void*>(ck.k), dim3(grid[0], grid[1], grid[2]),
        dim3(block[0], block[1], block[2]), const_cast<void**>(ck.args.data()), 0, stream);
    if (e != cudaSuccess) {
      cuda_check(e, "cudaLaunchKernel",
                 "launching kernel " + ck.name + " on grid (" + std::to_string(grid[0]) + "," +
                     std::to_string(grid[1]) + "," + std::to_string(grid[2]) + ") of blocks (" +
                     std::to_string(block[0]) + "," + std::to_string(block[1]) + "," +
                     std::to_string(block[2]) + ")");
    }
  }

  void destroy_streams() noexcept {
    if (cudaSetDevice(index_) != cudaSuccess) return;
    for (SideStream& ss : side_) {
      (void)cudaStreamSynchronize(ss.stream);
      (void)cudaStreamDestroy(ss.stream);
    }
    side_.clear();
    for (cudaStream_t* s : {&stream_, &stamp_stream_}) {
      if (!*s) continue;
      (void)cudaStreamSynchronize(*s);
      (void)cudaStreamDestroy(*s);
      *s = nullptr;
    }
  }

  // launch_together's side streams, made when first needed, each with the event that marks the
  // end of its launch for the stream to wait on.
  struct SideStream {
    cudaStream_t stream = nullptr;
    std::unique_ptr<CudaEvent> done;
  };
  static const CudaKernel& kernel_of(const Launch& l) {
    return *static_cast<const CudaKernel*>(l.kernel.object());
  }

  int index_;
  DeviceInfo info_;
  cudaStream_t stream_ = nullptr;
  int lowest_priority_ = 0, highest_priority_ = 0;  // cudaDeviceGetStreamPriorityRange's
  cudaStream_t stamp_stream_ = nullptr;  // the markers' host functions (CudaMarker)
  std::unique_ptr<CudaEvent> start_, stop_, fork_;
  std::vector<SideStream> side_;
  std::map<Defines, Program> programs_;
};

}  // namespace

namespace cuda_detail {

bool is_cuda(const Device& dev) { return dynamic_cast<const CudaDevice*>(&dev) != nullptr; }

CudaQueue queue_of(Device& dev, const char* call) {
  auto* cd = dynamic_cast<CudaDevice*>(&dev);
  if (!cd) throw DeviceError(std::string(call) + ": " + dev.info().name + " is not a CUDA device");
  return CudaQueue{cd->ordinal(), cd->stream()};
}

void* pointer_of(const Buffer& b, const char* call) { return ptr_of(b, call); }

void make_current(int ordinal, const char* context) { use_device(ordinal, context); }

}  // namespace cuda_detail

std::string nvrtc_target(int cc_major, int cc_minor) {
  int count = 0;
  check_nvrtc(nvrtcGetNumSupportedArchs(&count), "nvrtcGetNumSupportedArchs",
              "choosing the CUDA architecture");
  std::vector<int> archs(static_cast<std::size_t>(count));
  check_nvrtc(nvrtcGetSupportedArchs(archs.data()), "nvrtcGetSupportedArchs",
              "choosing the CUDA architecture");
  const int cc = cc_major * 10 + cc_minor;
  if (std::find(archs.begin(), archs.end(), cc) != archs.end()) return "sm_" + std::to_string(cc);
  int below = 0;
  for (int a : archs) {
    if (a < cc) below = std::max(below, a);
  }
  if (below == 0) {
    throw DeviceError("CUDA compute capability " + std::to_string(cc_major) + "." +
                      std::to_string(cc_minor) + " is older than every architecture this NVRTC " +
                      "compiles for (oldest sm_" +
                      std::to_string(archs.empty() ? 0 : *std::min_element(archs.begin(), archs.end())) +
                      ")");
  }
  return "compute_" + std::to_string(below);
}

std::string compile_cuda_source(const std::string& source, const Defines& defines,
                                const std::string& target) {
  // nvcc's defaults, which the nvcc-built kernels had (CMakeLists.txt sets no math flags): IEEE
  // division and square root, no flush to zero, fused multiply-add on.
  std::vector<std::string> options{"--gpu-architecture=" + target, "-default-device",
                                   "--std=c++17",  "--fmad=true", "--prec-div=true",
                                   "--prec-sqrt=true", "--ftz=false"};
  for (const auto& flag : define_flags(defines)) options.push_back(flag);
  std::string options_text;
  for (const auto& o : options) options_text += (options_text.empty() ? "" : " ") + o;
  const std::string ctx = "compiling the CUDA program with \"" + options_text + "\"";

  nvrtcProgram prog = nullptr;
  check_nvrtc(nvrtcCreateProgram(&prog, source.c_str(), "clfdtd_kernels.cu", 0, nullptr, nullptr),
              "nvrtcCreateProgram", ctx);
  struct Destroy {
    nvrtcProgram& p;
    ~Destroy() { (void)nvrtcDestroyProgram(&p); }
  } destroy{prog};
  std::vector<const char*> argv;
  for (const auto& o : options) argv.push_back(o.c_str());
  const nvrtcResult built = nvrtcCompileProgram(prog, static_cast<int>(argv.size()), argv.data());
  if (built != NVRTC_SUCCESS) {
    std::size_t size = 0;
    std::string log = "(no log)";
    if (nvrtcGetProgramLogSize(prog, &size) == NVRTC_SUCCESS && size > 1) {
      log.assign(size, '\0');
      if (nvrtcGetProgramLog(prog, &log[0]) != NVRTC_SUCCESS) log = "(no log)";
      while (!log.empty() && log.back() == '\0') log.pop_back();
    }
    throw DeviceError("CUDA kernel build (NVRTC) failed with " +
                      std::string(nvrtcGetErrorString(built)) + " with options \"" + options_text +
                      "\"; build log:\n" + log);
  }
  std::string image;
  std::size_t size = 0;
  if (target.rfind("sm_", 0) == 0) {
    check_nvrtc(nvrtcGetCUBINSize(prog, &size), "nvrtcGetCUBINSize", ctx);
    image.assign(size, '\0');
    check_nvrtc(nvrtcGetCUBIN(prog, &image[0]), "nvrtcGetCUBIN", ctx);
  } else {
    check_nvrtc(nvrtcGetPTXSize(prog, &size), "nvrtcGetPTXSize", ctx);
    image.assign(size, '\0');  // NUL-terminated: cudaLibraryLoadData reads PTX as a C string
    check_nvrtc(nvrtcGetPTX(prog, &image[0]), "nvrtcGetPTX", ctx);
  }
  return image;
}

std::string compile_cuda_program(const Defines& defines, const std::string& target) {
  static const std::string source = embedded_program_source();
  return compile_cuda_source(source, defines, target);
}

std::vector<DeviceInfo> list_cuda_devices() {
  const CudaDeviceList list = clfdtd::list_cuda_devices();  // the runtime's view, no throw
  std::vector<DeviceInfo> out;
  const std::string module = nvidia_module_version();
  try {
    for (const auto& c : list.devices) {
      DeviceInfo d;
      d.api = Api::Cuda;
      d.index = c.index;
      d.name = c.name;
      d.vendor = "NVIDIA";
      d.type = "gpu";
      d.min_groups_hint = true;  // the kernels' __launch_bounds__ read the define
      // name (platform, version) is the CUDA backend's device description.
      d.platform = "CUDA " + cuda_version_text(list.driver_version);
      d.version = "runtime " + cuda_version_text(list.runtime_version) +
                  (module.empty() ? std::string() : ", driver " + module) +
                  ", compute capability " + std::to_string(c.cc_major) + "." +
                  std::to_string(c.cc_minor);
      d.driver = module.empty() ? "CUDA " + cuda_version_text(list.driver_version) : module;
      try {
        d.code_target = nvrtc_target(c.cc_major, c.cc_minor);
      } catch (const DeviceError&) {
        d.code_target.clear();  // listed, but program() says it cannot compile for it
      }
      d.global_mem_bytes = c.global_mem_bytes;
      d.max_alloc_bytes = c.global_mem_bytes;  // CUDA has no per-allocation limit below that
      d.local_mem_bytes =
          static_cast<std::size_t>(attribute(cudaDevAttrMaxSharedMemoryPerBlock, c.index));
      d.max_group_size = static_cast<std::size_t>(attribute(cudaDevAttrMaxThreadsPerBlock, c.index));
      d.max_group_dims = {static_cast<std::size_t>(attribute(cudaDevAttrMaxBlockDimX, c.index)),
                          static_cast<std::size_t>(attribute(cudaDevAttrMaxBlockDimY, c.index)),
                          static_cast<std::size_t>(attribute(cudaDevAttrMaxBlockDimZ, c.index))};
      d.compute_units = c.sm_count;
      d.clock_mhz = c.clock_mhz;
      out.push_back(d);
    }
  } catch (const DeviceError&) {
    return {};  // as list_cuda_devices: a device that cannot be queried makes no list
  }
  return out;
}

std::unique_ptr<Device> open_cuda_device(int index) {
  const auto all = list_cuda_devices();
  for (const auto& d : all) {
    if (d.index == index) return std::make_unique<CudaDevice>(index, d);
  }
  throw DeviceError("CUDA device " + std::to_string(index) + " does not exist (" +
                    std::to_string(all.size()) + " CUDA devices found)");
}

}  // namespace clfdtd::device
