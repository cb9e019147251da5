// Device-to-device transfers between the ranks of a distributed run (docs/MPI.md,
// "Device-to-device"): a rank exports a CUDA buffer as bytes (its node, process and CUDA IPC
// handle), a neighbour on the same node opens them as a PeerBuffer and copies into it on its own
// stream, GPU to GPU (the same GPU, or two with peer access), without the host. Two ranks that are
// threads of one process (the tests) use the buffer's pointer directly: CUDA IPC cannot open a
// handle in the process that made it. OpenCL has no such path (no cross-process device memory).
// This header needs no CUDA headers: the distributed backend includes it in CUDA builds only.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "device/device.hpp"

namespace clfdtd::device {

// True when `dev` is a CUDA device of this build (open_cuda_device).
bool is_cuda_device(const Device& dev);

// What another rank needs to reach `buffer` (allocated by `dev`, a CUDA device): this node's
// host name, this process's id, the buffer's device pointer and size, and its cudaIpcMemHandle_t.
// DeviceError when `dev` is not a CUDA device or CUDA refuses the handle.
std::vector<unsigned char> export_peer_buffer(Device& dev, const Buffer& buffer);

// A buffer of another rank, mapped into this process (closed on destruction).
class PeerBuffer {
public:
  virtual ~PeerBuffer() = default;
  virtual std::size_t bytes() const = 0;
  // "IPC" (another process's memory) or "pointer" (the same process's).
  virtual const char* kind() const = 0;
};

// Opens bytes of export_peer_buffer on `dev`. DeviceError (naming both hosts, or CUDA's message)
// when the exporter is on another node, the bytes are not an export, or CUDA cannot map the
// memory into `dev`'s context (no peer access between the two GPUs).
std::unique_ptr<PeerBuffer> open_peer_buffer(Device& dev, const std::vector<unsigned char>& exported);

// Queues on `dev`'s stream a copy of the first `bytes` of `src` into `dst` (after every launch
// queued before, as every operation of the device API). DeviceError when either is too small.
void copy_to_peer(Device& dev, PeerBuffer& dst, const Buffer& src, std::size_t bytes);

// A point in `dev`'s stream: record() marks what is queued so far, wait() blocks the host until
// that has run (the copies of copy_to_peer included), without waiting for later launches.
class StreamMark {
public:
  virtual ~StreamMark() = default;
  virtual void record() = 0;
  virtual void wait() = 0;
};
std::unique_ptr<StreamMark> stream_mark(Device& dev);

}  // namespace clfdtd::device
