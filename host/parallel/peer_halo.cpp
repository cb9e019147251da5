// The device-to-device halo transport (peer_halo.hpp).
#include "parallel/peer_halo.hpp"

#include <algorithm>

#include <exception>

#include "errors.hpp"
#include "parallel/peer_bytes.hpp"

namespace clfdtd::parallel {

namespace {

// Tags of the setup's export messages: after every halo tag (halo_tag: 0..11).
int export_tag(int group, int face_sent_through) { return 100 + group * 6 + face_sent_through; }

// Agrees on `ok` over the ranks; when some rank is not ok: nullptr under auto, ConfigError under
// device (every rank throws the same).
bool agreed(RankLink& link, HaloPath requested, bool ok, const std::string& why) {
  std::string failed_why;
  const int failed = link.first_failed(ok, why, failed_why);
  if (failed < 0) return true;
  if (requested == HaloPath::Device) {
    throw ConfigError("", 0, "device.halo_path",
                      "host or auto: rank " + std::to_string(failed) +
                          " cannot exchange halos device to device: " + failed_why);
  }
  return false;
}

}  // namespace

PeerHalo::PeerHalo(device::Device& dev, RankLink& link, const std::vector<HaloFace>& faces,
                   std::unique_ptr<PeerDevice> peer)
    : dev_(dev), link_(link), faces_(faces), peer_(std::move(peer)) {}

void PeerHalo::post(int group, std::size_t f, const device::Buffer& send, std::size_t bytes) {
  peer_->copy(target_[static_cast<std::size_t>(group)][f], send, bytes);
}

void PeerHalo::posted() { peer_->mark(); }

void PeerHalo::complete(int group) {
  // The tokens go only once the planes have landed in the neighbours' memory.
  peer_->wait_marked();
  std::vector<RankLink::Transfer> tokens;
  for (std::size_t i = 0; i < faces_.size(); ++i) {
    RankLink::Transfer t;
    t.peer = faces_[i].neighbour;
    t.send_tag = halo_tag(group, faces_[i].face);
    t.recv_tag = halo_tag(group, faces_[i].face ^ 1);
    if (face_sends(group, faces_[i].face))
      t.send = &token_send_[i];
    else
      t.recv = &token_recv_[i];
    t.count = 1;
    tokens.push_back(t);
  }
  link_.exchange(tokens);
}

std::unique_ptr<PeerHalo> make_peer_halo(HaloPath requested, device::Device& dev, RankLink& link,
                                         const std::vector<HaloFace>& faces,
                                         const std::vector<std::size_t>& plane_bytes,
                                         const PeerDeviceFactory& make_peer) {
  // One process (a periodic model run whole) has no other rank to reach: the key is ignored.
  if (requested == HaloPath::Host || link.size() == 1) return nullptr;
  // 1. Every rank has a device that can reach another process's memory.
  std::string why;
  // A face whose neighbour is this rank (a periodic axis in one box) copies its plane within the
  // device (HaloExchange::begin), which this path does not do: CUDA IPC cannot open a process's
  // own memory. Such a run takes the host path on every rank (docs/PERIODIC.md).
  const bool to_itself = std::any_of(faces.begin(), faces.end(),
                                     [&](const HaloFace& f) { return f.neighbour == link.rank() || f.mirror; });
  std::unique_ptr<PeerDevice> peer;
  if (to_itself)
    why = "a periodic axis in one box (boundary.periodic) or a magnetic wall (boundary.pmc) "
          "copies its halo within the rank";
  else
    peer = make_peer(dev, why);
  if (!agreed(link, requested, peer != nullptr, why)) return nullptr;

  // 2. Receive buffers, exported to the neighbours that write into them. Every rank takes part
  // in the trade even when its own part failed (its exports are empty then), so none waits.
  auto halo = std::make_unique<PeerHalo>(dev, link, faces, std::move(peer));
  bool ok = true;
  std::vector<BytesTransfer> trade;
  try {
    for (int g = 0; g < 2; ++g)
      for (std::size_t f = 0; f < faces.size(); ++f) {
        device::Buffer b = dev.alloc(plane_bytes.at(f));
        halo->device_bytes_ += b.bytes();
        halo->recv_[static_cast<std::size_t>(g)].push_back(b);
      }
  } catch (const std::exception& e) {
    ok = false;
    why = std::string("allocating its receive buffers: ") + e.what();
  }
  for (int g = 0; g < 2; ++g)
    for (std::size_t f = 0; f < faces.size(); ++f) {
      BytesTransfer t;
      t.peer = faces[f].neighbour;
      // What arrives through face F is what the neighbour sends through its face F ^ 1.
      t.send_tag = export_tag(g, faces[f].face);
      t.recv_tag = export_tag(g, faces[f].face ^ 1);
      if (ok) {
        try {
          t.send = halo->peer_->export_buffer(halo->recv_[static_cast<std::size_t>(g)][f]);
        } catch (const std::exception& e) {
          ok = false;
          why = std::string("exporting its receive buffers: ") + e.what();
        }
      }
      trade.push_back(std::move(t));
    }
  exchange_bytes(link, trade);

  // 3. Open each neighbour's buffer: the one this rank's face f writes into.
  for (int g = 0; g < 2 && ok; ++g)
    for (std::size_t f = 0; f < faces.size() && ok; ++f) {
      const BytesTransfer& t = trade[static_cast<std::size_t>(g) * faces.size() + f];
      try {
        if (t.received.empty()) {
          throw DeviceError("its neighbour, rank " + std::to_string(faces[f].neighbour) +
                            ", exported no receive buffer");
        }
        halo->target_[static_cast<std::size_t>(g)].push_back(halo->peer_->open(t.received));
      } catch (const std::exception& e) {
        ok = false;
        why = std::string("opening rank ") + std::to_string(faces[f].neighbour) +
              "'s receive buffer: " + e.what();
      }
    }
  halo->token_send_.assign(faces.size(), 1.0f);
  halo->token_recv_.assign(faces.size(), 0.0f);
  if (!agreed(link, requested, ok, why)) return nullptr;
  return halo;
}

}  // namespace clfdtd::parallel
