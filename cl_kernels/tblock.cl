// Kernel variant "tblock": two time steps per pass over the fields (temporal blocking),
// double-buffered like onepass: it reads the set at step s and writes the set at s + 2, so no
// group ever sees a neighbour's new values and the groups need no ordering.
//
// Why: onepass moves ~48 B per cell and step; this pass moves the same per cell for two steps
// (read E 12 + H 12 + the E ids per float4 0.25, and the three E ids 3 where those differ, write
// E 12 + H 12; MAGNETIC: the H ids the same way), ~24 B per cell step, plus the halo columns of
// each tile that are read again by the neighbouring groups
// (mostly L2 hits: (TILE_Y * TILE_Z4) / (own_y * own_z4) times the reads, 1.59 for 12 x 34).
//
// Layout of the work (overlapped tiling): a group of TILE_Z4 x TILE_Y work-items (float4 kq, row
// j) owns the inner (TILE_Z4 - 2) x TB_OWN_Y float4 columns and marches along x over `planes`
// planes (global dimension 2 = chunk of planes). Its columns reach 1 float4 past the owned ones
// along z on both sides (a float4 holds 4 cells, the halo needs 2; the z boxes' shell program
// below: on the interior side only where a box fits one tile) and along y 2 rows before them and
// 1 after (the shell's programs: 2; TB_Y_AFTER): H at s + 1/2 and E at s + 1 are computed on the
// whole extended tile, H at s + 3/2 and E at s + 2 from them, and only the owned columns are
// stored. A halo column's value is wrong where it needed a neighbour outside the tile, and each
// sub-step moves that error one cell inwards: two cells per step pair, which the halo absorbs (E
// at s + 2 of an owned cell needs H at s + 3/2 at -y, which needs E at s + 1 at +y, which needs H
// at s + 1/2 at -y ...: rows j0 - 2 .. j1 + 1; H at s + 1/2 of row j1 + 1 needs E at step s of row
// j1 + 2, which the pass's last row reads from memory).
//
// Along x the pass is a pipeline: at plane t it computes H1 (s + 1/2) and E1 (s + 1) at plane t,
// then H2 (s + 3/2) and E2 (s + 2) at plane t - 1, holding the planes before in registers
// (H1[t-1], H2[t-2]; E1[t-1] below). A chunk starts 2 planes early, whose results are not stored.
// Neighbours are exchanged through local memory in one of two forms (TB_E1_LOCAL, set by the host
// from device.tblock_staging; the z boxes' shell: engine/variant_choice.hpp tblock_shell_e1_local):
// 0 (registers) keeps E1[t-1] in registers and exchanges E and H twice per plane through 6 float4
// arrays, 4 barriers; 1 (local) stores E1 when computed into the slot of its plane's parity and the
// neighbours read it one plane later, when its H2 is due, and H2 has arrays of its own: 3 barriers,
// 12 float4 arrays (48 KiB at 256 work-items).
//
// Sources: J is added to E1 (step s) in every column of the extended tile, halo included, and to
// E2 (step s + 1) in the owned columns, as add_sources does after an E update. The host lists the
// merged sources by row (i, j) (src_rows[i * ny + j] .. src_rows[i * ny + j + 1] index src_order),
// so a column looks at the few sources of its own row only, and only in the planes src_i0 ..
// src_i1 that hold sources: the two index loads of every plane were a wait of their own in E1
// (Nsight Compute: 8% of the pass's stall samples, docs/BENCHMARKS.md).
//
// The pass stores one box, compiled in as TB_BOX_I0 .. TB_BOX_Q1 (with the box in arguments CUDA
// ran the pass 11% slower at the same registers and loads): the whole grid without UPML; with
// UPML, the plain cells at least 2 cells away from the PML, so PML cells in a tile's halo, updated
// here with the plain formula, never reach a stored cell. The rest, the shell, is stored by the
// same kernel compiled with TBLOCK_UPML (below), walking a list of boxes (engine/plan.hpp
// TBlockPass): its columns take the UPML form where it applies, so a PML cell's halo copies are
// right too. Both read the fields at s only and store disjoint cells. Fields past the grid are
// zero, as in the other kernels: work-items outside the grid hold zeros at every sub-step (and a
// one-sided z tile reads zero across the grid's z end: kzp, kzm).
#include "fdtd_common.h"
#include "upml_xy4.cl"
#include "upml_zslab.cl"

#ifndef TBLOCK_UPML
#define TBLOCK_UPML 0
#endif
// Every program holds this kernel; only the tblock variant's pass program sets its box.
#ifndef TB_BOX_I0
#define TB_BOX_I0 0
#define TB_BOX_I1 0
#define TB_BOX_J0 0
#define TB_BOX_J1 0
#define TB_BOX_Q0 0
#define TB_BOX_Q1 0
#endif

#ifndef TB_E1_LOCAL
#define TB_E1_LOCAL 0
#endif
#define TB_E_SLOTS (TB_E1_LOCAL ? 2 : 1)
// The halo rows after the owned ones (before them: 2): 1 in the pass (engine/variant_choice.hpp
// tblock_y_after), 2 in the shell's programs, whose ~250 registers the extra loads would raise.
#ifndef TB_Y_AFTER
#define TB_Y_AFTER 2
#endif
#define TB_OWN_Y (TILE_Y - 2 - TB_Y_AFTER)
#define TB_OWN_Z4 (TILE_Z4 - 2)  // a two-sided tile's; a one-sided one owns TILE_Z4 - 1

#if TBLOCK_UPML
/* The shell pass (TBLOCK_UPML = 1 or 2; engine/plan_tblock.cpp): every column takes the form the
   tile and onepass variants' kernels give its float4, so the fields and auxiliaries it stores
   are theirs: plain (0), a float4 of an x/y-slab row (upml_xy4.cl XY4_FACE_X, XY4_FACE_Y,
   XY4_FULL; auxiliary index r * nz4 + kq) or a z-slab float4 of an interior row (TB_ZSLAB;
   auxiliary (ii * nyi + jj) * znq + slot, upml_zslab.cl). Its auxiliaries are read from the
   `_in` buffers at step s and written, for the stored columns, to the `_out` ones at s + 2 (a
   tile's halo reads its neighbours' auxiliaries at s while they store theirs: two buffers).
   TBLOCK_UPML = 2 knows the z-slab float4s only, for the boxes beside the z slabs, whose tiles
   reach no x/y-slab row (the owned box's 2-cell margin lies between): fewer registers. */
#define TB_ZSLAB 4
DEVICE_FN int tb_cell_kind(int i, int j, int kq, int nx, int ny, int nz4, int xlo, int xhi,
                           int ylo, int yhi, int zq_lo, int zq_hi, int znq, int* q) {
#if TBLOCK_UPML == 1
  const int in_x = in_layers(i, nx, xlo, xhi), in_y = in_layers(j, ny, ylo, yhi);
  if (in_x || in_y) {
    int r;  /* the inverse of upml_lanes.h xy_pml_cell */
    if (i < xlo) r = i * ny + j;
    else if (i >= nx - xhi) r = (xlo + i - (nx - xhi)) * ny + j;
    else r = (xlo + xhi) * ny + (i - xlo) * (ylo + yhi) + (j < ylo ? j : ylo + j - (ny - yhi));
    *q = r * nz4 + kq;
    return xy4_kind(in_x, in_y, kq, zq_lo, zq_hi);
  }
#endif
  if (kq < zq_lo || kq >= zq_hi) {
    *q = ((i - xlo) * (ny - ylo - yhi) + (j - ylo)) * znq + zslab_slot(kq, zq_lo, zq_hi);
    return TB_ZSLAB;
  }
  *q = 0;
  return 0;
}

/* The auxiliaries of a column of kind `kind` (not plain) at q: read with the plane's fields (where
   H1 and E1 use them each load was a wait of its own), and stored. */
DEVICE_FN void tb_aux_load(int kind, int q, GLOBAL const AUX4* ax, GLOBAL const AUX4* ay,
                           GLOBAL const AUX4* az, GLOBAL const AUX4* zaux, float4* a_x,
                           float4* a_y, float4* a_z) {
#if TBLOCK_UPML == 1
  if (kind != TB_ZSLAB) {
    xy4_aux_load(kind, ax, ay, az, q, a_x, a_y, a_z);
    return;
  }
#endif
  *a_x = zero4();
  *a_y = zero4();
  *a_z = aux_load(zaux, q);
}
DEVICE_FN void tb_aux_store(int kind, int q, GLOBAL AUX4* ax, GLOBAL AUX4* ay, GLOBAL AUX4* az,
                            GLOBAL AUX4* zaux, float4 a_x, float4 a_y, float4 a_z) {
  if (kind == TB_ZSLAB) aux_store(zaux, q, a_z);
#if TBLOCK_UPML == 1
  else xy4_aux_store(kind, ax, ay, az, q, a_x, a_y, a_z);
#endif
}

/* The UPML arguments of update_tblock, passed on whole to the column updates below. */
#define TB_UPML_ARGS int_x, int_y, half_x, half_y, zlanes, nz, pml_zlo, pml_zhi
#define TB_UPML_PARAMS                                                                       \
  GLOBAL const float4 *int_x, GLOBAL const float4 *int_y, GLOBAL const float4 *half_x,       \
      GLOBAL const float4 *half_y, GLOBAL const float4 *zlanes, int nz, int pml_zlo, int pml_zhi

/* H of a UPML column (i, j, kq) of kind `kind`: *h_* replaced by the new values, a0 -> *a1. */
DEVICE_FN void tb_upml_h(int kind, int i, int j, int kq, TB_UPML_PARAMS, float dt_mu0,
                         float4 c_x, float4 c_y, float4 c_z, uchar4 m_x, uchar4 m_y, uchar4 m_z,
                         CONSTANT_PTR float4* hcoef, float db_vacuum, float4 a0x, float4 a0y,
                         float4 a0z, float4* a1x, float4* a1y, float4* a1z, float4* h_x,
                         float4* h_y, float4* h_z) {
#if MAGNETIC
  const float4 r_x = COEF4(hcoef, m_x, y), r_y = COEF4(hcoef, m_y, y), r_z = COEF4(hcoef, m_z, y);
  const float4 db_x = COEF4(hcoef, m_x, x), db_y = COEF4(hcoef, m_y, x), db_z = COEF4(hcoef, m_z, x);
#else
  const float4 r_x = MAKE_FLOAT4(1.0f, 1.0f, 1.0f, 1.0f), r_y = r_x, r_z = r_x;
  const float4 db_x = splat4(db_vacuum), db_y = db_x, db_z = db_x;
#endif
  if (kind == TB_ZSLAB) {
    *a1x = zero4();
    *a1y = zero4();
    zslab_h_values(kq, nz, pml_zlo, pml_zhi, zlanes, dt_mu0, c_x, c_y, c_z, r_x, r_y, r_z, db_x,
                   db_y, db_z, a0z, a1z, h_x, h_y, h_z);
  } else {
#if TBLOCK_UPML == 1
    xy4_h_values(kind, i, j, kq, int_x, int_y, half_x, half_y, zlanes, dt_mu0, c_x, c_y, c_z, r_x,
                 r_y, r_z, a0x, a0y, a0z, a1x, a1y, a1z, h_x, h_y, h_z);
#endif
  }
}

/* E of a UPML column, as tb_upml_h. */
DEVICE_FN void tb_upml_e(int kind, int i, int j, int kq, TB_UPML_PARAMS, float dt_eps0,
                         float4 c_x, float4 c_y, float4 c_z, uchar4 m_x, uchar4 m_y, uchar4 m_z,
                         CONSTANT_PTR float4* ecoef, float4 a0x, float4 a0y, float4 a0z,
                         float4* a1x, float4* a1y, float4* a1z, float4* e_x, float4* e_y,
                         float4* e_z) {
  if (kind == TB_ZSLAB) {
    *a1x = zero4();
    *a1y = zero4();
    zslab_e_values(kq, nz, pml_zlo, pml_zhi, zlanes, dt_eps0, c_x, c_y, c_z, m_x, m_y, m_z, ecoef,
                   a0z, a1z, e_x, e_y, e_z);
  } else {
#if TBLOCK_UPML == 1
    xy4_e_values(kind, i, j, kq, int_x, int_y, half_x, half_y, zlanes, dt_eps0, c_x, c_y, c_z,
                 COEF4(ecoef, m_x, z), COEF4(ecoef, m_y, z), COEF4(ecoef, m_z, z), a0x, a0y, a0z,
                 a1x, a1y, a1z, e_x, e_y, e_z);
#endif
  }
}
#endif

/* E of one float4 column (three components), as the source helper returns it. */
typedef struct {
  float4 x, y, z;
} tb_e3;

/* e with -cb J[step] added to the lanes the sources of row `row` drive in float4 kq (as
   add_sources does); returned by value, so the column's E stays in registers. */
DEVICE_FN tb_e3 tb_add_sources(tb_e3 e, uchar4 m_ex, uchar4 m_ey, uchar4 m_ez,
                               CONSTANT_PTR float4* RESTRICT ecoef,
                               GLOBAL const int* RESTRICT src_cells,
                               GLOBAL const float* RESTRICT j_table,
                               GLOBAL const int* RESTRICT src_rows,
                               GLOBAL const int* RESTRICT src_order, int row, int kq, int nz4,
                               int steps, int step) {
  const int q1 = src_rows[row + 1];
  for (int q = src_rows[row]; q < q1; ++q) {
    const int n = src_order[q];
    const int code = src_cells[2 * n];
    if (src_cells[2 * n + 1] % nz4 != kq) continue;
    const int comp = entry_component(code), w = code >> 3;
    const uchar4 m = comp == 0 ? m_ex : comp == 1 ? m_ey : m_ez;
    const uchar id = w == 0 ? m.x : w == 1 ? m.y : w == 2 ? m.z : m.w;
    const float d = ecoef[id].y * j_table[(long)n * steps + step];
    const float4 lane = MAKE_FLOAT4(w == 0 ? d : 0.0f, w == 1 ? d : 0.0f, w == 2 ? d : 0.0f,
                                    w == 3 ? d : 0.0f);
    if (comp == 0) e.x = e.x - lane;
    else if (comp == 1) e.y = e.y - lane;
    else e.z = e.z - lane;
  }
  return e;
}

/* Groups per compute unit the host asks for (device/min_groups.hpp; engine/variant_choice.cpp
   says when): CUDA takes it here, NVIDIA's OpenCL in the program's PTX. */
#ifndef MIN_GROUPS_update_tblock
#define MIN_GROUPS_update_tblock 0
#endif
#if defined(__CUDACC__) && MIN_GROUPS_update_tblock > 0
#define TBLOCK_ATTR __launch_bounds__(TILE_X * TILE_Y * TILE_Z4, MIN_GROUPS_update_tblock)
#else
#define TBLOCK_ATTR TILE_ATTR
#endif
KERNEL TBLOCK_ATTR void update_tblock(
    GLOBAL const float4* RESTRICT ex, GLOBAL const float4* RESTRICT ey,
    GLOBAL const float4* RESTRICT ez, GLOBAL const float4* RESTRICT hx,
    GLOBAL const float4* RESTRICT hy, GLOBAL const float4* RESTRICT hz,
    GLOBAL float4* RESTRICT ex_out, GLOBAL float4* RESTRICT ey_out, GLOBAL float4* RESTRICT ez_out,
    GLOBAL float4* RESTRICT hx_out, GLOBAL float4* RESTRICT hy_out, GLOBAL float4* RESTRICT hz_out,
    GLOBAL const uchar4* RESTRICT id_ex, GLOBAL const uchar4* RESTRICT id_ey,
    GLOBAL const uchar4* RESTRICT id_ez, GLOBAL const uchar* RESTRICT id_e4,
    CONSTANT_PTR float4* RESTRICT ecoef,
    GLOBAL const uchar4* RESTRICT id_hx, GLOBAL const uchar4* RESTRICT id_hy,
    GLOBAL const uchar4* RESTRICT id_hz, GLOBAL const uchar* RESTRICT id_h4,
    CONSTANT_PTR float4* RESTRICT hcoef, float db_vacuum,
    float inv_dx, float inv_dy, float inv_dz, int nx, int ny, int nz4, int planes,
    GLOBAL const int* RESTRICT boxes, int nboxes,
    GLOBAL const AUX4* RESTRICT bx_in, GLOBAL const AUX4* RESTRICT by_in,
    GLOBAL const AUX4* RESTRICT bz_in, GLOBAL const AUX4* RESTRICT zb_in,
    GLOBAL const AUX4* RESTRICT dx_in, GLOBAL const AUX4* RESTRICT dy_in,
    GLOBAL const AUX4* RESTRICT dz_in, GLOBAL const AUX4* RESTRICT zd_in,
    GLOBAL AUX4* RESTRICT bx_out, GLOBAL AUX4* RESTRICT by_out, GLOBAL AUX4* RESTRICT bz_out,
    GLOBAL AUX4* RESTRICT zb_out, GLOBAL AUX4* RESTRICT dx_out, GLOBAL AUX4* RESTRICT dy_out,
    GLOBAL AUX4* RESTRICT dz_out, GLOBAL AUX4* RESTRICT zd_out,
    GLOBAL const float4* RESTRICT int_x, GLOBAL const float4* RESTRICT int_y,
    GLOBAL const float4* RESTRICT half_x, GLOBAL const float4* RESTRICT half_y,
    GLOBAL const float4* RESTRICT zlanes, float dt_mu0, float dt_eps0, int nz, int pml_xlo,
    int pml_xhi, int pml_ylo, int pml_yhi, int pml_zlo, int pml_zhi, int zq_lo, int zq_hi,
    int znq,
    GLOBAL const int* RESTRICT src_cells, GLOBAL const float* RESTRICT j_table,
    GLOBAL const int* RESTRICT src_rows, GLOBAL const int* RESTRICT src_order, int src_i0,
    int src_i1, int nsrc, int src_steps, int s) {
  // E: at step s of the current plane, then E1. Local form: two slots by plane parity (slot
  // t & 1 holds E at step s of plane t while H1 is computed, then E1 of plane t), and H2 apart
  // from H1. Registers form: one slot, E1 of plane t - 1 staged again for H2, H2 in H1's arrays.
  LOCAL float4 s_ex[TB_E_SLOTS][TILE_Y][TILE_Z4];
  LOCAL float4 s_ey[TB_E_SLOTS][TILE_Y][TILE_Z4];
  LOCAL float4 s_ez[TB_E_SLOTS][TILE_Y][TILE_Z4];
  LOCAL float4 s_hx[TILE_Y][TILE_Z4];
  LOCAL float4 s_hy[TILE_Y][TILE_Z4];
  LOCAL float4 s_hz[TILE_Y][TILE_Z4];
#if TB_E1_LOCAL
  LOCAL float4 s_h2x[TILE_Y][TILE_Z4];
  LOCAL float4 s_h2y[TILE_Y][TILE_Z4];
  LOCAL float4 s_h2z[TILE_Y][TILE_Z4];
#else
#define s_h2x s_hx
#define s_h2y s_hy
#define s_h2z s_hz
#endif

  const int lz = LOCAL_ID(0), ly = LOCAL_ID(1);
#if TBLOCK_UPML
  // The shell: the group's box (boxes[9 b ..]: planes i0 i1, rows j0 j1, float4s q0 q1 it stores;
  // its groups along z and y; its first group) and its place in it: z fastest, then y, then
  // chunks, numbered along dimension 0.
  int g = GROUP_ID(0), b = 0;
  while (b + 1 < nboxes && g >= boxes[9 * (b + 1) + 8]) ++b;
  GLOBAL const int* RESTRICT box = boxes + 9 * b;
  g -= box[8];
  const int gz = g % box[6], gr = g / box[6];
  const int gy = gr % box[7], gx = gr / box[7];
  const int i_end = box[1], j_end = box[3], q_end = box[5];
#if TBLOCK_UPML == 2
  // The z boxes' program: a box one tile wide (box[6] == 1, where the group is wide enough) has
  // its halo float4 on the interior side only, since a z box reaches the grid's z end, past which
  // fields are zero; wider boxes take tiles with a halo float4 on both sides, as elsewhere.
  const int one_tile = box[6] == 1;
  const int kq = !one_tile ? box[4] + gz * TB_OWN_Z4 + lz - 1
                 : box[4] == 0 ? lz
                               : box[5] - TILE_Z4 + lz;
#else
  const int kq = box[4] + gz * TB_OWN_Z4 + lz - 1;
#endif
  const int j = box[2] + gy * TB_OWN_Y + ly - 2;
  const int i0 = box[0] + gx * planes;
#else
  // The pass: one box, its tiles along dimensions 0 (z) and 1 (y), its chunks along 2 (a table
  // here cost CUDA 5% at 128 registers).
  const int i_end = TB_BOX_I1, j_end = TB_BOX_J1, q_end = TB_BOX_Q1;
  const int kq = TB_BOX_Q0 + GROUP_ID(0) * TB_OWN_Z4 + lz - 1;
  const int j = TB_BOX_J0 + GROUP_ID(1) * TB_OWN_Y + ly - 2;
  const int i0 = TB_BOX_I0 + GROUP_ID(2) * planes;
#endif
  const int i1 = i0 + planes < i_end ? i0 + planes : i_end;
  const int inside = kq >= 0 && kq < nz4 && j >= 0 && j < ny;
#if TBLOCK_UPML == 2
  const int owned = inside && (one_tile || (lz >= 1 && lz <= TB_OWN_Z4)) && kq >= box[4] &&
                    kq < q_end && ly >= 2 && ly < 2 + TB_OWN_Y && j < j_end;
  // A tile's z end without halo is the grid's: its neighbour there is zero, not the clamped one.
  // (At kq == 0 that neighbour only reaches Ex and Ey of the first cell, PEC wall cells whose
  // coefficients are zero (model/mesher.cpp), so kzm changes no stored value today; kzp does.)
  const float kzp = kq == nz4 - 1 ? 0.0f : 1.0f, kzm = kq == 0 ? 0.0f : 1.0f;
#define TB_ZP(v) ((v) * kzp)
#define TB_ZM(v) ((v) * kzm)
#else
#define TB_ZP(v) (v)
#define TB_ZM(v) (v)
  const int owned = inside && lz >= 1 && lz <= TB_OWN_Z4 && ly >= 2 && ly < 2 + TB_OWN_Y &&
                    kq < q_end && j < j_end;
#endif
  // Neighbours in local memory, clamped at the tile's edge: the edge columns' results are wrong
  // there, and the halo keeps them away from the owned columns (see above).
  const int lyp = ly + 1 < TILE_Y ? ly + 1 : ly, lym = ly > 0 ? ly - 1 : ly;
  const int lzp = lz + 1 < TILE_Z4 ? lz + 1 : lz, lzm = lz > 0 ? lz - 1 : lz;
  const int sx = ny * nz4;
  const int src1 = nsrc > 0 && s < src_steps, src2 = nsrc > 0 && s + 1 < src_steps;

  int t = i0 - 2 > 0 ? i0 - 2 : 0;
  int c = inside ? lane_index(t, j, kq, ny, nz4) : 0;
  float4 e0_x = zero4(), e0_y = zero4(), e0_z = zero4();  // E at step s, plane t
  if (inside) {
    e0_x = ex[c];
    e0_y = ey[c];
    e0_z = ez[c];
  }
  // Plane t - 1: H1 (s + 1/2), E1 (s + 1) and their ids; plane t - 2: H2 (s + 3/2), y and z.
  float4 h1p_x = zero4(), h1p_y = zero4(), h1p_z = zero4();
  float4 h2p_y = zero4(), h2p_z = zero4();
#if TB_E1_LOCAL
  {  // E1 of the plane before the first: zero
    const int p0 = (t - 1) & 1;
    s_ex[p0][ly][lz] = zero4();
    s_ey[p0][ly][lz] = zero4();
    s_ez[p0][ly][lz] = zero4();
  }
#else
  float4 e1p_x = zero4(), e1p_y = zero4(), e1p_z = zero4();
#endif
#if !MAGNETIC
  uchar4 mp_ex = MAKE_UCHAR4(0, 0, 0, 0), mp_ey = mp_ex, mp_ez = mp_ex;
#endif
  int up_e = IDS_MIXED;
#if MAGNETIC
  // Plane t - 1's ids, magnetic pass: re-read where the float4 is mixed rather than carried in
  // six uchar4, which pushed this pass past its register cap (spills; BENCHMARKS.md).
  int up_h = IDS_MIXED;
#define TB_IDS_AT(u, arr) ((u) != IDS_MIXED ? MAKE_UCHAR4((u), (u), (u), (u)) : (arr)[c - sx])
#define TB_PREV_E(arr, mp) TB_IDS_AT(up_e, arr)
#define TB_PREV_H(arr) TB_IDS_AT(up_h, arr)
#else
#define TB_PREV_E(arr, mp) (mp)
#endif
#if TBLOCK_UPML
  // Plane t - 1: its kind and auxiliary index, B at s + 1/2 and D at s + 1 (UPML columns).
  int kind_p = 0, q_p = 0;
  float4 b1p_x = zero4(), b1p_y = zero4(), b1p_z = zero4();
  float4 d1p_x = zero4(), d1p_y = zero4(), d1p_z = zero4();
#endif

  // The ids of a float4 from u_e (u_h): where mixed, the three id arrays. Where the check waits
  // least (TB_IDS_STAGE): the pass before the first barrier, a magnetic pass after it (each ran
  // 2-5% slower in the other's place), the shell programs at E1, their first use (0.1-0.5%
  // faster than at the top; docs/BENCHMARKS.md).
#if MAGNETIC
#define TB_IDS_STAGE 1
#elif TBLOCK_UPML
#define TB_IDS_STAGE 2
#else
#define TB_IDS_STAGE 0
#endif
#define TB_IDS_PICK(u, m_x, m_y, m_z, id_x, id_y, id_z) \
  if ((u) == IDS_MIXED) {                               \
    m_x = id_x[c];                                      \
    m_y = id_y[c];                                      \
    m_z = id_z[c];                                      \
  } else {                                              \
    m_x = MAKE_UCHAR4((u), (u), (u), (u));              \
    m_y = m_x;                                          \
    m_z = m_x;                                          \
  }
  for (; t <= i1; ++t, c += sx) {
    const int pin = inside && t < nx;      // plane t lies in the grid
    const int pprev = inside && t >= 1;    // plane t - 1 does (t - 1 < i1 <= nx)
    float4 e0n_x = zero4(), e0n_y = zero4(), e0n_z = zero4();
    float4 h_x = zero4(), h_y = zero4(), h_z = zero4();
    uchar4 m_ex = MAKE_UCHAR4(0, 0, 0, 0), m_ey = m_ex, m_ez = m_ex;
    int u_e = IDS_MIXED;
#if MAGNETIC
    uchar4 m_hx = m_ex, m_hy = m_ex, m_hz = m_ex;
    int u_h = IDS_MIXED;
#endif
#if TBLOCK_UPML
    int q1 = 0;
    const int kind1 = pin ? tb_cell_kind(t, j, kq, nx, ny, nz4, pml_xlo, pml_xhi, pml_ylo, pml_yhi,
                                         zq_lo, zq_hi, znq, &q1)
                          : 0;
    float4 b1_x = zero4(), b1_y = zero4(), b1_z = zero4();
    float4 d1_x = zero4(), d1_y = zero4(), d1_z = zero4();
    float4 b0_x = zero4(), b0_y = zero4(), b0_z = zero4();
    float4 d0_x = zero4(), d0_y = zero4(), d0_z = zero4();
    if (kind1 != 0) {
      tb_aux_load(kind1, q1, bx_in, by_in, bz_in, zb_in, &b0_x, &b0_y, &b0_z);
      tb_aux_load(kind1, q1, dx_in, dy_in, dz_in, zd_in, &d0_x, &d0_y, &d0_z);
    }
#endif
#if TB_Y_AFTER == 1
    // The last row's +y neighbour is no work-item of the tile: its E at step s from memory,
    // loaded with this plane's H (read where it is used instead, the pass ran slower through
    // OpenCL: docs/BENCHMARKS.md).
    float4 top_x = zero4(), top_z = zero4();
#define TB_E_YP(s_e, top) (ly + 1 < TILE_Y ? s_e[pc][ly + 1][lz] : (top))
#else
#define TB_E_YP(s_e, top) s_e[pc][lyp][lz]
#endif
    if (pin) {
#if TB_Y_AFTER == 1
      if (ly == TILE_Y - 1 && j + 1 < ny) {
        top_x = ex[c + nz4];
        top_z = ez[c + nz4];
      }
#endif
      if (t + 1 < nx) {
        e0n_x = ex[c + sx];
        e0n_y = ey[c + sx];
        e0n_z = ez[c + sx];
      }
      h_x = hx[c];
      h_y = hy[c];
      h_z = hz[c];
      // The three E ids only where the float4's twelve differ (id_e4, fdtd_common.h); the same
      // for the H ids (id_h4). Loaded in the plane, not a plane ahead as onepass does: that ran
      // 10-18% slower here (BENCHMARKS.md).
      u_e = id_e4[c];
#if MAGNETIC
      u_h = id_h4[c];
#endif
#if TB_IDS_STAGE == 0
      TB_IDS_PICK(u_e, m_ex, m_ey, m_ez, id_ex, id_ey, id_ez);
#endif
    }

    // The E slots of planes t and t - 1 (one slot, 0, in the registers form).
    const int pc = TB_E1_LOCAL ? t & 1 : 0, pp = TB_E1_LOCAL ? 1 - pc : 0;
    // H1 at plane t: forward differences of E at step s.
    s_ex[pc][ly][lz] = e0_x;
    s_ey[pc][ly][lz] = e0_y;
    s_ez[pc][ly][lz] = e0_z;
    LOCAL_BARRIER();
    if (pin) {
#if TB_IDS_STAGE == 1
      TB_IDS_PICK(u_e, m_ex, m_ey, m_ez, id_ex, id_ey, id_ez);
#endif
#if MAGNETIC
      TB_IDS_PICK(u_h, m_hx, m_hy, m_hz, id_hx, id_hy, id_hz);
#endif
      const float4 ex_yp = TB_E_YP(s_ex, top_x), ez_yp = TB_E_YP(s_ez, top_z);
      const float4 ex_zn = TB_ZP(s_ex[pc][ly][lzp]), ey_zn = TB_ZP(s_ey[pc][ly][lzp]);
      const float4 curl_x = (ez_yp - e0_z) * inv_dy - (shift_up(e0_y, ey_zn) - e0_y) * inv_dz;
      const float4 curl_y = (shift_up(e0_x, ex_zn) - e0_x) * inv_dz - (e0n_z - e0_z) * inv_dx;
      const float4 curl_z = (e0n_y - e0_y) * inv_dx - (ex_yp - e0_x) * inv_dy;
#if TBLOCK_UPML
      if (kind1 != 0) {
#if MAGNETIC
        tb_upml_h(kind1, t, j, kq, TB_UPML_ARGS, dt_mu0, curl_x, curl_y, curl_z, m_hx, m_hy, m_hz,
                  hcoef, db_vacuum, b0_x, b0_y, b0_z, &b1_x, &b1_y, &b1_z, &h_x, &h_y, &h_z);
#else  // the H ids are not read
        tb_upml_h(kind1, t, j, kq, TB_UPML_ARGS, dt_mu0, curl_x, curl_y, curl_z, m_ex, m_ex, m_ex,
                  hcoef, db_vacuum, b0_x, b0_y, b0_z, &b1_x, &b1_y, &b1_z, &h_x, &h_y, &h_z);
#endif
      } else
#endif
      {
#if MAGNETIC
      if (u_h != IDS_MIXED) {  // one table entry where the float4's H ids agree, as for E
        const float db = hcoef[u_h].x;
        h_x = h_x - db * curl_x;
        h_y = h_y - db * curl_y;
        h_z = h_z - db * curl_z;
      } else {
        h_x = h_x - h_coef4(hcoef, m_hx) * curl_x;
        h_y = h_y - h_coef4(hcoef, m_hy) * curl_y;
        h_z = h_z - h_coef4(hcoef, m_hz) * curl_z;
      }
#else
      h_x = h_x - db_vacuum * curl_x;
      h_y = h_y - db_vacuum * curl_y;
      h_z = h_z - db_vacuum * curl_z;
#endif
      }
    }
    s_hx[ly][lz] = h_x;
    s_hy[ly][lz] = h_y;
    s_hz[ly][lz] = h_z;
    LOCAL_BARRIER();

    // E1 at plane t: backward differences of H1, then the sources of step s.
    // E1 and E2 spell out e_update3 (fdtd_common.h): through the helper nvcc scheduled this pass
    // differently and CUDA ran it ~1% slower (docs/BENCHMARKS.md).
    float4 e1_x = zero4(), e1_y = zero4(), e1_z = zero4();
    if (pin) {
#if TB_IDS_STAGE == 2
      TB_IDS_PICK(u_e, m_ex, m_ey, m_ez, id_ex, id_ey, id_ez);
#endif
      const float4 hx_ym = s_hx[lym][lz], hz_ym = s_hz[lym][lz];
      const float4 hx_zm = MAKE_FLOAT4(TB_ZM(s_hx[ly][lzm].w), h_x.x, h_x.y, h_x.z);
      const float4 hy_zm = MAKE_FLOAT4(TB_ZM(s_hy[ly][lzm].w), h_y.x, h_y.y, h_y.z);
      const float4 curl_x = (h_z - hz_ym) * inv_dy - (h_y - hy_zm) * inv_dz;
      const float4 curl_y = (h_x - hx_zm) * inv_dz - (h_z - h1p_z) * inv_dx;
      const float4 curl_z = (h_y - h1p_y) * inv_dx - (h_x - hx_ym) * inv_dy;
#if TBLOCK_UPML
      if (kind1 != 0) {
        e1_x = e0_x;
        e1_y = e0_y;
        e1_z = e0_z;
        tb_upml_e(kind1, t, j, kq, TB_UPML_ARGS, dt_eps0, curl_x, curl_y, curl_z, m_ex, m_ey, m_ez,
                  ecoef, d0_x, d0_y, d0_z, &d1_x, &d1_y, &d1_z, &e1_x, &e1_y, &e1_z);
      } else
#endif
      if (u_e != IDS_MIXED) {
        const float4 k = ecoef[u_e];
        e1_x = k.x * e0_x + k.y * curl_x;
        e1_y = k.x * e0_y + k.y * curl_y;
        e1_z = k.x * e0_z + k.y * curl_z;
      } else {
        float4 ca, cb;
        e_coef4(ecoef, m_ex, &ca, &cb);
        e1_x = ca * e0_x + cb * curl_x;
        e_coef4(ecoef, m_ey, &ca, &cb);
        e1_y = ca * e0_y + cb * curl_y;
        e_coef4(ecoef, m_ez, &ca, &cb);
        e1_z = ca * e0_z + cb * curl_z;
      }
      if (src1 && t >= src_i0 && t <= src_i1) {
        tb_e3 e = {e1_x, e1_y, e1_z};
        e = tb_add_sources(e, m_ex, m_ey, m_ez, ecoef, src_cells, j_table, src_rows, src_order,
                           t * ny + j, kq, nz4, src_steps, s);
        e1_x = e.x;
        e1_y = e.y;
        e1_z = e.z;
      }
    }

    // H2 at plane t - 1: forward differences of E1 (its +x neighbour is this plane's E1).
#if TB_E1_LOCAL
    // The others were stored while plane t - 1 was the current one. E1 of plane t replaces E of
    // step s in its slot, which every work-item read before the last barrier.
    s_ex[pc][ly][lz] = e1_x;
    s_ey[pc][ly][lz] = e1_y;
    s_ez[pc][ly][lz] = e1_z;
    const float4 e1p_x = s_ex[pp][ly][lz], e1p_y = s_ey[pp][ly][lz], e1p_z = s_ez[pp][ly][lz];
#else
    s_ex[0][ly][lz] = e1p_x;
    s_ey[0][ly][lz] = e1p_y;
    s_ez[0][ly][lz] = e1p_z;
    LOCAL_BARRIER();
#endif
    float4 h2_x = zero4(), h2_y = zero4(), h2_z = zero4();
#if TBLOCK_UPML
    float4 b2_x = zero4(), b2_y = zero4(), b2_z = zero4();
#endif
    if (pprev) {
      const float4 ex_yp = s_ex[pp][lyp][lz], ez_yp = s_ez[pp][lyp][lz];
      const float4 ex_zn = TB_ZP(s_ex[pp][ly][lzp]), ey_zn = TB_ZP(s_ey[pp][ly][lzp]);
      const float4 curl_x = (ez_yp - e1p_z) * inv_dy - (shift_up(e1p_y, ey_zn) - e1p_y) * inv_dz;
      const float4 curl_y = (shift_up(e1p_x, ex_zn) - e1p_x) * inv_dz - (e1_z - e1p_z) * inv_dx;
      const float4 curl_z = (e1_y - e1p_y) * inv_dx - (ex_yp - e1p_x) * inv_dy;
#if TBLOCK_UPML
      if (kind_p != 0) {
        h2_x = h1p_x;
        h2_y = h1p_y;
        h2_z = h1p_z;
#if MAGNETIC
        tb_upml_h(kind_p, t - 1, j, kq, TB_UPML_ARGS, dt_mu0, curl_x, curl_y, curl_z,
                  TB_PREV_H(id_hx), TB_PREV_H(id_hy), TB_PREV_H(id_hz), hcoef, db_vacuum, b1p_x,
                  b1p_y, b1p_z, &b2_x, &b2_y, &b2_z, &h2_x, &h2_y, &h2_z);
#else
        tb_upml_h(kind_p, t - 1, j, kq, TB_UPML_ARGS, dt_mu0, curl_x, curl_y, curl_z, mp_ex, mp_ex,
                  mp_ex, hcoef, db_vacuum, b1p_x, b1p_y, b1p_z, &b2_x, &b2_y, &b2_z, &h2_x, &h2_y,
                  &h2_z);
#endif
      } else
#endif
      {
#if MAGNETIC
      if (up_h != IDS_MIXED) {
        const float db = hcoef[up_h].x;
        h2_x = h1p_x - db * curl_x;
        h2_y = h1p_y - db * curl_y;
        h2_z = h1p_z - db * curl_z;
      } else {
        h2_x = h1p_x - h_coef4(hcoef, id_hx[c - sx]) * curl_x;
        h2_y = h1p_y - h_coef4(hcoef, id_hy[c - sx]) * curl_y;
        h2_z = h1p_z - h_coef4(hcoef, id_hz[c - sx]) * curl_z;
      }
#else
      h2_x = h1p_x - db_vacuum * curl_x;
      h2_y = h1p_y - db_vacuum * curl_y;
      h2_z = h1p_z - db_vacuum * curl_z;
#endif
      }
    }
    s_h2x[ly][lz] = h2_x;
    s_h2y[ly][lz] = h2_y;
    s_h2z[ly][lz] = h2_z;
    LOCAL_BARRIER();

    // E2 at plane t - 1, stored with H2 in the owned columns of the chunk's planes.
    if (pprev && owned && t - 1 >= i0) {
      const float4 hx_ym = s_h2x[lym][lz], hz_ym = s_h2z[lym][lz];
      const float4 hx_zm = MAKE_FLOAT4(TB_ZM(s_h2x[ly][lzm].w), h2_x.x, h2_x.y, h2_x.z);
      const float4 hy_zm = MAKE_FLOAT4(TB_ZM(s_h2y[ly][lzm].w), h2_y.x, h2_y.y, h2_y.z);
      const float4 curl_x = (h2_z - hz_ym) * inv_dy - (h2_y - hy_zm) * inv_dz;
      const float4 curl_y = (h2_x - hx_zm) * inv_dz - (h2_z - h2p_z) * inv_dx;
      const float4 curl_z = (h2_y - h2p_y) * inv_dx - (h2_x - hx_ym) * inv_dy;
      float4 e2_x, e2_y, e2_z;
#if TBLOCK_UPML
      if (kind_p != 0) {
        float4 d2_x, d2_y, d2_z;
        e2_x = e1p_x;
        e2_y = e1p_y;
        e2_z = e1p_z;
        tb_upml_e(kind_p, t - 1, j, kq, TB_UPML_ARGS, dt_eps0, curl_x, curl_y, curl_z,
                  TB_PREV_E(id_ex, mp_ex), TB_PREV_E(id_ey, mp_ey), TB_PREV_E(id_ez, mp_ez), ecoef,
                  d1p_x, d1p_y, d1p_z, &d2_x, &d2_y, &d2_z, &e2_x, &e2_y, &e2_z);
        tb_aux_store(kind_p, q_p, bx_out, by_out, bz_out, zb_out, b2_x, b2_y, b2_z);
        tb_aux_store(kind_p, q_p, dx_out, dy_out, dz_out, zd_out, d2_x, d2_y, d2_z);
      } else
#endif
      if (up_e != IDS_MIXED) {
        const float4 k = ecoef[up_e];
        e2_x = k.x * e1p_x + k.y * curl_x;
        e2_y = k.x * e1p_y + k.y * curl_y;
        e2_z = k.x * e1p_z + k.y * curl_z;
      } else {
        float4 ca, cb;
        e_coef4(ecoef, TB_PREV_E(id_ex, mp_ex), &ca, &cb);
        e2_x = ca * e1p_x + cb * curl_x;
        e_coef4(ecoef, TB_PREV_E(id_ey, mp_ey), &ca, &cb);
        e2_y = ca * e1p_y + cb * curl_y;
        e_coef4(ecoef, TB_PREV_E(id_ez, mp_ez), &ca, &cb);
        e2_z = ca * e1p_z + cb * curl_z;
      }
      if (src2 && t - 1 >= src_i0 && t - 1 <= src_i1) {
        tb_e3 e = {e2_x, e2_y, e2_z};
        e = tb_add_sources(e, TB_PREV_E(id_ex, mp_ex), TB_PREV_E(id_ey, mp_ey),
                           TB_PREV_E(id_ez, mp_ez), ecoef, src_cells, j_table, src_rows, src_order,
                           (t - 1) * ny + j, kq, nz4, src_steps, s + 1);
        e2_x = e.x;
        e2_y = e.y;
        e2_z = e.z;
      }
      const int cm = c - sx;
      hx_out[cm] = h2_x;
      hy_out[cm] = h2_y;
      hz_out[cm] = h2_z;
      ex_out[cm] = e2_x;
      ey_out[cm] = e2_y;
      ez_out[cm] = e2_z;
    }

    h2p_y = h2_y;
    h2p_z = h2_z;
    h1p_x = h_x;
    h1p_y = h_y;
    h1p_z = h_z;
#if !TB_E1_LOCAL
    e1p_x = e1_x;
    e1p_y = e1_y;
    e1p_z = e1_z;
#endif
    up_e = u_e;
#if MAGNETIC
    up_h = u_h;
#else
    mp_ex = m_ex;
    mp_ey = m_ey;
    mp_ez = m_ez;
#endif
#if TBLOCK_UPML
    kind_p = kind1;
    q_p = q1;
    b1p_x = b1_x;
    b1p_y = b1_y;
    b1p_z = b1_z;
    d1p_x = d1_x;
    d1p_y = d1_y;
    d1p_z = d1_z;
#endif
    e0_x = e0n_x;
    e0_y = e0n_y;
    e0_z = e0n_z;
  }
}
#undef s_h2x
#undef s_h2y
#undef s_h2z
#undef TB_PREV_E
#if MAGNETIC
#undef TB_PREV_H
#undef TB_IDS_AT
#endif
#undef TB_ZP
#undef TB_ZM
#undef TB_E_YP
#undef TB_IDS_PICK
#undef TB_IDS_STAGE
