// The halo exchange of a model split over ranks (docs/MPI.md), host-staged: for each split axis
// in turn (x, then y, then z), every face with a neighbour packs its owned plane next to the
// neighbour (cl_kernels/halo_pack.cl), reads it to the host, sends it and receives the
// neighbour's plane, writes that and unpacks it into the ghost plane. Run after the H phase for
// Hx Hy Hz and after the E phase and sources for Ex Ey Ez, so the ghost planes are exact copies
// of the neighbours' owned cells whenever anything reads them.
// The planes of a later axis span the ghost planes of the earlier axes (which are filled by then),
// so edge and corner ghost cells are exact too, and the ghost boxes (recv) partition the local
// cells outside the owned box: x planes over the owned y and z, y planes over every local x and
// the owned z, z planes over every local x and y.
#pragma once
#include <array>
#include <cstddef>
#include <memory>
#include <vector>

#include "device/device.hpp"
#include "engine/yee_fields.hpp"
#include "model/field_layout.hpp"
#include "parallel/part_model.hpp"
#include "parallel/rank_link.hpp"

namespace clfdtd::parallel {

struct CellBox {  // local cells [lo, hi) per axis
  std::array<int, 3> lo{}, hi{};
  std::size_t cells() const {
    std::size_t n = 1;
    for (int a = 0; a < 3; ++a) n *= static_cast<std::size_t>(hi[a] > lo[a] ? hi[a] - lo[a] : 0);
    return n;
  }
};

struct HaloFace {
  int face = 0;       // 0..5: x-, x+, y-, y+, z-, z+
  int neighbour = -1;  // its rank
  CellBox send;        // the owned plane next to the neighbour
  CellBox recv;        // the ghost plane the neighbour's owned plane lands in
};

// The faces of `part` that have a neighbour, in exchange order (x-, x+, y-, y+, z-, z+).
std::vector<HaloFace> halo_faces(const Part& part);

// Tags of the messages: one per half step (0: H, 1: E) and direction of travel, so a message is
// never matched with another of the same pair of ranks.
inline int halo_tag(int group, int face_sent_through) { return group * 6 + face_sent_through; }

class PeerHalo;

class HaloExchange {
public:
  // Binds the pack/unpack kernels of every face to `fields` (an in-place variant's only set) in
  // `program` (any build of the embedded sources). Allocates two device buffers per face.
  HaloExchange(device::Device& dev, const device::Program& program, const FieldLayout& layout,
               const engine::FieldSet& fields, const Part& part, RankLink& link);

  // group 0: Hx Hy Hz, group 1: Ex Ey Ez. Every rank of the run calls it at the same point.
  void exchange(int group);

  // The bytes of faces()[f]'s packed plane (three components).
  std::vector<std::size_t> plane_bytes() const;
  // From now on the planes travel device to device through `peer` (peer_halo.hpp; nullptr: the
  // host path). keep_received: read each received plane to the host too, for received().
  void set_peer(std::unique_ptr<PeerHalo> peer, bool keep_received);
  bool device_to_device() const { return peer_ != nullptr; }

  const std::vector<HaloFace>& faces() const { return faces_; }
  // What the last exchange of `group` received through faces()[f], 3 components one after the
  // other, each over recv in x, y, z order (z fastest); zeros before the first exchange.
  const std::vector<float>& received(int group, std::size_t f) const {
    return recv_host_[static_cast<std::size_t>(group)][f];
  }
  std::size_t device_bytes() const;
  ~HaloExchange();

private:
  struct FaceKernels {
    std::array<device::Kernel, 2> pack, unpack;  // by group
    device::Buffer send, recv;
    device::Range global;
  };
  device::Device& dev_;
  RankLink& link_;
  std::vector<HaloFace> faces_;
  std::vector<FaceKernels> kernels_;
  std::array<std::vector<std::vector<float>>, 2> send_host_, recv_host_;
  std::size_t device_bytes_ = 0;
  std::unique_ptr<PeerHalo> peer_;
  bool keep_received_ = true;
};

}  // namespace clfdtd::parallel
