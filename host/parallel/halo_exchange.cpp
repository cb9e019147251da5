// Host-staged halo exchange (halo_exchange.hpp).
#include "parallel/halo_exchange.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "engine/stage.hpp"
#include "model/field_layout.hpp"
#include "parallel/peer_halo.hpp"

namespace clfdtd::parallel {

namespace {
constexpr std::size_t kGroup = 64;  // work-items per group of the pack kernels
}

std::vector<HaloFace> halo_faces(const Part& part) {
  const std::array<int, 3> n = part.local_n();
  const std::array<int, 3> one = part.copy_n();
  std::vector<HaloFace> out;
  for (int a = 0; a < 3; ++a) {
    const int copies = a == part.bloch_axis ? 2 : 1;
    for (int copy = 0; copy < copies; ++copy)
      for (int side = 0; side < 2; ++side) {
        const int face = 2 * a + side;
        const int nb = part.neighbour[static_cast<std::size_t>(face)];
        const bool mirror = side == 0 && part.mirror_lo[static_cast<std::size_t>(a)];
        if (nb < 0 && !mirror) continue;
        HaloFace f;
        f.face = face;
        f.neighbour = nb;
        f.mirror = mirror;
        f.copy = copy;
        for (int b = 0; b < 3; ++b) {
          // Earlier axes: every local cell (their ghosts are exchanged by now); later: owned.
          // (A Bloch model's bloch_axis is its first periodic one: its copies are never a later
          // axis of a face.)
          const int lo = b < a ? 0 : part.ghost_lo[b];
          const int hi = b < a ? n[b] : n[b] - part.ghost_hi[b];
          f.send.lo[b] = f.recv.lo[b] = lo;
          f.send.hi[b] = f.recv.hi[b] = hi;
        }
        const int first = copy * one[a];  // the copy's first local cell along a
        const int ghost = first + (side == 0 ? 0 : one[a] - 1);
        const int owned = first + (side == 0 ? 1 : one[a] - 2);
        f.recv.lo[a] = ghost;
        f.recv.hi[a] = ghost + 1;
        f.send.lo[a] = owned;
        f.send.hi[a] = owned + 1;
        out.push_back(f);
      }
  }
  return out;
}

engine::RowSplit overlap_split(const Part& part) {
  const std::array<int, 3> n = part.local_n();
  std::array<int, 2> a{}, b{}, lo_end{}, hi_start{};
  for (int ax = 0; ax < 2; ++ax) {
    const auto x = static_cast<std::size_t>(ax);
    a[x] = part.ghost_lo[x];
    b[x] = n[x] - part.ghost_hi[x];
    lo_end[x] = std::min(a[x] + (part.neighbour[2 * x] >= 0 || part.mirror_lo[x] ? 1 : 0), b[x]);
    hi_start[x] = std::max(b[x] - (part.neighbour[2 * x + 1] >= 0 ? 1 : 0), lo_end[x]);
  }
  engine::RowSplit out;
  auto add = [](std::vector<engine::RowBox>& to, engine::RowBox box) {
    if (!box.empty()) to.push_back(box);
  };
  if (part.neighbour[4] >= 0 || part.neighbour[5] >= 0 || part.mirror_lo[2]) {
    add(out.edges, {a[0], a[1], b[0], b[1]});
    return out;
  }
  add(out.edges, {a[0], a[1], lo_end[0], b[1]});         // x-
  add(out.edges, {hi_start[0], a[1], b[0], b[1]});       // x+
  add(out.edges, {lo_end[0], a[1], hi_start[0], lo_end[1]});  // y- (x planes excluded)
  add(out.edges, {lo_end[0], hi_start[1], hi_start[0], b[1]});  // y+
  add(out.rest, {lo_end[0], lo_end[1], hi_start[0], hi_start[1]});
  return out;
}

HaloExchange::HaloExchange(device::Device& dev, const device::Program& program,
                           const FieldLayout& layout, const engine::FieldSet& fields,
                           const Part& part, RankLink& link, bool ghost_clears)
    : dev_(dev), link_(link), faces_(halo_faces(part)) {
  for (std::size_t i = 0; i < faces_.size(); ++i) {
    int to = -1;
    if (faces_[i].mirror)
      to = static_cast<int>(i);
    else if (faces_[i].neighbour == link_.rank())
      for (std::size_t j = 0; j < faces_.size(); ++j)
        if (faces_[j].face == (faces_[i].face ^ 1) && faces_[j].copy == faces_[i].copy) to = static_cast<int>(j);
    local_to_.push_back(to);
  }
  all_local_ = !faces_.empty() &&
               std::all_of(local_to_.begin(), local_to_.end(), [](int j) { return j >= 0; });
  for (const HaloFace& f : faces_) {
    FaceKernels k;
    const std::size_t count = f.send.cells();
    const std::size_t bytes = kHaloComponents * count * sizeof(float);
    k.send = dev_.alloc(bytes);
    k.recv = dev_.alloc(bytes);
    device_bytes_ += 2 * bytes;
    k.global = device::Range((count + kGroup - 1) / kGroup * kGroup);
    const std::array<int, 2> comp = face_components(f.face);
    for (int group = 0; group < 2; ++group) {
      const int c0 = group == 0 ? 3 : 0;  // Hx or Ex
      auto bind = [&](const char* name, const CellBox& box, const device::Buffer& buf) {
        device::Kernel kern = program.kernel(name);
        engine::Args a(kern);
        a << fields[static_cast<std::size_t>(c0 + comp[0])] << fields[static_cast<std::size_t>(c0 + comp[1])]
          << buf;
        for (int b = 0; b < 3; ++b) a << box.lo[b];
        for (int b = 0; b < 3; ++b) a << box.hi[b] - box.lo[b];
        a << layout.ny << static_cast<int>(layout.nzp());
        return kern;
      };
      k.pack[static_cast<std::size_t>(group)] = bind("halo_pack", f.send, k.send);
      k.unpack[static_cast<std::size_t>(group)] = bind("halo_unpack", f.recv, k.recv);
      // A magnetic wall's mirror: tangential H odd about it (halo_pack.cl).
      k.unpack[static_cast<std::size_t>(group)].set(11, f.mirror ? -1.0f : 1.0f);
      if (local_to_[kernels_.size()] >= 0) continue;  // copied within the device: no host planes
      for (device::HostMemory* h : {&k.send_host[static_cast<std::size_t>(group)],
                                    &k.recv_host[static_cast<std::size_t>(group)]}) {
        *h = dev_.host_alloc(bytes);
        std::fill_n(h->floats(), kHaloComponents * count, 0.0f);
      }
    }
    kernels_.push_back(std::move(k));
  }
  if (part.bloch_axis >= 0) bind_turns(program, part);
  if (!ghost_clears) return;
  for (const HaloFace& f : faces_) {
    GhostClear r;
    r.global = device::Range((f.recv.cells() + kGroup - 1) / kGroup * kGroup);
    r.clear = program.kernel("halo_clear6");
    engine::Args z(r.clear);
    for (std::size_t c = 0; c < 6; ++c) z << fields[c];
    for (int b = 0; b < 3; ++b) z << f.recv.lo[b];
    for (int b = 0; b < 3; ++b) z << f.recv.hi[b] - f.recv.lo[b];
    z << layout.ny << static_cast<int>(layout.nzp());
    ghosts_.push_back(std::move(r));
  }
}

// A Bloch model's received planes are (re, im) pairs: across the bloch axis the same plane of the
// two copies' faces, across another periodic axis the two halves of one face's plane (it spans
// both copies: each half is the same cells of one copy, inner floats apart). A low face's ghost
// plane takes the far end's values times exp(-i phase) (one period back), a high face's times
// exp(+i phase).
void HaloExchange::bind_turns(const device::Program& program, const Part& part) {
  const int s = part.bloch_axis;
  turn_.assign(faces_.size(), std::nullopt);
  turn_global_.assign(faces_.size(), device::Range(kGroup));
  for (std::size_t i = 0; i < faces_.size(); ++i) {
    const HaloFace& f = faces_[i];
    const int a = f.face / 2;
    const double phase = part.bloch_phase[static_cast<std::size_t>(a)];
    if (f.neighbour < 0 || f.copy != 0 || phase == 0) continue;
    const double turn = (f.face & 1) ? phase : -phase;
    const int count = static_cast<int>(f.recv.cells());
    int pairs = 0, inner = 0, stride = 0, b_offset = 0;
    const device::Buffer* b = &kernels_[i].recv;
    if (a == s) {
      for (std::size_t j = 0; j < faces_.size(); ++j)
        if (faces_[j].face == f.face && faces_[j].copy == 1) b = &kernels_[j].recv;
      pairs = inner = stride = kHaloComponents * count;
    } else {
      // The plane's floats run x, y, z (z fastest) per component: one copy's cells along s and
      // every later axis are `inner` floats, followed by the other copy's.
      inner = part.copy_n()[static_cast<std::size_t>(s)];
      for (int c = s + 1; c < 3; ++c) inner *= f.recv.hi[c] - f.recv.lo[c];
      pairs = count;
      stride = 2 * inner;
      b_offset = inner;
    }
    device::Kernel k = program.kernel("bloch_turn");
    engine::Args args(k);
    args << kernels_[i].recv << *b << pairs << inner << stride << b_offset
         << static_cast<float>(std::cos(turn)) << static_cast<float>(std::sin(turn));
    turn_[i] = std::move(k);
    turn_global_[i] = device::Range((static_cast<std::size_t>(pairs) + kGroup - 1) / kGroup * kGroup);
  }
}

void HaloExchange::begin(int group) {
  const auto g = static_cast<std::size_t>(group);
  if (peer_) {  // device to device (peer_halo.hpp): pack, copy into the neighbour's buffer
    for (std::size_t i = 0; i < faces_.size(); ++i) {
      if (!face_sends(group, faces_[i].face)) continue;
      FaceKernels& k = kernels_[i];
      dev_.launch(k.pack[g], k.global, device::Range(kGroup));
      peer_->post(group, i, k.send, k.send.bytes());
    }
    peer_->posted();
    begun_[g] = true;
    return;
  }
  for (std::size_t i = 0; i < faces_.size(); ++i) {
    // A magnetic wall's face packs its own H (group 0) for its ghost plane; the others what
    // their neighbour reads.
    if (faces_[i].mirror ? group != 0 : !face_sends(group, faces_[i].face)) continue;
    FaceKernels& k = kernels_[i];
    dev_.launch(k.pack[g], k.global, device::Range(kGroup));
    // Within the device (a periodic axis in one box, a magnetic wall): straight into the
    // receive buffer of the face that unpacks it in end().
    if (const int j = local_to_[i]; j >= 0)
      dev_.copy(kernels_[static_cast<std::size_t>(j)].recv, k.send, k.send.bytes());
    else
      dev_.read_async(k.send, k.send_host[g], k.send_host[g].bytes());
  }
  if (all_local_) {  // nothing goes through the host: end() only queues the unpacks
    for (std::size_t i = 0; i < turn_.size(); ++i)
      if (turn_[i] && face_receives(group, faces_[i].face))
        dev_.launch(*turn_[i], turn_global_[i], device::Range(kGroup));
    begun_[g] = true;
    return;
  }
  // Also with nothing read: end() writes recv_host only once the uploads from it queued by the
  // last end(group) have run, which this marker comes after.
  read_done_[g] = dev_.mark();
}

void HaloExchange::end(int group) {
  const auto g = static_cast<std::size_t>(group);
  if (peer_) {
    if (!begun_[g]) throw std::logic_error("HaloExchange::end without begin");
    begun_[g] = false;
    peer_->complete(group);
    for (std::size_t i = 0; i < faces_.size(); ++i) {
      if (!face_receives(group, faces_[i].face)) continue;
      FaceKernels& k = kernels_[i];
      dev_.launch(k.unpack[g], k.global, device::Range(kGroup));
    }
    return;
  }
  if (all_local_) {
    if (!begun_[g]) throw std::logic_error("HaloExchange::end without begin");
    begun_[g] = false;
    for (std::size_t i = 0; i < faces_.size(); ++i)
      if (face_receives(group, faces_[i].face))
        dev_.launch(kernels_[i].unpack[g], kernels_[i].global, device::Range(kGroup));
    return;
  }
  if (!read_done_[g]) throw std::logic_error("HaloExchange::end without begin");
  read_done_[g].wait();
  read_done_[g] = device::Marker();
  std::vector<RankLink::Transfer> transfers;
  for (std::size_t i = 0; i < faces_.size(); ++i) {
    if (local_to_[i] >= 0) continue;  // copied on the device by begin()
    const FaceKernels& k = kernels_[i];
    RankLink::Transfer t;
    t.peer = faces_[i].neighbour;
    t.send_tag = halo_tag(group, faces_[i].face);
    t.recv_tag = halo_tag(group, faces_[i].face ^ 1);  // the neighbour sent it through its face
    if (face_sends(group, faces_[i].face))
      t.send = k.send_host[g].floats();
    else
      t.recv = k.recv_host[g].floats();
    t.count = kHaloComponents * faces_[i].send.cells();
    transfers.push_back(t);
  }
  link_.exchange(transfers);
  // The writes read recv_host until they complete; the next end(group) writes it again only
  // after its begin's marker, which the in-order queue runs after these writes, has completed.
  for (std::size_t i = 0; i < faces_.size(); ++i) {
    if (!face_receives(group, faces_[i].face)) continue;
    FaceKernels& k = kernels_[i];
    if (local_to_[i] < 0) dev_.upload_async(k.recv, k.recv_host[g], k.recv_host[g].bytes());
    dev_.launch(k.unpack[g], k.global, device::Range(kGroup));
  }
}

HaloExchange::~HaloExchange() = default;

std::vector<std::size_t> HaloExchange::plane_bytes() const {
  std::vector<std::size_t> out;
  for (const FaceKernels& k : kernels_) out.push_back(k.send.bytes());
  return out;
}

void HaloExchange::clear_ghosts() {
  if (ghosts_.size() != faces_.size()) throw std::logic_error("HaloExchange::clear_ghosts without ghost_clears");
  for (GhostClear& r : ghosts_) dev_.launch(r.clear, r.global, device::Range(kGroup));
}

void HaloExchange::set_peer(std::unique_ptr<PeerHalo> peer) {
  peer_ = std::move(peer);
  for (std::size_t f = 0; f < kernels_.size(); ++f)
    for (int group = 0; group < 2; ++group)  // argument 2 of halo_unpack: the plane buffer
      kernels_[f].unpack[static_cast<std::size_t>(group)].set(
          2, peer_ ? peer_->recv(group, f) : kernels_[f].recv);
}

std::size_t HaloExchange::device_bytes() const {
  return device_bytes_ + (peer_ ? peer_->device_bytes() : 0);
}

}  // namespace clfdtd::parallel
