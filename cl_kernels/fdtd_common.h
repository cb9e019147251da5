// Helpers shared by every kernel: index math (the device mirror of host/model/field_layout.hpp;
// tests/backends/test_opencl_layout.cpp checks that both agree), float4 lane shifts, the UPML
// cell test and coefficient gathers. Patent step 4: fields are float4 lanes of 4 consecutive z
// cells, float4 index ((i*ny + j)*nz4 + kq), so cell k sits in lane k % 4 of float4 k / 4.
#ifndef CLFDTD_FDTD_COMMON_H
#define CLFDTD_FDTD_COMMON_H
#include "compat.h"

/* Scalar index of cell (i, j, k) in a padded component array, nzp = 4 * nz4, 64-bit: a 3D grid
   may hold more than 2^31 cells per component (SimulationModel::build allows up to 2^31 float4
   lanes, 2^33 cells); kernels that address scalars use this or the table entries below. */
DEVICE_FN long cell_index(int i, int j, int k, int ny, int nzp) {
  return ((long)i * ny + j) * nzp + k;
}

/* The (component, cell) entries of the source and probe tables (host: device_tables.hpp
   cell_entry): code = component + 8 * (cell % 4), lane = cell / 4, so two ints reach every cell
   of a grid of up to 2^31 float4 lanes per component. */
DEVICE_FN int entry_component(int code) { return code & 7; }
DEVICE_FN long entry_cell(int code, int lane) { return ((long)lane << 2) + (code >> 3); }

/* Index of the float4 holding cells 4*kq .. 4*kq+3 of row (i, j); 32-bit: at most 2^31 lanes. */
DEVICE_FN int lane_index(int i, int j, int kq, int ny, int nz4) {
  return (i * ny + j) * nz4 + kq;
}

DEVICE_FN float4 zero4(void) { return MAKE_FLOAT4(0.0f, 0.0f, 0.0f, 0.0f); }

/* Per lane, the value one cell further along +z: lanes 0..2 take their right neighbour inside v,
   lane 3 takes lane 0 of the following float4 (zero past the domain end). */
DEVICE_FN float4 shift_up(float4 v, float4 next) {
  return MAKE_FLOAT4(v.y, v.z, v.w, next.x);
}

/* Per lane, the value one cell back along -z: lane 0 takes lane 3 of the previous float4 (zero
   before k = 0), lanes 1..3 their left neighbour inside v. */
DEVICE_FN float4 shift_down(float4 prev, float4 v) {
  return MAKE_FLOAT4(prev.w, v.x, v.y, v.z);
}

/* EQUATIONS.md: cell (i, j, k) is a PML cell when it lies in any of the six slabs. The plain
   kernels use the row test and the lane test below separately; in_layers is one axis' test
   (position p of n with lo and hi layers). */
DEVICE_FN int in_layers(int p, int n, int lo, int hi) { return p < lo || p >= n - hi; }
DEVICE_FN int pml_row(int i, int j, int nx, int ny, int xlo, int xhi, int ylo, int yhi) {
  return in_layers(i, nx, xlo, xhi) || in_layers(j, ny, ylo, yhi);
}
DEVICE_FN int pml_z(int k, int nz, int zlo, int zhi) { return in_layers(k, nz, zlo, zhi); }
DEVICE_FN int in_pml(int i, int j, int k, int nx, int ny, int nz, int xlo, int xhi, int ylo,
                     int yhi, int zlo, int zhi) {
  return pml_row(i, j, nx, ny, xlo, xhi, ylo, yhi) || pml_z(k, nz, zlo, zhi);
}

/* One signature per kernel, magnetic or not: every kernel that updates H takes the H material
   ids (id_hx, id_hy, id_hz), the H table (hcoef) and db_vacuum; MAGNETIC selects in the body
   which of them it reads, and the host passes a small placeholder buffer for the ids and table
   of a non-magnetic model (energy.cl: the ids and mu_r alike).

   Coefficient tables hold one float4 per material id:
     E: (ca, cb, inv_eps_r, 0)     H: (db, inv_mu_r, 0, 0)
   COEF4 gathers one field of the table for the four lanes' ids. */
#define COEF4(table, id, field)                                                   \
  MAKE_FLOAT4((table)[(id).x].field, (table)[(id).y].field, (table)[(id).z].field, \
              (table)[(id).w].field)

/* The coefficients of a float4's four lanes when they share one material, as almost every float4
   away from material boundaries does: one table load instead of one per lane (NVIDIA serves
   __constant loads of different addresses in a warp one after another, so the per-lane gather
   made update_e the slower tile kernel). E: (ca, cb) per lane; H: db per lane. */
/* id_e4 (onepass and tblock): per float4, the one id its twelve E samples (three components, four
   lanes) share, or IDS_MIXED where they differ; the three id arrays are read only there.
   (backends/device_tables.hpp e_id_float4_table; a model whose shared id is 255 reads them all.)
   id_h4: the same for the twelve H samples, read by a MAGNETIC program only. */
#define IDS_MIXED 255

DEVICE_FN int same_id4(uchar4 m) { return m.x == m.y && m.x == m.z && m.x == m.w; }

DEVICE_FN void e_coef4(CONSTANT_PTR float4* RESTRICT table, uchar4 m, float4* ca, float4* cb) {
  if (same_id4(m)) {
    const float4 t = table[m.x];
    *ca = MAKE_FLOAT4(t.x, t.x, t.x, t.x);
    *cb = MAKE_FLOAT4(t.y, t.y, t.y, t.y);
  } else {
    *ca = COEF4(table, m, x);
    *cb = COEF4(table, m, y);
  }
}

/* E_new = ca E + cb curl for the three components of a float4 (onepass, tblock): one table entry
   where the float4's twelve samples share id u, the per-component ids m_* where u is IDS_MIXED. */
DEVICE_FN void e_update3(CONSTANT_PTR float4* RESTRICT table, int u, uchar4 m_ex, uchar4 m_ey,
                         uchar4 m_ez, float4 curl_x, float4 curl_y, float4 curl_z, float4* e_x,
                         float4* e_y, float4* e_z) {
  if (u != IDS_MIXED) {
    const float4 t = table[u];
    *e_x = t.x * *e_x + t.y * curl_x;
    *e_y = t.x * *e_y + t.y * curl_y;
    *e_z = t.x * *e_z + t.y * curl_z;
  } else {
    float4 ca, cb;
    e_coef4(table, m_ex, &ca, &cb);
    *e_x = ca * *e_x + cb * curl_x;
    e_coef4(table, m_ey, &ca, &cb);
    *e_y = ca * *e_y + cb * curl_y;
    e_coef4(table, m_ez, &ca, &cb);
    *e_z = ca * *e_z + cb * curl_z;
  }
}

DEVICE_FN float4 h_coef4(CONSTANT_PTR float4* RESTRICT table, uchar4 m) {
  if (same_id4(m)) {
    const float db = table[m.x].x;
    return MAKE_FLOAT4(db, db, db, db);
  }
  return COEF4(table, m, x);
}

/* Component comp (0..5 = Ex Ey Ez Hx Hy Hz) at scalar index c: what probes and monitors sample. */
DEVICE_FN float component_at(GLOBAL const float* ex, GLOBAL const float* ey, GLOBAL const float* ez,
                             GLOBAL const float* hx, GLOBAL const float* hy, GLOBAL const float* hz,
                             int comp, long c) {
  switch (comp) {
    case 0: return ex[c];
    case 1: return ey[c];
    case 2: return ez[c];
    case 3: return hx[c];
    case 4: return hy[c];
    default: return hz[c];
  }
}

/* All four lanes finite (no NaN, no infinity). */
DEVICE_FN int finite4(float4 v) {
  return IS_FINITE(v.x) && IS_FINITE(v.y) && IS_FINITE(v.z) && IS_FINITE(v.w);
}

#endif /* CLFDTD_FDTD_COMMON_H */
