// Variant and work-group choice: see variant_choice.hpp.
#include "engine/variant_choice.hpp"

#include "device/min_groups.hpp"
#include "engine/plan.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <vector>


namespace clfdtd {

std::array<int, 3> choose_workgroup(const std::optional<std::array<int, 3>>& requested,
                                    const FieldLayout& layout, std::size_t max_group,
                                    const std::array<std::size_t, 3>& max_items) {
  return choose_workgroup(requested, kDefaultWorkgroup, {layout.nx, layout.ny, layout.nz4},
                          max_group, max_items);
}

std::array<int, 3> choose_workgroup(const std::optional<std::array<int, 3>>& requested,
                                    const std::array<int, 3>& fallback,
                                    const std::array<int, 3>& grid, std::size_t max_group,
                                    const std::array<std::size_t, 3>& max_items) {
  std::array<int, 3> wg = requested ? *requested : fallback;
  for (int a = 0; a < 3; ++a) {
    // max_items is in NDRange order (z4, y, x); wg in (x, y, z4).
    const auto limit = static_cast<long long>(std::max<std::size_t>(1, max_items[2 - a]));
    long long v = std::max(1, wg[a]);
    v = std::min<long long>(v, std::max(1, grid[a]));
    v = std::min(v, limit);
    wg[a] = static_cast<int>(v);
  }
  max_group = std::max<std::size_t>(1, max_group);
  while (static_cast<std::size_t>(wg[0]) * wg[1] * wg[2] > max_group) {
    int* largest = &*std::max_element(wg.begin(), wg.end());
    *largest = (*largest + 1) / 2;
  }
  return wg;
}

std::array<int, 3> choose_onepass_workgroup(const std::optional<std::array<int, 3>>& requested,
                                            const FieldLayout& layout, std::size_t max_group,
                                            const std::array<std::size_t, 3>& max_items) {
  std::array<int, 3> wg = requested ? *requested : kDefaultOnePassWorkgroup;
  wg[0] = std::clamp(wg[0], 1, std::max(1, layout.nx));
  const int grid[3] = {0, std::max(2, layout.ny), std::max(2, layout.nz4)};
  for (int a = 1; a < 3; ++a) {
    const int limit = static_cast<int>(std::min<std::size_t>(max_items[2 - a], 1 << 20));
    wg[a] = std::max(2, std::min({wg[a], grid[a], limit}));
  }
  while (static_cast<std::size_t>(wg[1]) * wg[2] > std::max<std::size_t>(4, max_group)) {
    int& larger = wg[1] >= wg[2] ? wg[1] : wg[2];
    larger = std::max(2, (larger + 1) / 2);
  }
  return wg;
}

std::array<int, 3> choose_tblock_workgroup(const std::optional<std::array<int, 3>>& requested,
                                           const FieldLayout& layout, std::size_t max_group,
                                           const std::array<std::size_t, 3>& max_items,
                                           std::size_t local_bytes, std::size_t bytes_per_item,
                                           int tblock_upml) {
  std::array<int, 3> wg = requested ? *requested : kDefaultTBlockWorkgroup;
  wg[0] = std::clamp(wg[0], 1, std::max(1, layout.nx));
  wg[1] = std::clamp(wg[1], 1, std::max(1, layout.ny));
  wg[2] = std::clamp(wg[2], 1, std::max(1, layout.nz4));
  auto too_big = [&] {
    const std::size_t ty = static_cast<std::size_t>(wg[1]) + tblock_y_halo(tblock_upml);
    const std::size_t tz = static_cast<std::size_t>(wg[2]) + tblock_z_halo(tblock_upml);
    return ty * tz > std::min(max_group, kTBlockMaxItems) || ty > max_items[1] || tz > max_items[0] ||
           ty * tz * bytes_per_item > local_bytes;
  };
  while (too_big() && (wg[1] > 1 || wg[2] > 1)) {
    int& larger = wg[1] >= wg[2] ? wg[1] : wg[2];
    larger = std::max(1, larger / 2);
  }
  return wg;
}

int tblock_chunk_planes(long long tiles, int length, long long resident, int shortest,
                        int longest) {
  const int shortest_planes = std::max(1, shortest);
  const int longest_planes = std::max(shortest_planes, longest);
  constexpr int kStep = 8;
  if (length <= shortest_planes) return std::max(1, length);
  if (tiles <= 0 || resident <= 0) return shortest_planes;
  // Setup time: a shape so small that the shortest chunks make more groups than this is not
  // simulated (the default shapes make ~2e5 groups at 1600^3).
  constexpr long long kMostGroups = 1 << 20;
  if (tiles * ((length + shortest_planes - 1) / shortest_planes) > kMostGroups)
    return shortest_planes;
  // List scheduling: the earliest free of `resident` slots takes the next group.
  auto makespan = [&](int planes) {
    std::priority_queue<long long, std::vector<long long>, std::greater<long long>> free_at;
    for (long long r = 0; r < std::min(resident, tiles * ((length + planes - 1) / planes)); ++r)
      free_at.push(0);
    long long end = 0;
    for (int i0 = 0; i0 < length; i0 += planes) {
      const long long cost = std::min(planes, length - i0) + kTBlockChunkOverheadPlanes;
      for (long long g = 0; g < tiles; ++g) {
        const long long t = free_at.top() + cost;
        free_at.pop();
        free_at.push(t);
        end = std::max(end, t);
      }
    }
    return end;
  };
  int best = shortest_planes;
  long long best_end = makespan(best);
  std::vector<int> candidates;
  for (int p = shortest_planes + kStep; p <= std::min(longest_planes, length); p += kStep)
    candidates.push_back(p);
  if (length <= longest_planes && length % kStep != 0) candidates.push_back(length);  // one chunk
  for (int p : candidates) {
    const long long e = makespan(p);
    if (e < best_end) best = p, best_end = e;
  }
  return best;
}

int tblock_shell_groups_request(int tblock_upml, const device::DeviceInfo& info, std::size_t items) {
  return tblock_upml == 2 && info.min_groups_hint ? tblock_shell_z_groups(items) : 0;
}

bool tblock_shell_e1_local(int tblock_upml, bool pass_e1_local, const device::DeviceInfo& info,
                           int z_width) {
  const std::size_t items = tblock_group_items(engine::kShellZWorkgroup[1], z_width, 2);
  return pass_e1_local || tblock_shell_groups_request(tblock_upml, info, items) > 0;
}

bool tblock_e1_local(TBlockStaging staging, const device::DeviceInfo& info) {
  if (staging != TBlockStaging::Auto) return staging == TBlockStaging::Local;
  return info.api == device::Api::Cuda ||
         (info.api == device::Api::OpenCL && info.platform.find("NVIDIA") != std::string::npos);
}

}  // namespace clfdtd

namespace clfdtd::engine {

std::optional<TunedChoice> tuned_for_model(bool model_has_upml, bool in_place_only,
                                           const std::optional<TunedChoice>& upml,
                                           const std::optional<TunedChoice>& no_upml) {
  auto runs = [in_place_only](const std::optional<TunedChoice>& t) {
    return t && !(in_place_only && (t->variant == KernelVariant::OnePass ||
                                    t->variant == KernelVariant::TBlock));
  };
  if (!model_has_upml && runs(no_upml)) return no_upml;
  if (runs(upml)) return upml;
  return std::nullopt;
}

VariantRequest resolve_variant(const DeviceConfig& dev, const std::string& device_type,
                               bool fits_onepass, const std::optional<TunedChoice>& tuned,
                               bool prefer_tblock) {
  VariantRequest r{dev.variant, dev.workgroup, false, dev.upml_form};
  if (r.variant == KernelVariant::Auto && !r.workgroup && tuned) {
    r = {tuned->variant, tuned->workgroup, true, dev.upml_form};
  }
  r.tblock_staging = dev.tblock_staging;
  if (r.variant == KernelVariant::Auto) {
    r.variant = device_type == "cpu"                ? KernelVariant::Rows
                : fits_onepass && !r.workgroup
                    ? (prefer_tblock ? KernelVariant::TBlock : KernelVariant::OnePass)
                                                    : KernelVariant::Tile;
    if (r.variant == KernelVariant::Tile && !r.workgroup) r.workgroup = kGpuAutoWorkgroup;
  }
  return r;
}

bool tblock_preferred(bool has_upml, double owned_share, double cells, unsigned compute_units) {
  if (cells < kTBlockCellsPerUnit * std::max(1u, compute_units)) return false;
  return !has_upml || owned_share >= kTBlockUpmlShare;
}

BuiltProgram build_variant_program(device::Device& dev, const SimulationModel& m,
                                   const VariantRequest& request) {
  const KernelVariant v = request.variant;  // resolve_variant's: never Auto
  const device::DeviceInfo& info = dev.info();
  const auto& L = m.layout;
  // The device's limits in NDRange order (dim0 = z, dim1 = y, dim2 = x).
  std::array<std::size_t, 3> max_items{1, 1, 1};
  for (std::size_t d = 0; d < 3; ++d) max_items[d] = std::max<std::size_t>(1, info.max_group_dims[d]);
  std::size_t max_group = info.max_group_size;
  // Three float4 tiles of the group's cells must fit in local memory (tile), six of its y x z4
  // tile (onepass).
  if (v == KernelVariant::Tile) max_group = std::min(max_group, info.local_mem_bytes / (3 * 16));
  if (v == KernelVariant::OnePass) max_group = std::min(max_group, info.local_mem_bytes / (6 * 16));
  const char* const names[] = {
      v == KernelVariant::TBlock    ? "update_tblock"
      : v == KernelVariant::OnePass ? "update_onepass"
      : v == KernelVariant::Rows  ? "update_h_rows"
                                  : "update_h",
      v == KernelVariant::OnePass || v == KernelVariant::TBlock ? nullptr
      : v == KernelVariant::Rows  ? "update_e_rows"
                                  : "update_e"};

  BuiltProgram out;
  // tblock's pass: its box (compiled in) and the groups per compute unit it asks for and gets.
  const bool tblock_pass = v == KernelVariant::TBlock && request.tblock_upml == 0;
  const TBlockBox box = tblock_pass ? tblock_owned_box(m) : TBlockBox{};
  int groups_per_unit = 1;
  const bool e1_local = v == KernelVariant::TBlock && tblock_e1_local(request.tblock_staging, info);
  out.tblock_e1_local = e1_local;
  // A kernel may allow less than the device (registers); then shrink the group and rebuild.
  for (int attempt = 0;; ++attempt) {
    std::array<int, 3> tile{1, 1, 1};
    std::size_t items = 0;
    if (v == KernelVariant::TBlock) {
      out.workgroup =
          choose_tblock_workgroup(request.workgroup ? request.workgroup
                                  : info.min_groups_hint ? kDefaultTBlockWorkgroupTwoGroups
                                                         : kDefaultTBlockWorkgroup,
                                  L, max_group, max_items, info.local_mem_bytes,
                                  tblock_local_bytes_per_item(e1_local), request.tblock_upml);
      // The group with its halo: 2 rows before, 1 after (the shell's programs: 2), a float4 each
      // way (the z boxes' program: on the interior side only; tblock.cl).
      tile = {1, out.workgroup[1] + tblock_y_halo(request.tblock_upml),
              out.workgroup[2] + tblock_z_halo(request.tblock_upml)};
      items = tblock_group_items(out.workgroup[1], out.workgroup[2], request.tblock_upml);
    } else if (v == KernelVariant::OnePass) {
      out.workgroup = choose_onepass_workgroup(request.workgroup, L, max_group, max_items);
      tile = {1, out.workgroup[1], out.workgroup[2]};  // its tile is (y, z4); x counts planes
      items = static_cast<std::size_t>(tile[1]) * tile[2];
    } else if (v == KernelVariant::Rows) {
      // NDRange (j, i): the z extent of a group is 1.
      out.workgroup = choose_workgroup(request.workgroup, kDefaultRowsWorkgroup, {L.nx, L.ny, 1},
                                       max_group, {1, max_items[0], max_items[1]});
      items = static_cast<std::size_t>(out.workgroup[0]) * out.workgroup[1];
    } else {
      out.workgroup = choose_workgroup(request.workgroup, L, max_group, max_items);
      tile = out.workgroup;
      items = static_cast<std::size_t>(tile[0]) * tile[1] * tile[2];
    }
    device::Defines defines{{"TILE_X", tile[0]},
                            {"TILE_Y", tile[1]},
                            {"TILE_Z4", tile[2]},
                            {"MAGNETIC", m.magnetic ? 1 : 0},
                            {"UPML_AUX", static_cast<int>(request.upml_form)},
                            {"TBLOCK_UPML", request.tblock_upml},
                            {"TB_E1_LOCAL", e1_local ? 1 : 0},
                            {"TB_Y_AFTER", tblock_y_after(request.tblock_upml)}};
    if (tblock_pass) {
      // The pass's box is compiled in (tblock.cl); an empty box builds a program never launched.
      defines.insert({{"TB_BOX_I0", box.i0}, {"TB_BOX_I1", box.i1}, {"TB_BOX_J0", box.j0},
                      {"TB_BOX_J1", box.j1}, {"TB_BOX_Q0", box.q0}, {"TB_BOX_Q1", box.q1}});
      // Two groups per compute unit where a group has at most 256 work-items: the compiler then
      // keeps the pass to 128 registers (158 otherwise, and a group of 256 runs alone on its SM).
      // H200, N = 512, 32x12x14 (256 items): CUDA pec_cube 82.3 -> 91.2 Gcells/s; OpenCL
      // pec_cube 61.0 -> 88.0, vacuum_upml 52.4 -> 66.9. Three groups spill (34.6 and 12.2 on
      // CUDA); 32x8x14 (192) gains nothing. The shell programs' requests are below.
      const bool two = items <= kTBlockTwoGroupItems;
      if (two) defines[std::string(device::kMinGroupsPrefix) + names[0]] = 2;
      groups_per_unit = two && info.min_groups_hint ? 2 : 1;
    }
    // The z boxes' shell program: more groups per compute unit where they fit (its E1 then
    // staged in local memory: tblock_shell_e1_local).
    if (const int g = tblock_shell_groups_request(request.tblock_upml, info, items); g > 0)
      defines[std::string(device::kMinGroupsPrefix) + names[0]] = g;
    out.program = dev.program(defines);
    std::size_t fit = out.program.kernel(names[0]).max_group_size();
    if (names[1]) fit = std::min(fit, out.program.kernel(names[1]).max_group_size());
    if (items <= fit || attempt == 4) break;
    max_group = fit;
  }
  // An empty box has no pass (tblock steps as onepass: gpu_engine.cpp) and keeps its planes.
  if (tblock_pass && !box.empty() && (!request.workgroup || (*request.workgroup)[0] == 0)) {
    // The pass's planes from its groups and the device's (the program does not depend on them).
    const auto& wg = out.workgroup;
    const long long tiles = static_cast<long long>((box.j1 - box.j0 + wg[1] - 1) / wg[1]) *
                            ((box.q1 - box.q0 + wg[2] - 1) / wg[2]);
    out.workgroup[0] = tblock_chunk_planes(
        tiles, box.i1 - box.i0, static_cast<long long>(info.compute_units) * groups_per_unit);
  }
  return out;
}

}  // namespace clfdtd::engine
