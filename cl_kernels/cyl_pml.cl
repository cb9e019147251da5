// The cylindrical solver's CPML cells (cyl_common.h numbers them; r is also their psi index), every
// variant: one work-item per PML cell and mode slot (NDRange dimension 0 = cells, 1 = mode slots),
// cyl_cell.h's scalar update with the d/dr and d/dz difference quotients stretched (psi <- b psi +
// c g; inv_kappa g + psi) by the tables of the cell's positions: r_int / r_half per row, z_int /
// z_half per z cell, float4 (inv_kappa, b, c, keep); outside the layers (1, 0, 0), where psi
// stays 0; keep = (1 - A) / (1 + A), A = alpha dt / (2 eps0), the CFS term of 1/r~ (cyl_cell.h).
// psi: complex, 8 per cell and mode slot, psi[((q * 8 + slot) * 2 + part) * npml + r].
// The r slab's cells (r < rhi * nz) also carry the 1/r~ state of Er, Ez, Hr, Hz (cyl_cell.h):
// g[(q * 16 + n) * nrs + r], nrs = rhi * nz, with r_over[i] = (a, b) at i dr, (a, b) at (i+1/2) dr.
// Per PML cell, mode and step: the plain update's ~147 B plus the 8 complex psi (64 B) read and
// written (128 B), and the tables (from the caches).
#include "cyl_cell.h"

#define CYL_PML_GRID                                                                         \
  GLOBAL float *RESTRICT psi, GLOBAL float *RESTRICT g, GLOBAL const float4 *RESTRICT r_over, \
      GLOBAL const float4 *RESTRICT r_int, GLOBAL const float4 *RESTRICT r_half,              \
      GLOBAL const float4 *RESTRICT z_int, GLOBAL const float4 *RESTRICT z_half,              \
      GLOBAL const int *RESTRICT modes, float dr, float inv_dr, float inv_dz, int nr, int nz, \
      int nzp, int cells, int nq, int rhi, int zlo, int zhi, int npml

KERNEL void cyl_pml_h(GLOBAL float* RESTRICT hr, GLOBAL float* RESTRICT hphi,
                      GLOBAL float* RESTRICT hz, GLOBAL const float* RESTRICT er,
                      GLOBAL const float* RESTRICT ephi, GLOBAL const float* RESTRICT ez,
                      GLOBAL const uchar* RESTRICT id_hr, GLOBAL const uchar* RESTRICT id_hphi,
                      GLOBAL const uchar* RESTRICT id_hz, CONSTANT_PTR float4* RESTRICT hcoef,
                      float db_vacuum, CYL_PML_GRID) {
  const int r = GLOBAL_ID(0), q = GLOBAL_ID(1);
  if (r >= npml || q >= nq) return;
  int i, k;
  cyl_pml_cell(r, nr, nz, rhi, zlo, zhi, &i, &k);
  const int c = i * nzp + k, base = 2 * q * cells;
#if MAGNETIC
  const float db_r = hcoef[id_hr[c]].x, db_phi = hcoef[id_hphi[c]].x, db_z = hcoef[id_hz[c]].x;
#else
  const float db_r = db_vacuum, db_phi = db_vacuum, db_z = db_vacuum;
#endif
  cyl_cell_h(hr, hphi, hz, er, ephi, ez, base + c, base + cells + c, i, k, nr, nz, nzp, modes[q],
             dr, inv_dr, inv_dz, db_r, db_phi, db_z, 1, psi, q * 16 * npml + r, npml, r_half[i],
             z_half[k], r < rhi * nz, g, q * 16 * rhi * nz + r, rhi * nz, r_over[i]);
}

KERNEL void cyl_pml_e(GLOBAL float* RESTRICT er, GLOBAL float* RESTRICT ephi,
                      GLOBAL float* RESTRICT ez, GLOBAL const float* RESTRICT hr,
                      GLOBAL const float* RESTRICT hphi, GLOBAL const float* RESTRICT hz,
                      GLOBAL const uchar* RESTRICT id_er, GLOBAL const uchar* RESTRICT id_ephi,
                      GLOBAL const uchar* RESTRICT id_ez, CONSTANT_PTR float4* RESTRICT ecoef,
                      CYL_PML_GRID) {
  const int r = GLOBAL_ID(0), q = GLOBAL_ID(1);
  if (r >= npml || q >= nq) return;
  int i, k;
  cyl_pml_cell(r, nr, nz, rhi, zlo, zhi, &i, &k);
  const int c = i * nzp + k, base = 2 * q * cells;
  cyl_cell_e(er, ephi, ez, hr, hphi, hz, base + c, base + cells + c, i, k, nzp, modes[q], dr,
             inv_dr, inv_dz, ecoef[id_er[c]], ecoef[id_ephi[c]], ecoef[id_ez[c]], 1, psi,
             q * 16 * npml + r, npml, r_int[i], z_int[k], r < rhi * nz, g, q * 16 * rhi * nz + r,
             rhi * nz, r_over[i]);
}
