// CUDA IPC between ranks (cuda_peer.hpp).
#include "device/cuda/cuda_peer.hpp"

#include <unistd.h>

#include <climits>
#include <cstdint>
#include <cstring>

#include "backends/cuda/cuda_error.hpp"
#include "device/cuda/cuda_device_internal.hpp"
#include "errors.hpp"

namespace clfdtd::device {

namespace {

// The bytes of an export; both ranks run the same program on one node, so the layout matches.
struct ExportRecord {
  char magic[8] = {'c', 'l', 'f', 'd', 't', 'd', 'P', '1'};
  char host[256] = {};
  std::int64_t pid = 0;
  std::uint64_t pointer = 0;  // the exporter's device pointer (used within one process)
  std::uint64_t bytes = 0;
  cudaIpcMemHandle_t handle{};
};

std::string this_host() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "";
  return name;
}

class IpcPeerBuffer final : public PeerBuffer {
public:
  IpcPeerBuffer(int ordinal, void* ptr, std::size_t bytes)
      : ordinal_(ordinal), ptr_(ptr), bytes_(bytes) {}
  ~IpcPeerBuffer() override {
    if (cudaSetDevice(ordinal_) == cudaSuccess) (void)cudaIpcCloseMemHandle(ptr_);
  }
  std::size_t bytes() const override { return bytes_; }
  const char* kind() const override { return "IPC"; }
  void* pointer() const { return ptr_; }

private:
  int ordinal_;
  void* ptr_;
  std::size_t bytes_;
};

class SameProcessPeerBuffer final : public PeerBuffer {
public:
  SameProcessPeerBuffer(void* ptr, std::size_t bytes) : ptr_(ptr), bytes_(bytes) {}
  std::size_t bytes() const override { return bytes_; }
  const char* kind() const override { return "pointer"; }
  void* pointer() const { return ptr_; }

private:
  void* ptr_;
  std::size_t bytes_;
};

void* pointer_of(PeerBuffer& b) {
  if (auto* ipc = dynamic_cast<IpcPeerBuffer*>(&b)) return ipc->pointer();
  if (auto* same = dynamic_cast<SameProcessPeerBuffer*>(&b)) return same->pointer();
  throw DeviceError("copy_to_peer: the destination is not a CUDA peer buffer");
}

class CudaStreamMark final : public StreamMark {
public:
  explicit CudaStreamMark(cuda_detail::CudaQueue q) : q_(q) {
    cuda_detail::make_current(q_.ordinal, "creating a CUDA event");
    cuda_check(cudaEventCreateWithFlags(&event_, cudaEventDisableTiming), "cudaEventCreateWithFlags",
               "creating the event of a halo copy");
  }
  ~CudaStreamMark() override { (void)cudaEventDestroy(event_); }
  void record() override {
    cuda_check(cudaEventRecord(event_, q_.stream), "cudaEventRecord", "marking the halo copies");
  }
  void wait() override {
    cuda_check(cudaEventSynchronize(event_), "cudaEventSynchronize",
               "waiting for the halo copies to a neighbour's GPU");
  }

private:
  cuda_detail::CudaQueue q_;
  cudaEvent_t event_ = nullptr;
};

}  // namespace

bool is_cuda_device(const Device& dev) { return cuda_detail::is_cuda(dev); }

std::vector<unsigned char> export_peer_buffer(Device& dev, const Buffer& buffer) {
  const cuda_detail::CudaQueue q = cuda_detail::queue_of(dev, "export_peer_buffer");
  void* ptr = cuda_detail::pointer_of(buffer, "export_peer_buffer");
  if (!ptr) throw DeviceError("export_peer_buffer: an empty buffer has no CUDA IPC handle");
  cuda_detail::make_current(q.ordinal, "exporting a CUDA buffer");
  ExportRecord r;
  const std::string host = this_host();
  std::strncpy(r.host, host.c_str(), sizeof r.host - 1);
  r.pid = static_cast<std::int64_t>(::getpid());
  r.pointer = reinterpret_cast<std::uintptr_t>(ptr);
  r.bytes = buffer.bytes();
  cuda_check(cudaIpcGetMemHandle(&r.handle, ptr), "cudaIpcGetMemHandle",
             "exporting a halo buffer of " + std::to_string(r.bytes) + " bytes on " + dev.info().name);
  std::vector<unsigned char> out(sizeof r);
  std::memcpy(out.data(), &r, sizeof r);
  return out;
}

std::unique_ptr<PeerBuffer> open_peer_buffer(Device& dev, const std::vector<unsigned char>& exported) {
  const cuda_detail::CudaQueue q = cuda_detail::queue_of(dev, "open_peer_buffer");
  ExportRecord r;
  if (exported.size() != sizeof r ||
      std::memcmp(exported.data(), r.magic, sizeof r.magic) != 0) {
    throw DeviceError("open_peer_buffer: " + std::to_string(exported.size()) +
                      " bytes that are not a CUDA buffer export of this program (" +
                      std::to_string(sizeof r) + " bytes)");
  }
  std::memcpy(&r, exported.data(), sizeof r);
  r.host[sizeof r.host - 1] = '\0';
  const std::string host = this_host();
  if (host != r.host) {
    throw DeviceError("the neighbour's GPU is on node '" + std::string(r.host) + "', this rank on '" +
                      host + "': CUDA IPC needs both on one node");
  }
  const auto bytes = static_cast<std::size_t>(r.bytes);
  if (r.pid == static_cast<std::int64_t>(::getpid()))  // IPC refuses its own process's handles
    return std::make_unique<SameProcessPeerBuffer>(reinterpret_cast<void*>(r.pointer), bytes);
  cuda_detail::make_current(q.ordinal, "opening a neighbour's CUDA buffer");
  void* ptr = nullptr;
  cuda_check(cudaIpcOpenMemHandle(&ptr, r.handle, cudaIpcMemLazyEnablePeerAccess),
             "cudaIpcOpenMemHandle",
             "mapping the halo buffer of process " + std::to_string(r.pid) + " into " + dev.info().name);
  return std::make_unique<IpcPeerBuffer>(q.ordinal, ptr, bytes);
}

void copy_to_peer(Device& dev, PeerBuffer& dst, const Buffer& src, std::size_t bytes) {
  const cuda_detail::CudaQueue q = cuda_detail::queue_of(dev, "copy_to_peer");
  const void* from = cuda_detail::pointer_of(src, "copy_to_peer");
  if (bytes > dst.bytes() || bytes > src.bytes()) {
    throw DeviceError("copy_to_peer: " + std::to_string(bytes) + " bytes from a buffer of " +
                      std::to_string(src.bytes()) + " into one of " + std::to_string(dst.bytes()));
  }
  if (bytes == 0) return;
  cuda_detail::make_current(q.ordinal, "copying to a neighbour's GPU");
  // cudaMemcpyDefault: unified addressing tells the GPUs apart (the same one, or a peer).
  cuda_check(cudaMemcpyAsync(pointer_of(dst), from, bytes, cudaMemcpyDefault, q.stream),
             "cudaMemcpyAsync", "copying " + std::to_string(bytes) + " bytes to a neighbour's GPU");
}

std::unique_ptr<StreamMark> stream_mark(Device& dev) {
  return std::make_unique<CudaStreamMark>(cuda_detail::queue_of(dev, "stream_mark"));
}

}  // namespace clfdtd::device
