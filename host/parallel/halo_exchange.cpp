// Host-staged halo exchange (halo_exchange.hpp).
#include "parallel/halo_exchange.hpp"

#include <algorithm>
#include <stdexcept>

#include "engine/stage.hpp"
#include "model/field_layout.hpp"

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

engine::RowSplit overlap_split(const Part& part) {
  const std::array<int, 3> n = part.local_n();
  std::array<int, 2> a{}, b{}, lo_end{}, hi_start{};
  for (int ax = 0; ax < 2; ++ax) {
    const auto x = static_cast<std::size_t>(ax);
    a[x] = part.ghost_lo[x];
    b[x] = n[x] - part.ghost_hi[x];
    lo_end[x] = std::min(a[x] + (part.neighbour[2 * x] >= 0 ? 1 : 0), b[x]);
    hi_start[x] = std::max(b[x] - (part.neighbour[2 * x + 1] >= 0 ? 1 : 0), lo_end[x]);
  }
  engine::RowSplit out;
  auto add = [](std::vector<engine::RowBox>& to, engine::RowBox box) {
    if (!box.empty()) to.push_back(box);
  };
  if (part.neighbour[4] >= 0 || part.neighbour[5] >= 0) {
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
      for (device::HostMemory* h : {&k.send_host[static_cast<std::size_t>(group)],
                                    &k.recv_host[static_cast<std::size_t>(group)]}) {
        *h = dev_.host_alloc(bytes);
        std::fill_n(h->floats(), 3 * count, 0.0f);
      }
    }
    kernels_.push_back(std::move(k));
  }
}

void HaloExchange::begin(int group) {
  const auto g = static_cast<std::size_t>(group);
  for (std::size_t i = 0; i < faces_.size(); ++i) {
    FaceKernels& k = kernels_[i];
    dev_.launch(k.pack[g], k.global, device::Range(kGroup));
    dev_.read_async(k.send, k.send_host[g], k.send_host[g].bytes());
  }
  read_done_[g] = dev_.mark();
}

void HaloExchange::end(int group) {
  const auto g = static_cast<std::size_t>(group);
  if (!read_done_[g]) throw std::logic_error("HaloExchange::end without begin");
  read_done_[g].wait();
  read_done_[g] = device::Marker();
  std::vector<RankLink::Transfer> transfers;
  for (std::size_t i = 0; i < faces_.size(); ++i) {
    const FaceKernels& k = kernels_[i];
    RankLink::Transfer t;
    t.peer = faces_[i].neighbour;
    t.send_tag = halo_tag(group, faces_[i].face);
    t.recv_tag = halo_tag(group, faces_[i].face ^ 1);  // the neighbour sent it through its face
    t.send = k.send_host[g].floats();
    t.recv = k.recv_host[g].floats();
    t.count = 3 * faces_[i].send.cells();
    transfers.push_back(t);
  }
  link_.exchange(transfers);
  // The writes read recv_host until they complete; the next end(group) writes it again only
  // after its begin's reads, which the in-order queue runs after these writes, have completed.
  for (std::size_t i = 0; i < faces_.size(); ++i) {
    FaceKernels& k = kernels_[i];
    dev_.upload_async(k.recv, k.recv_host[g], k.recv_host[g].bytes());
    dev_.launch(k.unpack[g], k.global, device::Range(kGroup));
  }
}

}  // namespace clfdtd::parallel
