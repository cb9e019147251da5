// The tblock variant's pass (cl_kernels/tblock.cl): two steps, s -> s + 2, from the current
// fields into the next ones, sources included, on models without UPML. Single steps (a model with
// UPML, a sampler between the two steps) run the onepass plan over the same two field sets.
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
  }
  for (std::size_t r = 0; r < rows; ++r) out.start[r + 1] += out.start[r];
  out.order.assign(std::max<std::size_t>(n, 1), 0);
  std::vector<std::int32_t> next(out.start.begin(), out.start.end() - 1);
  for (std::size_t q = 0; q < n; ++q) out.order[next[row_of[q]]++] = static_cast<std::int32_t>(q);
  return out;
}

TBlockPass plan_tblock(const PlanInputs& in) {
  const SimulationModel& m = in.m;
  const YeeFields& f = in.f;
  const auto& L = m.layout;
  const auto& wg = in.workgroup;  // planes, owned rows, owned float4s
  TBlockPass out;
  BufferAllocator alloc(in.dev);
  const MergedSources src = merge_sources(m);
  const TBlockSourceRows rows = tblock_source_rows(src.cells, L.nx, L.ny, L.nz4);
  out.src_rows = alloc.upload(rows.start);
  out.src_order = alloc.upload(rows.order);
  const BoundKernel k = bind_kernel(in, "update_tblock", [&](Args& a, const FieldSet& F, const FieldSet& O) {
    for (const auto& c : F) a << c;
    for (const auto& c : O) a << c;
    a << f.ids[0] << f.ids[1] << f.ids[2] << f.ecoef;
    h_material_args(a, f);
    const auto& d = m.grid.d;
    a << static_cast<float>(1 / d[0]) << static_cast<float>(1 / d[1])
      << static_cast<float>(1 / d[2]) << L.nx << L.ny << L.nz4 << wg[0];
    a << f.src_cells << f.src_j << out.src_rows << out.src_order << f.nsrc
      << static_cast<int>(f.src_steps);
    a.value();
  });
  // dim0 = z4, dim1 = y: one group per owned tile plus its halo; dim2 = chunks of planes.
  const std::size_t ty = static_cast<std::size_t>(wg[1]) + 4, tz = static_cast<std::size_t>(wg[2]) + 2;
  out.pass.phase = Phase::HE;
  out.pass.kernel = k.kernel;
  out.pass.value_arg = k.value_arg;
  out.pass.local = device::Range(tz, ty, 1);
  out.pass.global = device::Range((L.nz4 + wg[2] - 1) / wg[2] * tz, (L.ny + wg[1] - 1) / wg[1] * ty,
                                  static_cast<std::size_t>((L.nx + wg[0] - 1) / wg[0]));
  return out;
}

}  // namespace clfdtd::engine
