// Host-staged halo exchange (halo_exchange.hpp).
#include "parallel/halo_exchange.hpp"

#include "engine/stage.hpp"
#include "model/field_layout.hpp"
#include "parallel/peer_halo.hpp"

namespace clfdtd::parallel {

namespace {
constexpr std::size_t kGroup = 64;  // work-items per group of the pack kernels
}

std::vector<HaloFace> halo_faces(const Part& part) {
  const std::array<int, 3> n = part.local_n();
  std::vector<HaloFace> out;
  for (int a = 0; a < 3; ++a) {
    for (int side = 0; side < 2; ++side) {
      const int face = 2 * a + side;
      const int nb = part.neighbour[static_cast<std::size_t>(face)];
      if (nb < 0) continue;
      HaloFace f;
      f.face = face;
      f.neighbour = nb;
      for (int b = 0; b < 3; ++b) {
        // Earlier axes: every local cell (their ghosts are exchanged by now); later: owned.
        const int lo = b < a ? 0 : part.ghost_lo[b];
        const int hi = b < a ? n[b] : n[b] - part.ghost_hi[b];
        f.send.lo[b] = f.recv.lo[b] = lo;
        f.send.hi[b] = f.recv.hi[b] = hi;
      }
      const int ghost = side == 0 ? 0 : n[a] - 1;
      const int owned = side == 0 ? 1 : n[a] - 2;
      f.recv.lo[a] = ghost;
      f.recv.hi[a] = ghost + 1;
      f.send.lo[a] = owned;
      f.send.hi[a] = owned + 1;
      out.push_back(f);
    }
  }
  return out;
}

HaloExchange::HaloExchange(device::Device& dev, const device::Program& program,
                           const FieldLayout& layout, const engine::FieldSet& fields,
                           const Part& part, RankLink& link)
    : dev_(dev), link_(link), faces_(halo_faces(part)) {
  for (const HaloFace& f : faces_) {
    FaceKernels k;
    const std::size_t count = f.send.cells();
    const std::size_t bytes = 3 * count * sizeof(float);
    k.send = dev_.alloc(bytes);
    k.recv = dev_.alloc(bytes);
    device_bytes_ += 2 * bytes;
    k.global = device::Range((count + kGroup - 1) / kGroup * kGroup);
    for (int group = 0; group < 2; ++group) {
      const int c0 = group == 0 ? 3 : 0;  // Hx or Ex
      auto bind = [&](const char* name, const CellBox& box, const device::Buffer& buf) {
        device::Kernel kern = program.kernel(name);
        engine::Args a(kern);
        a << fields[static_cast<std::size_t>(c0)] << fields[static_cast<std::size_t>(c0 + 1)]
          << fields[static_cast<std::size_t>(c0 + 2)] << buf;
        for (int b = 0; b < 3; ++b) a << box.lo[b];
        for (int b = 0; b < 3; ++b) a << box.hi[b] - box.lo[b];
        a << layout.ny << static_cast<int>(layout.nzp());
        return kern;
      };
      k.pack[static_cast<std::size_t>(group)] = bind("halo_pack", f.send, k.send);
      k.unpack[static_cast<std::size_t>(group)] = bind("halo_unpack", f.recv, k.recv);
      send_host_[static_cast<std::size_t>(group)].emplace_back(3 * count, 0.0f);
      recv_host_[static_cast<std::size_t>(group)].emplace_back(3 * count, 0.0f);
    }
    kernels_.push_back(std::move(k));
  }
}

void HaloExchange::exchange(int group) {
  const auto g = static_cast<std::size_t>(group);
  std::size_t f = 0;
  while (f < faces_.size()) {
    // The faces of one axis (one or two) travel together; the next axis waits for them.
    const int axis = faces_[f].face / 2;
    std::size_t end = f;
    while (end < faces_.size() && faces_[end].face / 2 == axis) ++end;
    if (peer_) {  // device to device (peer_halo.hpp)
      for (std::size_t i = f; i < end; ++i) {
        dev_.launch(kernels_[i].pack[g], kernels_[i].global, device::Range(kGroup));
        peer_->post(group, i, kernels_[i].send, kernels_[i].send.bytes());
      }
      peer_->complete(group, f, end);
      for (std::size_t i = f; i < end; ++i) {
        dev_.launch(kernels_[i].unpack[g], kernels_[i].global, device::Range(kGroup));
        if (keep_received_) {
          std::vector<float>& in = recv_host_[g][i];
          dev_.read(peer_->recv(group, i), in.data(), in.size() * sizeof(float));
        }
      }
      f = end;
      continue;
    }
    std::vector<RankLink::Transfer> transfers;
    for (std::size_t i = f; i < end; ++i) {
      dev_.launch(kernels_[i].pack[g], kernels_[i].global, device::Range(kGroup));
      std::vector<float>& out = send_host_[g][i];
      dev_.read(kernels_[i].send, out.data(), out.size() * sizeof(float));
      RankLink::Transfer t;
      t.peer = faces_[i].neighbour;
      t.send_tag = halo_tag(group, faces_[i].face);
      t.recv_tag = halo_tag(group, faces_[i].face ^ 1);  // the neighbour sent it through its face
      t.send = out.data();
      t.recv = recv_host_[g][i].data();
      t.count = out.size();
      transfers.push_back(t);
    }
    link_.exchange(transfers);
    for (std::size_t i = f; i < end; ++i) {
      const std::vector<float>& in = recv_host_[g][i];
      dev_.upload(kernels_[i].recv, in.data(), in.size() * sizeof(float));
      dev_.launch(kernels_[i].unpack[g], kernels_[i].global, device::Range(kGroup));
    }
    f = end;
  }
}

HaloExchange::~HaloExchange() = default;

std::vector<std::size_t> HaloExchange::plane_bytes() const {
  std::vector<std::size_t> out;
  for (const FaceKernels& k : kernels_) out.push_back(k.send.bytes());
  return out;
}

void HaloExchange::set_peer(std::unique_ptr<PeerHalo> peer, bool keep_received) {
  peer_ = std::move(peer);
  keep_received_ = keep_received;
  for (std::size_t f = 0; f < kernels_.size(); ++f)
    for (int group = 0; group < 2; ++group)  // argument 3 of halo_unpack: the plane buffer
      kernels_[f].unpack[static_cast<std::size_t>(group)].set(
          3, peer_ ? peer_->recv(group, f) : kernels_[f].recv);
}

std::size_t HaloExchange::device_bytes() const {
  return device_bytes_ + (peer_ ? peer_->device_bytes() : 0);
}

}  // namespace clfdtd::parallel
