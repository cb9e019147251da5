// Patent step 4.3: the electric-field kernel, plain (non-PML) cells; the mirror image of
// update_h.cl with backward differences.
//
// Continuous:  eps dE/dt + sigma E = curl H  (the source current J is added by sources.cl).
// Discrete (docs/EQUATIONS.md), E from s dt to (s+1) dt with H at (s+1/2) dt:
//   Ex = ca*Ex + cb * ((Hz - Hz[i,j-1,k])/dy - (Hy - Hy[i,j,k-1])/dz)
//   Ey = ca*Ey + cb * ((Hx - Hx[i,j,k-1])/dz - (Hz - Hz[i-1,j,k])/dx)
//   Ez = ca*Ez + cb * ((Hy - Hy[i-1,j,k])/dx - (Hx - Hx[i,j-1,k])/dy)
// ca = (1-q)/(1+q), cb = dt/eps/(1+q), q = sigma dt/(2 eps), per material id (id 0 = PEC:
// ca = cb = 0, which also pins the wall planes and the z padding to zero). Backward differences of
// H (at half positions) land on E's sample: Ex (i+1/2,j,k) etc.
//
// Work-item (kq, j, i) owns the float4 of cells k = 4kq .. 4kq+3; the group stages Hx, Hy, Hz in
// local tiles, then:
//   -x, -y neighbours: from the tile inside the group, from global memory across the tile's low
//     edge, zero before index 0 (nothing lies outside the PEC wall);
//   -z neighbour: shift_down(prev, H) = (prev.w, H.x, H.y, H.z), prev = the preceding float4 from
//     the tile / global memory / zero before the first float4.
// The range covers the x/y interior from row (pml_xlo, pml_ylo), as in update_h.cl. Work-items
// past the grid or on PML float4s load zeros (except the one z-slab float4 a plain one needs),
// take part in the barrier and store nothing (x/y slabs: upml_xy4.cl, z-slab float4s:
// upml_zslab.cl).
//
// E is read from ex, ey, ez and written to ex_out, ey_out, ez_out, with H from hx, hy, hz: all
// one field set (in place), as in update_h.cl.
//
// Bytes per cell (roofline): read H 12 + read E 12 + write E 12 + E ids 3 = 39 B, plus the
// tile-edge halo reads. With update_h: 75 B per cell per step (78 B when MAGNETIC).
#include "fdtd_common.h"
#include "tile_boxes.h"
#include "upml_lanes.h"

KERNEL TILE_ATTR void update_e(GLOBAL float4* ex_out, GLOBAL float4* ey_out,
                               GLOBAL float4* ez_out, GLOBAL const float4* ex,
                               GLOBAL const float4* ey, GLOBAL const float4* ez,
                               GLOBAL const float4* RESTRICT hx,
                               GLOBAL const float4* RESTRICT hy, GLOBAL const float4* RESTRICT hz,
                               GLOBAL const uchar4* RESTRICT id_ex,
                               GLOBAL const uchar4* RESTRICT id_ey,
                               GLOBAL const uchar4* RESTRICT id_ez,
                               CONSTANT_PTR float4* RESTRICT ecoef, float inv_dx, float inv_dy,
                               float inv_dz, int nx, int ny, int nz, int nz4, int pml_xlo,
                               int pml_xhi, int pml_ylo, int pml_yhi, int pml_zlo, int pml_zhi,
                               int zq_lo, int zq_hi,
                               GLOBAL const int* RESTRICT boxes, int nboxes) {
  LOCAL float4 tile_hx[TILE_X][TILE_Y][TILE_Z4];
  LOCAL float4 tile_hy[TILE_X][TILE_Y][TILE_Z4];
  LOCAL float4 tile_hz[TILE_X][TILE_Y][TILE_Z4];

  const int lz = LOCAL_ID(0), ly = LOCAL_ID(1), lx = LOCAL_ID(2);
  // The boxes lie in the x/y interior, as in update_h.cl; work-items past a box's limits load
  // their H but store nothing.
  const tile_cell w = tile_box_cell(boxes, nboxes);
  const int kq = w.kq, j = w.j, i = w.i, ri1 = w.i1, rj1 = w.j1, rq1 = w.q1;
  const int inside = i < nx && j < ny && kq < nz4;
  const int c = inside ? lane_index(i, j, kq, ny, nz4) : 0;

  // Rows of the x/y slabs (upml_xy4.cl's; the last groups reach into the high ones) and z-slab
  // float4s (upml_zslab.cl's) are read here only where a plain float4 of the group needs them:
  // the last float4 of the low z slab, whose Hx and Hy are the -z neighbour of the first plain
  // one. No plain float4 has a high-slab row as its -x or -y neighbour. Skipping the rest saves
  // 256 B of every interior row (whole 64 B pieces) on each step.
  const int plain_z = kq >= zq_lo && kq < zq_hi;
  const int plain_row = inside && !pml_row(i, j, nx, ny, pml_xlo, pml_xhi, pml_ylo, pml_yhi);
  const int load_xy = plain_row && kq < rq1 && (plain_z || kq == zq_lo - 1);
  const float4 h_x = load_xy ? hx[c] : zero4();
  const float4 h_y = load_xy ? hy[c] : zero4();
  const float4 h_z = plain_row && plain_z && kq < rq1 ? hz[c] : zero4();
  tile_hx[lx][ly][lz] = h_x;
  tile_hy[lx][ly][lz] = h_y;
  tile_hz[lx][ly][lz] = h_z;
  LOCAL_BARRIER();

  if (!plain_row || !plain_z || i >= ri1 || j >= rj1 || kq >= rq1) return;

  // A lower neighbour (index >= 0) of an inside work-item is inside too, so the tile holds data.
  const int sx = ny * nz4, sy = nz4;
  float4 hy_xm, hz_xm, hx_ym, hz_ym, hx_prev, hy_prev;
  if (i == 0) {
    hy_xm = zero4();
    hz_xm = zero4();
  } else if (lx > 0) {
    hy_xm = tile_hy[lx - 1][ly][lz];
    hz_xm = tile_hz[lx - 1][ly][lz];
  } else {
    hy_xm = hy[c - sx];
    hz_xm = hz[c - sx];
  }
  if (j == 0) {
    hx_ym = zero4();
    hz_ym = zero4();
  } else if (ly > 0) {
    hx_ym = tile_hx[lx][ly - 1][lz];
    hz_ym = tile_hz[lx][ly - 1][lz];
  } else {
    hx_ym = hx[c - sy];
    hz_ym = hz[c - sy];
  }
  if (kq == 0) {
    hx_prev = zero4();
    hy_prev = zero4();
  } else if (lz > 0) {
    hx_prev = tile_hx[lx][ly][lz - 1];
    hy_prev = tile_hy[lx][ly][lz - 1];
  } else {
    hx_prev = hx[c - 1];
    hy_prev = hy[c - 1];
  }
  const float4 hx_zm = shift_down(hx_prev, h_x);  // Hx at k-1, lane by lane
  const float4 hy_zm = shift_down(hy_prev, h_y);

  const float4 curl_x = (h_z - hz_ym) * inv_dy - (h_y - hy_zm) * inv_dz;
  const float4 curl_y = (h_x - hx_zm) * inv_dz - (h_z - hz_xm) * inv_dx;
  const float4 curl_z = (h_y - hy_xm) * inv_dx - (h_x - hx_ym) * inv_dy;

  const uchar4 m_x = id_ex[c], m_y = id_ey[c], m_z = id_ez[c];
  const float4 e_x = ex[c], e_y = ey[c], e_z = ez[c];
  float4 ca, cb;
  e_coef4(ecoef, m_x, &ca, &cb);
  ex_out[c] = ca * e_x + cb * curl_x;
  e_coef4(ecoef, m_y, &ca, &cb);
  ey_out[c] = ca * e_y + cb * curl_y;
  e_coef4(ecoef, m_z, &ca, &cb);
  ez_out[c] = ca * e_z + cb * curl_z;
}
