// Kernel variant "cyl-rows" of the cylindrical solver, for CPU drivers: one work-item per row i
// left of the r slab (0 <= i < i1) and mode slot q (NDRange dimension 0 = rows, 1 = mode slots), a
// plain counted loop along z over the row's cells [klo, khi) outside the z slabs, no barriers.
// Per cell cyl_cell.h's scalar update without psi; the PML cells are cyl_pml.cl's. In place.
#include "cyl_cell.h"

#define CYL_ROWS_GRID                                                                            \
  GLOBAL const int *RESTRICT modes, float dr, float inv_dr, float inv_dz, int nr, int nz, int nzp, \
      int cells, int nq, int i1, int klo, int khi

KERNEL void cyl_rows_h(GLOBAL float* RESTRICT hr, GLOBAL float* RESTRICT hphi,
                       GLOBAL float* RESTRICT hz, GLOBAL const float* RESTRICT er,
                       GLOBAL const float* RESTRICT ephi, GLOBAL const float* RESTRICT ez,
                       GLOBAL const uchar* RESTRICT id_hr, GLOBAL const uchar* RESTRICT id_hphi,
                       GLOBAL const uchar* RESTRICT id_hz, CONSTANT_PTR float4* RESTRICT hcoef,
                       float db_vacuum, CYL_ROWS_GRID) {
  const int i = GLOBAL_ID(0), q = GLOBAL_ID(1);
  if (i >= i1 || q >= nq) return;
  const int m = modes[q], base = 2 * q * cells;
  const float4 none = MAKE_FLOAT4(1.0f, 0.0f, 0.0f, 0.0f);
  for (int k = klo; k < khi; ++k) {
    const int c = i * nzp + k;
#if MAGNETIC
    const float db_r = hcoef[id_hr[c]].x, db_phi = hcoef[id_hphi[c]].x, db_z = hcoef[id_hz[c]].x;
#else
    const float db_r = db_vacuum, db_phi = db_vacuum, db_z = db_vacuum;
#endif
    cyl_cell_h(hr, hphi, hz, er, ephi, ez, base + c, base + cells + c, i, k, nr, nz, nzp, m, dr,
               inv_dr, inv_dz, db_r, db_phi, db_z, 0, hr, 0, 0, none, none, 0, hr, 0, 0, none);
  }
}

KERNEL void cyl_rows_e(GLOBAL float* RESTRICT er, GLOBAL float* RESTRICT ephi,
                       GLOBAL float* RESTRICT ez, GLOBAL const float* RESTRICT hr,
                       GLOBAL const float* RESTRICT hphi, GLOBAL const float* RESTRICT hz,
                       GLOBAL const uchar* RESTRICT id_er, GLOBAL const uchar* RESTRICT id_ephi,
                       GLOBAL const uchar* RESTRICT id_ez, CONSTANT_PTR float4* RESTRICT ecoef,
                       CYL_ROWS_GRID) {
  const int i = GLOBAL_ID(0), q = GLOBAL_ID(1);
  if (i >= i1 || q >= nq) return;
  const int m = modes[q], base = 2 * q * cells;
  const float4 none = MAKE_FLOAT4(1.0f, 0.0f, 0.0f, 0.0f);
  for (int k = klo; k < khi; ++k) {
    const int c = i * nzp + k;
    cyl_cell_e(er, ephi, ez, hr, hphi, hz, base + c, base + cells + c, i, k, nzp, m, dr, inv_dr,
               inv_dz, ecoef[id_er[c]], ecoef[id_ephi[c]], ecoef[id_ez[c]], 0, er, 0, 0, none,
               none, 0, er, 0, 0, none);
  }
}
