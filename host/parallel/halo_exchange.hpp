// The halo exchange of a model split over ranks (docs/MPI.md), host-staged, in two halves:
// begin(group) enqueues, for every face that sends in this group (face_sends), the pack of its
// owned plane next to the neighbour (cl_kernels/halo_pack.cl) and a non-blocking read of it into
// pinned host memory; end(group) waits for those reads, sends the planes and receives the
// neighbours' (all faces at once), and enqueues the writes and the unpacks into the ghost planes. Between the two the
// device computes the rest of the phase (the owned cells away from the send planes) while the
// host waits for the transfer. Run for Hx Hy Hz after the H phase's send planes are updated and
// for Ex Ey Ez after the E phase's and sources', so the ghost cells an owned cell reads are exact
// copies of the neighbours' owned cells whenever it reads them.
// All faces travel at once: an owned cell's update reads its face neighbours only (the Yee
// stencil), so a ghost cell an owned cell reads lies in exactly one face's ghost plane, within
// the neighbour's owned cells across that face; the edge and corner ghost cells that the later
// axes' planes span (x planes over the owned y and z, y planes over every local x and the owned
// z, z planes over every local x and y) travel too but hold whatever the neighbour's ghost cells
// held at the pack: no owned cell reads them. The ghost boxes (recv) partition the local cells
// outside the owned box; clear_ghosts() zeroes them.
#pragma once
#include <array>
#include <cstddef>
#include <memory>
#include <optional>
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
  int neighbour = -1;  // its rank (-1 for a mirror face)
  // A magnetic wall (boundary.pmc) on this low face: after the H phase the ghost plane takes
  // the owned plane next to it with tangential H negated; nothing travels to another rank.
  bool mirror = false;
  // A Bloch model's face across its bloch_axis (Part): the copy whose plane it carries (0 real,
  // 1 imaginary); the faces of the other axes span both copies.
  int copy = 0;
  CellBox send;        // the owned plane next to the neighbour
  CellBox recv;        // the ghost plane the neighbour's owned plane lands in
};

// The faces of `part` that have a neighbour or a magnetic wall's mirror, in exchange order (x-,
// x+, y-, y+, z-, z+); a Bloch model's faces across its bloch_axis once per copy (copy 0's low
// and high, then copy 1's).
std::vector<HaloFace> halo_faces(const Part& part);

// The rows of `part` a step split for the overlap updates first (edges: the owned rows that hold
// a send plane of an x or y face) and then (rest: the other owned rows), disjoint, together the
// owned rows; ghost rows in neither. A z face's send plane spans every owned row, so a part with
// a z neighbour gets all its owned rows as edges (no overlap; docs/MPI.md).
engine::RowSplit overlap_split(const Part& part);

// Tags of the messages: one per half step (0: H, 1: E) and direction of travel, so a message is
// never matched with another of the same pair of ranks.
inline int halo_tag(int group, int face_sent_through) { return group * 6 + face_sent_through; }

// Which planes travel (the Yee stencil): an E update reads H one cell back along each axis and an
// H update reads E one cell ahead, so the H planes (group 0) go out through the high faces only,
// into the neighbours' low ghost planes, and the E planes (group 1) through the low faces only;
// and of each only the two components tangential to the face (an owned cell reads the normal
// one at its own coordinate along the axis). A face sends in one group and receives in the
// other: a third of the bytes of sending all three components both ways.
inline bool face_sends(int group, int face) { return (face & 1) == (group == 0 ? 1 : 0); }
inline bool face_receives(int group, int face) { return !face_sends(group, face); }
// The field components (0..2 within the group's E or H) that cross a face of axis face / 2.
inline std::array<int, 2> face_components(int face) {
  const int a = face / 2;
  return {(a + 1) % 3, (a + 2) % 3};
}
constexpr int kHaloComponents = 2;

class PeerHalo;

class HaloExchange {
public:
  // Binds the pack/unpack kernels of every face to `fields` (an in-place variant's only set) in
  // `program` (any build of the embedded sources). Allocates two device buffers per face, and
  // with ghost_clears the kernels of clear_ghosts.
  HaloExchange(device::Device& dev, const device::Program& program, const FieldLayout& layout,
               const engine::FieldSet& fields, const Part& part, RankLink& link,
               bool ghost_clears = false);

  // group 0: Hx Hy Hz, group 1: Ex Ey Ez. Every rank of the run calls them at the same points,
  // begin then end of one group. begin only enqueues (pack, non-blocking read); end blocks for
  // the reads and the transfer, then enqueues (write, unpack) and returns.
  void begin(int group);
  void end(int group);
  void exchange(int group) {
    begin(group);
    end(group);
  }
  // How the planes travel: "host" (through pinned host memory and the rank link) or "device"
  // (GPU to GPU, set_peer).
  // "local" where every face's neighbour is this rank itself (a periodic model in one box):
  // the planes are copied within the device and the host waits for nothing.
  const char* path() const { return all_local_ ? "local" : peer_ ? "device" : "host"; }
  bool all_local() const { return all_local_; }

  // The bytes of faces()[f]'s packed plane (the two tangential components).
  std::vector<std::size_t> plane_bytes() const;
  // From now on the planes travel device to device through `peer` (peer_halo.hpp; nullptr: the
  // host path).
  void set_peer(std::unique_ptr<PeerHalo> peer);
  bool device_to_device() const { return peer_ != nullptr; }

  const std::vector<HaloFace>& faces() const { return faces_; }
  // Enqueues zeros into every component of every ghost plane (recv; needs ghost_clears): the
  // energy's sums then hold the owned cells alone. The E planes the next H update reads are gone
  // with them: exchange(1) brings them back.
  void clear_ghosts();
  std::size_t device_bytes() const;
  ~HaloExchange();

private:
  void bind_turns(const device::Program& program, const Part& part);
  struct FaceKernels {
    std::array<device::Kernel, 2> pack, unpack;  // by group
    device::Buffer send, recv;
    device::Range global;
    std::array<device::HostMemory, 2> send_host, recv_host;  // by group (the host path's)
  };
  device::Device& dev_;
  RankLink& link_;
  std::vector<HaloFace> faces_;
  std::vector<FaceKernels> kernels_;
  // A Bloch model: per face, the kernel that turns its received plane by exp(+-i phase) before
  // the unpack (cl_kernels/halo_pack.cl bloch_turn); unset for faces without one (a copy-1 face
  // across the bloch axis: its copy-0 twin's kernel turns both).
  std::vector<std::optional<device::Kernel>> turn_;
  std::vector<device::Range> turn_global_;
  // Per face: the face whose receive buffer begin() copies its packed plane into on the device
  // (the opposite face where the neighbour is this rank itself, a periodic axis in one box; the
  // face itself for a magnetic wall's mirror), else -1 (the plane travels to another rank).
  std::vector<int> local_to_;
  bool all_local_ = false;  // every face copies within the device
  std::array<device::Marker, 2> read_done_;  // after begin(group)'s reads
  std::size_t device_bytes_ = 0;
  std::unique_ptr<PeerHalo> peer_;
  struct GhostClear {  // clear_ghosts: halo_clear6 over a face's ghost plane
    device::Kernel clear;
    device::Range global;
  };
  std::vector<GhostClear> ghosts_;  // by face; empty without ghost_clears
  std::array<bool, 2> begun_{};  // the device or local path's begin(group) ran, its end not yet
};

}  // namespace clfdtd::parallel
