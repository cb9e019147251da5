// Kernel variant "tblock": two time steps per pass over the fields (temporal blocking),
// double-buffered like onepass: it reads the set at step s and writes the set at s + 2, so no
// group ever sees a neighbour's new values and the groups need no ordering.
//
// Why: onepass moves 51 B per cell and step; this pass moves the same 51 B per cell for two steps
// (read E 12 + H 12 + E ids 3, write E 12 + H 12; + 3 B of H ids when MAGNETIC), 25.5 B per cell
// step, plus the halo columns of each tile that are read again by the neighbouring groups
// (mostly L2 hits: (TILE_Y * TILE_Z4) / (own_y * own_z4) times the reads, 1.59 for 12 x 34).
//
// Layout of the work (overlapped tiling): a group of TILE_Z4 x TILE_Y work-items (float4 kq, row
// j) owns the inner (TILE_Z4 - 2) x (TILE_Y - 4) float4 columns and marches along x over `planes`
// planes (global dimension 2 = chunk of planes). Its columns reach 1 float4 past the owned ones
// along z on both sides (a float4 holds 4 cells, the halo needs 2) and 2 rows along y on both
// sides: H at s + 1/2 and E at s + 1 are computed on the whole extended tile, H at s + 3/2 and E
// at s + 2 from them, and only the owned columns are stored. A halo column's value is wrong where
// it needed a neighbour outside the tile, and each sub-step moves that error one cell inwards:
// two cells per step pair, which the halo absorbs (E at s + 2 of an owned cell needs H at s + 3/2
// at -y, which needs E at s + 1 at +y, which needs H at s + 1/2 at -y ...: rows j0 - 2 .. j1 + 1).
//
// Along x the pass is a pipeline: at plane t it computes H1 (s + 1/2) and E1 (s + 1) at plane t,
// then H2 (s + 3/2) and E2 (s + 2) at plane t - 1, holding the planes before in registers
// (H1[t-1], E1[t-1], H2[t-2]). A chunk starts 2 planes early, whose results are not stored.
// Neighbours are exchanged through local memory: E then H, each twice per plane (4 barriers).
//
// Sources: J is added to E1 (step s) in every column of the extended tile, halo included, and to
// E2 (step s + 1) in the owned columns, as add_sources does after an E update. The host lists the
// merged sources by row (i, j) (src_rows[i * ny + j] .. src_rows[i * ny + j + 1] index src_order),
// so a column looks at the few sources of its own row only.
//
// The pass stores the box of planes [bi0, bi1), rows [bj0, bj1), float4s [bq0, bq1): the whole
// grid without UPML; with UPML, the plain cells at least 2 cells away from the PML (the
// engine's shell stage steps the rest, engine/plan.hpp TBlockPass), so PML cells in a tile's
// halo, updated here with the plain formula, never reach a stored cell. Fields past the grid are
// zero, as in the other kernels: work-items outside the grid hold zeros at every sub-step.
#include "fdtd_common.h"

#define TB_OWN_Y (TILE_Y - 4)
#define TB_OWN_Z4 (TILE_Z4 - 2)

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

/* CUDA: two groups per SM where a group has at most 256 threads, so the compiler keeps to 128
   registers (it takes 158 otherwise, and a group of 256 then runs alone on its SM): H200,
   pec_cube N = 512, 32x12x14 (16 x 16 threads) 82.3 -> 91.2 Gcells/s, 32x8x14 (192) unchanged at
   67.6; three groups (113 registers) spill: 34.6 and 12.2 (docs/BENCHMARKS.md). */
#if defined(__CUDACC__) && TILE_X * TILE_Y * TILE_Z4 <= 256
#define TBLOCK_ATTR __launch_bounds__(TILE_X * TILE_Y * TILE_Z4, 2)
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
    GLOBAL const uchar4* RESTRICT id_ez, CONSTANT_PTR float4* RESTRICT ecoef,
    GLOBAL const uchar4* RESTRICT id_hx, GLOBAL const uchar4* RESTRICT id_hy,
    GLOBAL const uchar4* RESTRICT id_hz, CONSTANT_PTR float4* RESTRICT hcoef, float db_vacuum,
    float inv_dx, float inv_dy, float inv_dz, int nx, int ny, int nz4, int planes, int bi0,
    int bi1, int bj0, int bj1, int bq0, int bq1,
    GLOBAL const int* RESTRICT src_cells, GLOBAL const float* RESTRICT j_table,
    GLOBAL const int* RESTRICT src_rows, GLOBAL const int* RESTRICT src_order, int nsrc,
    int src_steps, int s) {
  LOCAL float4 s_ex[TILE_Y][TILE_Z4];
  LOCAL float4 s_ey[TILE_Y][TILE_Z4];
  LOCAL float4 s_ez[TILE_Y][TILE_Z4];
  LOCAL float4 s_hx[TILE_Y][TILE_Z4];
  LOCAL float4 s_hy[TILE_Y][TILE_Z4];
  LOCAL float4 s_hz[TILE_Y][TILE_Z4];

  const int lz = LOCAL_ID(0), ly = LOCAL_ID(1);
  const int kq = bq0 + GROUP_ID(0) * TB_OWN_Z4 + lz - 1;
  const int j = bj0 + GROUP_ID(1) * TB_OWN_Y + ly - 2;
  const int i0 = bi0 + GROUP_ID(2) * planes;
  const int i1 = i0 + planes < bi1 ? i0 + planes : bi1;
  const int inside = kq >= 0 && kq < nz4 && j >= 0 && j < ny;
  const int owned = inside && lz >= 1 && lz <= TB_OWN_Z4 && ly >= 2 && ly < 2 + TB_OWN_Y &&
                    kq < bq1 && j < bj1;
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
  float4 e1p_x = zero4(), e1p_y = zero4(), e1p_z = zero4();
  float4 h2p_y = zero4(), h2p_z = zero4();
  uchar4 mp_ex = MAKE_UCHAR4(0, 0, 0, 0), mp_ey = mp_ex, mp_ez = mp_ex;
#if MAGNETIC
  uchar4 mp_hx = mp_ex, mp_hy = mp_ex, mp_hz = mp_ex;
#endif

  for (; t <= i1; ++t, c += sx) {
    const int pin = inside && t < nx;      // plane t lies in the grid
    const int pprev = inside && t >= 1;    // plane t - 1 does (t - 1 < i1 <= nx)
    float4 e0n_x = zero4(), e0n_y = zero4(), e0n_z = zero4();
    float4 h_x = zero4(), h_y = zero4(), h_z = zero4();
    uchar4 m_ex = MAKE_UCHAR4(0, 0, 0, 0), m_ey = m_ex, m_ez = m_ex;
#if MAGNETIC
    uchar4 m_hx = m_ex, m_hy = m_ex, m_hz = m_ex;
#endif
    if (pin) {
      if (t + 1 < nx) {
        e0n_x = ex[c + sx];
        e0n_y = ey[c + sx];
        e0n_z = ez[c + sx];
      }
      h_x = hx[c];
      h_y = hy[c];
      h_z = hz[c];
      m_ex = id_ex[c];
      m_ey = id_ey[c];
      m_ez = id_ez[c];
#if MAGNETIC
      m_hx = id_hx[c];
      m_hy = id_hy[c];
      m_hz = id_hz[c];
#endif
    }

    // H1 at plane t: forward differences of E at step s.
    s_ex[ly][lz] = e0_x;
    s_ey[ly][lz] = e0_y;
    s_ez[ly][lz] = e0_z;
    LOCAL_BARRIER();
    if (pin) {
      const float4 ex_yp = s_ex[lyp][lz], ez_yp = s_ez[lyp][lz];
      const float4 ex_zn = s_ex[ly][lzp], ey_zn = s_ey[ly][lzp];
      const float4 curl_x = (ez_yp - e0_z) * inv_dy - (shift_up(e0_y, ey_zn) - e0_y) * inv_dz;
      const float4 curl_y = (shift_up(e0_x, ex_zn) - e0_x) * inv_dz - (e0n_z - e0_z) * inv_dx;
      const float4 curl_z = (e0n_y - e0_y) * inv_dx - (ex_yp - e0_x) * inv_dy;
#if MAGNETIC
      h_x = h_x - h_coef4(hcoef, m_hx) * curl_x;
      h_y = h_y - h_coef4(hcoef, m_hy) * curl_y;
      h_z = h_z - h_coef4(hcoef, m_hz) * curl_z;
#else
      h_x = h_x - db_vacuum * curl_x;
      h_y = h_y - db_vacuum * curl_y;
      h_z = h_z - db_vacuum * curl_z;
#endif
    }
    s_hx[ly][lz] = h_x;
    s_hy[ly][lz] = h_y;
    s_hz[ly][lz] = h_z;
    LOCAL_BARRIER();

    // E1 at plane t: backward differences of H1, then the sources of step s.
    float4 e1_x = zero4(), e1_y = zero4(), e1_z = zero4();
    if (pin) {
      const float4 hx_ym = s_hx[lym][lz], hz_ym = s_hz[lym][lz];
      const float4 hx_zm = MAKE_FLOAT4(s_hx[ly][lzm].w, h_x.x, h_x.y, h_x.z);
      const float4 hy_zm = MAKE_FLOAT4(s_hy[ly][lzm].w, h_y.x, h_y.y, h_y.z);
      const float4 curl_x = (h_z - hz_ym) * inv_dy - (h_y - hy_zm) * inv_dz;
      const float4 curl_y = (h_x - hx_zm) * inv_dz - (h_z - h1p_z) * inv_dx;
      const float4 curl_z = (h_y - h1p_y) * inv_dx - (h_x - hx_ym) * inv_dy;
      float4 ca, cb;
      e_coef4(ecoef, m_ex, &ca, &cb);
      e1_x = ca * e0_x + cb * curl_x;
      e_coef4(ecoef, m_ey, &ca, &cb);
      e1_y = ca * e0_y + cb * curl_y;
      e_coef4(ecoef, m_ez, &ca, &cb);
      e1_z = ca * e0_z + cb * curl_z;
      if (src1) {
        tb_e3 e = {e1_x, e1_y, e1_z};
        e = tb_add_sources(e, m_ex, m_ey, m_ez, ecoef, src_cells, j_table, src_rows, src_order,
                           t * ny + j, kq, nz4, src_steps, s);
        e1_x = e.x;
        e1_y = e.y;
        e1_z = e.z;
      }
    }

    // H2 at plane t - 1: forward differences of E1 (its +x neighbour is this plane's E1).
    s_ex[ly][lz] = e1p_x;
    s_ey[ly][lz] = e1p_y;
    s_ez[ly][lz] = e1p_z;
    LOCAL_BARRIER();
    float4 h2_x = zero4(), h2_y = zero4(), h2_z = zero4();
    if (pprev) {
      const float4 ex_yp = s_ex[lyp][lz], ez_yp = s_ez[lyp][lz];
      const float4 ex_zn = s_ex[ly][lzp], ey_zn = s_ey[ly][lzp];
      const float4 curl_x = (ez_yp - e1p_z) * inv_dy - (shift_up(e1p_y, ey_zn) - e1p_y) * inv_dz;
      const float4 curl_y = (shift_up(e1p_x, ex_zn) - e1p_x) * inv_dz - (e1_z - e1p_z) * inv_dx;
      const float4 curl_z = (e1_y - e1p_y) * inv_dx - (ex_yp - e1p_x) * inv_dy;
#if MAGNETIC
      h2_x = h1p_x - h_coef4(hcoef, mp_hx) * curl_x;
      h2_y = h1p_y - h_coef4(hcoef, mp_hy) * curl_y;
      h2_z = h1p_z - h_coef4(hcoef, mp_hz) * curl_z;
#else
      h2_x = h1p_x - db_vacuum * curl_x;
      h2_y = h1p_y - db_vacuum * curl_y;
      h2_z = h1p_z - db_vacuum * curl_z;
#endif
    }
    s_hx[ly][lz] = h2_x;
    s_hy[ly][lz] = h2_y;
    s_hz[ly][lz] = h2_z;
    LOCAL_BARRIER();

    // E2 at plane t - 1, stored with H2 in the owned columns of the chunk's planes.
    if (pprev && owned && t - 1 >= i0) {
      const float4 hx_ym = s_hx[lym][lz], hz_ym = s_hz[lym][lz];
      const float4 hx_zm = MAKE_FLOAT4(s_hx[ly][lzm].w, h2_x.x, h2_x.y, h2_x.z);
      const float4 hy_zm = MAKE_FLOAT4(s_hy[ly][lzm].w, h2_y.x, h2_y.y, h2_y.z);
      const float4 curl_x = (h2_z - hz_ym) * inv_dy - (h2_y - hy_zm) * inv_dz;
      const float4 curl_y = (h2_x - hx_zm) * inv_dz - (h2_z - h2p_z) * inv_dx;
      const float4 curl_z = (h2_y - h2p_y) * inv_dx - (h2_x - hx_ym) * inv_dy;
      float4 ca, cb;
      e_coef4(ecoef, mp_ex, &ca, &cb);
      float4 e2_x = ca * e1p_x + cb * curl_x;
      e_coef4(ecoef, mp_ey, &ca, &cb);
      float4 e2_y = ca * e1p_y + cb * curl_y;
      e_coef4(ecoef, mp_ez, &ca, &cb);
      float4 e2_z = ca * e1p_z + cb * curl_z;
      if (src2) {
        tb_e3 e = {e2_x, e2_y, e2_z};
        e = tb_add_sources(e, mp_ex, mp_ey, mp_ez, ecoef, src_cells, j_table, src_rows, src_order,
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
    e1p_x = e1_x;
    e1p_y = e1_y;
    e1p_z = e1_z;
    mp_ex = m_ex;
    mp_ey = m_ey;
    mp_ez = m_ez;
#if MAGNETIC
    mp_hx = m_hx;
    mp_hy = m_hy;
    mp_hz = m_hz;
#endif
    e0_x = e0n_x;
    e0_y = e0n_y;
    e0_z = e0n_z;
  }
}
