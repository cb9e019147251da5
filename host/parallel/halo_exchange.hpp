// The halo exchange of a model split over ranks (docs/MPI.md), host-staged, in two halves:
// begin(group) enqueues, for every face with a neighbour, the pack of its owned plane next to the
// neighbour (cl_kernels/halo_pack.cl) and a non-blocking read of it into pinned host memory;
// end(group) waits for those reads, sends the planes and receives the neighbours' (all faces at
// once), and enqueues the writes and the unpacks into the ghost planes. Between the two the
// device computes the rest of the phase (the owned cells away from the send planes) while the
// host waits for the transfer. Run for Hx Hy Hz after the H phase's send planes are updated and
// for Ex Ey Ez after the E phase's and sources', so the ghost planes are exact copies of the
// neighbours' owned cells whenever an owned cell reads them.
// All faces travel at once: an owned cell's update reads its face neighbours only (the Yee
// stencil), so a ghost cell an owned cell reads lies in exactly one face's ghost plane, within
// the neighbour's owned cells across that face; the edge and corner ghost cells that the later
// axes' planes span (x planes over the owned y and z, y planes over every local x and the owned
// z, z planes over every local x and y) travel too but hold whatever the neighbour's ghost cells
// held at the pack: no owned cell reads them. The ghost boxes (recv) partition the local cells
// outside the owned box, and received() is what the device holds there.
#pragma once
#include <array>
#include <cstddef>
#include <vector>

#include "device/device.hpp"
#include "engine/plan.hpp"
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

// The rows of `part` a step split for the overlap updates first (edges: the owned rows that hold
// a send plane of an x or y face) and then (rest: the other owned rows), disjoint, together the
// owned rows; ghost rows in neither. A z face's send plane spans every owned row, so a part with
// a z neighbour gets all its owned rows as edges (no overlap; docs/MPI.md).
engine::RowSplit overlap_split(const Part& part);

// Tags of the messages: one per half step (0: H, 1: E) and direction of travel, so a message is
// never matched with another of the same pair of ranks.
inline int halo_tag(int group, int face_sent_through) { return group * 6 + face_sent_through; }

class HaloExchange {
public:
  // Binds the pack/unpack kernels of every face to `fields` (an in-place variant's only set) in
  // `program` (any build of the embedded sources). Allocates two device buffers per face.
  HaloExchange(device::Device& dev, const device::Program& program, const FieldLayout& layout,
               const engine::FieldSet& fields, const Part& part, RankLink& link);

  // group 0: Hx Hy Hz, group 1: Ex Ey Ez. Every rank of the run calls them at the same points,
  // begin then end of one group. begin only enqueues (pack, non-blocking read); end blocks for
  // the reads and the transfer, then enqueues (write, unpack) and returns.
  void begin(int group);
  void end(int group);
  void exchange(int group) {
    begin(group);
    end(group);
  }
  // How the planes travel: "host" (through pinned host memory and the rank link).
  static const char* path() { return "host"; }

  const std::vector<HaloFace>& faces() const { return faces_; }
  // What the last exchange of `group` received through faces()[f] (received_count(f) floats),
  // 3 components one after the other, each over recv in x, y, z order (z fastest); zeros before
  // the first exchange.
  const float* received(int group, std::size_t f) const {
    return kernels_[f].recv_host[static_cast<std::size_t>(group)].floats();
  }
  std::size_t received_count(std::size_t f) const { return 3 * faces_[f].recv.cells(); }
  std::size_t device_bytes() const { return device_bytes_; }

private:
  struct FaceKernels {
    std::array<device::Kernel, 2> pack, unpack;  // by group
    device::Buffer send, recv;
    device::Range global;
    std::array<device::HostMemory, 2> send_host, recv_host;  // by group
  };
  device::Device& dev_;
  RankLink& link_;
  std::vector<HaloFace> faces_;
  std::vector<FaceKernels> kernels_;
  std::array<device::Marker, 2> read_done_;  // after begin(group)'s reads
  std::size_t device_bytes_ = 0;
};

}  // namespace clfdtd::parallel
