// Kernel variant "rows": one work-item per (i, j) row marching along z, for CPU drivers: the k loop
// is a plain counted loop over contiguous floats that the compiler vectorises, with no barriers
// and no per-cell index math. A row updates its own PML cells too (upml_lanes.h's recursions,
// auxiliaries indexed through the row's box; a face cell's components across its slab without
// theirs: upml_row_step), so a z slab is not a separate launch of
// rows only a few cells long: rows in an x or y slab are PML from end to end, the others have a
// PML segment at each z end. The range covers rows [ri0, ri1) x [rj0, rj1): the whole grid
// (0, 0, nx, ny) or a region of a step split by rows (engine/plan.hpp RowSplit).
#include "fdtd_common.h"
#include "upml_lanes.h"

#define HCOEF_PARAMS GLOBAL const uchar *id_hx, GLOBAL const uchar *id_hy, \
                     GLOBAL const uchar *id_hz, CONSTANT_PTR float4 *hcoef, float db_vacuum,
#define HCOEF_ARGS id_hx, id_hy, id_hz, hcoef, db_vacuum,

/* One H cell of a row; ex_zp, ey_zp are the +z neighbours, the *_xp/_yp rows are masked by mx/my
   (0 past the wall). */
DEVICE_FN void h_row_cell(GLOBAL float* RESTRICT hx, GLOBAL float* RESTRICT hy,
                          GLOBAL float* RESTRICT hz, GLOBAL const float* RESTRICT ex,
                          GLOBAL const float* RESTRICT ey, GLOBAL const float* RESTRICT ez,
                          GLOBAL const float* RESTRICT ey_xp, GLOBAL const float* RESTRICT ez_xp,
                          GLOBAL const float* RESTRICT ex_yp, GLOBAL const float* RESTRICT ez_yp,
                          float mx, float my, float ex_zp, float ey_zp, long row, int k,
                          HCOEF_PARAMS float inv_dx, float inv_dy, float inv_dz) {
  const long c = row + k;
  const float e_x = ex[c], e_y = ey[c], e_z = ez[c];
  const float curl_x = (my * ez_yp[k] - e_z) * inv_dy - (ey_zp - e_y) * inv_dz;
  const float curl_y = (ex_zp - e_x) * inv_dz - (mx * ez_xp[k] - e_z) * inv_dx;
  const float curl_z = (mx * ey_xp[k] - e_y) * inv_dx - (my * ex_yp[k] - e_x) * inv_dy;
#if MAGNETIC
  CONSTANT_PTR float* t = (CONSTANT_PTR float*)hcoef;  // scalar gathers (see e_row_cell)
  const float db_x = t[4 * id_hx[c]], db_y = t[4 * id_hy[c]], db_z = t[4 * id_hz[c]];
#else
  const float db_x = db_vacuum, db_y = db_vacuum, db_z = db_vacuum;
#endif
  hx[c] -= db_x * curl_x;
  hy[c] -= db_y * curl_y;
  hz[c] -= db_z * curl_z;
}

/* One E cell of a row; hx_zm, hy_zm are the -z neighbours. */
DEVICE_FN void e_row_cell(GLOBAL float* RESTRICT ex, GLOBAL float* RESTRICT ey,
                          GLOBAL float* RESTRICT ez, GLOBAL const float* RESTRICT hx,
                          GLOBAL const float* RESTRICT hy, GLOBAL const float* RESTRICT hz,
                          GLOBAL const float* RESTRICT hy_xm, GLOBAL const float* RESTRICT hz_xm,
                          GLOBAL const float* RESTRICT hx_ym, GLOBAL const float* RESTRICT hz_ym,
                          float mx, float my, float hx_zm, float hy_zm, long row, int k,
                          GLOBAL const uchar* RESTRICT id_ex, GLOBAL const uchar* RESTRICT id_ey,
                          GLOBAL const uchar* RESTRICT id_ez, CONSTANT_PTR float4* RESTRICT ecoef,
                          float inv_dx, float inv_dy, float inv_dz) {
  const long c = row + k;
  const float h_x = hx[c], h_y = hy[c], h_z = hz[c];
  const float curl_x = (h_z - my * hz_ym[k]) * inv_dy - (h_y - hy_zm) * inv_dz;
  const float curl_y = (h_x - hx_zm) * inv_dz - (h_z - mx * hz_xm[k]) * inv_dx;
  const float curl_z = (h_y - mx * hy_xm[k]) * inv_dx - (h_x - my * hx_ym[k]) * inv_dy;
  // Scalar gathers from the table, not float4 loads: a loop with a vector-typed load per cell
  // does not vectorise on CPU compilers ("instruction return type cannot be vectorized").
  CONSTANT_PTR float* t = (CONSTANT_PTR float*)ecoef;
  const int ix = 4 * id_ex[c], iy = 4 * id_ey[c], iz = 4 * id_ez[c];
  ex[c] = t[ix] * ex[c] + t[ix + 1] * curl_x;
  ey[c] = t[iy] * ey[c] + t[iy + 1] * curl_y;
  ez[c] = t[iz] * ez[c] + t[iz + 1] * curl_z;
}

/* The z profile (a, b, cp, cm) at cell k from the rows variant's split table: 8 arrays of nz floats,
   a b cp cm at integer positions, then at half positions. Contiguous along k, unlike the float4
   table, so the k loop loads whole vectors instead of gathering. */
DEVICE_FN float4 z_profile(GLOBAL const float* RESTRICT zs, int nz, int half_pos, int k) {
  GLOBAL const float* t = zs + 4 * half_pos * nz + k;
  return MAKE_FLOAT4(t[0], t[nz], t[2 * nz], t[3 * nz]);
}

/* One component of a PML cell: upml_step, or where `face` (a face cell, the component across its
   slab: upml_lanes.h upml_face_update) F = (a_v a_w) F + r (b_v b_w) s C with no auxiliary. */
DEVICE_FN void upml_row_step(GLOBAL float* RESTRICT field, GLOBAL float* RESTRICT aux, long c,
                             int p, float curl, float4 pv, float4 pw, float4 pu, float scale,
                             float inv_r, int face) {
  if (face)
    field[c] = (pv.x * pw.x) * field[c] + inv_r * (pv.y * pw.y) * (scale * curl);
  else
    upml_step(field, aux, c, p, curl, pv, pw, pu, scale, inv_r);
}

/* Which components of a PML segment's cells take the face form (bit u for component u): a cell
   inside the layers of one axis only reduces the two across it (x slab: y z; y slab: x z; z slab:
   x y), an edge or a corner none. A row is in the x slab, the y slab, both or neither; its
   segments are [0, zlo), [zlo, nz - zhi) and [nz - zhi, nz), the middle one PML only in a slab
   row. */
DEVICE_FN int row_face_mask(int in_x, int in_y, int middle) {
  if (!in_x && !in_y) return 3;
  if (!middle || (in_x && in_y)) return 0;
  return in_x ? 6 : 5;
}

/* One UPML H cell of a row (upml_lanes.h's H recursion with the row's uniform profile values and
   neighbour rows hoisted out of the k loop, and no conditional loads, so the loop vectorises;
   `face`: row_face_mask, uniform over the loop). */
DEVICE_FN void h_row_pml_cell(GLOBAL float* RESTRICT hx, GLOBAL float* RESTRICT hy,
                              GLOBAL float* RESTRICT hz, GLOBAL const float* RESTRICT ex,
                              GLOBAL const float* RESTRICT ey, GLOBAL const float* RESTRICT ez,
                              GLOBAL const float* RESTRICT ey_xp, GLOBAL const float* RESTRICT ez_xp,
                              GLOBAL const float* RESTRICT ex_yp, GLOBAL const float* RESTRICT ez_yp,
                              float mx, float my, float ex_zp, float ey_zp, long row, int k, int p,
                              GLOBAL float* RESTRICT bx, GLOBAL float* RESTRICT by,
                              GLOBAL float* RESTRICT bz, float4 hy_j, float4 hx_i, float4 ix_i,
                              float4 iy_j, GLOBAL const float* RESTRICT zs, int nz, float r_x,
                              float r_y, float r_z, int face,
                              float dt_mu0, float inv_dx, float inv_dy, float inv_dz) {
  const long c = row + k;
  const float e_x = ex[c], e_y = ey[c], e_z = ez[c];
  const float curl_x = (my * ez_yp[k] - e_z) * inv_dy - (ey_zp - e_y) * inv_dz;
  const float curl_y = (ex_zp - e_x) * inv_dz - (mx * ez_xp[k] - e_z) * inv_dx;
  const float curl_z = (mx * ey_xp[k] - e_y) * inv_dx - (my * ex_yp[k] - e_x) * inv_dy;
  const float4 hz_k = z_profile(zs, nz, 1, k), iz_k = z_profile(zs, nz, 0, k);
  // H_u is integer along u, half-integer along v and w (upml_lanes.h).
  upml_row_step(hx, bx, c, p, curl_x, hy_j, hz_k, ix_i, -dt_mu0, r_x, face & 1);
  upml_row_step(hy, by, c, p, curl_y, hz_k, hx_i, iy_j, -dt_mu0, r_y, face & 2);
  upml_row_step(hz, bz, c, p, curl_z, hx_i, hy_j, iz_k, -dt_mu0, r_z, face & 4);
}

/* One UPML E cell of a row (see h_row_pml_cell). */
DEVICE_FN void e_row_pml_cell(GLOBAL float* RESTRICT ex, GLOBAL float* RESTRICT ey,
                              GLOBAL float* RESTRICT ez, GLOBAL const float* RESTRICT hx,
                              GLOBAL const float* RESTRICT hy, GLOBAL const float* RESTRICT hz,
                              GLOBAL const float* RESTRICT hy_xm, GLOBAL const float* RESTRICT hz_xm,
                              GLOBAL const float* RESTRICT hx_ym, GLOBAL const float* RESTRICT hz_ym,
                              float mx, float my, float hx_zm, float hy_zm, long row, int k, int p,
                              GLOBAL float* RESTRICT dx_aux, GLOBAL float* RESTRICT dy_aux,
                              GLOBAL float* RESTRICT dz_aux, float4 iy_j, float4 ix_i, float4 hx_i,
                              float4 hy_j, GLOBAL const float* RESTRICT zs, int nz,
                              GLOBAL const uchar* RESTRICT id_ex, GLOBAL const uchar* RESTRICT id_ey,
                              GLOBAL const uchar* RESTRICT id_ez, CONSTANT_PTR float4* RESTRICT ecoef,
                              int face, float dt_eps0, float inv_dx, float inv_dy, float inv_dz) {
  const long c = row + k;
  const float h_x = hx[c], h_y = hy[c], h_z = hz[c];
  const float curl_x = (h_z - my * hz_ym[k]) * inv_dy - (h_y - hy_zm) * inv_dz;
  const float curl_y = (h_x - hx_zm) * inv_dz - (h_z - mx * hz_xm[k]) * inv_dx;
  const float curl_z = (h_y - mx * hy_xm[k]) * inv_dx - (h_x - my * hx_ym[k]) * inv_dy;
  CONSTANT_PTR float* t = (CONSTANT_PTR float*)ecoef;  // scalar gathers (see e_row_cell)
  const float r_x = t[4 * id_ex[c] + 2], r_y = t[4 * id_ey[c] + 2], r_z = t[4 * id_ez[c] + 2];
  const float4 iz_k = z_profile(zs, nz, 0, k), hz_k = z_profile(zs, nz, 1, k);
  // E_u is half-integer along u, integer along v and w (upml_lanes.h).
  upml_row_step(ex, dx_aux, c, p, curl_x, iy_j, iz_k, hx_i, dt_eps0, r_x, face & 1);
  upml_row_step(ey, dy_aux, c, p, curl_y, iz_k, ix_i, hy_j, dt_eps0, r_y, face & 2);
  upml_row_step(ez, dz_aux, c, p, curl_z, ix_i, iy_j, hz_k, dt_eps0, r_z, face & 4);
}

/* 1/mu_r of the H components of cell c (scalar gathers, see e_row_cell). */
#if MAGNETIC
#define H_PML_RATIOS                                                                              \
  CONSTANT_PTR float* t = (CONSTANT_PTR float*)hcoef;                                             \
  const float r_x = t[4 * id_hx[c] + 1], r_y = t[4 * id_hy[c] + 1], r_z = t[4 * id_hz[c] + 1];
#else
#define H_PML_RATIOS const float r_x = 1.0f, r_y = 1.0f, r_z = 1.0f;
#endif

KERNEL void update_h_rows(GLOBAL float* RESTRICT hx, GLOBAL float* RESTRICT hy,
                          GLOBAL float* RESTRICT hz, GLOBAL const float* RESTRICT ex,
                          GLOBAL const float* RESTRICT ey, GLOBAL const float* RESTRICT ez,
                          GLOBAL const uchar* RESTRICT id_hx, GLOBAL const uchar* RESTRICT id_hy,
                          GLOBAL const uchar* RESTRICT id_hz, CONSTANT_PTR float4* RESTRICT hcoef,
                          float db_vacuum,
                          float inv_dx, float inv_dy, float inv_dz, int nx, int ny, int nz,
                          int nzp, int pml_xlo, int pml_xhi, int pml_ylo, int pml_yhi,
                          int pml_zlo, int pml_zhi, GLOBAL float* RESTRICT bx,
                          GLOBAL float* RESTRICT by, GLOBAL float* RESTRICT bz,
                          CONSTANT_PTR int* RESTRICT boxes, int nboxes,
                          GLOBAL const float4* RESTRICT int_x, GLOBAL const float4* RESTRICT int_y,
                          GLOBAL const float4* RESTRICT int_z, GLOBAL const float4* RESTRICT half_x,
                          GLOBAL const float4* RESTRICT half_y,
                          GLOBAL const float4* RESTRICT half_z, float dt_mu0,
                          GLOBAL const float* RESTRICT zs, int ri0, int rj0, int ri1, int rj1) {
  const int j = GLOBAL_ID(0) + rj0, i = GLOBAL_ID(1) + ri0;
  if (i >= ri1 || j >= rj1) return;
  const long row = cell_index(i, j, 0, ny, nzp);
  // Past the high end lies the PEC wall: the row itself stands in, masked to zero.
  const int has_xp = i + 1 < nx, has_yp = j + 1 < ny;
  GLOBAL const float* ey_xp = ey + row + (has_xp ? ny * nzp : 0);
  GLOBAL const float* ez_xp = ez + row + (has_xp ? ny * nzp : 0);
  GLOBAL const float* ex_yp = ex + row + (has_yp ? nzp : 0);
  GLOBAL const float* ez_yp = ez + row + (has_yp ? nzp : 0);
  const float mx = has_xp ? 1.0f : 0.0f, my = has_yp ? 1.0f : 0.0f;
  // PML cells: a whole row in an x/y slab, else the z ends; within one box the auxiliaries of a
  // row are consecutive along z. The last cell's +z neighbour is the PEC wall: that cell is
  // peeled off every loop so the loops read c + 1 only inside the row and stay vectorisable.
  const int in_x = in_layers(i, nx, pml_xlo, pml_xhi), in_y = in_layers(j, ny, pml_ylo, pml_yhi);
  const int slab_row = in_x || in_y;
  const int zlo = slab_row ? nz : pml_zlo, zhi = slab_row ? nz : nz - pml_zhi;
  if (zlo > 0 || zhi < nz) {
    const float4 hy_j = half_y[j], hx_i = half_x[i], ix_i = int_x[i], iy_j = int_y[j];
    for (int seg = 0; seg < 3; ++seg) {
      const int ka = seg == 0 ? 0 : seg == 1 ? pml_zlo : nz - pml_zhi;
      const int kb = seg == 0 ? pml_zlo : seg == 1 ? nz - pml_zhi : nz;
      if (ka >= kb || (seg == 1 && !slab_row)) continue;
      const int face = row_face_mask(in_x, in_y, seg == 1);
      const int p0 = pml_aux_index(boxes, nboxes, i, j, ka) - ka;
      const int kend = min(kb, nz - 1);
      // One loop per face mask, the mask a constant in each, so that its branches fold away and
      // the loop still vectorises (a mask read at run time inside it halved PoCL's speed).
#define H_PML_LOOP(FACE)                                                                          \
  for (int k = ka; k < kend; ++k) {                                                               \
    const long c = row + k;                                                                       \
    H_PML_RATIOS                                                                                  \
    h_row_pml_cell(hx, hy, hz, ex, ey, ez, ey_xp, ez_xp, ex_yp, ez_yp, mx, my, ex[c + 1],         \
                   ey[c + 1], row, k, p0 + k, bx, by, bz, hy_j, hx_i, ix_i, iy_j, zs, nz, r_x,    \
                   r_y, r_z, FACE, dt_mu0, inv_dx, inv_dy, inv_dz);                               \
  }
      switch (face) {
        case 0: H_PML_LOOP(0) break;
        case 3: H_PML_LOOP(3) break;
        case 5: H_PML_LOOP(5) break;
        default: H_PML_LOOP(6) break;
      }
#undef H_PML_LOOP
      if (kb == nz) {
        const long c = row + nz - 1;
        H_PML_RATIOS
        h_row_pml_cell(hx, hy, hz, ex, ey, ez, ey_xp, ez_xp, ex_yp, ez_yp, mx, my, 0.0f, 0.0f, row,
                       nz - 1, p0 + nz - 1, bx, by, bz, hy_j, hx_i, ix_i, iy_j, zs, nz, r_x,
                       r_y, r_z, face, dt_mu0, inv_dx, inv_dy, inv_dz);
      }
    }
  }
  if (slab_row) return;
  const int kend = min(zhi, nz - 1);
  for (int k = zlo; k < kend; ++k) {
    h_row_cell(hx, hy, hz, ex, ey, ez, ey_xp, ez_xp, ex_yp, ez_yp, mx, my, ex[row + k + 1],
               ey[row + k + 1], row, k, HCOEF_ARGS inv_dx, inv_dy, inv_dz);
  }
  if (zhi == nz && kend >= zlo) {
    h_row_cell(hx, hy, hz, ex, ey, ez, ey_xp, ez_xp, ex_yp, ez_yp, mx, my, 0.0f, 0.0f, row, kend,
               HCOEF_ARGS inv_dx, inv_dy, inv_dz);
  }
}

KERNEL void update_e_rows(GLOBAL float* RESTRICT ex, GLOBAL float* RESTRICT ey,
                          GLOBAL float* RESTRICT ez, GLOBAL const float* RESTRICT hx,
                          GLOBAL const float* RESTRICT hy, GLOBAL const float* RESTRICT hz,
                          GLOBAL const uchar* RESTRICT id_ex, GLOBAL const uchar* RESTRICT id_ey,
                          GLOBAL const uchar* RESTRICT id_ez, CONSTANT_PTR float4* RESTRICT ecoef,
                          float inv_dx, float inv_dy, float inv_dz, int nx, int ny, int nz,
                          int nzp, int pml_xlo, int pml_xhi, int pml_ylo, int pml_yhi,
                          int pml_zlo, int pml_zhi, GLOBAL float* RESTRICT dx_aux,
                          GLOBAL float* RESTRICT dy_aux, GLOBAL float* RESTRICT dz_aux,
                          CONSTANT_PTR int* RESTRICT boxes, int nboxes,
                          GLOBAL const float4* RESTRICT int_x, GLOBAL const float4* RESTRICT int_y,
                          GLOBAL const float4* RESTRICT int_z, GLOBAL const float4* RESTRICT half_x,
                          GLOBAL const float4* RESTRICT half_y,
                          GLOBAL const float4* RESTRICT half_z, float dt_eps0,
                          GLOBAL const float* RESTRICT zs, int ri0, int rj0, int ri1, int rj1) {
  const int j = GLOBAL_ID(0) + rj0, i = GLOBAL_ID(1) + ri0;
  if (i >= ri1 || j >= rj1) return;
  const long row = cell_index(i, j, 0, ny, nzp);
  // Before index 0 lies the PEC wall: the row itself stands in, masked to zero.
  const int has_xm = i > 0, has_ym = j > 0;
  GLOBAL const float* hy_xm = hy + row - (has_xm ? ny * nzp : 0);
  GLOBAL const float* hz_xm = hz + row - (has_xm ? ny * nzp : 0);
  GLOBAL const float* hx_ym = hx + row - (has_ym ? nzp : 0);
  GLOBAL const float* hz_ym = hz + row - (has_ym ? nzp : 0);
  const float mx = has_xm ? 1.0f : 0.0f, my = has_ym ? 1.0f : 0.0f;
  // The first cell's -z neighbour is the PEC wall: that cell is peeled off (see update_h_rows).
  const int in_x = in_layers(i, nx, pml_xlo, pml_xhi), in_y = in_layers(j, ny, pml_ylo, pml_yhi);
  const int slab_row = in_x || in_y;
  const int zlo = slab_row ? nz : pml_zlo, zhi = slab_row ? nz : nz - pml_zhi;
  if (zlo > 0 || zhi < nz) {
    const float4 iy_j = int_y[j], ix_i = int_x[i], hx_i = half_x[i], hy_j = half_y[j];
    for (int seg = 0; seg < 3; ++seg) {
      int ka = seg == 0 ? 0 : seg == 1 ? pml_zlo : nz - pml_zhi;
      const int kb = seg == 0 ? pml_zlo : seg == 1 ? nz - pml_zhi : nz;
      if (ka >= kb || (seg == 1 && !slab_row)) continue;
      const int face = row_face_mask(in_x, in_y, seg == 1);
      const int p0 = pml_aux_index(boxes, nboxes, i, j, ka) - ka;
      if (ka == 0) {
        e_row_pml_cell(ex, ey, ez, hx, hy, hz, hy_xm, hz_xm, hx_ym, hz_ym, mx, my, 0.0f, 0.0f, row,
                       0, p0, dx_aux, dy_aux, dz_aux, iy_j, ix_i, hx_i, hy_j, zs, nz, id_ex,
                       id_ey, id_ez, ecoef, face, dt_eps0, inv_dx, inv_dy, inv_dz);
        ka = 1;
      }
      // One loop per face mask (see update_h_rows).
#define E_PML_LOOP(FACE)                                                                          \
  for (int k = ka; k < kb; ++k) {                                                                 \
    e_row_pml_cell(ex, ey, ez, hx, hy, hz, hy_xm, hz_xm, hx_ym, hz_ym, mx, my, hx[row + k - 1],   \
                   hy[row + k - 1], row, k, p0 + k, dx_aux, dy_aux, dz_aux, iy_j, ix_i, hx_i,     \
                   hy_j, zs, nz, id_ex, id_ey, id_ez, ecoef, FACE, dt_eps0, inv_dx, inv_dy,       \
                   inv_dz);                                                                       \
  }
      switch (face) {
        case 0: E_PML_LOOP(0) break;
        case 3: E_PML_LOOP(3) break;
        case 5: E_PML_LOOP(5) break;
        default: E_PML_LOOP(6) break;
      }
#undef E_PML_LOOP
    }
  }
  if (slab_row) return;
  int k0 = zlo;
  if (k0 == 0 && zhi > 0) {
    e_row_cell(ex, ey, ez, hx, hy, hz, hy_xm, hz_xm, hx_ym, hz_ym, mx, my, 0.0f, 0.0f, row, 0,
               id_ex, id_ey, id_ez, ecoef, inv_dx, inv_dy, inv_dz);
    k0 = 1;
  }
  for (int k = k0; k < zhi; ++k) {
    e_row_cell(ex, ey, ez, hx, hy, hz, hy_xm, hz_xm, hx_ym, hz_ym, mx, my, hx[row + k - 1],
               hy[row + k - 1], row, k, id_ex, id_ey, id_ez, ecoef, inv_dx, inv_dy, inv_dz);
  }
}
