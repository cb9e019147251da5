// Kernel variant "cyl-tile-local" of the cylindrical solver (device.cyl_staging = local): the
// cyl-tile update (cyl_tile.cl, the same arithmetic through cyl_tile_update_h / _e) with the
// fields whose neighbours the stencil reads staged in local memory first, the seed's shared-memory
// staging. A work-group of TILE_Z4 float4s along z by TILE_Y rows along r (the program is built
// with those sizes; TILE_X = 1, one mode slot per group) loads its own float4s plus a halo: the
// H pass the float4 after its last column and the row after its last row (E at k+1 and i+1), the
// E pass the float4 before its first column and the row before its first row (H at k-1 and i-1).
// Every item loads before the barrier, also those outside the updated range (their values are the
// neighbours of the range's edge; past the grid they load zero), so each value comes from global
// memory once per group instead of up to three times. Local memory per group:
// 6 x (TILE_Y + 1) x (TILE_Z4 + 1) float4s (cyl_plan.cpp keeps the work-group within the device's
// local memory). Bytes per cell and mode: as cyl-tile (147 B), plus the halo re-read by the
// neighbouring groups (1 / TILE_Z4 + 1 / TILE_Y of a row of the staged fields).
#include "cyl_tile.cl"

#define CYL_LW (TILE_Z4 + 1)
#define CYL_LN ((TILE_Y + 1) * CYL_LW)

/* Macros, not functions: CUDA has no __shared__ pointer parameters (compat.h). F[PR] is read
   only when INSIDE. */
#define CYL_STAGE(RE, IM, AT, F, INSIDE, PR)                 \
  do {                                                       \
    (RE)[AT] = (INSIDE) ? (F)[PR] : zero4();                 \
    (IM)[AT] = (INSIDE) ? (F)[(PR) + cells4] : zero4();      \
  } while (0)
#define CYL_STAGED(RE, IM, AT) cyl_pair((RE)[AT], (IM)[AT])

DEVICE_FN cyl_c4 cyl_pair(float4 re, float4 im) {
  cyl_c4 v;
  v.re = re;
  v.im = im;
  return v;
}

KERNEL TILE_ATTR void cyl_tile_local_h(GLOBAL float4* RESTRICT hr, GLOBAL float4* RESTRICT hphi,
                                       GLOBAL float4* RESTRICT hz, GLOBAL const float4* RESTRICT er,
                                       GLOBAL const float4* RESTRICT ephi,
                                       GLOBAL const float4* RESTRICT ez,
                                       GLOBAL const uchar4* RESTRICT id_hr,
                                       GLOBAL const uchar4* RESTRICT id_hphi,
                                       GLOBAL const uchar4* RESTRICT id_hz,
                                       CONSTANT_PTR float4* RESTRICT hcoef, float db_vacuum,
                                       CYL_TILE_GRID) {
  LOCAL float4 ephi_r[CYL_LN], ephi_i[CYL_LN], er_r[CYL_LN], er_i[CYL_LN], ez_r[CYL_LN],
      ez_i[CYL_LN];
  const int lz = LOCAL_ID(0), ly = LOCAL_ID(1);
  const int kq = kq0 + GLOBAL_ID(0), i = GLOBAL_ID(1), q = GLOBAL_ID(2);
  const int c = i * nz4 + kq, pr = 2 * q * cells4 + c;
  const int at = ly * CYL_LW + lz;  /* halo after the last column and row */
  const int own = i < nr && kq < nz4;
  CYL_STAGE(ephi_r, ephi_i, at, ephi, own, pr);
  CYL_STAGE(er_r, er_i, at, er, own, pr);
  CYL_STAGE(ez_r, ez_i, at, ez, own, pr);
  if (lz == TILE_Z4 - 1) { /* k + 1: the next float4 of the row */
    const int in = i < nr && kq + 1 < nz4;
    CYL_STAGE(ephi_r, ephi_i, at + 1, ephi, in, pr + 1);
    CYL_STAGE(er_r, er_i, at + 1, er, in, pr + 1);
  }
  if (ly == TILE_Y - 1) { /* i + 1: the next row */
    const int in = i + 1 < nr && kq < nz4;
    CYL_STAGE(ephi_r, ephi_i, at + CYL_LW, ephi, in, pr + nz4);
    CYL_STAGE(ez_r, ez_i, at + CYL_LW, ez, in, pr + nz4);
  }
  LOCAL_BARRIER();
  if (i >= i1 || kq >= kq1 || q >= nq) return;
  cyl_h_in v;
  v.ez = CYL_STAGED(ez_r, ez_i, at);
  v.ephi = CYL_STAGED(ephi_r, ephi_i, at);
  v.er = CYL_STAGED(er_r, er_i, at);
  v.ephi_kp = cyl_shift_up(v.ephi, CYL_STAGED(ephi_r, ephi_i, at + 1));
  v.er_kp = cyl_shift_up(v.er, CYL_STAGED(er_r, er_i, at + 1));
  v.ez_ip = CYL_STAGED(ez_r, ez_i, at + CYL_LW);
  v.ephi_ip = CYL_STAGED(ephi_r, ephi_i, at + CYL_LW);
  cyl_tile_update_h(hr, hphi, hz, id_hr, id_hphi, id_hz, hcoef, db_vacuum, v, c, pr, pr + cells4,
                    i, kq, modes[q], dr, inv_dr, inv_dz, klo, khi);
}

KERNEL TILE_ATTR void cyl_tile_local_e(GLOBAL float4* RESTRICT er, GLOBAL float4* RESTRICT ephi,
                                       GLOBAL float4* RESTRICT ez, GLOBAL const float4* RESTRICT hr,
                                       GLOBAL const float4* RESTRICT hphi,
                                       GLOBAL const float4* RESTRICT hz,
                                       GLOBAL const uchar4* RESTRICT id_er,
                                       GLOBAL const uchar4* RESTRICT id_ephi,
                                       GLOBAL const uchar4* RESTRICT id_ez,
                                       CONSTANT_PTR float4* RESTRICT ecoef, CYL_TILE_GRID) {
  LOCAL float4 hphi_r[CYL_LN], hphi_i[CYL_LN], hr_r[CYL_LN], hr_i[CYL_LN], hz_r[CYL_LN],
      hz_i[CYL_LN];
  const int lz = LOCAL_ID(0), ly = LOCAL_ID(1);
  const int kq = kq0 + GLOBAL_ID(0), i = GLOBAL_ID(1), q = GLOBAL_ID(2);
  const int c = i * nz4 + kq, pr = 2 * q * cells4 + c;
  const int at = (ly + 1) * CYL_LW + lz + 1; /* halo before the first column and row */
  const int own = i < nr && kq < nz4;
  CYL_STAGE(hphi_r, hphi_i, at, hphi, own, pr);
  CYL_STAGE(hr_r, hr_i, at, hr, own, pr);
  CYL_STAGE(hz_r, hz_i, at, hz, own, pr);
  if (lz == 0) { /* k - 1: the previous float4 of the row */
    const int in = i < nr && kq > 0 && kq - 1 < nz4;
    CYL_STAGE(hphi_r, hphi_i, at - 1, hphi, in, pr - 1);
    CYL_STAGE(hr_r, hr_i, at - 1, hr, in, pr - 1);
  }
  if (ly == 0) { /* i - 1: the previous row */
    const int in = i > 0 && i - 1 < nr && kq < nz4;
    CYL_STAGE(hphi_r, hphi_i, at - CYL_LW, hphi, in, pr - nz4);
    CYL_STAGE(hz_r, hz_i, at - CYL_LW, hz, in, pr - nz4);
  }
  LOCAL_BARRIER();
  if (i >= i1 || kq >= kq1 || q >= nq) return;
  cyl_e_in v;
  v.hr = CYL_STAGED(hr_r, hr_i, at);
  v.hphi = CYL_STAGED(hphi_r, hphi_i, at);
  v.hz = CYL_STAGED(hz_r, hz_i, at);
  v.hphi_km = cyl_shift_down(CYL_STAGED(hphi_r, hphi_i, at - 1), v.hphi);
  v.hr_km = cyl_shift_down(CYL_STAGED(hr_r, hr_i, at - 1), v.hr);
  v.hz_im = CYL_STAGED(hz_r, hz_i, at - CYL_LW);
  v.hphi_im = CYL_STAGED(hphi_r, hphi_i, at - CYL_LW);
  cyl_tile_update_e(er, ephi, ez, id_er, id_ephi, id_ez, ecoef, v, c, pr, pr + cells4, i, kq,
                    modes[q], dr, inv_dr, inv_dz, klo, khi);
}
