// The wave solver's frame (host/engine/wave/wave_frame.hpp): Yee tm with UPML on the cells the
// wave update cannot serve, with H and the auxiliaries stored for the frame only, compactly.
// docs/EQUATIONS.md with d/dz = 0 and the z profile neutral (a = b = 1, cp = cm = 2); the model
// is non-magnetic (db = dt/mu0, inv_mu_r = 1). Per step: wave_frame_h (H to (s + 1/2) dt from
// u^s), then wave_frame_e (Ez of the E frame to (s + 1) dt into u_next), beside the interior
// kernels (wave_interior.cl), which write the other cells of u_next.
// Profiles: float4 (a, b, cp, cm) per cell index along x or y, at integer and half positions.
#include "fdtd_common.h"

// One work-item per H frame cell f: hcells[2f], hcells[2f+1] = (i, j).
//   Hx -= db (Ez[i,j+1] - Ez[i,j])/dy;   Hy -= db (-(Ez[i+1,j] - Ez[i,j])/dx)   (plain cells)
//   UPML cells: Hx: B' = a^h_y B - b^h_y (dt/mu0) C; Hx += (cp^i_x B' - cm^i_x B)/2
//               Hy: B' = B - (dt/mu0) C;             Hy = a^h_x Hy + (cp^i_y B' - cm^i_y B) b^h_x/2
KERNEL void wave_frame_h(GLOBAL float* RESTRICT hx, GLOBAL float* RESTRICT hy,
                         GLOBAL float* RESTRICT bx, GLOBAL float* RESTRICT by,
                         GLOBAL const float* RESTRICT u, GLOBAL const int* RESTRICT hcells,
                         GLOBAL const float4* RESTRICT int_x, GLOBAL const float4* RESTRICT half_x,
                         GLOBAL const float4* RESTRICT int_y, GLOBAL const float4* RESTRICT half_y,
                         int nh, int nx, int ny, int nyp, int xlo, int xhi, int ylo, int yhi,
                         float db, float inv_dx, float inv_dy) {
  const int f = GLOBAL_ID(0);
  if (f >= nh) return;
  const int i = hcells[2 * f], j = hcells[2 * f + 1];
  const int c = i * nyp + j;
  const float ez = u[c];
  const float ez_xp = i + 1 < nx ? u[c + nyp] : 0.0f;
  const float ez_yp = j + 1 < ny ? u[c + 1] : 0.0f;
  const float cx = (ez_yp - ez) * inv_dy;     // Hx's bracket
  const float cy = -((ez_xp - ez) * inv_dx);  // Hy's bracket
  if (!pml_row(i, j, nx, ny, xlo, xhi, ylo, yhi)) {
    hx[f] -= db * cx;
    hy[f] -= db * cy;
    return;
  }
  const float4 px = int_x[i], qx = half_x[i], py = int_y[j], qy = half_y[j];
  const float bx_old = bx[f], by_old = by[f];
  const float bx_new = qy.x * bx_old - qy.y * db * cx;
  hx[f] = hx[f] + (px.z * bx_new - px.w * bx_old) / 2.0f;
  bx[f] = bx_new;
  const float by_new = by_old - db * cy;
  hy[f] = qx.x * hy[f] + (py.z * by_new - py.w * by_old) * qx.y / 2.0f;
  by[f] = by_new;
}

// One work-item per E frame cell f: ecells[5f..5f+4] = (i, j, h, hxm, hym), the H frame indices
// of cells (i, j), (i-1, j), (i, j-1) (-1: outside the grid, H reads zero).
//   C = (Hy[i,j] - Hy[i-1,j])/dx - (Hx[i,j] - Hx[i,j-1])/dy
//   plain cells: Ez = ca Ez + cb C
//   UPML cells:  D' = a^i_x D + b^i_x (dt/eps0) C;  Ez = a^i_y Ez + inv_eps_r (2 D' - 2 D) b^i_y/2
// ecoef per id: (ca, cb, inv_eps_r, 0); conductivity is ignored in UPML cells, PEC keeps Ez = 0.
KERNEL void wave_frame_e(GLOBAL float* RESTRICT u_next, GLOBAL const float* RESTRICT u,
                         GLOBAL const uchar* RESTRICT id, CONSTANT_PTR float4* RESTRICT ecoef,
                         GLOBAL const float* RESTRICT hx, GLOBAL const float* RESTRICT hy,
                         GLOBAL float* RESTRICT dz, GLOBAL const int* RESTRICT ecells,
                         GLOBAL const float4* RESTRICT int_x, GLOBAL const float4* RESTRICT int_y,
                         int ne, int nx, int ny, int nyp, int xlo, int xhi, int ylo, int yhi,
                         float dt_eps0, float inv_dx, float inv_dy) {
  const int f = GLOBAL_ID(0);
  if (f >= ne) return;
  const int i = ecells[5 * f], j = ecells[5 * f + 1];
  const int h = ecells[5 * f + 2], hxm = ecells[5 * f + 3], hym = ecells[5 * f + 4];
  const int c = i * nyp + j;
  const float hy_m = hxm >= 0 ? hy[hxm] : 0.0f;
  const float hx_m = hym >= 0 ? hx[hym] : 0.0f;
  const float curl = (hy[h] - hy_m) * inv_dx - (hx[h] - hx_m) * inv_dy;
  const float4 e = ecoef[id[c]];
  const float ez = u[c];
  if (!pml_row(i, j, nx, ny, xlo, xhi, ylo, yhi)) {
    u_next[c] = e.x * ez + e.y * curl;
    return;
  }
  const float4 px = int_x[i], py = int_y[j];
  const float d_old = dz[f];
  const float d_new = px.x * d_old + px.y * dt_eps0 * curl;
  u_next[c] = py.x * ez + e.z * (2.0f * d_new - 2.0f * d_old) * py.y / 2.0f;
  dz[f] = d_new;
}
