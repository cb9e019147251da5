// The device-to-device transport of the halo exchange (docs/MPI.md, "Device-to-device"): each
// rank allocates a receive buffer per face and per group (H, E) and, at setup, sends each
// neighbour the exports of the buffers that neighbour writes into (PeerDevice: CUDA IPC); in an
// exchange the sender copies its packed plane from its GPU straight into the neighbour's receive
// buffer (HaloExchange::begin), and later (HaloExchange::end) waits for that copy and sends a
// one-float token; the receiver unpacks after the token. The interior update queued between
// begin and end runs while the copies travel.
//
// Why no receive buffer is overwritten before its owner has unpacked it: across a pair of faces
// the H planes go one way and the E planes the other (face_sends), so the ranks A and B of a pair
// alternate as senders: A sends H of step n into B's recv[face][H] and a token; B unpacks it on
// its in-order queue right after that token arrived (end of H), then queues its E pack and copy
// into A (begin of E), and sends its E token only once that copy has landed, so only after the
// unpack. A queues its next H copy into the same buffer (step n + 1) only after its end of E,
// which waits for B's E token: the unpack has run by then. The same holds with A and B swapped
// for the E buffer. (begin and end of one group alternate with those of the other on every
// rank: HaloExchange.) The sender's own send buffer is rewritten only by its next pack, queued
// after the copy on the same queue. Buffers are allocated and opened for both groups of every
// face; a face uses those of the group it receives in.
#pragma once
#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "config/run_config.hpp"
#include "device/device.hpp"
#include "parallel/halo_exchange.hpp"
#include "parallel/peer_device.hpp"
#include "parallel/rank_link.hpp"

namespace clfdtd::parallel {

class PeerHalo {
public:
  // What make_peer_halo builds: do not call directly.
  PeerHalo(device::Device& dev, RankLink& link, const std::vector<HaloFace>& faces,
           std::unique_ptr<PeerDevice> peer);

  // Where the plane of faces[f] lands in an exchange of `group` (the unpack kernel's buffer).
  const device::Buffer& recv(int group, std::size_t f) const {
    return recv_[static_cast<std::size_t>(group)][f];
  }
  // Queues the copy of the first `bytes` of `send` (faces[f]'s packed plane) into the
  // neighbour's recv(group, its opposite face).
  void post(int group, std::size_t f, const device::Buffer& send, std::size_t bytes);
  // Marks the copies posted so far (HaloExchange::begin), before the work queued after them.
  void posted();
  // Waits for the marked copies (not for the work queued after them), sends a token through
  // every face that sent in `group` and waits for the tokens of the faces that receive in it:
  // the neighbours' planes are in recv(group, f) then.
  void complete(int group);
  std::size_t device_bytes() const { return device_bytes_; }

private:
  friend std::unique_ptr<PeerHalo> make_peer_halo(HaloPath, device::Device&, RankLink&,
                                                  const std::vector<HaloFace>&,
                                                  const std::vector<std::size_t>&,
                                                  const std::function<std::unique_ptr<PeerDevice>(
                                                      device::Device&, std::string&)>&);
  device::Device& dev_;
  RankLink& link_;
  std::vector<HaloFace> faces_;
  std::unique_ptr<PeerDevice> peer_;
  std::array<std::vector<device::Buffer>, 2> recv_;    // [group][face]
  std::array<std::vector<std::size_t>, 2> target_;     // [group][face]: the peer's opened buffer
  std::vector<float> token_send_, token_recv_;
  std::size_t device_bytes_ = 0;
};

using PeerDeviceFactory = std::function<std::unique_ptr<PeerDevice>(device::Device&, std::string&)>;

// The halo path the ranks take, agreed collectively (every rank calls it, with the same
// `requested`): nullptr for the host path, else the transport. `faces` are this rank's
// (halo_faces), plane_bytes[f] the bytes of faces[f]'s packed plane. Host: nullptr at once.
// Auto: the transport when every rank has a PeerDevice (make_peer: CUDA) and reaches each
// neighbour's buffers (same node, peer access), else nullptr. Device: the transport, or
// ConfigError (key device.halo_path, naming the first rank that cannot and why) on every rank.
std::unique_ptr<PeerHalo> make_peer_halo(HaloPath requested, device::Device& dev, RankLink& link,
                                         const std::vector<HaloFace>& faces,
                                         const std::vector<std::size_t>& plane_bytes,
                                         const PeerDeviceFactory& make_peer = make_peer_device);

// "host" or "device": what make_peer_halo's result means (run.json "halo"."path").
inline const char* halo_path_name(const PeerHalo* peer) { return peer ? "device" : "host"; }

}  // namespace clfdtd::parallel
