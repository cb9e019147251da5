// cl_kernels/halo_pack.cl against host index math on every OpenCL (and CUDA) device present
// (PoCL in CI): halo_pack copies a box of two padded fields into buf[((c*ni + i)*nj + j)*nk + k],
// halo_unpack writes it back and touches nothing else. And halo_faces: the send and receive boxes
// of two neighbours match cell for cell, and the receive boxes partition the ghost cells; which
// planes travel through which face (face_sends, face_components).
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "device/device.hpp"
#include "device/test_apis.hpp"
#include "engine/stage.hpp"
#include "model/field_layout.hpp"
#include "parallel/halo_exchange.hpp"

using namespace clfdtd;
using namespace clfdtd::parallel;

namespace {

float pattern(int c, std::size_t at) { return static_cast<float>(c * 100000 + static_cast<int>(at)) + 0.25f; }

void check_pack_unpack(device::Device& dev) {
  const FieldLayout L(7, 5, 9);  // nzp 12: the box reaches into the last float4
  device::Program program = dev.program({{"TILE_X", 1}, {"TILE_Y", 1}, {"TILE_Z4", 1}, {"MAGNETIC", 0}});
  // Three fields, of which the kernels get the first two (a face's tangential pair): the third
  // must stay untouched.
  std::array<device::Buffer, 3> f;
  for (int c = 0; c < 3; ++c) {
    std::vector<float> host(L.cells());
    for (std::size_t at = 0; at < host.size(); ++at) host[at] = pattern(c, at);
    f[static_cast<std::size_t>(c)] = dev.alloc(host.size() * sizeof(float));
    dev.upload(f[static_cast<std::size_t>(c)], host.data(), host.size() * sizeof(float));
  }
  const std::array<int, 3> lo{2, 1, 3}, size{4, 3, 6};
  const int count = size[0] * size[1] * size[2];
  device::Buffer buf = dev.alloc(2 * static_cast<std::size_t>(count) * sizeof(float));
  auto bind = [&](const char* name) {
    device::Kernel k = program.kernel(name);
    engine::Args a(k);
    a << f[0] << f[1] << buf << lo[0] << lo[1] << lo[2] << size[0] << size[1] << size[2]
      << L.ny << static_cast<int>(L.nzp());
    if (std::string(name) == "halo_unpack") a << 1.0f;  // scale
    return k;
  };
  dev.launch(bind("halo_pack"), device::Range(128), device::Range(64));
  std::vector<float> packed(2 * static_cast<std::size_t>(count));
  dev.read(buf, packed.data(), packed.size() * sizeof(float));
  int bad = 0;
  for (int c = 0; c < 2; ++c)
    for (int i = 0; i < size[0]; ++i)
      for (int j = 0; j < size[1]; ++j)
        for (int k = 0; k < size[2]; ++k) {
          const std::size_t n = ((static_cast<std::size_t>(c) * size[0] + i) * size[1] + j) * size[2] + k;
          bad += packed[n] != pattern(c, L.index(lo[0] + i, lo[1] + j, lo[2] + k));
        }
  CHECK(bad == 0);

  // Unpack new values: the box gets them, every other cell keeps its pattern.
  for (float& v : packed) v = -v;
  dev.upload(buf, packed.data(), packed.size() * sizeof(float));
  dev.launch(bind("halo_unpack"), device::Range(128), device::Range(64));
  bad = 0;
  for (int c = 0; c < 3; ++c) {
    std::vector<float> host(L.cells());
    dev.read(f[static_cast<std::size_t>(c)], host.data(), host.size() * sizeof(float));
    for (int i = 0; i < L.nx; ++i)
      for (int j = 0; j < L.ny; ++j)
        for (int k = 0; k < static_cast<int>(L.nzp()); ++k) {
          const std::size_t at = L.index(i, j, k);
          const bool in = i >= lo[0] && i < lo[0] + size[0] && j >= lo[1] && j < lo[1] + size[1] &&
                          k >= lo[2] && k < lo[2] + size[2];
          bad += host[at] != (in && c < 2 ? -pattern(c, at) : pattern(c, at));
        }
  }
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("halo_pack / halo_unpack: a box of two fields to and from a contiguous buffer") {
  bool any = false;
  for (device::Api api : {device::Api::OpenCL, device::Api::Cuda}) {
    if (!test::has_device(api)) continue;
    const auto devices = device::list_devices(api);
    any = true;
    INFO("api " << device::api_name(api) << ", device " << devices[0].name);
    auto dev = device::open_device(api, devices[0].index);
    check_pack_unpack(*dev);
  }
  if (!any) MESSAGE("no device: halo_pack cases skipped");
}

TEST_CASE("halo_faces: neighbours' boxes match and the ghost boxes cover every ghost cell once") {
  const std::array<int, 3> n{20, 18, 22};
  for (const auto& [ranks, parts] : std::vector<std::pair<int, std::array<int, 3>>>{
           {2, {2, 1, 1}}, {3, {3, 1, 1}}, {4, {2, 2, 1}}, {8, {2, 2, 2}}, {12, {3, 2, 2}}}) {
    INFO("split " << parts[0] << " " << parts[1] << " " << parts[2]);
    const Decomposition d = decompose(n, ranks, parts);
    std::vector<Part> p;
    for (int r = 0; r < ranks; ++r) p.push_back(make_part(d, r));
    for (int r = 0; r < ranks; ++r) {
      INFO("rank " << r);
      const std::array<int, 3> ln = p[static_cast<std::size_t>(r)].local_n();
      std::vector<int> cover(static_cast<std::size_t>(ln[0]) * ln[1] * ln[2], 0);
      for (const HaloFace& f : halo_faces(p[static_cast<std::size_t>(r)])) {
        const Part& me = p[static_cast<std::size_t>(r)];
        const Part& nb = p[static_cast<std::size_t>(f.neighbour)];
        CHECK(nb.neighbour[static_cast<std::size_t>(f.face ^ 1)] == r);
        // My send box is the neighbour's receive box, in global cells, and the other way round.
        const auto faces = halo_faces(nb);
        const auto it = std::find_if(faces.begin(), faces.end(),
                                     [&](const HaloFace& x) { return x.face == (f.face ^ 1); });
        REQUIRE(it != faces.end());
        for (int a = 0; a < 3; ++a) {
          CHECK(f.send.lo[a] + me.origin[a] == it->recv.lo[a] + nb.origin[a]);
          CHECK(f.send.hi[a] + me.origin[a] == it->recv.hi[a] + nb.origin[a]);
          CHECK(f.recv.lo[a] + me.origin[a] == it->send.lo[a] + nb.origin[a]);
          CHECK(f.recv.hi[a] + me.origin[a] == it->send.hi[a] + nb.origin[a]);
        }
        // The sent cells are owned by me.
        for (int a = 0; a < 3; ++a) {
          CHECK(f.send.lo[a] + me.origin[a] >= me.owned.lo[a] - (a != f.face / 2 ? 1 : 0));
          CHECK(f.send.hi[a] + me.origin[a] <= me.owned.hi[a] + (a != f.face / 2 ? 1 : 0));
        }
        for (int i = f.recv.lo[0]; i < f.recv.hi[0]; ++i)
          for (int j = f.recv.lo[1]; j < f.recv.hi[1]; ++j)
            for (int k = f.recv.lo[2]; k < f.recv.hi[2]; ++k)
              ++cover[(static_cast<std::size_t>(i) * ln[1] + j) * ln[2] + k];
      }
      const Part& me = p[static_cast<std::size_t>(r)];
      int bad = 0;
      for (int i = 0; i < ln[0]; ++i)
        for (int j = 0; j < ln[1]; ++j)
          for (int k = 0; k < ln[2]; ++k) {
            const bool owned = me.owned.contains(me.origin[0] + i, me.origin[1] + j, me.origin[2] + k);
            bad += cover[(static_cast<std::size_t>(i) * ln[1] + j) * ln[2] + k] != (owned ? 0 : 1);
          }
      CHECK(bad == 0);
    }
  }
}

TEST_CASE("halo planes: H toward +axis, E toward -axis, the two components tangential to the face") {
  for (int face = 0; face < 6; ++face) {
    INFO("face " << face);
    const int axis = face / 2;
    // One way per group across a pair of faces: what face F sends, the neighbour's F ^ 1 receives.
    for (int group = 0; group < 2; ++group) {
      CHECK(face_sends(group, face) != face_receives(group, face));
      CHECK(face_sends(group, face) == face_receives(group, face ^ 1));
    }
    CHECK(face_sends(0, face) == (face % 2 == 1));  // H out through the high face
    CHECK(face_sends(1, face) == (face % 2 == 0));  // E out through the low face
    const std::array<int, 2> c = face_components(face);
    CHECK(c[0] != axis);
    CHECK(c[1] != axis);
    CHECK(c[0] != c[1]);
  }
}
