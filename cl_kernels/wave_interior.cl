// The scalar wave solver's interior (contract2d.md, "Wave"; seed 001): Ez alone, u = Ez,
//   u^(n+1) = (1 + ca) u^n - ca u^(n-1) + cb (dt/mu0) Lap u^n      (the source term: add_sources)
//   Lap u = (u[i+1,j] - 2u + u[i-1,j])/dx^2 + (u[i,j+1] - 2u + u[i,j-1])/dy^2,  zero outside,
// which is Yee tm with H eliminated (ca, cb Yee's coefficients of the cell's material; PEC has
// ca = cb = 0 and keeps u = 0). Cells [i0, i1) x [j0, j1) only: the frame around them
// (wave_frame.cl) runs Yee tm with UPML. u_next holds u^(n-1) on entry (the two buffers swap
// roles every step), so each cell reads its own old value before writing the new one.
// Layout: u[i*nyp + j], rows along y padded to nyp (padding stays zero, never written).
// wcoef per material id: (1 + ca, ca, cb dt/mu0, cb).
#include "fdtd_common.h"

#ifndef WAVE_WX
#define WAVE_WX 8 /* pair-sum tile: work-items along x (dimension 1) */
#endif
#ifndef WAVE_WY
#define WAVE_WY 32 /* pair-sum tile: work-items along y (dimension 0, contiguous) */
#endif

DEVICE_FN float wave_new(CONSTANT_PTR float4* RESTRICT wcoef, uchar id, float uc, float uprev,
                         float lap) {
  const float4 t = wcoef[id];
  return t.x * uc - t.y * uprev + t.z * lap;
}

// Seed 001's vector algorithm: the cross stencil's neighbour sum of cell (i, j) is
//   u[i+1,j] + u[i,j+1] + u[i-1,j] + u[i,j-1] = P(i,j) + P(i-1,j-1),  P(i,j) = u[i+1,j] + u[i,j+1],
// and every pair sum P serves two cells, (i, j) and (i+1, j+1). A work-group holds its tile of u
// with a one-cell halo in local memory, forms each pair sum of the tile once, then every cell adds
// two of them. dx == dy only (the host picks wave_cross otherwise). Range: dim 0 along y over
// [j0, j1) and dim 1 along x over [i0, i1), each rounded up to the tile.
KERNEL void wave_pairsum(GLOBAL float* RESTRICT u_next, GLOBAL const float* RESTRICT u,
                         GLOBAL const uchar* RESTRICT id, CONSTANT_PTR float4* RESTRICT wcoef,
                         int nx, int ny, int nyp, int i0, int i1, int j0, int j1, float inv_d2) {
  /* u at (ib - 1 + a, jb - 1 + b); the four corners are never read. */
  LOCAL float tile[WAVE_WX + 2][WAVE_WY + 2];
  /* P at (ib - 1 + a, jb - 1 + b): a row a = 0 and a column b = 0 (the pair sums the tile's first
     row and column take from outside it) and the tile's own cells 1..WX x 1..WY. */
  LOCAL float pair[WAVE_WX + 1][WAVE_WY + 1];
  const int li = LOCAL_ID(1), lj = LOCAL_ID(0);
  const int i = i0 + GROUP_ID(1) * WAVE_WX + li, j = j0 + GROUP_ID(0) * WAVE_WY + lj;
  const int c = i * nyp + j;
  const int in_x = i < nx, in_y = j < ny;
  /* Each work-item loads its own cell; the edge work-items load the halo beside them. */
  tile[li + 1][lj + 1] = in_x && in_y ? u[c] : 0.0f;
  if (li == 0) tile[0][lj + 1] = i > 0 && in_y ? u[c - nyp] : 0.0f;
  if (li == WAVE_WX - 1) tile[WAVE_WX + 1][lj + 1] = i + 1 < nx && in_y ? u[c + nyp] : 0.0f;
  if (lj == 0) tile[li + 1][0] = j > 0 && in_x ? u[c - 1] : 0.0f;
  if (lj == WAVE_WY - 1) tile[li + 1][WAVE_WY + 1] = j + 1 < ny && in_x ? u[c + 1] : 0.0f;
  LOCAL_BARRIER();
  /* Every pair sum once: P(i,j) = u[i+1,j] + u[i,j+1]. */
  pair[li + 1][lj + 1] = tile[li + 2][lj + 1] + tile[li + 1][lj + 2];
  if (li == 0) pair[0][lj] = tile[1][lj] + tile[0][lj + 1];
  if (lj == 0) pair[li][0] = tile[li + 1][0] + tile[li][1];
  LOCAL_BARRIER();
  if (i >= i1 || j >= j1) return;  /* after the barriers: every work-item reached them */
  const float uc = tile[li + 1][lj + 1];
  /* The four neighbours: P(i,j) + P(i-1,j-1), each pair sum shared with a diagonal neighbour. */
  const float lap = (pair[li + 1][lj + 1] + pair[li][lj] - 4.0f * uc) * inv_d2;
  u_next[c] = wave_new(wcoef, id[c], uc, u_next[c], lap);
}

// The plain cross stencil, one cell per work-item, every value from global memory (what the pair
// sums are measured against; any dx, dy). Range as wave_pairsum's, any work-group.
KERNEL void wave_cross(GLOBAL float* RESTRICT u_next, GLOBAL const float* RESTRICT u,
                       GLOBAL const uchar* RESTRICT id, CONSTANT_PTR float4* RESTRICT wcoef,
                       int nx, int ny, int nyp, int i0, int i1, int j0, int j1, float inv_dx2,
                       float inv_dy2) {
  const int i = i0 + GLOBAL_ID(1), j = j0 + GLOBAL_ID(0);
  if (i >= i1 || j >= j1) return;
  const int c = i * nyp + j;
  const float uc = u[c];
  const float xm = i > 0 ? u[c - nyp] : 0.0f, xp = i + 1 < nx ? u[c + nyp] : 0.0f;
  const float ym = j > 0 ? u[c - 1] : 0.0f, yp = j + 1 < ny ? u[c + 1] : 0.0f;
  const float lap = (xp + xm - 2.0f * uc) * inv_dx2 + (yp + ym - 2.0f * uc) * inv_dy2;
  u_next[c] = wave_new(wcoef, id[c], uc, u_next[c], lap);
}

// The same stencil for CPUs: one work-item per x row of [i0, i1), a loop along y that carries the
// row's values from one cell to the next (no barriers; the compiler vectorises the loop).
KERNEL void wave_rows(GLOBAL float* RESTRICT u_next, GLOBAL const float* RESTRICT u,
                      GLOBAL const uchar* RESTRICT id, CONSTANT_PTR float4* RESTRICT wcoef,
                      int nx, int ny, int nyp, int i0, int i1, int j0, int j1, float inv_dx2,
                      float inv_dy2) {
  const int i = i0 + GLOBAL_ID(0);
  if (i >= i1 || j0 >= j1) return;
  const int row = i * nyp;
  const int has_xm = i > 0, has_xp = i + 1 < nx;
  float ym = j0 > 0 ? u[row + j0 - 1] : 0.0f;
  float uc = u[row + j0];
  for (int j = j0; j < j1; ++j) {
    const int c = row + j;
    const float yp = j + 1 < ny ? u[c + 1] : 0.0f;
    const float xm = has_xm ? u[c - nyp] : 0.0f, xp = has_xp ? u[c + nyp] : 0.0f;
    const float lap = (xp + xm - 2.0f * uc) * inv_dx2 + (yp + ym - 2.0f * uc) * inv_dy2;
    u_next[c] = wave_new(wcoef, id[c], uc, u_next[c], lap);
    ym = uc;
    uc = yp;
  }
}
