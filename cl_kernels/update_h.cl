// Patent step 4.2: the magnetic-field kernel, plain (non-PML) cells, four z cells per work-item.
//
// Continuous:  mu dH/dt = -curl E.
// Discrete (docs/EQUATIONS.md), H from (s-1/2) dt to (s+1/2) dt with E at s dt:
//   Hx -= db * ((Ez[i,j+1,k] - Ez)/dy - (Ey[i,j,k+1] - Ey)/dz)
//   Hy -= db * ((Ex[i,j,k+1] - Ex)/dz - (Ez[i+1,j,k] - Ez)/dx)
//   Hz -= db * ((Ey[i+1,j,k] - Ey)/dx - (Ex[i,j+1,k] - Ex)/dy)
// db = dt / (mu0 mu_r): per material id when MAGNETIC, else one vacuum value. Positions (cells):
// Ex (i+1/2,j,k), Ey (i,j+1/2,k), Ez (i,j,k+1/2); Hx (i,j+1/2,k+1/2), Hy (i+1/2,j,k+1/2),
// Hz (i+1/2,j+1/2,k): forward differences of E land exactly on H's sample.
//
// Work-item (dim0, dim1, dim2) = (kq, j, i) owns the float4 of cells k = 4kq .. 4kq+3. The group
// stages its Ex, Ey, Ez float4s in local tiles (the patent's "copy E to local memory"), then:
//   +x, +y neighbours: from the tile inside the group, from global memory across the tile's high
//     edge, zero past the domain's last index (the PEC wall: what lies outside is zero);
//   +z neighbour: shift_up(E, next) = (E.y, E.z, E.w, next.x), next = the following float4 from the
//     tile / global memory / zero past the last float4 (the padding lanes k >= nz are zero anyway).
// The range starts at row (pml_xlo, pml_ylo) and covers the x/y interior rounded up to whole
// groups: the x/y-slab rows are upml_xy4.cl's, and launching no group over them saves loading
// tiles nobody updates. Work-items of the last groups that land in the high slabs still load
// their (real) data into the tile for their neighbours, then store nothing; work-items past the
// grid load zeros, take part in the barrier, then store nothing; z-slab float4s load only what
// a plain neighbour reads (the first float4 of the high slab: Ex, Ey), zeros otherwise. PML cells are left to other
// kernels and return early: float4s in the x/y slabs to upml_xy4.cl, the float4s holding z-slab
// cells (kq < zq_lo or kq >= zq_hi, any of their lanes) to upml_zslab.cl, which also updates
// their plain lanes. Keeping the UPML code out of this kernel keeps its registers (and so its
// occupancy) those of the plain update: with the z-slab lanes inside, it needed 64 registers
// (96 in update_e) and lost 15% on every grid (docs/BENCHMARKS.md).
//
// H is read from hx, hy, hz and written to hx_out, hy_out, hz_out: the same buffers (in place:
// the tile variant binds one field set to both; no RESTRICT on these, as they alias).
//
// Bytes per cell (roofline): read E 12 + read H 12 + write H 12 = 36 B (+3 B of H ids when
// MAGNETIC), plus the tile-edge halo reads (1/TILE_X + 1/TILE_Y + 1/(4 TILE_Z4) of a float4 each),
// which mostly hit the cache.
#include "fdtd_common.h"
#include "tile_boxes.h"
#include "upml_lanes.h"

KERNEL TILE_ATTR void update_h(GLOBAL float4* hx_out, GLOBAL float4* hy_out,
                               GLOBAL float4* hz_out, GLOBAL const float4* hx,
                               GLOBAL const float4* hy, GLOBAL const float4* hz,
                               GLOBAL const float4* RESTRICT ex,
                               GLOBAL const float4* RESTRICT ey, GLOBAL const float4* RESTRICT ez,
                               GLOBAL const uchar4* RESTRICT id_hx,
                               GLOBAL const uchar4* RESTRICT id_hy,
                               GLOBAL const uchar4* RESTRICT id_hz,
                               CONSTANT_PTR float4* RESTRICT hcoef, float db_vacuum,
                               float inv_dx, float inv_dy, float inv_dz, int nx, int ny, int nz,
                               int nz4, int pml_xlo, int pml_xhi, int pml_ylo, int pml_yhi,
                               int pml_zlo, int pml_zhi, int zq_lo, int zq_hi,
                               GLOBAL const int* RESTRICT boxes, int nboxes) {
  LOCAL float4 tile_ex[TILE_X][TILE_Y][TILE_Z4];
  LOCAL float4 tile_ey[TILE_X][TILE_Y][TILE_Z4];
  LOCAL float4 tile_ez[TILE_X][TILE_Y][TILE_Z4];

  const int lz = LOCAL_ID(0), ly = LOCAL_ID(1), lx = LOCAL_ID(2);
  // The boxes (tile_boxes.h) lie in the x/y interior (the x/y slabs are upml_xy4.cl's): the
  // whole interior from row (pml_xlo, pml_ylo), a region's interior rows (a step split by rows:
  // engine/plan.hpp RowSplit); work-items past a box's limits
  // (ri1, rj1, rq1) still load their E for their neighbours but store nothing.
  const tile_cell w = tile_box_cell(boxes, nboxes);
  const int kq = w.kq, j = w.j, i = w.i, ri1 = w.i1, rj1 = w.j1, rq1 = w.q1;
  const int inside = i < nx && j < ny && kq < nz4;
  const int c = inside ? lane_index(i, j, kq, ny, nz4) : 0;

  // A z-slab float4 (upml_zslab.cl's) is read here only where a plain float4 of the group needs
  // it: the first float4 of the high slab, whose Ex and Ey are the +z neighbour of the last plain
  // one. Skipping the rest saves 256 B of every interior row (whole 64 B pieces) on each step.
  const int plain_z = kq >= zq_lo && kq < zq_hi;
  // Past the z window only the first float4 is read (its Ex, Ey: the last one's +z neighbour).
  const int load_xy = inside && kq <= rq1 && (plain_z || kq == zq_hi);
  const float4 e_x = load_xy ? ex[c] : zero4();
  const float4 e_y = load_xy ? ey[c] : zero4();
  const float4 e_z = inside && plain_z && kq < rq1 ? ez[c] : zero4();
  tile_ex[lx][ly][lz] = e_x;
  tile_ey[lx][ly][lz] = e_y;
  tile_ez[lx][ly][lz] = e_z;
  LOCAL_BARRIER();

  // No barrier follows, so leaving now is safe.
  if (!inside || !plain_z || i >= ri1 || j >= rj1 || kq >= rq1 || pml_row(i, j, nx, ny, pml_xlo, pml_xhi, pml_ylo, pml_yhi)) return;

  // A neighbour inside the group is inside the grid too whenever its index is below n, so the
  // tile holds real data there (not the zeros of work-items past the grid).
  const int sx = ny * nz4, sy = nz4;  // float4 strides of i and j
  float4 ey_xp, ez_xp, ex_yp, ez_yp, ex_next, ey_next;
  if (i + 1 >= nx) {
    ey_xp = zero4();
    ez_xp = zero4();
  } else if (lx + 1 < TILE_X) {
    ey_xp = tile_ey[lx + 1][ly][lz];
    ez_xp = tile_ez[lx + 1][ly][lz];
  } else {
    ey_xp = ey[c + sx];
    ez_xp = ez[c + sx];
  }
  if (j + 1 >= ny) {
    ex_yp = zero4();
    ez_yp = zero4();
  } else if (ly + 1 < TILE_Y) {
    ex_yp = tile_ex[lx][ly + 1][lz];
    ez_yp = tile_ez[lx][ly + 1][lz];
  } else {
    ex_yp = ex[c + sy];
    ez_yp = ez[c + sy];
  }
  if (kq + 1 >= nz4) {
    ex_next = zero4();
    ey_next = zero4();
  } else if (lz + 1 < TILE_Z4) {
    ex_next = tile_ex[lx][ly][lz + 1];
    ey_next = tile_ey[lx][ly][lz + 1];
  } else {
    ex_next = ex[c + 1];
    ey_next = ey[c + 1];
  }
  const float4 ex_zp = shift_up(e_x, ex_next);  // Ex at k+1, lane by lane
  const float4 ey_zp = shift_up(e_y, ey_next);

  const float4 curl_x = (ez_yp - e_z) * inv_dy - (ey_zp - e_y) * inv_dz;
  const float4 curl_y = (ex_zp - e_x) * inv_dz - (ez_xp - e_z) * inv_dx;
  const float4 curl_z = (ey_xp - e_y) * inv_dx - (ex_yp - e_x) * inv_dy;

#if MAGNETIC
  const uchar4 m_x = id_hx[c], m_y = id_hy[c], m_z = id_hz[c];
  const float4 db_x = h_coef4(hcoef, m_x);
  const float4 db_y = h_coef4(hcoef, m_y);
  const float4 db_z = h_coef4(hcoef, m_z);
#else
  const float4 db_x = MAKE_FLOAT4(db_vacuum, db_vacuum, db_vacuum, db_vacuum);
  const float4 db_y = db_x, db_z = db_x;
#endif

  const float4 h_x = hx[c], h_y = hy[c], h_z = hz[c];
  hx_out[c] = h_x - db_x * curl_x;
  hy_out[c] = h_y - db_y * curl_y;
  hz_out[c] = h_z - db_z * curl_z;
}
