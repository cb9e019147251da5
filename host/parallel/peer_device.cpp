// The PeerDevice of a device (peer_device.hpp): CUDA IPC in builds with CUDA.
#include "parallel/peer_device.hpp"

#ifdef CLFDTD_HAVE_CUDA
#include "device/cuda/cuda_peer.hpp"
#endif

namespace clfdtd::parallel {

#ifdef CLFDTD_HAVE_CUDA
namespace {

class CudaPeerDevice final : public PeerDevice {
public:
  explicit CudaPeerDevice(device::Device& dev) : dev_(dev), mark_(device::stream_mark(dev)) {}
  std::vector<unsigned char> export_buffer(const device::Buffer& buffer) override {
    return device::export_peer_buffer(dev_, buffer);
  }
  std::size_t open(const std::vector<unsigned char>& exported) override {
    opened_.push_back(device::open_peer_buffer(dev_, exported));
    return opened_.size() - 1;
  }
  void copy(std::size_t target, const device::Buffer& src, std::size_t bytes) override {
    device::copy_to_peer(dev_, *opened_.at(target), src, bytes);
  }
  void mark() override { mark_->record(); }
  void wait_marked() override { mark_->wait(); }

private:
  device::Device& dev_;
  std::unique_ptr<device::StreamMark> mark_;
  std::vector<std::unique_ptr<device::PeerBuffer>> opened_;
};

}  // namespace
#endif

std::unique_ptr<PeerDevice> make_peer_device(device::Device& dev, std::string& why_not) {
#ifdef CLFDTD_HAVE_CUDA
  if (device::is_cuda_device(dev)) return std::make_unique<CudaPeerDevice>(dev);
#endif
  why_not = "its device, " + dev.info().name + " (device.backend = " +
            device::api_name(dev.info().api) +
            "), cannot write to another process's memory: the direct path is CUDA IPC";
#ifndef CLFDTD_HAVE_CUDA
  why_not += "; this build has no CUDA (cmake -DCLFDTD_CUDA=ON)";
#endif
  return nullptr;
}

}  // namespace clfdtd::parallel
