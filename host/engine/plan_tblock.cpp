// The tblock variant's two steps (cl_kernels/tblock.cl: the pass, and with UPML the shell pass
// beside it): s -> s + 2, from the current fields into the next ones, sources included (plan.hpp
// TBlockPass). Single steps (a sampler between the two steps) run the onepass plan over the same
// two field sets.
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <vector>

#include "backends/device_tables.hpp"
#include "engine/field_buffers.hpp"
#include "engine/plan.hpp"
#include "engine/variant_choice.hpp"

namespace clfdtd::engine {

TBlockSourceRows tblock_source_rows(const std::vector<std::int32_t>& cells, int nx, int ny,
                                    int nz4) {
  TBlockSourceRows out;
  const std::size_t rows = static_cast<std::size_t>(nx) * ny;
  out.start.assign(rows + 1, 0);
  const std::size_t n = cells.size() / 2;
  std::vector<std::size_t> row_of(n);
  for (std::size_t q = 0; q < n; ++q) {
    // cell_entry: {component + 8 * (index % 4), index / 4}; float4 lane / nz4 = i * ny + j.
    row_of[q] = static_cast<std::size_t>(static_cast<std::uint32_t>(cells[2 * q + 1])) / nz4;
    ++out.start[row_of[q] + 1];
    const int i = static_cast<int>(row_of[q] / static_cast<std::size_t>(ny));
    out.i0 = q == 0 ? i : std::min(out.i0, i);
    out.i1 = q == 0 ? i : std::max(out.i1, i);
  }
  for (std::size_t r = 0; r < rows; ++r) out.start[r + 1] += out.start[r];
  out.order.assign(std::max<std::size_t>(n, 1), 0);
  std::vector<std::int32_t> next(out.start.begin(), out.start.end() - 1);
  for (std::size_t q = 0; q < n; ++q) out.order[next[row_of[q]]++] = static_cast<std::int32_t>(q);
  return out;
}

TBlockBox tblock_owned_box(const SimulationModel& m) {
  const auto& L = m.layout;
  TBlockBox b{0, L.nx, 0, L.ny, 0, L.nz4};
  if (!m.upml.enabled()) return b;
  // Two cells: a pass's four sub-steps carry a wrong value two cells each way (tblock.cl).
  constexpr int kMargin = 2;
  const auto& lay = m.upml.layers;
  const ZSlabLayout z = zslab_layout(m, KernelVariant::OnePass);
  if (lay[0] > 0) b.i0 = lay[0] + kMargin;
  if (lay[1] > 0) b.i1 = L.nx - lay[1] - kMargin;
  if (lay[2] > 0) b.j0 = lay[2] + kMargin;
  if (lay[3] > 0) b.j1 = L.ny - lay[3] - kMargin;
  // Along z whole float4s, none of them a z-slab float4 (upml_zslab.cl updates those).
  if (lay[4] > 0) b.q0 = std::max(z.zq_lo, (lay[4] + kMargin + 3) / 4);
  if (lay[5] > 0) b.q1 = std::min(z.zq_hi, (L.nz - lay[5] - kMargin) / 4);
  return b;
}

double tblock_owned_share(const SimulationModel& m) {
  const auto& L = m.layout;
  const TBlockBox b = tblock_owned_box(m);
  if (b.empty()) return 0;
  const double cells = static_cast<double>(L.nx) * L.ny * L.nz;
  const double z = std::min(L.nz, 4 * b.q1) - 4.0 * b.q0;
  return static_cast<double>(b.i1 - b.i0) * (b.j1 - b.j0) * z / cells;
}

bool steps_singly(const SimulationModel& m) {
  return !m.plane_waves.empty() || !m.dispersion.empty();
}

const char* steps_singly_why(const SimulationModel& m) {
  if (m.plane_waves.empty()) return "dispersive materials";
  return m.plane_waves.front().guided_port ? "waveguide ports" : "plane waves";
}

bool tblock_preferred_for(const SimulationModel& m, unsigned compute_units) {
  if (steps_singly(m)) return false;  // it would step as onepass (gpu_engine.cpp)
  const auto& L = m.layout;
  return tblock_preferred(m.upml.enabled(), tblock_owned_share(m),
                          static_cast<double>(L.nx) * L.ny * L.nz, compute_units);
}

int tblock_z_box_float4s(const SimulationModel& m) {
  const TBlockBox b = tblock_owned_box(m);
  if (!m.upml.enabled() || b.empty()) return 0;
  return std::max(b.q0, m.layout.nz4 - b.q1);
}

namespace {

// The grid outside `b` as at most six disjoint boxes: the planes before and after it, the rows
// before and after it in its planes, the float4s before and after it in its rows.
std::vector<TBlockBox> outside(const TBlockBox& b, const FieldLayout& L) {
  const std::vector<TBlockBox> all{{0, b.i0, 0, L.ny, 0, L.nz4},     {b.i1, L.nx, 0, L.ny, 0, L.nz4},
                                   {b.i0, b.i1, 0, b.j0, 0, L.nz4},  {b.i0, b.i1, b.j1, L.ny, 0, L.nz4},
                                   {b.i0, b.i1, b.j0, b.j1, 0, b.q0}, {b.i0, b.i1, b.j0, b.j1, b.q1, L.nz4}};
  std::vector<TBlockBox> out;
  for (const TBlockBox& x : all)
    if (!x.empty()) out.push_back(x);
  return out;
}

// A box's tiles along z for work-group `wg` (planes, owned rows, owned float4s) of `program` (0
// the pass, 1 and 2 the shell's): the z boxes' program holds a box of at most wg[2] float4s in one
// tile with one halo float4 (tile wg[2] + 1), a wider one in tiles with two (tblock.cl).
int z_tiles(const TBlockBox& x, const std::array<int, 3>& wg, int program) {
  const int qw = x.q1 - x.q0, own_z = program == 2 && qw > wg[2] ? wg[2] - 1 : wg[2];
  if (own_z < 1) throw std::logic_error("plan_tblock: a z tile that owns no float4");
  return (qw + own_z - 1) / own_z;
}
int y_tiles(const TBlockBox& x, const std::array<int, 3>& wg) {
  return (x.j1 - x.j0 + wg[1] - 1) / wg[1];
}

}  // namespace

std::size_t tblock_shell_aux_bytes(const SimulationModel& m) {
  return slab_aux_bytes(m, KernelVariant::OnePass);
}

std::optional<TBlockPass> plan_tblock(const PlanInputs& in, const PlanInputs* shell_xy,
                                      const PlanInputs* shell_z) {
  const SimulationModel& m = in.m;
  const YeeFields& f = in.f;
  const auto& L = m.layout;
  TBlockPass out;
  const TBlockBox b = tblock_owned_box(m);
  if (b.empty()) return std::nullopt;
  if (m.upml.enabled() && (!shell_xy || !shell_z))
    throw std::logic_error("plan_tblock: a UPML model needs the shell's programs");
  BufferAllocator alloc(in.dev);
  const MergedSources src = merge_sources(m);
  const TBlockSourceRows rows = tblock_source_rows(src.cells, L.nx, L.ny, L.nz4);
  out.src_rows = alloc.upload(rows.start);
  out.src_order = alloc.upload(rows.order);
  // The shell's second set of auxiliaries (plan.hpp): set 0 is f.aux / f.zaux.
  const ZSlabLayout z = zslab_layout(m, KernelVariant::OnePass);
  const bool has_z = m.upml.enabled() && z.float4s() > 0;
  std::array<std::array<device::Buffer, 8>, 2> aux;  // Bx By Bz zBz Dx Dy Dz zDz per set
  if (m.upml.enabled()) {
    for (int c = 0; c < 6; ++c) {
      out.aux_next[c] = alloc.zeros(upml_aux_floats(m, KernelVariant::OnePass) * sizeof(float));
      out.copies.push_back({f.aux[c], out.aux_next[c], out.aux_next[c].bytes()});
    }
    for (int c = 0; c < 2 && has_z; ++c) {
      out.zaux_next[c] = alloc.zeros(z.float4s() * 4 * sizeof(float));
      out.copies.push_back({f.zaux[c], out.zaux_next[c], out.zaux_next[c].bytes()});
    }
    for (int set = 0; set < 2; ++set) {
      const auto& a = set ? out.aux_next : f.aux;
      const auto& za = set ? out.zaux_next : f.zaux;
      aux[set] = {a[3], a[4], a[5], has_z ? za[0] : f.placeholder,
                  a[0], a[1], a[2], has_z ? za[1] : f.placeholder};
    }
  }
  // One launch of update_tblock (program of `p`) storing `boxes`, `planes` planes per chunk: the
  // pass (`p` is `in`) one box, compiled into its program (variant_choice.cpp), the shell's
  // programs a table of them, reading the auxiliaries of set `from` and storing into the other.
  auto launch_over = [&](const PlanInputs& p, const std::vector<TBlockBox>& boxes, int planes,
                         int from, int program) {
    const auto& wg = p.workgroup;  // planes (the pass's chunks), owned rows, owned float4s
    // The box table (tblock.cl): planes, rows, float4s stored; groups along z and y; first group.
    std::vector<std::int32_t> table;
    int groups = 0;
    for (const TBlockBox& x : boxes) {
      if (program == 2 && x.q0 != 0 && x.q1 != L.nz4)  // the one-sided tile's premise
        throw std::logic_error("plan_tblock: a z box that reaches neither z end");
      const int gz = z_tiles(x, wg, program), gy = y_tiles(x, wg);
      const int gx = (x.i1 - x.i0 + planes - 1) / planes;
      table.insert(table.end(), {x.i0, x.i1, x.j0, x.j1, x.q0, x.q1, gz, gy, groups});
      groups += gx * gy * gz;
    }
    const bool is_shell = &p != &in;
    const device::Buffer table_buf = is_shell ? alloc.upload(table) : f.placeholder;
    const device::Buffer& ph = f.placeholder;
    auto pick = [&](const device::Buffer& buf) -> const device::Buffer& { return is_shell ? buf : ph; };
    const BoundKernel k = bind_kernel(p, "update_tblock", [&](Args& a, const FieldSet& F, const FieldSet& O) {
      for (const auto& c : F) a << c;
      for (const auto& c : O) a << c;
      one_pass_material_args(a, f);
      const auto& d = m.grid.d;
      a << static_cast<float>(1 / d[0]) << static_cast<float>(1 / d[1])
        << static_cast<float>(1 / d[2]) << L.nx << L.ny << L.nz4 << planes;
      a << table_buf << static_cast<int>(boxes.size());
      // UPML: Bx By Bz, Bz of the z slabs, Dx Dy Dz, Dz of the z slabs; at s, then at s + 2.
      for (const auto& b : aux[from]) a << pick(b);
      for (const auto& b : aux[1 - from]) a << pick(b);
      for (int c : {0, 1, 3, 4}) a << pick(f.profiles[c]);
      a << pick(f.zlanes);
      const auto& lay = m.upml.layers;
      a << static_cast<float>(m.grid.dt / kMu0) << static_cast<float>(m.grid.dt / kEps0) << L.nz;
      for (int c = 0; c < 6; ++c) a << (m.upml.enabled() ? lay[c] : 0);
      a << z.zq_lo << z.zq_hi << z.znq;
      a << f.src_cells << f.src_j << out.src_rows << out.src_order << rows.i0 << rows.i1
        << f.nsrc << static_cast<int>(f.src_steps);
      a.value();
    });
    // A group is z4 x y work-items: an owned tile plus its halo. The pass: dim0 = z4, dim1 = y,
    // dim2 = chunks of planes; the shell: every group along dim0, numbered by the table.
    Stage st;
    const std::size_t ty = static_cast<std::size_t>(wg[1]) + tblock_y_halo(program);
    const std::size_t tz = static_cast<std::size_t>(wg[2]) + tblock_z_halo(program);
    st.phase = Phase::HE;
    st.kernel = k.kernel;
    st.value_arg = k.value_arg;
    st.local = device::Range(tz, ty, 1);
    const std::size_t t = static_cast<std::size_t>(table[6]), r = static_cast<std::size_t>(table[7]);
    st.global = is_shell ? device::Range(static_cast<std::size_t>(groups) * tz, ty, 1)
                     : device::Range(t * tz, r * ty, static_cast<std::size_t>(groups) / (t * r));
    return st;
  };
  out.pass = launch_over(in, {b}, in.workgroup[0], 0, 0);
  if (m.upml.enabled()) {
    // The x and y slabs' boxes in one launch, the z slabs' in another (plan.hpp); from either set.
    std::vector<TBlockBox> xy, zs;
    for (const TBlockBox& x : outside(b, L)) (x.q0 == 0 && x.q1 == L.nz4 ? xy : zs).push_back(x);
    const int planes = std::min(kShellPlanes, in.workgroup[0]);
    // The z boxes' chunks: the length whose groups finish first (variant_choice.hpp
    // tblock_chunk_planes, from kShellPlanes to kShellZLongestPlanes, at most the pass's),
    // counting as many groups per compute unit as the program asks for. Their boxes span the
    // owned box's planes.
    int z_planes = planes;
    if (!zs.empty()) {
      const auto& wz = shell_z->workgroup;
      long long tiles = 0;
      for (const TBlockBox& x : zs) tiles += static_cast<long long>(z_tiles(x, wz, 2)) * y_tiles(x, wz);
      const device::DeviceInfo& info = in.dev.info();
      const int asked = tblock_shell_groups_request(2, info, tblock_group_items(wz[1], wz[2], 2));
      const long long resident = static_cast<long long>(info.compute_units) * std::max(1, asked);
      z_planes = std::min(in.workgroup[0], tblock_chunk_planes(tiles, b.i1 - b.i0, resident,
                                                               kShellPlanes, kShellZLongestPlanes));
    }
    for (int from = 0; from < 2; ++from) {
      if (!xy.empty()) out.shell[from].push_back(launch_over(*shell_xy, xy, planes, from, 1));
      if (!zs.empty()) out.shell[from].push_back(launch_over(*shell_z, zs, z_planes, from, 2));
    }
    out.shell_z_last = !zs.empty();
  }
  return out;
}

}  // namespace clfdtd::engine
